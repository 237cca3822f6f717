"""Power colours for charts, the map and the web page, without importing matplotlib.

A colour-blind-safe palette: Okabe & Ito's eight colours (Color Universal Design, 2008), one per power,
picked to stay close to the board's traditional colours::

    AUSTRIA  vermillion      #d55e00        ITALY    bluish green   #009e73
    ENGLAND  blue            #0072b2        RUSSIA   reddish purple #cc79a7
    FRANCE   violet          #4b0092        TURKEY   orange         #e69f00  (Okabe-Ito's yellow is
    GERMANY  black           #000000                                          unreadable on white)

France was Okabe-Ito's sky blue (#56b4e9) until issue 23: its map tint (#abdaf4) was nearly the sea's
#c5dfea (CIE76 ΔE 10).  The violet #4b0092 (from the colour-blind-safe palettes of Wong / Nichols) tints
to a lavender ΔE 51 from the sea, and lies further from every other power than the sky blue did, also
under simulated deuteranopia and protanopia (``tests/diplomacy/test_render.py`` checks the sea distance).

England (blue) and Germany (black) now differ in lightness, not only in hue (the old navy and
near-black looked alike).  Powers of other maps get matplotlib's ``tab10`` colours in power order
(written out here, so that the web page needs no matplotlib; a test checks them against matplotlib's
colour map).
"""

from __future__ import annotations

__all__ = ["POWER_COLOURS", "TAB10", "power_colour"]

POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#d55e00",
    "ENGLAND": "#0072b2",
    "FRANCE": "#4b0092",
    "GERMANY": "#000000",
    "ITALY": "#009e73",
    "RUSSIA": "#cc79a7",
    "TURKEY": "#e69f00",
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
