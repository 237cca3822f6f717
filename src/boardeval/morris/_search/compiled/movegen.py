"""Compiled Nine Men's Morris core (private): bitboard state, move generation, make/unmake, draw rules,
the static evaluation and perft, all compiled with numba (``@njit(cache=True)``: the machine code is cached
in ``__pycache__`` next to this file, so the compile happens once per machine).

The public face stays :class:`boardeval.morris.rules.Position`; this module is checked against it (tests in
``tests/morris/test_engine*.py``): perft equal to the golden table in both conventions, equal legal-turn
sets along seeded random games, and a score equal to ``boardeval.morris.evaluate`` on sampled positions.

State. Side-relative bitboards: ``me`` / ``opp`` (24-bit masks of the side to move and of the other side),
``hme`` / ``hopp`` (men in hand), ``side`` (0 White, 1 Black: only the hash needs it), ``turns`` (turns
played, for the ``max_turns`` draw), ``quiet`` (turns since the last placement or removal, the rules'
``quiet_turns``), ``h`` (the Zobrist hash, the same keys as ``rules.Position.zobrist``, so repetition is
decided on the same numbers as the rules module). A *turn is atomic*: a placement or move together with its
removal, the public ``Turn``; perft still counts both conventions (``removal_plies``). A turn is an int::

    src | dst << 5 | rem << 10        (src 24: a placement; rem 24: no removal)

History. Threefold repetition needs the hashes since the last irreversible turn: ``hist[0..cur]`` holds the
hashes of the game and the line searched so far, ``hist[cur]`` the current position's.

Cache. numba's cache does not follow imports: a cached function of ``_engine.py`` holds a copy of the code
it calls here, so after editing this file delete ``__pycache__/_engine.*.nbi`` / ``.nbc`` as well.

Evaluation. ``coef[phase, f]`` = weight x PHASE_SCALE / NORM (the caller compiles the weight set, so this
module does not depend on the evaluation module); the features are ported one for one from
``features.py`` (same definitions, same order: :data:`ENGINE_FEATURES`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir
from numba.extending import intrinsic

from boardeval.morris._features import FEATURES, JUNCTIONS
from boardeval.morris.board import (
    ADJ_MASK,
    EDGES,
    MILL_MASKS,
    N_POINTS,
    POINT_MILL_MASKS,
    RING,
    RING_MASKS,
    RING_WEIGHT,
    VERTICAL_ORDER,
)
from boardeval.morris.rules import Position, Turn, make_turn, zobrist_of

__all__ = [
    "ENGINE_FEATURES",
    "MAX_TURNS_PER_NODE",
    "NONE_POINT",
    "NO_LIMIT",
    "N_FEATURES",
    "EngineState",
    "decode",
    "encode",
    "njit_cached",
    "state_of",
    "turn_of",
]

F = TypeVar("F", bound=Callable[..., Any])


def njit_cached(fn: F) -> F:
    """``numba.njit(cache=True)`` with the function's type kept for mypy."""
    return cast(F, numba.njit(cache=True)(fn))


ENGINE_FEATURES: Final[tuple[str, ...]] = FEATURES
"""The feature order of the compiled evaluation: the Python evaluation's own ``FEATURES``."""

N_FEATURES: Final[int] = len(ENGINE_FEATURES)
"""Features per phase in a coefficient table (``coef[off + N_FEATURES * phase + feature]``)."""
assert N_FEATURES == 13, "the compiled features below are written out one by one: port a new one"

NONE_POINT: Final[int] = 24
"""``src`` of a placement and ``rem`` of a turn without removal in the int encoding."""

NO_LIMIT: Final[int] = -1
"""``max_turns`` / ``no_mill_turns`` of a variant without that rule."""

MAX_TURNS_PER_NODE: Final[int] = 512
"""Move-buffer size per ply; the true maximum is below 340 (9 men x 4 targets x 9 removals, or flying)."""

FULL: Final[int] = (1 << N_POINTS) - 1
PLACING, MOVING, FLYING = 0, 1, 2

# ---- tables (compiled into the machine code as constants) -------------------------------------------

_ADJ = np.array(ADJ_MASK, dtype=np.int64)
_MILLS = np.array(MILL_MASKS, dtype=np.int64)
_PMILL = np.array(POINT_MILL_MASKS, dtype=np.int64)  # (24, 2): the two mills through each point
_RINGW = np.array([RING_WEIGHT[r] for r in RING], dtype=np.float64)
_RINGW_OUTER = float(RING_WEIGHT["outer"])
_RINGW_MIDDLE = float(RING_WEIGHT["middle"])


