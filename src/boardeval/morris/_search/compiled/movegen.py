"""Compiled Nine Men's Morris rules (private): bitboard tables, move generation, turns applied, game ends
and perft, compiled with numba (``@njit(cache=True)``, see :mod:`.jit`).

The public face stays :class:`boardeval.morris.rules.Position`; this module is checked against it (tests in
``tests/morris/search/test_engine*.py``): perft equal to the golden table in both conventions, equal
legal-turn sets along seeded random games.

State. Side-relative bitboards: ``me`` / ``opp`` (24-bit masks of the side to move and of the other side),
``hme`` / ``hopp`` (men in hand), ``side`` (0 White, 1 Black: only the hash needs it), ``turns`` (turns
played, for the ``max_turns`` draw), ``quiet`` (turns since the last placement or removal, the rules'
``quiet_turns``), ``h`` (the Zobrist hash, the same keys as ``rules.Position.zobrist``, so repetition is
decided on the same numbers as the rules module). A *turn is atomic*: a placement or move together with its
removal, the public ``Turn``; perft still counts both conventions (``removal_plies``). A turn is an int::

    src | dst << 5 | rem << 10        (src 24: a placement; rem 24: no removal)

History. Threefold repetition needs the hashes since the last irreversible turn: ``hist[0..cur]`` holds the
hashes of the game and the line searched so far, ``hist[cur]`` the current position's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba.extending import intrinsic

from boardeval.morris._search.compiled.jit import njit_cached
from boardeval.morris._search.compiled.layout import (
    FLYING,
    FULL,
    MAX_TURNS_PER_NODE,
    MOVING,
    NO_LIMIT,
    NONE_POINT,
    PLACING,
)
from boardeval.morris.board import ADJ_MASK, MILL_MASKS, N_POINTS, POINT_MILL_MASKS, zobrist_of

__all__ = ["FLYING", "FULL", "MAX_TURNS_PER_NODE", "MOVING", "NONE_POINT", "NO_LIMIT", "PLACING"]

# ---- tables (compiled into the machine code as constants) -------------------------------------------

_ADJ = np.array(ADJ_MASK, dtype=np.int64)
_MILLS = np.array(MILL_MASKS, dtype=np.int64)
_PMILL = np.array(POINT_MILL_MASKS, dtype=np.int64)  # (24, 2): the two mills through each point


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


_NB = _byte_tables(list(ADJ_MASK))


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
