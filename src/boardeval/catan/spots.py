"""The settlement-spot evaluator of seed 000, with the spec's erratum; all 54 spots in one numpy call.

Both layouts: the base board's 54 spots and the 5-6 player board's 80 (the topology comes from the
board, or from the arrays' width in :func:`spot_scores_batch`).

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

Two implementations. :func:`evaluate_spot` is the reference: one spot, pure Python (dicts and loops, the
seed's way). :func:`spot_scores_batch` is the vectorised scorer: all 54 spots of a batch of boards in a
few numpy calls. :func:`evaluate_spots` (one board, with every figure behind the scores) is the batch
scorer run on a batch of one, with the five per-resource strengths taken from the reference's Python
helper, so its metrics are the reference's floats bit for bit (tests check it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import (
    DESERT,
    PIPS,
    RESOURCE_NAMES,
    RESOURCES,
    Board,
    code_keys,
)
from boardeval.catan.params import METRIC_NAMES, SpotParams
from boardeval.catan.topology import TOPOLOGIES, Topology
from boardeval.core import Breakdown, CatanError

__all__ = [
    "SCARCITY_CAP",
    "SpotTable",
    "evaluate_spot",
    "evaluate_spots",
    "port_strengths",
    "resource_strengths",
    "spot_details_batch",
    "spot_metrics_from_production",
    "spot_scores_batch",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

SCARCITY_CAP = 20.0
"""Scarcity of a resource absent from the board, and the clip bound of the pairwise ratio."""


# ---------------------------------------------------------------------------------------------------------
# The reference: one spot at a time, pure Python (per-resource strengths also feed the single-board table)
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
    scarcity, pairwise, raw, strength = _strength_parts(t, p.base_resource_strength, p.dampening_factor)
    return {"scarcity": scarcity, "pairwise": pairwise, "raw": raw, "strength": strength}


def _pair(own: float, comp: float) -> float:
    if own == 0:
        return SCARCITY_CAP if comp > 0 else 1.0
    return min(SCARCITY_CAP, max(1.0 / SCARCITY_CAP, comp / own))


def _strength_parts(
    t: list[float], base: tuple[float, ...], damp: float
) -> tuple[list[float], list[float], list[float], list[float]]:
    """The seed's per-resource strengths for totals ``t`` (W, B, S, G, O); lean, no validation."""
    w, b, _, g, o = t
    scarcity = [1.0 / x if x > 0 else SCARCITY_CAP for x in t]
    pairwise = [_pair(w, b), _pair(b, w), 1.0, _pair(g, o), _pair(o, g)]
    raw = [base[r] * scarcity[r] * pairwise[r] for r in range(5)]
    return scarcity, pairwise, raw, [x**damp for x in raw]


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
    spot_hexes = board.topology.spot_hexes
    _check_spot(spot, len(spot_hexes))
    totals = {r: 0.0 for r in RESOURCES}
    for res, num in zip(board.resources, board.numbers, strict=True):
        if res != DESERT and num is not None:
            totals[res] += PIPS[num]
    prod = {r: 0.0 for r in RESOURCES}
    for h in spot_hexes[spot]:
        res, num = board.resources[h], board.numbers[h]
        if res != DESERT and num is not None:
            prod[res] += PIPS[num]
    b = spot_metrics_from_production(prod, totals, board.spot_port(int(spot)), params, label=f"spot {spot}")
    return Breakdown(b.terms, b.label, {"spot": int(spot), "hexes": list(spot_hexes[spot]), **b.extras})


