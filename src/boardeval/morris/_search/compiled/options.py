"""The compiled search's settings and answer (no numba here): :class:`EngineOptions` (which techniques are
on), :data:`FULL_WIDTH` and :func:`full_width` (plain alpha-beta), :class:`EngineResult`, and
:func:`coefficients` (a weight set compiled to the evaluation's table).

Apart from :mod:`.engine` so that callers that only configure a search (players, the book builder, the
benchmarks) do not load numba to do it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

import numpy as np

from boardeval.core import ParamsError
from boardeval.morris._features import FEATURES as ENGINE_FEATURES
from boardeval.morris.rules import Turn

__all__ = ["FULL_WIDTH", "EngineOptions", "EngineResult", "coefficients", "full_width"]


@dataclass(frozen=True)
class EngineOptions:
    """Which search techniques are on (all on by default; the benchmark measures each one).

    ``tt``: "on" (cutoffs from entries at least as deep), "exact" (only exactly as deep, like ``Searcher``),
    "off". ``lmr_min_move`` / ``lmr_min_depth``: late-move reductions start at that move index and depth.
    ``qs_max``: plies of quiescence at most. ``tt_bits``: the table has 2**tt_bits slots (28 bytes each).
    """

    pvs: bool = True
    aspiration: bool = True
    tt: str = "on"
    killers: bool = True
    history: bool = True
    ordering: bool = True
    lmr: bool = True
    lmr_min_move: int = 3
    lmr_min_depth: int = 3
    quiescence: bool = True
    qs_max: int = 8
    mate_pruning: bool = True
    null_move: bool = True
    null_reduction: int = 3
    lmr_divisor: float = 1.5
    tt_bits: int = 20
    tb_probe: bool = True
    """With a tablebase (:meth:`Engine.set_tablebase`): its exact value at every covered node of the tree."""
    blockade_extension: int = 0
    """Extend a node (one turn) whose mover, in the moving phase, has at most this many slides (0: off)."""
    threads: int = 1
    """Search threads sharing the table (Lazy SMP): 1 = one thread, as before issue 25."""
    exact_placing: int = 3
    """With tables of every moving position (K <= 9: :meth:`Engine.set_tablebase` with ``full=True``), a
    placing node whose depth reaches the last placement searches every line to it: bit 1 no null move
    there, bit 2 no late-move reduction that would end a line before it (3: both; 0: off). Without such
    tables the values past placing are not exact and the option does nothing."""
    reuse_table: bool = True
    """Under the repetition rule, keep the table from the game's earlier searches when no position before
    the root can recur (the last turn was irreversible: every placement, every capture) and every search
    that wrote the table since it was last emptied started from such a root; False empties it (a new
    epoch) before every search, as before issue 25."""

    def __post_init__(self) -> None:
        if self.tt not in ("on", "exact", "off"):
            raise ParamsError(f"engine option tt must be 'on', 'exact' or 'off', got {self.tt!r}")
        if not (isinstance(self.lmr_divisor, (int, float)) and self.lmr_divisor > 0):
            raise ParamsError(
                f"engine option lmr_divisor must be a positive number, got {self.lmr_divisor!r}"
            )
        for name in ("lmr_min_move", "lmr_min_depth", "qs_max", "null_reduction", "blockade_extension"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ParamsError(f"engine option {name} must be an integer >= 0, got {value!r}")
        x = self.exact_placing
        if isinstance(x, bool) or not isinstance(x, int) or x not in (0, 1, 2, 3):
            raise ParamsError(f"engine option exact_placing must be 0, 1, 2 or 3, got {x!r}")
        if (
            isinstance(self.tt_bits, bool)
            or not isinstance(self.tt_bits, int)
            or not 10 <= self.tt_bits <= 26
        ):
            raise ParamsError(f"engine option tt_bits must be an integer in 10..26, got {self.tt_bits!r}")
        if isinstance(self.threads, bool) or not isinstance(self.threads, int) or not 1 <= self.threads <= 8:
            raise ParamsError(f"engine option threads must be an integer in 1..8, got {self.threads!r}")


_FULL_WIDTH_SETTINGS: Final[dict[str, Any]] = {
    "aspiration": False,
    "tt": "exact",
    "lmr": False,
    "quiescence": False,
    "mate_pruning": False,
    "null_move": False,
    "tb_probe": False,
    "blockade_extension": 0,
}
"""What full-width alpha-beta turns off (one list for :data:`FULL_WIDTH` and :func:`full_width`)."""

FULL_WIDTH: Final[EngineOptions] = EngineOptions(**_FULL_WIDTH_SETTINGS)
"""Full-width alpha-beta without reductions or quiescence: the same tree values as today's ``Searcher``."""


@dataclass(frozen=True, slots=True)
class EngineResult:
    """Best turn (None for a finished game), its score (side to move's view), the last fully searched depth,
    nodes (every node visited, quiescence included), the principal variation and the time taken."""

    move: Turn | None
    score: float
    depth: int
    nodes: int
    pv: tuple[Turn, ...]
    seconds: float
    stopped: bool = False
    qnodes: int = 0
    iterations: tuple[tuple[int, float, int, float], ...] = field(default=())
    interrupted: bool = False
    """True when Ctrl-C (not a limit) stopped the search; the result is then the last completed depth."""
    partial: bool = False
    """True when a limit stopped depth ``depth + 1`` after it had proved a later root turn better than the
    last depth's best (searched first): ``move``, ``score`` and ``pv`` are then that turn's, from the
    unfinished depth (the usual use of a partly searched iteration)."""
    tb_hits: int = 0
    """Tablebase values used inside the tree."""
    extensions: int = 0
    """Blockade extensions made."""
    helper_nodes: int = 0
    """Nodes searched by the helper threads (``threads > 1``; not in ``nodes``)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (turns in notation)."""
        return {
            "move": None if self.move is None else str(self.move),
            "score": self.score,
            "depth": self.depth,
            "nodes": self.nodes,
            "pv": [str(t) for t in self.pv],
            "seconds": self.seconds,
            "stopped": self.stopped,
        }


def coefficients(
    weights: Mapping[str, float],
    phase_scale: Mapping[str, Mapping[str, float]],
    norm: Mapping[str, Mapping[str, float]],
) -> np.ndarray:
    """The compiled evaluation's table ``coef[phase, feature] = weight * PHASE_SCALE / NORM``.

    Phases in the order placing, moving, flying; features in :data:`ENGINE_FEATURES` order. A missing
    feature or phase raises :class:`ParamsError` naming it.
    """
    coef = np.zeros((3, len(ENGINE_FEATURES)), dtype=np.float64)
    for i, ph in enumerate(("placing", "moving", "flying")):
        if ph not in phase_scale or ph not in norm:
            raise ParamsError(f"evaluation tables lack the phase {ph!r}")
        for j, f in enumerate(ENGINE_FEATURES):
            if f not in weights or f not in phase_scale[ph] or f not in norm[ph]:
                raise ParamsError(f"evaluation tables lack the feature {f!r} (phase {ph!r})")
            coef[i, j] = float(weights[f]) * float(phase_scale[ph][f]) / float(norm[ph][f])
    return coef


def full_width(options: EngineOptions | None = None) -> EngineOptions:
    """``options`` (default: all on) turned into full-width alpha-beta (see :data:`FULL_WIDTH`)."""
    base = options if options is not None else EngineOptions()
    return replace(base, **_FULL_WIDTH_SETTINGS)