def _byte_tables(image: list[int]) -> np.ndarray:
    """(3, 256) tables mapping each byte of a 24-bit board to the union of ``image[point]`` of its bits."""
    table = np.zeros((3, 256), dtype=np.int64)
    for byte in range(3):
        for v in range(256):
            out = 0
            for b in range(8):
                if v >> b & 1:
                    out |= image[8 * byte + b]
            table[byte, v] = out
    return table


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
_NB = _byte_tables(list(ADJ_MASK))
assert RING_WEIGHT["outer"] == RING_WEIGHT["inner"]


def _zobrist_keys() -> tuple[np.ndarray, np.ndarray, np.uint64]:
    """The rules module's Zobrist keys, recovered through its public ``zobrist_of``.

    ``zm[s, p]`` is the key of a man of side s on point p, ``zh[s, h]`` the key change from 0 to h men in
    hand (only differences of hand keys are ever used), ``zb`` the side-to-move key.
    """
    base = zobrist_of((0, 0), (0, 0), 0)
    zm = np.zeros((2, N_POINTS), dtype=np.uint64)
    zh = np.zeros((2, 10), dtype=np.uint64)
    for p in range(N_POINTS):
        zm[0, p] = zobrist_of((1 << p, 0), (0, 0), 0) ^ base
        zm[1, p] = zobrist_of((0, 1 << p), (0, 0), 0) ^ base
    for h in range(10):
        zh[0, h] = zobrist_of((0, 0), (h, 0), 0) ^ base
        zh[1, h] = zobrist_of((0, 0), (0, h), 0) ^ base
    return zm, zh, np.uint64(zobrist_of((0, 0), (0, 0), 1) ^ base)


_ZM, _ZH, _ZB = _zobrist_keys()


# ---- bit intrinsics ------------------------------------------------------------------------------------


@intrinsic
def _popcnt_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM ``ctpop``: number of set bits."""
    sig = x(x)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctz_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM ``cttz``: index of the lowest set bit (x must be non-zero)."""
    sig = x(x)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


_popcnt = cast(Callable[[int], int], _popcnt_intrinsic)
_ctz = cast(Callable[[int], int], _ctz_intrinsic)


@njit_cached
def popcount(x: int) -> int:
    """Set bits of a bitboard (compiled)."""
    return _popcnt(x)


@njit_cached
def neighbours(m: int) -> int:
    """Points adjacent to a point of ``m`` (three byte look-ups)."""
    return _lut(_NB, m)


@njit_cached
def _lut(t: np.ndarray, m: int) -> int:
    return t[0, m & 0xFF] | t[1, (m >> 8) & 0xFF] | t[2, (m >> 16) & 0xFF]


@njit_cached
def in_mills(m: int) -> int:
    """The men of ``m`` standing in a closed mill of their side."""
    r = 0
    for k in range(16):
        mk = _MILLS[k]
        if m & mk == mk:
            r |= mk
    return r


@njit_cached
def removable(opp: int) -> int:
    """The opponent men a mill may remove: outside mills, or all of them if every one stands in a mill."""
    free = opp & ~in_mills(opp)
    return free if free != 0 else opp


@njit_cached
def phase_of(men: int, hand: int, flying: bool) -> int:
    """PLACING (men in hand), FLYING (3 men, none in hand, variant allows it) or MOVING."""
    if hand > 0:
        return PLACING
    if flying and _popcnt(men) == 3:
        return FLYING
    return MOVING


@njit_cached
def has_move(me: int, opp: int, hme: int, flying: bool) -> bool:
    """The side to move has a placement or move (at most 17 men stand on the board while a side places)."""
    if hme > 0:
        return True
    empty = FULL ^ (me | opp)
    if flying and _popcnt(me) == 3:
        return empty != 0
    return (neighbours(me) & empty) != 0


@njit_cached
def closes(after: int, dst: int) -> bool:
    """True if ``after`` (own men after the placement/move) holds a full line through ``dst``."""
    m0 = _PMILL[dst, 0]
    m1 = _PMILL[dst, 1]
    return (after & m0) == m0 or (after & m1) == m1


# ---- move generation -----------------------------------------------------------------------------------


