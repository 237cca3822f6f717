"""Compiled Nine Men's Morris evaluation (private): the features of :mod:`boardeval.morris._features`
ported one for one (same definitions, same order: :data:`ENGINE_FEATURES`), weighted by a coefficient table.

``coef[phase, f]`` = weight x PHASE_SCALE / NORM (the caller compiles the weight set with
``options.coefficients``, so this module does not depend on the evaluation module). Checked against
``boardeval.morris.evaluate`` on sampled positions to 1e-9 (``tests/morris/search/test_engine.py``).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from boardeval.morris._features import FEATURES, JUNCTIONS, LIBERTY_CAP
from boardeval.morris._search.compiled.jit import njit_cached
from boardeval.morris._search.compiled.movegen import (
    _ADJ,
    _MILLS,
    _NB,
    _PMILL,
    FLYING,
    FULL,
    MOVING,
    PLACING,
    _byte_tables,
    _ctz,
    _lut,
    _popcnt,
    phase_of,
)
from boardeval.morris.board import ADJ_MASK, EDGES, N_POINTS, RING, RING_MASKS, RING_WEIGHT, VERTICAL_ORDER

__all__ = [
    "ENGINE_FEATURES",
    "N_FEATURES",
    "evaluate",
    "evaluate_fast",
    "liberties",
    "placing_terms",
    "side_features",
]

ENGINE_FEATURES: Final[tuple[str, ...]] = FEATURES
"""The feature order of the compiled evaluation: the Python evaluation's own ``FEATURES``."""

N_FEATURES: Final[int] = len(ENGINE_FEATURES)
"""Features per phase in a coefficient table (``coef[off + N_FEATURES * phase + feature]``)."""
assert N_FEATURES == 14, "the compiled features below are written out one by one: port a new one"


_RINGW = np.array([RING_WEIGHT[r] for r in RING], dtype=np.float64)
_RINGW_OUTER = float(RING_WEIGHT["outer"])
_RINGW_MIDDLE = float(RING_WEIGHT["middle"])


# Bit-parallel mills: the 8 rows are the aligned triples (3k, 3k+1, 3k+2); VERTICAL_ORDER permutes the 8
# columns into aligned triples too (board.py). LOW marks the first bit of each triple, PAIR the first two
# (the start of an edge inside a triple: every edge of the board is such a pair, in one of the two orders).
_LOW = sum(1 << (3 * k) for k in range(8))
_PAIR = _LOW | (_LOW << 1)
_TO_V = _byte_tables([1 << VERTICAL_ORDER.index(p) for p in range(N_POINTS)])
_FROM_V = _byte_tables([1 << VERTICAL_ORDER[j] for j in range(N_POINTS)])
_H_NB = [
    sum(1 << q for a, b in EDGES for q in (a, b) if p in (a, b) and q != p and abs(a - b) == 1)
    for p in range(N_POINTS)
]
_V_NB = [ADJ_MASK[p] & ~_H_NB[p] for p in range(N_POINTS)]
_HNB = _byte_tables(_H_NB)  # points with a horizontal neighbour in the board
_VNB = _byte_tables(_V_NB)  # points with a vertical neighbour in the board
_MIDDLE = RING_MASKS["middle"]
_JUNCTIONS = JUNCTIONS
_LIBERTY_CAP = LIBERTY_CAP
assert RING_WEIGHT["outer"] == RING_WEIGHT["inner"]


# ---- evaluation ---------------------------------------------------------------------------------------


@njit_cached
def placing_terms(own: int, opp: int, empty: int) -> tuple[float, float, float]:
    """(future_mobility, cramped, junctions) of the side owning ``own`` (``_features``: placing stage only,
    the caller checks that a man is still in hand)."""
    fut = 0
    x = own
    while x:
        b = x & -x
        x ^= b
        fut += _popcnt(_ADJ[_ctz(b)] & empty)
    return float(fut), _cramped(opp, empty), float(_popcnt(own & _JUNCTIONS))


@njit_cached
def liberties(own: int, empty: int, opp_hand: int, phase: int) -> float:
    """The ``liberties`` feature (``_features.liberties``): distinct free points next to ``own`` less the
    opponent's men in hand, in 0..LIBERTY_CAP; the cap for a flying side."""
    if phase == FLYING:
        return float(_LIBERTY_CAP)
    return float(min(_LIBERTY_CAP, max(0, _popcnt(_lut(_NB, own) & empty) - opp_hand)))