def _check_spot(spot: int, n: int) -> int:
    if isinstance(spot, bool) or not isinstance(spot, int | np.integer) or not 0 <= spot < n:
        raise CatanError(f"spot must be an integer 0..{n - 1}, got {spot!r}")
    return int(spot)


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
# Vectorised: all spots of a batch of boards at once
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SpotTable:
    """Every spot of a board evaluated at once, with the figures behind the scores (numpy arrays).

    ``production`` (54, 5) pips per spot and resource; ``totals`` (5,) board pips per resource;
    ``strength`` (5,) dampened strengths; ``scarcity``, ``pairwise``, ``raw_strength`` (5,);
    ``port_strength`` (9,) per slot; ``metrics`` (54, 5) in :data:`METRIC_NAMES` order; ``scores`` (54,).
    Resource axes are in :data:`RESOURCES` order. Treat the arrays as read-only.
    """

    board: Board
    params: SpotParams
    metrics: FloatArray
    scores: FloatArray
    production: FloatArray
    totals: FloatArray
    scarcity: FloatArray
    pairwise: FloatArray
    raw_strength: FloatArray
    strength: FloatArray
    port_strength: FloatArray

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    def breakdown(self, spot: int) -> Breakdown:
        """The explained score of one spot: five metrics, weights, contributions; extras give the hexes,
        the port, per-resource production and strengths."""
        s = _check_spot(spot, len(self))
        raw = dict(zip(METRIC_NAMES, self.metrics[s].tolist(), strict=True))
        weights = dict(zip(METRIC_NAMES, self.params.eval_weights, strict=True))
        topo = self.board.topology
        slot = int(topo.spot_port[s])
        names = [RESOURCE_NAMES[r] for r in RESOURCES]
        extras: dict[str, Any] = {
            "spot": s,
            "hexes": list(topo.spot_hexes[s]),
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
        """``{"code": share code, "board": the same (deprecated, :func:`code_keys`), "spots": [{"spot",
        "hexes", "port", "metrics": {...}, "score"}, ...]}``, spots in id order."""
        spots = []
        topo = self.board.topology
        for s in range(len(self)):
            slot = int(topo.spot_port[s])
            spots.append(
                {
                    "spot": s,
                    "hexes": list(topo.spot_hexes[s]),
                    "port": None if slot < 0 else self.board.ports[slot],
                    "metrics": dict(zip(METRIC_NAMES, self.metrics[s].tolist(), strict=True)),
                    "score": float(self.scores[s]),
                }
            )
        return {**code_keys(self.board.code()), "spots": spots}


def evaluate_spots(board: Board, params: SpotParams | None = None) -> SpotTable:
    """Evaluate all 54 spots of one board: :func:`spot_scores_batch`'s arrays on a batch of one.

    The five per-resource strengths come from the reference's Python helper (not numpy's vectorised
    power), so every metric is the float :func:`evaluate_spot` computes, and every score is
    ``w0*m1 + w1*m2 + w2*m3 + w3*m4 + w4*m5`` added left to right: spots with equal metrics tie exactly
    and :meth:`SpotTable.ranked` orders them by id. About 50 us a board (``benchmarks/catan_spots.py``).
    """
    p = params or SpotParams.default()
    tables = _tables(board.topology)
    prod, totals = _production(board.resource_index[None], board.pips[None], tables)
    parts = _strength_parts(totals[0].tolist(), p.base_resource_strength, p.dampening_factor)
    port_strength, metrics, scores = _score(
        prod, totals, np.array(parts[3:]), board.port_index[None], p, tables
    )
    by_spot = np.stack([m[0] for m in metrics], axis=1)  # (54, 5)
    scarcity, pairwise, raw, strength = (np.array(x) for x in parts)
    production = np.ascontiguousarray(prod[0].T)
    return SpotTable(
        board,
        p,
        by_spot,
        scores[0],
        production,
        totals[0],
        scarcity,
        pairwise,
        raw,
        strength,
        port_strength[0],
    )


def spot_scores_batch(
    resource_index: npt.ArrayLike,
    pips: npt.ArrayLike,
    port_index: npt.ArrayLike,
    params: SpotParams | None = None,
) -> FloatArray:
    """Scores of all 54 spots for a batch of boards at once, shape (B, 54): for generators and sweeps.

    Inputs are stacked board arrays: ``resource_index`` and ``pips`` (B, 19) (``Board.resource_index``,
    ``Board.pips``), ``port_index`` (B, 9) (``Board.port_index``: resource index, -1 for 3:1); for
    5-6 player boards (B, 30) and (B, 11), giving (B, 80) (the width picks the layout). The same
    formulas as :func:`evaluate_spot`, with the per-resource strengths computed in numpy over the batch;
    the per-call overhead is paid once per batch instead of once per board.
    """
    return spot_details_batch(resource_index, pips, port_index, params)[0]


def spot_details_batch(
    resource_index: npt.ArrayLike,
    pips: npt.ArrayLike,
    port_index: npt.ArrayLike,
    params: SpotParams | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """:func:`spot_scores_batch` with the figures the opening draft needs: ``(scores (B, S), production
    (B, S, 5), strength (B, 5), port metric (B, S))``."""
    p = params or SpotParams.default()
    res = np.asarray(resource_index)
    pip = np.asarray(pips, dtype=np.float64)
    ports = np.asarray(port_index)
    topo = _BY_WIDTH.get(res.shape[1]) if res.ndim == 2 else None
    if (
        topo is None
        or res.shape != pip.shape
        or ports.ndim != 2
        or ports.shape != (res.shape[0], topo.n_ports)
    ):
        raise CatanError(
            "batch arrays must be (B, 19), (B, 19), (B, 9) (or (B, 30), (B, 30), (B, 11)); "
            f"got {res.shape}, {pip.shape}, {ports.shape}"
        )
    tables = _tables(topo)
    prod, totals = _production(res, pip, tables)
    with np.errstate(divide="ignore", invalid="ignore"):
        scarcity = np.where(totals > 0, 1.0 / totals, SCARCITY_CAP)
        comp = totals[:, _COMP_INDEX]
        ratio = np.clip(comp / totals, 1.0 / SCARCITY_CAP, SCARCITY_CAP)
    ratio = np.where(totals > 0, ratio, np.where(comp > 0, SCARCITY_CAP, 1.0))
    pairwise = np.where(_HAS_COMP, ratio, 1.0)
    strength = (np.asarray(p.base_resource_strength) * scarcity * pairwise) ** p.dampening_factor
    _, metrics, scores = _score(prod, totals, strength, ports, p, tables)
    return scores, np.swapaxes(prod, 1, 2), strength, metrics[2]


@dataclass(frozen=True, eq=False)
class _Tables:
    """A topology's arrays for the vector path."""

    hex_spot: FloatArray
    """(hexes, spots) incidence: ``(B, 5, hexes) @ hex_spot`` sums each spot's hexes."""
    spot_slot: IntArray
    """Port slot per spot; ``n_ports`` (-> a 0 appended after the slots) for spots without a port."""


def _make_tables(topo: Topology) -> _Tables:
    hex_spot = np.ascontiguousarray(topo.spot_hex_matrix.T, dtype=np.float64)
    hex_spot.setflags(write=False)
    slot = np.where(topo.spot_port >= 0, topo.spot_port, topo.n_ports)
    slot.setflags(write=False)
    return _Tables(hex_spot, slot)


_TABLES: dict[int, _Tables] = {id(t): _make_tables(t) for t in TOPOLOGIES.values()}
_BY_WIDTH: dict[int, Topology] = {t.n_hexes: t for t in TOPOLOGIES.values()}


def _tables(topo: Topology) -> _Tables:
    found = _TABLES.get(id(topo))
    return found if found is not None else _make_tables(topo)


def _production(
    res: npt.NDArray[Any], pip: npt.NDArray[Any], tables: _Tables
) -> tuple[FloatArray, FloatArray]:
    """Pips per (board, resource, spot), shape (B, 5, 54), and per (board, resource), shape (B, 5).

    Sums of at most three small integers: exact in float64, whatever order BLAS adds them in.
    """
    pip_f = np.asarray(pip, dtype=np.float64)
    hex_prod = (res[:, None, :] == _RESOURCE_AXIS) * pip_f[:, None, :]  # (B, 5, 19); the desert matches none
    return hex_prod @ tables.hex_spot, hex_prod.sum(axis=2)


def _score(
    prod: FloatArray,
    totals: FloatArray,
    strength: FloatArray,
    ports: npt.NDArray[Any],
    p: SpotParams,
    tables: _Tables,
) -> tuple[FloatArray, tuple[FloatArray, ...], FloatArray]:
    """Port strength per slot (B, 9), the five metrics (each (B, 54)) and the scores (B, 54) from the
    production (B, 5, 54), board totals (B, 5), dampened strengths (B, 5) and port kinds (B, 9).

    Every operation is the reference's, elementwise and in the reference's order (metric 2 and the score
    are added term by term, left to right), so equal inputs give equal floats.
    """
    n = prod.shape[0]
    rows = np.arange(n)[:, None]
    d = totals * strength
    ordered = np.sort(d, axis=1)
    second, first = ordered[:, -2], ordered[:, -1]
    norm = np.where(second > 0, second, np.where(first > 0, first, 1.0))
    kind = np.ones((n, 7))  # strength by port kind: 0..4 a 2:1 port of that resource, 5 a 3:1 port
    kind[:, :5] = d / norm[:, None]
    kind[:, 6] = 0.0  # 6: no port
    slot_kind = np.where(ports < 0, 5, ports)
    port_strength = kind[rows, slot_kind]  # (B, 9)
    spot_kind = np.concatenate([slot_kind, np.full((n, 1), 6)], axis=1)[:, tables.spot_slot]  # (B, 54)
    m1 = prod.sum(axis=1)
    terms = prod * strength[:, :, None]
    m2 = terms[:, 0] + terms[:, 1] + terms[:, 2] + terms[:, 3] + terms[:, 4]
    m3 = kind[rows, spot_kind] * p.port_bonus
    m4 = np.where((m1 >= 10) & ((prod > 0).sum(axis=1) >= 3), p.prime_variate_bonus, 0.0)
    m5 = p.parity_preference * (np.minimum(prod[:, 0], prod[:, 1]) + np.minimum(prod[:, 3], prod[:, 4]))
    w = p.eval_weights
    scores = w[0] * m1 + w[1] * m2 + w[2] * m3 + w[3] * m4 + w[4] * m5
    return port_strength, (m1, m2, m3, m4, m5), scores


_RESOURCE_AXIS = np.arange(len(RESOURCES))[:, None]
"""(5, 1) resource indices: ``res[:, None, :] == _RESOURCE_AXIS`` one-hot encodes the hexes' resources."""
_COMP_INDEX = np.array([1, 0, 2, 4, 3])
_HAS_COMP = np.array([True, True, False, True, True])