@njit_cached
def generate(me: int, opp: int, hme: int, flying: bool, out: np.ndarray, off: int) -> int:
    """Write the legal turns of a position that is not over into ``out[off:]``; return how many.

    Same order as ``Position.legal_turns`` (sources, then targets, then removals, by increasing index).
    """
    n = 0
    empty = FULL ^ (me | opp)
    rem_mask = -1
    if hme > 0:
        t = empty
        while t:
            low = t & -t
            t ^= low
            dst = _ctz(low)
            if opp != 0 and closes(me | low, dst):
                if rem_mask < 0:
                    rem_mask = removable(opp)
                r = rem_mask
                while r:
                    rb = r & -r
                    r ^= rb
                    out[off + n] = 24 | (dst << 5) | (_ctz(rb) << 10)
                    n += 1
            else:
                out[off + n] = 24 | (dst << 5) | (24 << 10)
                n += 1
        return n
    fly = flying and _popcnt(me) == 3
    s = me
    while s:
        sb = s & -s
        s ^= sb
        src = _ctz(sb)
        t = empty if fly else _ADJ[src] & empty
        base = me ^ sb
        while t:
            low = t & -t
            t ^= low
            dst = _ctz(low)
            if opp != 0 and closes(base | low, dst):
                if rem_mask < 0:
                    rem_mask = removable(opp)
                r = rem_mask
                while r:
                    rb = r & -r
                    r ^= rb
                    out[off + n] = src | (dst << 5) | (_ctz(rb) << 10)
                    n += 1
            else:
                out[off + n] = src | (dst << 5) | (24 << 10)
                n += 1
    return n


@njit_cached
def count_turns(me: int, opp: int, hme: int, flying: bool, actions: bool) -> int:
    """Number of legal turns (``actions``: placements/moves, a mill counted once) without generating them."""
    empty = FULL ^ (me | opp)
    extra = 0
    if not actions and opp != 0:
        extra = _popcnt(removable(opp)) - 1
    if hme > 0:
        n = _popcnt(empty)
        if extra > 0:
            t = empty
            while t:
                low = t & -t
                t ^= low
                if closes(me | low, _ctz(low)):
                    n += extra
        return n
    fly = flying and _popcnt(me) == 3
    n = 0
    s = me
    while s:
        sb = s & -s
        s ^= sb
        src = _ctz(sb)
        t = empty if fly else _ADJ[src] & empty
        n += _popcnt(t)
        if extra > 0:
            base = me ^ sb
            while t:
                low = t & -t
                t ^= low
                if closes(base | low, _ctz(low)):
                    n += extra
    return n


@njit_cached
def apply_turn(
    me: int, opp: int, hme: int, side: int, h: np.uint64, m: int
) -> tuple[int, int, int, Any, bool]:
    """Play turn ``m``: (the mover's men, the opponent's men, the mover's hand, new hash, irreversible).

    The caller swaps the roles (the opponent moves next). ``h`` gets the side-to-move key toggled too.
    """
    src = m & 31
    dst = (m >> 5) & 31
    rem = (m >> 10) & 31
    nh = h ^ _ZB
    if src == 24:
        nme = me | (1 << dst)
        nhme = hme - 1
        nh = nh ^ _ZH[side, hme] ^ _ZH[side, hme - 1] ^ _ZM[side, dst]
        irrev = True
    else:
        nme = me ^ ((1 << src) | (1 << dst))
        nhme = hme
        nh = nh ^ _ZM[side, src] ^ _ZM[side, dst]
        irrev = False
    nopp = opp
    if rem != 24:
        nopp = opp ^ (1 << rem)
        nh = nh ^ _ZM[1 - side, rem]
        irrev = True
    return nme, nopp, nhme, nh, irrev


# ---- game end (the rules module's status, in its order) -------------------------------------------------


@njit_cached
def repetitions(hist: np.ndarray, cur: int, quiet: int) -> int:
    """Occurrences of ``hist[cur]`` among the positions since the last irreversible turn (itself included).

    Only every second entry can match (the hash holds the side to move), so only those are compared.
    """
    h = hist[cur]
    n = 1
    i = cur - 2
    lo = cur - quiet
    while i >= lo:
        if hist[i] == h:
            n += 1
        i -= 2
    return n


