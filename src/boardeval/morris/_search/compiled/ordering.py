"""Move ordering of the compiled search (private): the ordering keys of a node's turns and the pick of the
next best, and the root's order (:func:`order_root`, called from :class:`~.engine.Engine`).

The keys, best first: the table move, mill closures (removing a man of an open opponent line first), blocks
of opponent threat points, two killer moves per ply, then men next to own men plus the history heuristic
(issue 12; each part switchable in :class:`~.options.EngineOptions`: ``ordering``, ``killers``,
``history``). The keys live in the move rows of the state buffer ``ib`` (:mod:`.layout`).
"""

from __future__ import annotations

import numpy as np

from boardeval.morris._search.compiled.jit import njit_cached
from boardeval.morris._search.compiled.layout import (
    C_FLY,
    C_HIST,
    C_KILL,
    C_ORDER,
    FLYING,
    FULL,
    O_HH,
    O_KILL,
    O_MOVES,
    O_MSCORE,
    PLACING,
)
from boardeval.morris._search.compiled.movegen import _ADJ, _MILLS, _ctz, _popcnt, phase_of

__all__ = ["order_root", "pick", "score_moves"]


@njit_cached
def _threat_points(own: int, empty: int, phase: int) -> int:
    """Empty points where ``own`` closes a mill with its next turn (first part of ``threat_points``)."""
    out = 0
    for k in range(16):
        mask = _MILLS[k]
        if _popcnt(own & mask) != 2:
            continue
        gap = mask & empty
        if gap == 0:
            continue
        if phase == PLACING:
            out |= gap
        elif phase == FLYING:
            if own & ~mask:
                out |= gap
        elif _ADJ[_ctz(gap)] & own & ~mask:
            out |= gap
    return out


@njit_cached
def score_moves(
    me: int, opp: int, hopp: int, side: int, n: int, base: int, ttmove: int, ply: int, ib: np.ndarray
) -> None:
    """Ordering keys of ``ib[base:base+n]`` (moves) into the score row: table move, mill closures (hot
    removals first), blocks of opponent threat points, killers, history, men next to own men."""
    sb = base + (O_MSCORE - O_MOVES)
    if ib[C_ORDER] == 0:
        for i in range(n):
            ib[sb + i] = (1 << 40) if ib[base + i] == ttmove else 0
        return
    empty = FULL ^ (me | opp)
    opp_thr = _threat_points(opp, empty, phase_of(opp, hopp, ib[C_FLY] != 0))
    hot = 0
    for k in range(16):
        mk = _MILLS[k]
        if _popcnt(opp & mk) == 2 and (mk & empty) != 0:
            hot |= opp & mk
    k0 = ib[O_KILL + 2 * ply] if ib[C_KILL] != 0 else -2
    k1 = ib[O_KILL + 2 * ply + 1] if ib[C_KILL] != 0 else -2
    use_h = ib[C_HIST] != 0
    hbase = O_HH + 600 * side
    for i in range(n):
        m = ib[base + i]
        src = m & 31
        dst = (m >> 5) & 31
        rem = (m >> 10) & 31
        if m == ttmove:
            s = 1 << 40
        elif rem != 24:
            s = (1 << 36) + (((hot >> rem) & 1) << 34) + ((opp_thr >> dst) & 1)
        elif (opp_thr >> dst) & 1:
            s = 1 << 33
        elif m == k0:
            s = 1 << 32
        elif m == k1:
            s = (1 << 32) - 1
        else:
            s = _popcnt(_ADJ[dst] & me)
            if use_h:
                s += ib[hbase + src * 24 + dst] * 8
        ib[sb + i] = s


@njit_cached
def pick(i: int, n: int, base: int, ib: np.ndarray) -> int:
    """Selection-sort step over the move row at ``base``: bring the best-keyed of ``i..n-1`` to ``i``."""
    sb = base + (O_MSCORE - O_MOVES)
    best = i
    bs = ib[sb + i]
    for j in range(i + 1, n):
        if ib[sb + j] > bs:
            bs = ib[sb + j]
            best = j
    if best != i:
        m = ib[base + best]
        ib[base + best] = ib[base + i]
        ib[base + i] = m
        ib[sb + best] = ib[sb + i]
        ib[sb + i] = bs
    return ib[base + i]


@njit_cached
def order_root(me: int, opp: int, hopp: int, side: int, n: int, rmoves: np.ndarray, ib: np.ndarray) -> None:
    """Sort the root turns by the ordering keys (stable for equal keys)."""
    for i in range(n):
        ib[O_MOVES + i] = rmoves[i]
    score_moves(me, opp, hopp, side, n, O_MOVES, -1, 0, ib)
    sc = ib[O_MSCORE : O_MSCORE + n].copy()
    order = np.argsort(-sc, kind="mergesort")
    for i in range(n):
        rmoves[i] = ib[O_MOVES + order[i]]
