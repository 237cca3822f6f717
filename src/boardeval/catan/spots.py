"""The settlement-spot evaluator of seed 000, with the spec's erratum; all 54 spots in one numpy call.

For a spot, ``prod[r]`` is the pips of its adjacent hexes of resource r; ``total[r]`` the pips of all
hexes of r on the board. Complements: wood<->brick, grain<->ore; sheep has none::

    scarcity[r] = 1 / total[r]                  (20 if total[r] == 0)
    pairwise[r] = total[comp(r)] / total[r]     clipped to [1/20, 20]; 20 if total[r] == 0 < total[comp];
                                                1 if both are 0; 1 for sheep
    raw[r]      = base_resource_strength[r] * scarcity[r] * pairwise[r]
    strength[r] = raw[r] ** dampening_factor

Erratum (spec section 2): the seed writes ``production[r] / production[complement]`` but explains that the
scarcer half of a pair is the bottleneck and scores higher; we follow the explanation.

Metrics, ``score = sum(eval_weights[i] * metric[i])``:

    1 raw_production       sum(prod)
    2 scarcity_production  sum(prod[r] * strength[r])
    3 port                 port_strength * port_bonus on a port, else 0; 3:1 -> 1;
                           2:1 of r -> D[r] / second_highest(D), D[r] = total[r] * strength[r]
    4 prime_variate        prime_variate_bonus if metric 1 >= 10 and >= 3 distinct resources
    5 parity               parity_preference * min(prod[a], prod[b]) over wood/brick and grain/ore
                           (min is 0 unless both are produced)

``second_highest(D)`` is the second entry of D sorted in decreasing order (ties count: with two equal
maxima it equals the maximum). If it is 0 (fewer than two resources on the board, impossible on a valid
base board) the highest D is used instead, and 1 if every D is 0, so the port strength stays finite.

:func:`evaluate_spots` is the vectorised form (incidence matrix x per-hex production). :func:`evaluate_spot`
is an independent per-spot, pure-Python implementation (dicts and loops, the seed's way); tests check the
two agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import (
    COMPLEMENT,
    DESERT,
    N_SPOTS,
    PIPS,
    RESOURCE_NAMES,
    RESOURCES,
    SPOT_HEX_MATRIX,
    SPOT_HEXES,
    SPOT_PORT,
    Board,
)
from boardeval.catan.params import METRIC_NAMES, SpotParams
from boardeval.core import Breakdown, CatanError

__all__ = [
    "SCARCITY_CAP",
    "SpotTable",
    "evaluate_spot",
    "evaluate_spots",
    "port_strengths",
    "resource_strengths",
    "spot_metrics_from_production",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

SCARCITY_CAP = 20.0
"""Scarcity of a resource absent from the board, and the clip bound of the pairwise ratio."""

_ONE_HOT = np.vstack([np.eye(5, dtype=np.int64), np.zeros((1, 5), dtype=np.int64)])
"""Row k = one-hot of resource index k; row 5 (the desert) is all zeros."""


# ---------------------------------------------------------------------------------------------------------
# Per-resource strengths (pure Python; shared by the loop path and the hand tests)
# ---------------------------------------------------------------------------------------------------------


def resource_strengths(totals: Sequence[float], params: SpotParams | None = None) -> dict[str, list[float]]:
    """Scarcity, pairwise ratio, raw and dampened strength per resource (W, B, S, G, O), in Python.

    ``totals``: board pips per resource. Returns lists keyed ``scarcity``, ``pairwise``, ``raw``,
    ``strength``.
    """
    p = params or SpotParams.default()
    t = [float(x) for x in totals]
    if len(t) != 5:
        raise CatanError(f"totals must have 5 entries (W, B, S, G, O), got {len(t)}")
    scarcity = [1.0 / x if x > 0 else SCARCITY_CAP for x in t]
    pairwise = []
    for r in range(5):
        c = COMPLEMENT[r]
        if c is None:
            pairwise.append(1.0)
        elif t[r] == 0:
            pairwise.append(SCARCITY_CAP if t[c] > 0 else 1.0)
        else:
            pairwise.append(min(SCARCITY_CAP, max(1.0 / SCARCITY_CAP, t[c] / t[r])))
    raw = [p.base_resource_strength[r] * scarcity[r] * pairwise[r] for r in range(5)]
    strength = [x**p.dampening_factor for x in raw]
    return {"scarcity": scarcity, "pairwise": pairwise, "raw": raw, "strength": strength}


def port_strengths(totals: Sequence[float], strength: Sequence[float]) -> dict[str, float]:
    """Strength of each port kind: ``"3"`` -> 1; resource r -> D[r] / second_highest(D)."""
    d = [float(totals[r]) * float(strength[r]) for r in range(5)]
    ordered = sorted(d, reverse=True)
    norm = ordered[1] if ordered[1] > 0 else (ordered[0] if ordered[0] > 0 else 1.0)
    return {"3": 1.0, **{RESOURCES[r]: d[r] / norm for r in range(5)}}


def spot_metrics_from_production(
    prod: Mapping[str, float] | Sequence[float],
    totals: Mapping[str, float] | Sequence[float],
    port: str | None,
    params: SpotParams | None = None,
    *,
    label: str = "spot",
) -> Breakdown:
    """Seed 000's five metrics for one spot from its per-resource production (pure Python).

    ``prod`` / ``totals``: pips per resource, as a mapping by letter (missing = 0) or 5 numbers in
    W, B, S, G, O order. ``port``: ``None``, ``"3"`` or a resource letter. Returns the breakdown (metrics,
    weights, contributions; extras: per-resource production and strengths, port strength).
    """
    p = params or SpotParams.default()
    pr = _five(prod, "prod")
    tot = _five(totals, "totals")
    s = resource_strengths(tot, p)
    strength = s["strength"]
    m1 = sum(pr)
    m2 = sum(pr[r] * strength[r] for r in range(5))
    if port is None:
        port_strength = 0.0
        m3 = 0.0
    else:
        if port not in ("3", *RESOURCES):
            raise CatanError(f"unknown port {port!r}; expected '3' or one of W B S G O")
        port_strength = port_strengths(tot, strength)[port]
        m3 = port_strength * p.port_bonus
    distinct = sum(1 for x in pr if x > 0)
    m4 = p.prime_variate_bonus if (m1 >= 10 and distinct >= 3) else 0.0
    m5 = p.parity_preference * (min(pr[0], pr[1]) + min(pr[3], pr[4]))
    raw = dict(zip(METRIC_NAMES, (m1, m2, m3, m4, m5), strict=True))
    weights = dict(zip(METRIC_NAMES, p.eval_weights, strict=True))
    extras = {
        "port": port,
        "port_strength": port_strength,
        "production": {RESOURCE_NAMES[RESOURCES[r]]: pr[r] for r in range(5)},
        "totals": {RESOURCE_NAMES[RESOURCES[r]]: tot[r] for r in range(5)},
        "strength": {RESOURCE_NAMES[RESOURCES[r]]: strength[r] for r in range(5)},
    }
    return Breakdown.from_values(raw, weights, label=label, extras=extras)


def evaluate_spot(board: Board, spot: int, params: SpotParams | None = None) -> Breakdown:
    """One spot, computed the seed's way (dicts and Python loops); the reference for the vector path."""
    if isinstance(spot, bool) or not isinstance(spot, int | np.integer) or not 0 <= spot < N_SPOTS:
        raise CatanError(f"spot must be an integer 0..{N_SPOTS - 1}, got {spot!r}")
    totals = {r: 0.0 for r in RESOURCES}
    for res, num in zip(board.resources, board.numbers, strict=True):
        if res != DESERT and num is not None:
            totals[res] += PIPS[num]
    prod = {r: 0.0 for r in RESOURCES}
    for h in SPOT_HEXES[spot]:
        res, num = board.resources[h], board.numbers[h]
        if res != DESERT and num is not None:
            prod[res] += PIPS[num]
    b = spot_metrics_from_production(prod, totals, board.spot_port(int(spot)), params, label=f"spot {spot}")
    return Breakdown(b.terms, b.label, {"spot": int(spot), "hexes": list(SPOT_HEXES[spot]), **b.extras})


