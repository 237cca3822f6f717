"""Power colours for charts and the web page, without importing matplotlib.

The board's traditional colours, adjusted so that every line reads on a white background::

    AUSTRIA  red          #c62828        ITALY    green        #2e7d32
    ENGLAND  navy         #1a237e        RUSSIA   grey-purple  #8e7cc3  (the board's white is invisible)
    FRANCE   light blue   #42a5f5        TURKEY   dark yellow  #e0b000  (pure yellow is unreadable)
    GERMANY  dark grey    #424242

Powers of other maps get matplotlib's ``tab10`` colours in power order (written out here, so that the web
page needs no matplotlib; a test checks them against matplotlib's colour map).
"""

from __future__ import annotations

__all__ = ["POWER_COLOURS", "TAB10", "power_colour"]

POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#c62828",
    "ENGLAND": "#1a237e",
    "FRANCE": "#42a5f5",
    "GERMANY": "#424242",
    "ITALY": "#2e7d32",
    "RUSSIA": "#8e7cc3",
    "TURKEY": "#e0b000",
}

TAB10: tuple[str, ...] = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
"""matplotlib's ``tab10`` colour map as hex strings."""


def power_colour(power: str, order: int = 0) -> str:
    """The chart colour of a power: the traditional one, else ``tab10`` by its index on the map."""
    return POWER_COLOURS.get(power) or TAB10[order % len(TAB10)]