@njit_cached
def game_over(
    me: int,
    opp: int,
    hme: int,
    flying: bool,
    turns: int,
    quiet: int,
    hist: np.ndarray,
    cur: int,
    max_turns: int,
    threefold: bool,
    no_mill: int,
) -> int:
    """0 ongoing, -1 the side to move has lost, 2 drawn -- decided exactly like ``Position.status``.

    Order: fewer than 3 men, no legal move (losses first), then the turn limit, threefold repetition and
    the no-mill rule.
    """
    if _popcnt(me) + hme < 3:
        return -1
    if not has_move(me, opp, hme, flying):
        return -1
    if max_turns >= 0 and turns >= max_turns:
        return 2
    if threefold and quiet >= 4 and repetitions(hist, cur, quiet) >= 3:
        return 2
    if no_mill >= 0 and quiet >= no_mill:
        return 2
    return 0


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
    if hme > 0 or hopp > 0:
        empty = FULL ^ (me | opp)
        pa = placing_terms(me, opp, empty)
        pb = placing_terms(opp, me, empty)
        total += c[10] * (pa[0] - pb[0]) + c[11] * (pa[1] - pb[1]) + c[12] * (pa[2] - pb[2])
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


# ---- perft ---------------------------------------------------------------------------------------------


@njit_cached
def _perft(
    me: int,
    opp: int,
    hme: int,
    hopp: int,
    side: int,
    turns: int,
    quiet: int,
    hist: np.ndarray,
    cur: int,
    depth: int,
    actions: bool,
    flying: bool,
    max_turns: int,
    threefold: bool,
    no_mill: int,
    buf: np.ndarray,
) -> int:
    """Leaf count ``depth`` plies below (``actions``: a removal is its own ply, OpenSpiel's convention)."""
    if game_over(me, opp, hme, flying, turns, quiet, hist, cur, max_turns, threefold, no_mill) != 0:
        return 0
    if depth == 1:
        return count_turns(me, opp, hme, flying, actions)
    moves = buf[depth]
    n = generate(me, opp, hme, flying, moves, 0)
    total = 0
    h = hist[cur]
    for i in range(n):
        m = moves[i]
        rem = (m >> 10) & 31
        d = depth - 1
        if actions and rem != 24:
            if depth == 2:
                total += 1  # the removal is the last ply
                continue
            d = depth - 2
        nme, nopp, nhme, nh, irrev = apply_turn(me, opp, hme, side, h, m)
        hist[cur + 1] = nh
        total += _perft(
            nopp,
            nme,
            hopp,
            nhme,
            1 - side,
            turns + 1,
            0 if irrev else quiet + 1,
            hist,
            cur + 1,
            d,
            actions,
            flying,
            max_turns,
            threefold,
            no_mill,
            buf,
        )
    return total


# ---- Python side -------------------------------------------------------------------------------------


def encode(turn: Turn) -> int:
    """The int encoding of a public :class:`Turn`."""
    src = NONE_POINT if turn.src is None else turn.src
    rem = NONE_POINT if turn.remove is None else turn.remove
    return src | turn.dst << 5 | rem << 10


def decode(m: int) -> tuple[int | None, int, int | None]:
    """(src or None, dst, removed point or None) of an encoded turn."""
    src, dst, rem = m & 31, (m >> 5) & 31, (m >> 10) & 31
    return (None if src == NONE_POINT else src), dst, (None if rem == NONE_POINT else rem)


def turn_of(m: int) -> Turn:
    """The shared public :class:`Turn` of an encoded turn."""
    src, dst, rem = decode(int(m))
    return make_turn(src, dst, rem)


