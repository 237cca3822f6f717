"""The catalogue of measures: every name, its kind, and how it is labelled and displayed.

One table (:data:`MEASURE_INFO`) serves the library's charts, the CLI and the web page, so the three show
a measure with the same words and in the same unit.  Values are *stored* as computed (fractions for
shares: 0.216 = 21.6%); a measure whose display unit is ``%`` is shown multiplied by 100
(:attr:`MeasureInfo.scale`).  The game-progress family is shown in per cent; shares of a power
(``personal_progress`` = SCs / R, ``battle_tiedness`` = share of units) are shown as fractions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardeval.core import DiplomacyError, pick_name

__all__ = [
    "COHESION_NS",
    "MEASURES",
    "MEASURE_INFO",
    "MEASURE_KINDS",
    "MeasureInfo",
    "UnknownMeasureError",
    "validate_measures",
]

COHESION_NS = (1, 2, 3)
"""The n of ``incohesion_n`` / ``cohesion_n``."""


@dataclass(frozen=True)
class MeasureInfo:
    """How one measure is named, read and displayed.

    ``kind``: ``"position"`` (one value per phase, power None), ``"power"`` (per power), ``"table"``
    (ordered pair, "row ... column") or ``"pair"`` (unordered pair, the first power in the map's order).
    ``unit`` is the display unit (``"%"`` means the stored fraction is shown times 100; ``""`` a plain
    number); ``note`` a short reading aid.
    """

    name: str
    kind: str
    label: str
    unit: str = ""
    note: str = ""

    @property
    def scale(self) -> float:
        """Displayed value = stored value x scale (100 for a percentage, else 1)."""
        return 100.0 if self.unit == "%" else 1.0

    @property
    def caption(self) -> str:
        """The label with its reading aid and unit: ``'Game progress (sum of squared SCs / R², %)'``."""
        extra = ", ".join(part for part in (self.note, self.unit) if part)
        return f"{self.label} ({extra})" if extra else self.label


_CATALOGUE = (
    MeasureInfo("progress", "position", "Game progress", "%", "sum of squared SCs / R²"),
    MeasureInfo(
        "progress_as_written", "position", "Game progress, two-way-split scale", "%", "Σ SC² / (S²/2)"
    ),
    MeasureInfo(
        "progress_from_zero", "position", "Game progress counted from the start", "%", "0% at the start"
    ),
    MeasureInfo("personal_progress", "power", "Personal progress", "SCs / R"),
    MeasureInfo("fear_static", "table", "Static fear", note="row fears column"),
    MeasureInfo("fear_dynamic", "table", "Fear", note="row fears column"),
    MeasureInfo("fear_mutual", "pair", "Mutual fear"),
    MeasureInfo("fear_mutual_change", "pair", "Change in mutual fear"),
    MeasureInfo("tempi", "power", "Tempi", note="how advanced the units are"),
    MeasureInfo("tempi_change", "power", "Tempi change since the previous phase"),
    *(MeasureInfo(f"incohesion_{n}", "power", f"{n}-incohesion") for n in COHESION_NS),
    *(MeasureInfo(f"cohesion_{n}", "power", f"{n}-cohesion") for n in COHESION_NS),
    MeasureInfo("stab_potential", "table", "Stab potential", note="row can be stabbed by column"),
    MeasureInfo("battle_tiedness", "power", "Battle-tiedness", note="share of units touching an enemy"),
    MeasureInfo("neighbour_effect", "power", "Neighbour effect", note="+ = weak neighbours"),
)
MEASURE_INFO: dict[str, MeasureInfo] = {info.name: info for info in _CATALOGUE}
"""Every measure, in the order of the tidy table (see ``docs/diplomacy.md`` for the definitions)."""

MEASURES: tuple[str, ...] = tuple(MEASURE_INFO)
MEASURE_KINDS: dict[str, str] = {name: info.kind for name, info in MEASURE_INFO.items()}
"""measure name -> kind (a view of :data:`MEASURE_INFO`)."""


class UnknownMeasureError(DiplomacyError):
    """A measure name that is not one of :data:`MEASURES`."""


def validate_measures(names: Iterable[str] | None) -> tuple[str, ...]:
    """Check measure names, exactly as :data:`MEASURES` spells them (``TEMPI``, ``stab-potential``,
    `` tempi`` are refused, naming the spelling meant: issue 24); return them in order, each once."""
    if names is None:
        return MEASURES
    out: list[str] = []
    for raw in names:
        name = pick_name(raw, MEASURES, "measure", error=UnknownMeasureError)
        if name not in out:
            out.append(name)
    if not out:
        raise UnknownMeasureError(f"no measure given: choose from {', '.join(MEASURES)}")
    return tuple(out)