def _five(v: Mapping[str, float] | Sequence[float], name: str) -> list[float]:
    if isinstance(v, Mapping):
        unknown = [k for k in v if k not in RESOURCES]
        if unknown:
            raise CatanError(f"{name}: unknown resource letter(s) {unknown}; expected W B S G O")
        return [float(v.get(r, 0.0)) for r in RESOURCES]
    out = [float(x) for x in v]
    if len(out) != 5:
        raise CatanError(f"{name} must have 5 entries (W, B, S, G, O), got {len(out)}")
    return out


# ---------------------------------------------------------------------------------------------------------
# Vectorised: all spots at once
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SpotTable:
    """Every spot of a board evaluated at once, with the figures behind the scores (numpy arrays).

    ``production`` (54, 5) pips per spot and resource; ``totals`` (5,) board pips per resource;
    ``scarcity``, ``pairwise``, ``raw_strength``, ``strength`` (5,); ``port_strength`` (9,) per slot;
    ``metrics`` (54, 5) in :data:`METRIC_NAMES` order; ``scores`` (54,).
    """

    board: Board
    params: SpotParams
    production: FloatArray
    totals: FloatArray
    scarcity: FloatArray
    pairwise: FloatArray
    raw_strength: FloatArray
    strength: FloatArray
    port_strength: FloatArray
    metrics: FloatArray
    scores: FloatArray

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    def breakdown(self, spot: int) -> Breakdown:
        """The explained score of one spot: five metrics, weights, contributions; extras give the hexes,
        the port, per-resource production and strengths."""
        if isinstance(spot, bool) or not isinstance(spot, int | np.integer) or not 0 <= spot < len(self):
            raise CatanError(f"spot must be an integer 0..{len(self) - 1}, got {spot!r}")
        s = int(spot)
        raw = dict(zip(METRIC_NAMES, self.metrics[s].tolist(), strict=True))
        weights = dict(zip(METRIC_NAMES, self.params.eval_weights, strict=True))
        slot = int(SPOT_PORT[s])
        names = [RESOURCE_NAMES[r] for r in RESOURCES]
        extras: dict[str, Any] = {
            "spot": s,
            "hexes": list(SPOT_HEXES[s]),
            "port": None if slot < 0 else self.board.ports[slot],
            "port_strength": 0.0 if slot < 0 else float(self.port_strength[slot]),
            "production": dict(zip(names, self.production[s].tolist(), strict=True)),
            "totals": dict(zip(names, self.totals.tolist(), strict=True)),
            "strength": dict(zip(names, self.strength.tolist(), strict=True)),
        }
        return Breakdown.from_values(raw, weights, label=f"spot {s}", extras=extras)

    def ranked(self) -> list[int]:
        """Spot ids, best score first (ties: lower id first)."""
        return [int(i) for i in np.lexsort((np.arange(len(self)), -self.scores))]

    def top(self, n: int = 5) -> list[int]:
        """The ``n`` best spots."""
        return self.ranked()[: max(0, n)]

    def to_json(self) -> dict[str, Any]:
        """``{"board": code, "spots": [{"spot", "hexes", "port", "metrics": {...}, "score"}, ...]}``,
        spots in id order."""
        spots = []
        for s in range(len(self)):
            slot = int(SPOT_PORT[s])
            spots.append(
                {
                    "spot": s,
                    "hexes": list(SPOT_HEXES[s]),
                    "port": None if slot < 0 else self.board.ports[slot],
                    "metrics": dict(zip(METRIC_NAMES, self.metrics[s].tolist(), strict=True)),
                    "score": float(self.scores[s]),
                }
            )
        return {"board": self.board.code(), "spots": spots}