class EngineState:
    """A position in engine form, with its hash history, and make/unmake (tests, random games, the root).

    ``hist[0..cur]`` holds the hashes since the last irreversible turn of the game (``quiet`` of them before
    the current one) plus room for ``extra`` more plies.
    """

    __slots__ = (
        "cur",
        "flying",
        "hand",
        "hist",
        "max_turns",
        "men",
        "no_mill",
        "quiet",
        "side",
        "threefold",
        "turns",
        "undo",
    )

    def __init__(self, pos: Position, extra: int = 1024) -> None:
        v = pos.variant
        self.men = [pos.men[0], pos.men[1]]
        self.hand = [pos.hand[0], pos.hand[1]]
        self.side = pos.side
        self.turns = pos.turns
        self.flying = v.flying
        self.max_turns = NO_LIMIT if v.max_turns is None else v.max_turns
        self.no_mill = NO_LIMIT if v.no_mill_turns is None else v.no_mill_turns
        self.threefold = v.threefold_repetition
        # the hashes since the last irreversible turn, oldest first, through the public API (pop a copy)
        q = pos.quiet_turns
        work = pos.copy()
        back = [work.zobrist]
        for _ in range(q):
            work.pop()
            back.append(work.zobrist)
        self.quiet = q
        self.hist = np.zeros(q + 1 + extra, dtype=np.uint64)
        self.hist[: q + 1] = np.array(back[::-1], dtype=np.uint64)
        self.cur = q
        self.undo: list[tuple[int, int]] = []

    @property
    def hash(self) -> int:
        """The Zobrist hash (equal to ``Position.zobrist`` of the same position)."""
        return int(self.hist[self.cur])

    def args(self) -> tuple[int, int, int, int, int]:
        """(me, opp, hme, hopp, side): the side-relative bitboards and hands."""
        s = self.side
        return self.men[s], self.men[1 - s], self.hand[s], self.hand[1 - s], s

    def status(self) -> int:
        """0 ongoing, -1 the side to move has lost, 2 drawn."""
        me, opp, hme, _hopp, _s = self.args()
        return int(
            game_over(
                me,
                opp,
                hme,
                self.flying,
                self.turns,
                self.quiet,
                self.hist,
                self.cur,
                self.max_turns,
                self.threefold,
                self.no_mill,
            )
        )

    def legal(self) -> list[int]:
        """The legal turns (encoded), in ``Position.legal_turns`` order; [] once the game is over."""
        if self.status() != 0:
            return []
        me, opp, hme, _hopp, _s = self.args()
        buf = np.zeros(MAX_TURNS_PER_NODE, dtype=np.int64)
        n = generate(me, opp, hme, self.flying, buf, 0)
        return [int(x) for x in buf[:n]]

    def make(self, m: int) -> None:
        """Play encoded turn ``m`` (not checked)."""
        if self.cur + 1 >= len(self.hist):
            self.hist = np.concatenate([self.hist, np.zeros(len(self.hist), dtype=np.uint64)])
        me, opp, hme, _hopp, s = self.args()
        nme, nopp, nhme, nh, irrev = apply_turn(me, opp, hme, s, self.hist[self.cur], m)
        self.undo.append((m, self.quiet))
        self.men[s], self.men[1 - s], self.hand[s] = int(nme), int(nopp), int(nhme)
        self.side = 1 - s
        self.turns += 1
        self.quiet = 0 if irrev else self.quiet + 1
        self.cur += 1
        self.hist[self.cur] = nh

    def unmake(self) -> int:
        """Undo the last :meth:`make` and return its turn."""
        m, quiet = self.undo.pop()
        src, dst, rem = decode(m)
        s = 1 - self.side
        if src is None:
            self.men[s] ^= 1 << dst
            self.hand[s] += 1
        else:
            self.men[s] ^= (1 << src) | (1 << dst)
        if rem is not None:
            self.men[1 - s] |= 1 << rem
        self.side = s
        self.turns -= 1
        self.quiet = quiet
        self.cur -= 1
        return m

    def evaluate(self, coef: np.ndarray) -> float:
        """The compiled static score (side to move's view) of a position that is not over."""
        me, opp, hme, hopp, _s = self.args()
        return float(evaluate(me, opp, hme, hopp, self.flying, coef))

    def perft(self, depth: int, removal_plies: bool = False) -> int:
        """Compiled perft (both conventions, every draw rule of the variant) from this state."""
        if depth == 0:
            return 1
        me, opp, hme, hopp, s = self.args()
        hist = np.zeros(self.cur + depth + 2, dtype=np.uint64)
        hist[: self.cur + 1] = self.hist[: self.cur + 1]
        buf = np.zeros((depth + 1, MAX_TURNS_PER_NODE), dtype=np.int64)
        return int(
            _perft(
                me,
                opp,
                hme,
                hopp,
                s,
                self.turns,
                self.quiet,
                hist,
                self.cur,
                depth,
                removal_plies,
                self.flying,
                self.max_turns,
                self.threefold,
                self.no_mill,
                buf,
            )
        )


def state_of(pos: Position, extra: int = 1024) -> EngineState:
    """The engine form of a public position (its game history included, for the repetition rule)."""
    return EngineState(pos, extra)