@njit_cached
def side_features(
    own: int, opp: int, hand: int, phase: int, opp_phase: int, to_move: bool
) -> tuple[float, float, float, float, float, float, float, float, float, float]:
    """The first ten raw features of one side (``features._side_values`` ported; same definitions and
    order); the placing-phase ones come from :func:`placing_terms`."""
    empty = FULL ^ (own | opp)
    mills = 0
    open_mills = 0
    closes_ = 0
    seen = 0
    double = 0
    for k in range(16):
        mask = _MILLS[k]
        c = _popcnt(own & mask)
        if c == 3:
            mills += 1
        elif c == 2:
            gap = mask & empty
            if gap != 0:
                open_mills += 1
                p = _ctz(gap)
                if phase == PLACING:
                    ok = True
                elif phase == FLYING:
                    ok = (own & ~mask) != 0
                else:
                    ok = (_ADJ[p] & own & ~mask) != 0
                if ok:
                    if seen & gap:
                        double |= gap
                    seen |= gap
                    closes_ |= gap
    if double != 0 and phase != PLACING:
        checked = 0
        x = double
        while x:
            b = x & -x
            x ^= b
            p = _ctz(b)
            both = _PMILL[p, 0] | _PMILL[p, 1]
            src = _ADJ[p] if phase == MOVING else FULL
            if src & own & ~both:
                checked |= b
        double = checked
    threats = _popcnt(closes_)
    fork = 0.0
    if threats >= 2:
        x = closes_
        while x:
            b = x & -x
            x ^= b
            fork += _RINGW[_ctz(b)]
    mobility = 0
    links = 0
    x = own
    while x:
        b = x & -x
        x ^= b
        adj = _ADJ[_ctz(b)]
        links += _popcnt(adj & own)
        if phase == MOVING:
            mobility += _popcnt(adj & empty)
    blocked = 0
    if opp_phase == MOVING:
        x = opp
        while x:
            b = x & -x
            x ^= b
            if _ADJ[_ctz(b)] & empty == 0:
                blocked += 1
    initiative = (threats if to_move else 0) + max(0, threats - 1)
    return (
        float(_popcnt(own) + hand),
        float(mills),
        float(open_mills),
        float(threats),
        float(_popcnt(double)),
        fork,
        float(mobility),
        float(blocked),
        float(links // 2),
        float(initiative),
    )


@njit_cached
def evaluate(me: int, opp: int, hme: int, hopp: int, flying: bool, coef: np.ndarray) -> float:
    """Static score of a position that is not over, from the side to move's view (``Evaluator.score``)."""
    ph_me = phase_of(me, hme, flying)
    ph_opp = phase_of(opp, hopp, flying)
    a = side_features(me, opp, hme, ph_me, ph_opp, True)
    b = side_features(opp, me, hopp, ph_opp, ph_me, False)
    c = coef[ph_me]
    total = (
        c[0] * (a[0] - b[0])
        + c[1] * (a[1] - b[1])
        + c[2] * (a[2] - b[2])
        + c[3] * (a[3] - b[3])
        + c[4] * (a[4] - b[4])
        + c[5] * (a[5] - b[5])
        + c[6] * (a[6] - b[6])
        + c[7] * (a[7] - b[7])
        + c[8] * (a[8] - b[8])
        + c[9] * (a[9] - b[9])
    )
    empty = FULL ^ (me | opp)
    if hme > 0 or hopp > 0:
        pa = placing_terms(me, opp, empty)
        pb = placing_terms(opp, me, empty)
        total += c[10] * (pa[0] - pb[0]) + c[11] * (pa[1] - pb[1]) + c[12] * (pa[2] - pb[2])
    total += c[13] * (liberties(me, empty, hopp, ph_me) - liberties(opp, empty, hme, ph_opp))
    return total


@njit_cached
def _lines(x: int, e: int) -> tuple[int, int, int]:
    """Over aligned triples: (full lines, lines with 2 of x + 1 of e, their gap points as a board)."""
    a = x & _LOW
    b = (x >> 1) & _LOW
    c = (x >> 2) & _LOW
    ea = e & _LOW
    eb = (e >> 1) & _LOW
    ec = (e >> 2) & _LOW
    g2 = a & b & ec
    g1 = a & c & eb
    g0 = b & c & ea
    return _popcnt(a & b & c), _popcnt(g0 | g1 | g2), g0 | (g1 << 1) | (g2 << 2)


@njit_cached
def _pairs(x: int, y: int) -> int:
    """Edges inside aligned triples with one end in x and the other in y (x == y: each pair once)."""
    if x == y:
        return _popcnt(x & (x >> 1) & _PAIR)
    return _popcnt(x & (y >> 1) & _PAIR) + _popcnt(y & (x >> 1) & _PAIR)


@njit_cached
def fast_side(
    own: int, ownv: int, opp: int, empty: int, emptyv: int, hand: int, phase: int, opp_phase: int
) -> tuple[float, float, float, float, float, float, float, float, float, float]:
    """:func:`side_features` with bit-parallel line counts (same values; ``initiative`` without the
    side-to-move part, which the caller adds). ``ownv`` / ``emptyv`` are the boards in vertical order."""
    mh, oh, gh = _lines(own, empty)
    mv, ov, gvv = _lines(ownv, emptyv)
    gv = _lut(_FROM_V, gvv)
    if phase == PLACING:
        th = gh
        tv = gv
    elif phase == FLYING:
        th = gh if _popcnt(own) >= 3 else 0
        tv = gv if _popcnt(own) >= 3 else 0
    else:
        th = gh & _lut(_VNB, own)  # the closing man comes along the other line through the point
        tv = gv & _lut(_HNB, own)
    thr = th | tv
    double = th & tv
    if double != 0 and phase != PLACING:
        checked = 0
        x = double
        while x:
            b = x & -x
            x ^= b
            p = _ctz(b)
            both = _PMILL[p, 0] | _PMILL[p, 1]
            src = _ADJ[p] if phase == MOVING else FULL
            if src & own & ~both:
                checked |= b
        double = checked
    threats = _popcnt(thr)
    fork = 0.0
    if threats >= 2:
        mid = _popcnt(thr & _MIDDLE)
        fork = float(threats - mid) * _RINGW_OUTER + float(mid) * _RINGW_MIDDLE
    mobility = 0
    if phase == MOVING:
        mobility = _pairs(own, empty) + _pairs(ownv, emptyv)
    blocked = 0
    if opp_phase == MOVING:
        blocked = _popcnt(opp & ~_lut(_NB, empty))
    return (
        float(_popcnt(own) + hand),
        float(mh + mv),
        float(oh + ov),
        float(threats),
        float(_popcnt(double)),
        fork,
        float(mobility),
        float(blocked),
        float(_pairs(own, own) + _pairs(ownv, ownv)),
        float(max(0, threats - 1)),
    )


@njit_cached
def evaluate_fast(me: int, opp: int, hme: int, hopp: int, flying: bool, coef: np.ndarray, off: int) -> float:
    """:func:`evaluate` on bit-parallel features: the search's leaf evaluation (same score).

    ``coef[off + N_FEATURES * phase + feature]`` is the flat coefficient table."""
    ph_me = phase_of(me, hme, flying)
    ph_opp = phase_of(opp, hopp, flying)
    empty = FULL ^ (me | opp)
    ev = _lut(_TO_V, empty)
    mev = _lut(_TO_V, me)
    oev = _lut(_TO_V, opp)
    a = fast_side(me, mev, opp, empty, ev, hme, ph_me, ph_opp)
    b = fast_side(opp, oev, me, empty, ev, hopp, ph_opp, ph_me)
    o = off + N_FEATURES * ph_me
    total = (
        coef[o + 0] * (a[0] - b[0])
        + coef[o + 1] * (a[1] - b[1])
        + coef[o + 2] * (a[2] - b[2])
        + coef[o + 3] * (a[3] - b[3])
        + coef[o + 4] * (a[4] - b[4])
        + coef[o + 5] * (a[5] - b[5])
        + coef[o + 6] * (a[6] - b[6])
        + coef[o + 7] * (a[7] - b[7])
        + coef[o + 8] * (a[8] - b[8])
        + coef[o + 9] * ((a[9] + a[3]) - b[9])
    )
    if hme > 0 or hopp > 0:
        # the placing-phase terms: skipped when their coefficients are 0 (the seed's weights)
        c10 = coef[o + 10]
        c11 = coef[o + 11]
        c12 = coef[o + 12]
        if c10 != 0.0:
            fut = _pairs(me, empty) + _pairs(mev, ev) - _pairs(opp, empty) - _pairs(oev, ev)
            total += c10 * float(fut)
        if c11 != 0.0:
            total += c11 * (_cramped(opp, empty) - _cramped(me, empty))
        if c12 != 0.0:
            total += c12 * float(_popcnt(me & _JUNCTIONS) - _popcnt(opp & _JUNCTIONS))
    c13 = coef[o + 13]
    if c13 != 0.0:  # 0 in the seed's weights, and while the side to move flies
        total += c13 * (liberties(me, empty, hopp, ph_me) - liberties(opp, empty, hme, ph_opp))
    return total


@njit_cached
def _cramped(men: int, empty: int) -> float:
    """Men of ``men`` in groups joined by lines with at most one free neighbour between them."""
    n = 0
    rest = men
    while rest:
        group = rest & -rest
        while True:
            grown = group | (_lut(_NB, group) & men)
            if grown == group:
                break
            group = grown
        if _popcnt(_lut(_NB, group) & empty) <= 1:
            n += _popcnt(group)
        rest &= ~group
    return float(n)