def evaluate_spots(board: Board, params: SpotParams | None = None) -> SpotTable:
    """Evaluate all 54 spots in one vectorised pass (incidence matrix x per-hex production)."""
    p = params or SpotParams.default()
    hex_prod = _ONE_HOT[board.resource_index] * board.pips[:, None]  # (19, 5)
    production = (SPOT_HEX_MATRIX @ hex_prod).astype(np.float64)  # (54, 5)
    totals = hex_prod.sum(axis=0).astype(np.float64)  # (5,)
    scarcity, pairwise, raw, strength = _strength_arrays(totals, p)

    d = totals * strength
    ordered = np.sort(d)[::-1]
    norm = ordered[1] if ordered[1] > 0 else (ordered[0] if ordered[0] > 0 else 1.0)
    kind_strength = np.append(d / norm, 1.0)  # index 5 (= -1) is the generic 3:1 port
    port_strength = kind_strength[board.port_index]  # (9,)

    m1 = production.sum(axis=1)
    m2 = production @ strength
    has_port = SPOT_PORT >= 0
    m3 = np.where(has_port, port_strength[SPOT_PORT] * p.port_bonus, 0.0)
    distinct = (production > 0).sum(axis=1)
    m4 = np.where((m1 >= 10) & (distinct >= 3), p.prime_variate_bonus, 0.0)
    m5 = p.parity_preference * (
        np.minimum(production[:, 0], production[:, 1]) + np.minimum(production[:, 3], production[:, 4])
    )
    metrics = np.stack([m1, m2, m3, m4, m5], axis=1)
    scores = metrics @ np.asarray(p.eval_weights, dtype=np.float64)
    for a in (production, totals, scarcity, pairwise, raw, strength, port_strength, metrics, scores):
        a.setflags(write=False)
    return SpotTable(
        board, p, production, totals, scarcity, pairwise, raw, strength, port_strength, metrics, scores
    )


_COMP_INDEX = np.array([1, 0, 2, 4, 3])
_HAS_COMP = np.array([True, True, False, True, True])


def _strength_arrays(
    totals: FloatArray, p: SpotParams
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        scarcity = np.where(totals > 0, 1.0 / totals, SCARCITY_CAP)
        comp = totals[_COMP_INDEX]
        ratio = np.clip(comp / totals, 1.0 / SCARCITY_CAP, SCARCITY_CAP)
    ratio = np.where(totals > 0, ratio, np.where(comp > 0, SCARCITY_CAP, 1.0))
    pairwise = np.where(_HAS_COMP, ratio, 1.0)
    raw = np.asarray(p.base_resource_strength, dtype=np.float64) * scarcity * pairwise
    strength = raw**p.dampening_factor
    return scarcity, pairwise, raw, strength
