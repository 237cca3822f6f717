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

:func:`evaluate_spots` is the vectorised form (a lookup table over each spot's hex triple, then one
matmul). :func:`evaluate_spot` is an independent per-spot, pure-Python implementation (dicts and loops,
the seed's way); tests check the two agree, metrics bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import (
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
    "spot_scores_batch",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

SCARCITY_CAP = 20.0
"""Scarcity of a resource absent from the board, and the clip bound of the pairwise ratio."""


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


def _strengths(
    w: float, b: float, s: float, g: float, o: float, base: tuple[float, ...], damp: float
) -> tuple[float, float, float, float, float]:
    """Only the dampened strengths of :func:`_strength_parts`, unrolled for the hot path.

    The same operations in the same order (so the same floats; a test checks it): ``1 / total`` or the
    cap, the clipped complement ratio, ``base * scarcity * pairwise``, then ``** damp``.
    """
    cap, low = SCARCITY_CAP, 1.0 / SCARCITY_CAP
    if w > 0:
        x = b / w
        rw = base[0] * (1.0 / w) * (cap if x > cap else (low if x < low else x))
    else:
        rw = base[0] * cap * (cap if b > 0 else 1.0)
    if b > 0:
        x = w / b
        rb = base[1] * (1.0 / b) * (cap if x > cap else (low if x < low else x))
    else:
        rb = base[1] * cap * (cap if w > 0 else 1.0)
    rs = base[2] * (1.0 / s if s > 0 else cap) * 1.0
    if g > 0:
        x = o / g
        rg = base[3] * (1.0 / g) * (cap if x > cap else (low if x < low else x))
    else:
        rg = base[3] * cap * (cap if o > 0 else 1.0)
    if o > 0:
        x = g / o
        ro = base[4] * (1.0 / o) * (cap if x > cap else (low if x < low else x))
    else:
        ro = base[4] * cap * (cap if g > 0 else 1.0)
    return rw**damp, rb**damp, rs**damp, rg**damp, ro**damp


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


@dataclass(frozen=True, eq=False, init=False)
class SpotTable:
    """Every spot of a board evaluated at once, with the figures behind the scores (numpy arrays).

    ``production`` (54, 5) pips per spot and resource; ``totals`` (5,) board pips per resource;
    ``strength`` (5,) dampened strengths; ``scarcity``, ``pairwise``, ``raw_strength`` (5,);
    ``port_strength`` (9,) per slot; ``metrics`` (54, 5) in :data:`METRIC_NAMES` order; ``scores`` (54,).
    Resource axes are in :data:`RESOURCES` order. The supporting arrays are derived on first access
    (the hot path computes only what the scores need). Treat the arrays as read-only.
    """

    board: Board
    params: SpotParams
    metrics: FloatArray
    scores: FloatArray
    _features: FloatArray  # (9, 54): metric 1, production W B S G O, prime flag, parity, port strength
    _totals: list[float]  # RESOURCES order
    _port_strength: list[float]  # per slot

    def __init__(
        self,
        board: Board,
        params: SpotParams,
        metrics: FloatArray,
        scores: FloatArray,
        _features: FloatArray,
        _totals: list[float],
        _port_strength: list[float],
    ) -> None:
        # Frozen: fill the instance dict directly (what the generated __init__ does one slow
        # object.__setattr__ at a time); attribute assignment still raises FrozenInstanceError.
        self.__dict__.update(
            board=board,
            params=params,
            metrics=metrics,
            scores=scores,
            _features=_features,
            _totals=_totals,
            _port_strength=_port_strength,
        )

    @cached_property
    def production(self) -> FloatArray:
        """(54, 5) pips per spot and resource."""
        return np.ascontiguousarray(self._features[_F_PROD].T)

    @cached_property
    def totals(self) -> FloatArray:
        """(5,) board pips per resource."""
        return np.array(self._totals)

    @cached_property
    def _parts(self) -> tuple[list[float], list[float], list[float], list[float]]:
        p = self.params
        return _strength_parts(self._totals, p.base_resource_strength, p.dampening_factor)

    @cached_property
    def strength(self) -> FloatArray:
        """(5,) dampened strength per resource."""
        return np.array(self._parts[3])

    @cached_property
    def scarcity(self) -> FloatArray:
        """(5,) ``1 / total[r]`` (20 for an absent resource)."""
        return np.array(self._parts[0])

    @cached_property
    def pairwise(self) -> FloatArray:
        """(5,) the erratum's pairwise ratio ``total[comp(r)] / total[r]``, clipped; 1 for sheep."""
        return np.array(self._parts[1])

    @cached_property
    def raw_strength(self) -> FloatArray:
        """(5,) ``base * scarcity * pairwise`` before dampening."""
        return np.array(self._parts[2])

    @cached_property
    def port_strength(self) -> FloatArray:
        """(9,) strength of the port in each slot (3:1 -> 1; 2:1 of r -> D[r] / second highest D)."""
        return np.array(self._port_strength)

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
    """Evaluate all 54 spots in one vectorised pass: a lookup table of hex triples, then one matmul.

    A spot touches at most 3 hexes, and metrics 1, 4 and 5 and the production per resource depend only
    on the (resource, pips) of those hexes. Each hex gets a code (:data:`_HEX_CODE`, 26 values, 0 for the
    desert), each spot the key ``c0 + 26 c1 + 676 c2`` of its hexes' codes (one matvec with
    :data:`_SPOT_KEY`, exact in float64), and :data:`_TRIPLE_FEATURES`, precomputed at import for all
    26**3 keys, gives metric 1, the five productions, the prime-variate flag and the parity minimum
    (exact small integers). With the port strength per spot as a ninth row, ONE (10, 9) @ (9, 54) matmul
    whose rows each have a single nonzero coefficient gives metrics 1, 3, 4, 5 and the five products
    ``production[r] * strength[r]``, exactly. Metric 2 and the score are then summed over rows in the
    formulas' order, so every metric is the float :func:`evaluate_spot` computes and every score is
    ``w0*m1 + w1*m2 + w2*m3 + w3*m4 + w4*m5`` added left to right (tests check both bit for bit): spots
    with equal metrics tie exactly and :meth:`SpotTable.ranked` orders them by id.

    The per-resource figures (5 strengths, 9 port slots) are plain Python, since numpy's per-call
    overhead exceeds the work, and the numpy calls are array methods (``.take``, ``.dot``), which skip
    the ~0.5-1 us Python dispatch of ``np.take`` / ``@``. Nothing is cached between calls (only the
    board's own arrays, on the board): ten small numpy calls, ~12 us per board.
    """
    p = params or SpotParams.default()
    res = board.resource_index
    pip = board.pips
    w, b, s, g, o, _ = np.bincount(res, pip, 6).tolist()  # pips per resource; the desert last
    st0, st1, st2, st3, st4 = _strengths(w, b, s, g, o, p.base_resource_strength, p.dampening_factor)
    d = [w * st0, b * st1, s * st2, g * st3, o * st4]
    ordered = sorted(d, reverse=True)
    norm = ordered[1] if ordered[1] > 0 else (ordered[0] if ordered[0] > 0 else 1.0)
    d.append(norm)  # port_index -1 (generic 3:1 port) -> strength norm / norm = 1
    port_strength = [d[k] / norm for k in board.port_index.tolist()]

    # Every per-board scalar in ONE small array; _COEF_INDEX, _W_DIAG_INDEX and _SPOT_PORT_VALUE index
    # into it (layout in _COEF_INDEX's docstring).
    v = np.array(
        [
            *(0.0, 1.0, st0, st1, st2, st3, st4, p.port_bonus, p.prime_variate_bonus, p.parity_preference),
            *p.eval_weights,
            *port_strength,
        ]
    )
    feat = np.empty((9, N_SPOTS))
    key = _SPOT_KEY.dot(_HEX_CODE[res, pip]).astype(np.intp)  # (54,) keys into the triple table (exact)
    # Array methods, not np.take / np.dot / @: their Python-level dispatch costs ~0.5-1 us per call.
    _TRIPLE_FEATURES.take(key, axis=1, out=feat[:8], mode="clip")  # keys are always in range
    v.take(_SPOT_PORT_VALUE, out=feat[8], mode="clip")
    # One matmul, every output one product (the other coefficients are 0, so it is exact whatever BLAS
    # does): rows 0..4 metrics 1, -, 3, 4, 5; rows 5..9 production[r] * strength[r].
    m = v[_COEF_INDEX].dot(feat)
    # Metric 2 and the score are sums, done in formula order (a reduction over axis 0 adds row by row,
    # 0-based like Python's sum): the same floats as the per-spot formulas, so equal spots tie exactly.
    _add_rows(m[5:], 0, None, m[1])
    scores = _add_rows(v[_W_DIAG_INDEX].dot(m[:5]), 0)  # eval_weights[i] * metric[i], summed
    return SpotTable(board, p, m[:5].T, scores, feat, [w, b, s, g, o], port_strength)


def _build_triple_features() -> FloatArray:
    """(8, 26**3): for every key, metric 1, production W B S G O, prime flag, parity minimum."""
    per_code = np.zeros((_N_CODES, 5))  # production of one hex, by code
    per_code[_HEX_CODE[:5, 1:].astype(np.intp), np.arange(5)[:, None]] = np.arange(1, 6)
    key = np.arange(_N_CODES**3)
    prod = per_code[key % _N_CODES] + per_code[key // _N_CODES % _N_CODES] + per_code[key // _N_CODES**2]
    m1 = prod.sum(axis=1)
    prime = (m1 >= 10) & ((prod > 0).sum(axis=1) >= 3)
    parity = np.minimum(prod[:, 0], prod[:, 1]) + np.minimum(prod[:, 3], prod[:, 4])
    table = np.ascontiguousarray(np.column_stack([m1, prod, prime, parity]).T)
    table.setflags(write=False)
    return table


_N_CODES = 26
_HEX_CODE = np.zeros((6, 6))
"""Code of a hex by (resource index, pips): ``1 + 5 r + pips - 1`` for a resource hex with 1..5 pips;
0 (no production, like a missing hex) for the desert (row 5) and for pips 0. Floats, so that the key is
a BLAS matvec; keys are integers below 2**53, exact in float64."""
_HEX_CODE[:5, 1:] = 1 + np.arange(25).reshape(5, 5)
_HEX_CODE.setflags(write=False)
_SPOT_KEY = np.zeros((N_SPOTS, SPOT_HEX_MATRIX.shape[1]))
"""(54, 19): the j-th hex of spot s has weight 26**j, so ``_SPOT_KEY @ code`` is each spot's triple key."""
for _s, _hexes in enumerate(SPOT_HEXES):
    for _j, _h in enumerate(_hexes):
        _SPOT_KEY[_s, _h] = _N_CODES**_j
_SPOT_KEY.setflags(write=False)
assert max(len(h) for h in SPOT_HEXES) <= 3 and max(PIPS.values()) <= 5  # the triple table's premise
_TRIPLE_FEATURES = _build_triple_features()
_F_PROD = slice(1, 6)
"""Rows of the production (W, B, S, G, O) in the feature array."""
_COEF_INDEX = np.array(
    [
        [1, 0, 0, 0, 0, 0, 0, 0, 0],  # metric 1 = production sum
        [0, 0, 0, 0, 0, 0, 0, 0, 0],  # metric 2: the sum of rows 5..9, added in order afterwards
        [0, 0, 0, 0, 0, 0, 0, 0, 7],  # metric 3 = port_bonus * port strength
        [0, 0, 0, 0, 0, 0, 8, 0, 0],  # metric 4 = prime_variate_bonus * prime flag
        [0, 0, 0, 0, 0, 0, 0, 9, 0],  # metric 5 = parity_preference * parity minimum
        [0, 2, 0, 0, 0, 0, 0, 0, 0],  # strength W * production W
        [0, 0, 3, 0, 0, 0, 0, 0, 0],  # ... B
        [0, 0, 0, 4, 0, 0, 0, 0, 0],  # ... S
        [0, 0, 0, 0, 5, 0, 0, 0, 0],  # ... G
        [0, 0, 0, 0, 0, 6, 0, 0, 0],  # ... O
    ]
)
"""The (10, 9) coefficients over the 9 feature rows, as indices into ``evaluate_spots``'s scalar array
``v``: 0 -> 0.0, 1 -> 1.0, 2..6 strengths W B S G O, 7..9 port_bonus, prime_variate_bonus,
parity_preference, 10..14 eval_weights, 15..23 the port strength of slots 0..8. At most one nonzero
coefficient per row."""
_COEF_INDEX.setflags(write=False)
_W_DIAG_INDEX = np.diag(np.arange(10, 15))
"""(5, 5) diag(eval_weights) as indices into ``v`` (off-diagonal 0 -> 0.0)."""
_W_DIAG_INDEX.setflags(write=False)
_SPOT_PORT_VALUE = np.where(SPOT_PORT >= 0, 15 + SPOT_PORT, 0)
"""Per spot, index of its port strength in ``v`` (15 + slot), or 0 (-> 0.0) for a spot without a port."""
_SPOT_PORT_VALUE.setflags(write=False)
_add_rows = np.add.reduce
_HEX_SPOT_F = np.ascontiguousarray(SPOT_HEX_MATRIX.T, dtype=np.float64)
_SPOT_SLOT = np.where(SPOT_PORT >= 0, SPOT_PORT, 9)
"""Port slot per spot, 9 (-> a 0 appended after the 9 slots) for spots without a port."""


def spot_scores_batch(
    resource_index: npt.ArrayLike,
    pips: npt.ArrayLike,
    port_index: npt.ArrayLike,
    params: SpotParams | None = None,
) -> FloatArray:
    """Scores of all 54 spots for a batch of boards at once, shape (B, 54): for generators and sweeps.

    Inputs are stacked board arrays: ``resource_index`` and ``pips`` (B, 19) (``Board.resource_index``,
    ``Board.pips``), ``port_index`` (B, 9) (``Board.port_index``: resource index, -1 for 3:1). Same
    formulas as :func:`evaluate_spots` (tests check equality), with the per-resource strengths computed
    in numpy over the batch; the per-call overhead is paid once per batch instead of once per board.
    """
    p = params or SpotParams.default()
    res = np.asarray(resource_index)
    pip = np.asarray(pips, dtype=np.float64)
    ports = np.asarray(port_index)
    if res.ndim != 2 or res.shape != pip.shape or ports.ndim != 2 or ports.shape[0] != res.shape[0]:
        raise CatanError(
            f"batch arrays must be (B, 19), (B, 19), (B, 9); got {res.shape}, {pip.shape}, {ports.shape}"
        )
    n = res.shape[0]
    hex_prod = np.zeros((n, 6, res.shape[1]))
    np.put_along_axis(hex_prod, res[:, None, :], pip[:, None, :], axis=1)  # (B, 6, 19), desert row 5
    prod = hex_prod[:, :5] @ _HEX_SPOT_CANON  # (B, 5, 54) in RESOURCES order
    totals = hex_prod[:, :5].sum(axis=2)  # (B, 5)
    with np.errstate(divide="ignore", invalid="ignore"):
        scarcity = np.where(totals > 0, 1.0 / totals, SCARCITY_CAP)
        comp = totals[:, _COMP_INDEX]
        ratio = np.clip(comp / totals, 1.0 / SCARCITY_CAP, SCARCITY_CAP)
    ratio = np.where(totals > 0, ratio, np.where(comp > 0, SCARCITY_CAP, 1.0))
    pairwise = np.where(_HAS_COMP, ratio, 1.0)
    strength = (np.asarray(p.base_resource_strength) * scarcity * pairwise) ** p.dampening_factor
    d = totals * strength
    ordered = np.sort(d, axis=1)
    norm = np.where(ordered[:, -2] > 0, ordered[:, -2], np.where(ordered[:, -1] > 0, ordered[:, -1], 1.0))
    kind = np.concatenate([d / norm[:, None], np.ones((n, 1)), np.zeros((n, 1))], axis=1)  # 5 = 3:1, 6 = none
    slot_kind = np.concatenate([np.where(ports < 0, 5, ports), np.full((n, 1), 6)], axis=1)  # (B, 10)
    port_metric = np.take_along_axis(kind, slot_kind, axis=1)[:, _SPOT_SLOT] * p.port_bonus  # (B, 54)
    m1 = prod.sum(axis=1)
    m2 = np.einsum("br,brs->bs", strength, prod)
    distinct = (prod > 0).sum(axis=1)
    m4 = np.where((m1 >= 10) & (distinct >= 3), p.prime_variate_bonus, 0.0)
    m5 = p.parity_preference * (np.minimum(prod[:, 0], prod[:, 1]) + np.minimum(prod[:, 3], prod[:, 4]))
    w = p.eval_weights
    return w[0] * m1 + w[1] * m2 + w[2] * port_metric + w[3] * m4 + w[4] * m5


_HEX_SPOT_CANON = _HEX_SPOT_F
_COMP_INDEX = np.array([1, 0, 2, 4, 3])
_HAS_COMP = np.array([True, True, False, True, True])
