"""Explainable static evaluation of a Nine Men's Morris position (spec section 2).

``score = sum(weight[f] * PHASE_SCALE[phase][f] * (own[f] - opp[f]) / NORM[phase][f])`` from the side to
move's view, where ``phase`` is the phase of the side to move. :func:`evaluate` returns a
:class:`~boardeval.core.Breakdown` whose terms are the features (raw = own - opponent, weight =
BASE_WEIGHT, scale = PHASE_SCALE / NORM); the search uses the same numbers through the faster
:meth:`Evaluator.score`.

Normalisation (the seed's "Fehler 1": weight x phase without normalisation). Raw features live on very
different ranges (mobility up to 26, double threats up to 3), so a phase factor on a raw count would
silently re-weight them. Each feature difference is therefore divided by ``NORM[phase][f]``, the largest
value that feature can take for one side in a position of that phase, so that every normalised term lies
in [-1, 1] before the base weight and the phase factor apply. The maxima were computed by enumerating every
set of 3..9 men of one side on an otherwise empty board (2,578,829 sets; the opponent only removes empty
points, so it cannot raise them); ``blocked`` is bounded by the 9 men of the opponent. A phase uses the
threat rule of the sides that can occur in it: placing positions allow placements anywhere; in moving and
flying positions the sides move or fly (a flying side has 3 men, its opponent up to 9 moving men), so
those two phases share one table. Zero maxima (no double threat can be made by sliding or by a 3-man side)
are stored as 1 so an impossible value never divides by zero.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from boardeval.core import Breakdown, ParamsError, WeightSet, load_data_file
from boardeval.morris._features import FEATURES, PHASES, SideFeatures, features, position_phase
from boardeval.morris.rules import WHITE, Outcome, Position

__all__ = [
    "BASE_WEIGHTS",
    "CLUSTER",
    "MATE_BOUND",
    "NORM",
    "PHASE_SCALE",
    "PROFILES",
    "WIN_SCORE",
    "Evaluator",
    "default_evaluator",
    "evaluate",
    "load_weights",
    "make_weights",
    "terminal_score",
]

WIN_SCORE: Final[float] = 10_000.0
"""Score of a won position; the search returns ``WIN_SCORE - plies to the end`` so faster wins rank higher."""

MATE_BOUND: Final[float] = WIN_SCORE - 1_000.0
"""A score beyond ``+-MATE_BOUND`` is a won or lost game at a known distance (``WIN_SCORE - plies``), never
an evaluation (the search, the transposition table's distance shift and the why-panel's verdicts read it)."""

PHASE_SCALE: Final[dict[str, dict[str, float]]] = {
    #                material mills open  threats double fork  mobility blocked connectivity initiative
    #                future_mobility cramped junctions liberties
    "placing": dict(
        zip(FEATURES, (1.0, 0.8, 1.2, 1.5, 1.5, 1.5, 0.0, 0.0, 0.7, 1.5, 1.0, 1.0, 1.0, 0.0), strict=True)
    ),
    "moving": dict(
        zip(FEATURES, (1.0, 1.0, 0.8, 1.2, 1.2, 1.2, 1.3, 1.2, 0.6, 1.2, 0.0, 0.0, 0.0, 1.0), strict=True)
    ),
    "flying": dict(
        zip(FEATURES, (1.5, 1.0, 0.4, 1.6, 1.6, 1.6, 0.0, 0.0, 0.0, 1.6, 0.0, 0.0, 0.0, 0.0), strict=True)
    ),
}
"""The seed's phase table exactly; ``initiative`` (not in the seed) follows the threat row it replaces. The
placing-phase features (``future_mobility``, ``cramped``, ``junctions``; not in the seed) count in the placing
phase only (1.0 there: their weight is their placing-phase weight). ``liberties`` (issue 25) counts 1.0 in
the moving phase only: 0 while the side to move still places (there it outweighed a mill's man: after
``a7 b6 d7 b4`` White turned down g7xb4; the search still sees it at every leaf past the last placement)
and 0 when the side to move flies (its opponent may still be shut in, but the flying endgames are the
tablebase's)."""

NORM: Final[dict[str, dict[str, float]]] = {
    #                material mills open threats double fork mobility blocked connectivity initiative
    #                future_mobility cramped junctions liberties
    "placing": dict(
        zip(FEATURES, (9.0, 4.0, 8.0, 8.0, 3.0, 9.0, 26.0, 9.0, 10.0, 15.0, 26.0, 9.0, 4.0, 4.0), strict=True)
    ),
    "moving": dict(
        zip(FEATURES, (9.0, 4.0, 8.0, 6.0, 1.0, 7.0, 26.0, 9.0, 10.0, 11.0, 26.0, 9.0, 4.0, 4.0), strict=True)
    ),
    "flying": dict(
        zip(FEATURES, (9.0, 4.0, 8.0, 6.0, 1.0, 7.0, 26.0, 9.0, 10.0, 11.0, 26.0, 9.0, 4.0, 4.0), strict=True)
    ),
}
"""Largest value of each feature for one side in a position of each phase (see module docstring).

``initiative`` max = 2 * threats max - 1 (side to move with every threat point); ``future_mobility`` has
the bound of ``mobility`` (the same count), ``cramped`` the opponent's 9 men, ``junctions`` the 4 points,
``liberties`` its cap (``LIBERTY_CAP``)."""

CLUSTER: Final[tuple[str, ...]] = (
    "mobility",
    "open_mills",
    "threats",
    "blocked",
    "double_threats",
    "fork_threats",
    "connectivity",
)
"""Features that ``initiative`` replaces: a weight set may not use both (seed's "Fehler 2")."""

PROFILES: Final[tuple[str, ...]] = ("base", "seed", "initiative", "tuned")
"""Weight profiles shipped in ``morris/data/``: ``base`` (the default: the seed's weights plus the
placing-phase features, tuned by play), ``seed`` (the seed's weights: its features only, the placing-phase
features at 0) and ``initiative`` in ``base_weights.toml``; ``tuned`` (Texel-fitted against the
tablebase, :mod:`boardeval.morris.tuning`) in ``tuned_weights.toml``."""

_WEIGHTS_FILE: Final[str] = "base_weights.toml"
_PROFILE_FILES: Final[dict[str, str]] = {"tuned": "tuned_weights.toml"}


def make_weights(values: Mapping[str, float], *, source: str = "weights") -> WeightSet:
    """Validate a Morris weight set: every feature named, finite, >= 0, and no double counting.

    Raises :class:`~boardeval.core.ParamsError` naming ``source`` and the bad entry.
    """
    ws = WeightSet(values, names=FEATURES, nonnegative=FEATURES, source=source)
    if ws["initiative"] != 0.0:
        both = [f for f in CLUSTER if ws[f] != 0.0]
        if both:
            raise ParamsError(
                f"{source}: initiative replaces {', '.join(CLUSTER)}; set these to 0 when initiative is "
                f"used (non-zero: {', '.join(both)})"
            )
    return ws


def load_weights(profile: str | Path = "base") -> WeightSet:
    """A shipped profile by name (one of :data:`PROFILES`) or a TOML/JSON weight file by path.

    A file may hold the weights at top level or in a table named like a profile (``[base]``, or ``[tuned]``
    as ``boardeval morris tune --out`` writes). Every feature must be named: a file written before the
    placing-phase features existed fails with the missing names (add them with weight 0 for the old model).
    """
    if isinstance(profile, str) and profile in PROFILES:
        # the file beside this module (the package ships as files); importlib.resources would add ~10 ms
        # of imports to every start-up for the same path
        name = _PROFILE_FILES.get(profile, _WEIGHTS_FILE)
        data = load_data_file(Path(__file__).with_name("data") / name)
        return make_weights(data[profile], source=f"{name}[{profile}]")
    path = Path(profile)
    if not path.suffix:
        raise ParamsError(
            f"unknown weight profile {str(profile)!r}; expected one of {list(PROFILES)} or a weight file"
        )
    data = load_data_file(path)
    for table in PROFILES:
        if table in data and isinstance(data[table], dict):
            data = data[table]
            break
    return make_weights(data, source=repr(str(path)))


BASE_WEIGHTS: Final[WeightSet] = load_weights("base")
"""The default weights (``[base]`` of ``morris/data/base_weights.toml``: the seed's plus the placing-phase
weights; ``load_weights("seed")`` is the seed's set)."""


def terminal_score(pos: Position) -> float | None:
    """``+-WIN_SCORE`` (side to move's view) or 0.0 for a finished game, ``None`` while it goes on."""
    outcome = pos.outcome()
    return None if outcome is None else _outcome_score(outcome, pos.side)


def _outcome_score(outcome: Outcome, side: int) -> float:
    """``+-WIN_SCORE`` from ``side``'s view for a decided game, 0.0 for a draw."""
    if outcome.winner is None:
        return 0.0
    return WIN_SCORE if outcome.winner == side else -WIN_SCORE


class Evaluator:
    """A weight set compiled into per-phase coefficients ``weight * PHASE_SCALE / NORM``.

    :meth:`score` is the search's leaf evaluation (no terminal check: the search does that);
    :meth:`breakdown` is the explained form with the same total.
    """

    __slots__ = ("_coef", "weights")

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights: WeightSet = BASE_WEIGHTS if weights is None else make_weights(dict(weights))
        self._coef: dict[str, tuple[float, ...]] = {
            ph: tuple(self.weights[f] * PHASE_SCALE[ph][f] / NORM[ph][f] for f in FEATURES) for ph in PHASES
        }

    def score(self, pos: Position) -> float:
        """Static score of a non-terminal position from the side to move's view."""
        both = features(pos)
        own = both[pos.side].values()
        opp = both[1 - pos.side].values()
        coef = self._coef[position_phase(pos)]
        return math.fsum(c * (a - b) for c, a, b in zip(coef, own, opp, strict=True))

    def breakdown(self, pos: Position) -> Breakdown:
        """The explained evaluation (see :func:`evaluate`)."""
        both = features(pos)
        phase = position_phase(pos)
        extras: dict[str, object] = {
            "phase": phase,
            "side": "white" if pos.side == WHITE else "black",
            "features": {"white": both[WHITE].to_dict(), "black": both[1 - WHITE].to_dict()},
        }
        label = f"morris {pos.text()}"
        outcome = pos.outcome()
        if outcome is not None:
            term = _outcome_score(outcome, pos.side)
            extras["outcome"] = outcome.result
            extras["reason"] = outcome.reason
            return Breakdown.from_values(
                {"result": term / WIN_SCORE}, {"result": WIN_SCORE}, label=label, extras=extras
            )
        own: SideFeatures = both[pos.side]
        opp: SideFeatures = both[1 - pos.side]
        raw = {f: float(a - b) for f, a, b in zip(FEATURES, own.values(), opp.values(), strict=True)}
        scales = {f: PHASE_SCALE[phase][f] / NORM[phase][f] for f in FEATURES}
        return Breakdown.from_values(raw, dict(self.weights), scales=scales, label=label, extras=extras)


@functools.cache
def default_evaluator() -> Evaluator:
    """The evaluator of the base weights (built once, on first use; it is immutable)."""
    return Evaluator()


def evaluate(pos: Position, weights: Mapping[str, float] | None = None) -> Breakdown:
    """Explained evaluation of ``pos`` from the side to move's view.

    Terms are the features with ``raw = own - opponent``, ``weight`` = base weight and ``scale`` =
    ``PHASE_SCALE[phase] / NORM[phase]`` (engine-internal; hide it with ``to_dict(include_scale=False)``).
    ``extras`` holds the phase, the side to move and the raw features of both sides. A finished game has
    one term ``result`` (raw +1 won / -1 lost / 0 draw, weight ``WIN_SCORE``).
    """
    ev = default_evaluator() if weights is None else Evaluator(weights)
    return ev.breakdown(pos)
