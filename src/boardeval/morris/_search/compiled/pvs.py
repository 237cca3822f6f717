"""Compiled Nine Men's Morris search (private): principal-variation search over the bitboards of
:mod:`.movegen` and the evaluation of :mod:`.evaluate`, driven by :class:`~.engine.Engine` from Python.

Techniques (each one switchable in :class:`~.options.EngineOptions`, measured in
``benchmarks/morris_search.py``):

* negamax principal-variation search (the first move with the full window, the others with a null window
  and a re-search when they beat alpha) inside iterative deepening, with aspiration windows at the root;
* a transposition table keyed by the rules' Zobrist hash, two slots per bucket (depth-preferred + always
  replace), bounds stored with mate scores relative to the node; ``tt="exact"`` takes cutoffs only from
  entries of exactly the remaining depth, as today's ``Searcher`` does (the equality check uses it);
* move ordering: table move, mill closures (removing a man of an open opponent line first), blocks of
  opponent threat points, two killer moves per ply, the history heuristic, then men next to own men;
* late-move reductions of quiet late moves, ``max(1, round(ln(depth) ln(i - lmr_min_move + 2) /
  lmr_divisor))`` plies for the i-th move, re-searched at full depth when they beat alpha;
* null-move pruning while the side to move still places (reduction 3; placing has no zugzwang: a side
  may always place, and a man in hand is never worth less on the board), never while moving or flying,
  where blockades make passing unsound;
* with tables of every moving position (K <= 9, ``exact_placing``): at a placing node whose depth reaches
  the last placement, below which every value is the tables' exact one, no null move and no reduction
  that would cut a line short of it (a reduced line ends in a static score where the full line ends in a
  proven win, and the twenty-third session's records showed losing placements chosen that way);
* mate-distance scores (``WIN - plies`` to the end, so faster wins rank higher) and mate-distance pruning;
* quiescence over mill closures at the horizon (stand pat on the static score);
* game ends decided exactly like ``Position.status``: fewer than 3 men, no legal move, then the turn
  limit, threefold repetition (on the game history plus the line searched) and the no-mill rule. As in
  ``Searcher``, the table key adds the turn counter when the turn limit is within the horizon, the quiet
  counter when the no-mill limit is, and the repetition count of the node;
* a time limit (checked every 1,024 nodes and every 16 tablebase probes), a node limit, and the result:
  best turn, score (side to move's view, the units of ``boardeval.morris.evaluate``), depth reached, nodes
  and principal variation.

The evaluation is the caller's: ``coef[phase, feature]`` = weight x PHASE_SCALE / NORM
(:func:`~.options.coefficients`). The state, the options and the table live in three flat buffers (``ib``,
``fb``, ``ub``: fewer arguments per call, a faster call and a shorter compile), laid out in :mod:`.layout`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import types

from boardeval.morris._search.compiled.evaluate import evaluate_fast
from boardeval.morris._search.compiled.jit import njit_cached, njit_inline
from boardeval.morris._search.compiled.layout import (
    C_BEXT,
    C_CLOCK,
    C_EPOCH,
    C_EXACT,
    C_FLY,
    C_GEN,
    C_LMR,
    C_LMR_DEPTH,
    C_LMR_MIN,
    C_MAXT,
    C_MDP,
    C_NOMILL,
    C_NULL,
    C_NULL_R,
    C_PVS,
    C_QS,
    C_QSMAX,
    C_TB,
    C_THREE,
    C_TT,
    C_TTMASK,
    D_DEADLINE,
    D_LMR_DIV,
    D_PART,
    F_EXACT,
    F_LOWER,
    F_UPPER,
    FULL,
    INF,
    MATE_BOUND,
    MAX_PLY,
    MAX_TURNS_PER_NODE,
    O_COEF,
    O_HH,
    O_KILL,
    O_MOVES,
    O_MSCORE,
    O_PV,
    O_PVLEN,
    S_BEST,
    S_CLK,
    S_EXT,
    S_LIMIT,
    S_NEXT,
    S_NODES,
    S_PART,
    S_PARTI,
    S_QNODES,
    S_ROOTD,
    S_ROOTN,
    S_STOP,
    S_TBHITS,
    S_TTHITS,
    T_STOP,
    T_TT,
    T_ZTW,
    WIN,
)
from boardeval.morris._search.compiled.movegen import (
    _ADJ,
    _ZB,
    _ctz,
    _popcnt,
    generate,
    has_move,
    repetitions,
)
from boardeval.morris._search.compiled.movegen import apply_turn as _apply
from boardeval.morris._search.compiled.ordering import pick, score_moves
from boardeval.morris._search.compiled.tbprobe import TB_DRAW, TB_NONE, tb_probe

_EPS = 1e-7  # width of a null window (scores are floats; any width > 0 is exact)
_INF = INF

_clock_gettime: Any = types.ExternalFunction("clock_gettime", types.int32(types.int32, types.voidptr))
"""libc's ``clock_gettime`` (a plain C call: no Python object, so it also runs ahead-of-time compiled); the
clock id is ``ib[C_CLOCK]`` (``time.CLOCK_MONOTONIC``, which ``time.perf_counter`` reads on Linux)."""

# ---- compiled search -----------------------------------------------------------------------------------


@njit_cached
def _now(ib: np.ndarray) -> float:
    """The clock (seconds, ``time.clock_gettime(CLOCK_ID)``), read into ``ib``'s two clock words."""
    buf = ib[S_CLK : S_CLK + 2]
    _clock_gettime(ib[C_CLOCK], buf.ctypes.data)
    return float(buf[0]) + float(buf[1]) * 1e-9


@njit_cached
def _check_limits(ib: np.ndarray, fb: np.ndarray, tt: np.ndarray) -> None:
    """Every 1,024 nodes (and at the node limit): stop at the node limit, past the deadline, or when the
    shared stop word is set (another thread finished the search, or Ctrl-C)."""
    nodes = ib[S_NODES]
    limit = ib[S_LIMIT]
    if tt[T_STOP] != 0 or (limit > 0 and nodes >= limit):
        ib[S_STOP] = 1
        return
    nxt = nodes + 1024
    if limit > 0 and nxt > limit:
        nxt = limit
    ib[S_NEXT] = nxt
    if fb[D_DEADLINE] > 0.0 and _now(ib) > fb[D_DEADLINE]:
        ib[S_STOP] = 1


@njit_cached
def _tt_key(h: Any, turns: int, quiet: int, reps: int, depth: int, ib: np.ndarray, tt: np.ndarray) -> Any:
    """The table key: the hash plus the counters a path-dependent draw rule makes relevant (module doc)."""
    key = np.int64(h)
    if ib[C_MAXT] >= 0 and turns + depth >= ib[C_MAXT]:
        key = key ^ tt[T_ZTW + (turns & 1023)]
    if ib[C_NOMILL] >= 0 and quiet + depth >= ib[C_NOMILL]:
        key = key ^ tt[T_ZTW + 1024 + (quiet & 1023)]
    if ib[C_THREE] != 0:
        key = key ^ tt[T_ZTW + 2048 + (reps & 1023)]
    return key


@njit_inline
def _set_pv(ply: int, m: int, ib: np.ndarray) -> None:
    """The line of ``ply``: turn ``m``, then the line of ``ply + 1`` (the child just searched).

    Inlined by numba (``inline="always"``): as a called function it cost 20% of the search's speed
    (3.5 instead of 4.4 M nodes per CPU-second to depth 10; ``benchmarks/morris_search.py``)."""
    pvp = O_PV + ply * MAX_PLY
    ib[pvp] = m
    k = ib[O_PVLEN + ply + 1]
    for j in range(k):
        ib[pvp + 1 + j] = ib[pvp + MAX_PLY + j]
    ib[O_PVLEN + ply] = k + 1


@njit_cached
def _terminal(
    me: int, opp: int, hme: int, turns: int, quiet: int, cur: int, ply: int, ib: np.ndarray, hist: np.ndarray
) -> tuple[bool, float, int]:
    """(over, score, repetitions): ``Position.status`` in its order, the score with the mate distance."""
    if _popcnt(me) + hme < 3 or not has_move(me, opp, hme, ib[C_FLY] != 0):
        return True, -(WIN - ply), 1
    if ib[C_MAXT] >= 0 and turns >= ib[C_MAXT]:
        return True, 0.0, 1
    reps = 1
    if ib[C_THREE] != 0 and quiet >= 4:
        reps = repetitions(hist, cur, quiet)
        if reps >= 3:
            return True, 0.0, reps
    if ib[C_NOMILL] >= 0 and quiet >= ib[C_NOMILL]:
        return True, 0.0, reps
    return False, 0.0, reps


@njit_cached
def _slides(me: int, empty: int) -> int:
    """Sliding moves of the men ``me`` (man x empty neighbour): the blockade extension's measure."""
    n = 0
    x = me
    while x:
        b = x & -x
        x ^= b
        n += _popcnt(_ADJ[_ctz(b)] & empty)
    return n


@njit_cached
def _pvs(
    me: int,
    opp: int,
    hme: int,
    hopp: int,
    side: int,
    turns: int,
    quiet: int,
    cur: int,
    depth: int,
    alpha: float,
    beta: float,
    ply: int,
    qd: int,
    ib: np.ndarray,
    fb: np.ndarray,
    tt: np.ndarray,
    ttf: np.ndarray,
    hist: np.ndarray,
    tbi: np.ndarray,
    tbd: np.ndarray,
) -> float:
    """Negamax principal-variation search, ``depth`` turns above the horizon (side to move's view)."""
    # No literal as an argument of the recursive calls: with numba 0.68.1 a literal there makes a second
    # specialisation of this function, and a process that loads such a recursion from the cache crashes.
    zero: Any = np.int64(0)
    ib[S_NODES] += 1
    if ib[S_NODES] >= ib[S_NEXT]:
        _check_limits(ib, fb, tt)
    if ib[S_STOP] != 0:
        return 0.0
    ib[O_PVLEN + ply] = 0
    over, tscore, reps = _terminal(me, opp, hme, turns, quiet, cur, ply, ib, hist)
    if over:
        return tscore
    flying = ib[C_FLY] != 0
    if ply > 0 and hme == 0 and hopp == 0:
        if ib[C_TB] != 0:
            # the tablebase's exact value (mate-distance scaled; a draw when the turn limit comes first)
            dist = tb_probe(me, opp, tbi, tbd)
            if dist != TB_NONE:
                ib[S_TBHITS] += 1
                if (ib[S_TBHITS] & 15) == 0 and fb[D_DEADLINE] > 0.0 and _now(ib) > fb[D_DEADLINE]:
                    # a probe of a table page not in memory reads the disk (~ms): 1,024 nodes of them
                    # would run a second past the deadline, so the clock is also read every 16 probes
                    ib[S_STOP] = 1
                if dist == TB_DRAW or (ib[C_MAXT] >= 0 and turns + dist > ib[C_MAXT]):
                    return 0.0
                end = WIN - (ply + dist)
                return end if dist & 1 else -end
        if (
            ib[C_BEXT] > 0
            and ply < 2 * ib[S_ROOTD] + 4
            and not (flying and _popcnt(me) == 3)
            and _slides(me, FULL ^ (me | opp)) <= ib[C_BEXT]
        ):
            # blockade extension: a mover with few slides left may be shut in: look one turn further
            depth += 1
            ib[S_EXT] += 1
    if depth <= 0:
        stand = evaluate_fast(me, opp, hme, hopp, flying, fb, O_COEF)
        if ib[C_QS] == 0:
            return stand
        # quiescence (``qd`` plies deep): stand pat on the static score, then only mill closures
        ib[S_QNODES] += 1
        if stand >= beta or qd >= ib[C_QSMAX] or ply >= MAX_PLY - 2:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        base = O_MOVES + ply * MAX_TURNS_PER_NODE
        n = generate(me, opp, hme, flying, ib, base)
        h = hist[cur]
        for i in range(n):
            m = ib[base + i]
            if (m >> 10) & 31 == 24:
                continue
            nme, nopp, nhme, nh, _irrev = _apply(me, opp, hme, side, h, m)
            hist[cur + 1] = nh
            s = -_pvs(
                nopp, nme, hopp, nhme, 1 - side, turns + 1, zero, cur + 1, zero, -beta, -alpha, ply + 1,
                qd + 1, ib, fb, tt, ttf, hist, tbi, tbd,
            )  # fmt: skip
            if ib[S_STOP] != 0:
                return 0.0
            if s > best:
                best = s
                if s > alpha:
                    alpha = s
                    _set_pv(ply, m, ib)  # the line goes on through the mill closures (captures shown)
                    if alpha >= beta:
                        break
        return best
    if ply >= MAX_PLY - 2:
        return evaluate_fast(me, opp, hme, hopp, flying, fb, O_COEF)
    if ib[C_MDP] != 0:
        lo = -(WIN - ply)
        hi = WIN - ply - 1
        if alpha < lo:
            alpha = lo
        if beta > hi:
            beta = hi
        if alpha >= beta:
            return alpha
    alpha0 = alpha
    h = hist[cur]
    ttmove = -1
    slot_base = 0
    key: Any = np.int64(h)
    tt_mode = ib[C_TT]
    if tt_mode != 0:
        key = _tt_key(h, turns, quiet, reps, depth, ib, tt)
        slot_base = (key & ib[C_TTMASK]) * 2
        for j in range(2):
            e = T_TT + 3 * (slot_base + j)
            info = tt[e + 1]
            if info != 0 and ((info >> 32) & 0xFFFF) == ib[C_EPOCH] and (tt[e] ^ info ^ tt[e + 2]) == key:
                ttmove = info & 0xFFFF
                e_depth = (info >> 16) & 0xFF
                flag = (info >> 24) & 0x3
                if ply > 0 and (e_depth == depth or (tt_mode == 1 and e_depth > depth)):
                    v = ttf[e + 2]
                    if v > MATE_BOUND:
                        v -= ply
                    elif v < -MATE_BOUND:
                        v += ply
                    if flag == F_EXACT or (flag == F_LOWER and v >= beta) or (flag == F_UPPER and v <= alpha):
                        ib[S_TTHITS] += 1
                        ib[O_PV + ply * MAX_PLY] = ttmove
                        ib[O_PVLEN + ply] = 1
                        return v
                break
    # null move while the side to move still places (no zugzwang: a placement never hurts the placer)
    if (
        ib[C_NULL] != 0
        and ply > 0
        and hme > 0
        and depth >= 3
        and not (ib[C_EXACT] & 1 and depth >= hme + hopp)
        and beta - alpha < 1e-3
        and abs(beta) < MATE_BOUND
        and evaluate_fast(me, opp, hme, hopp, flying, fb, O_COEF) >= beta
    ):
        hist[cur + 1] = h ^ _ZB
        r = ib[C_NULL_R]
        s = -_pvs(
            opp, me, hopp, hme, 1 - side, turns, zero, cur + 1, depth - 1 - r, -beta, -beta + _EPS, ply + 1,
            zero, ib, fb, tt, ttf, hist, tbi, tbd,
        )  # fmt: skip
        if ib[S_STOP] != 0:
            return 0.0
        if s >= beta:
            return beta
    base = O_MOVES + ply * MAX_TURNS_PER_NODE
    sb = base + (O_MSCORE - O_MOVES)
    if ply == 0:
        # the root: the driver's turns, in the driver's order (already in row 0), no reductions
        n = ib[S_ROOTN]
        for i in range(n):
            ib[sb + i] = n - i
    else:
        n = generate(me, opp, hme, flying, ib, base)
        score_moves(me, opp, hopp, side, n, base, ttmove, ply, ib)
    best = -_INF
    bestm = -1
    use_pvs = ib[C_PVS] != 0
    lmr = ib[C_LMR] != 0 and depth >= ib[C_LMR_DEPTH] and ply > 0
    lmr_min = ib[C_LMR_MIN]
    # with every moving position in the tables: a node that reaches the last placement (hme + hopp plies
    # away) reduces its late turns by at most the plies it searches beyond it
    rcap = depth - (hme + hopp) if ib[C_EXACT] & 2 and hme + hopp > 0 and depth >= hme + hopp else MAX_PLY
    for i in range(n):
        m = pick(i, n, base, ib)
        nme, nopp, nhme, nh, irrev = _apply(me, opp, hme, side, h, m)
        hist[cur + 1] = nh
        nq = 0 if irrev else quiet + 1
        if i == 0 or not use_pvs:
            s = -_pvs(
                nopp, nme, hopp, nhme, 1 - side, turns + 1, nq, cur + 1, depth - 1, -beta, -alpha, ply + 1,
                zero, ib, fb, tt, ttf, hist, tbi, tbd,
            )  # fmt: skip
        else:
            r = 0
            if lmr and i >= lmr_min and ib[sb + i] < (1 << 32) - 1:
                r = int(0.5 + math.log(depth) * math.log(i - lmr_min + 2) / fb[D_LMR_DIV])
                if r < 1:
                    r = 1
                if r > depth - 2:
                    r = depth - 2
                if r > rcap:
                    r = rcap
            s = -_pvs(
                nopp, nme, hopp, nhme, 1 - side, turns + 1, nq, cur + 1, depth - 1 - r, -alpha - _EPS,
                -alpha, ply + 1, zero, ib, fb, tt, ttf, hist, tbi, tbd,
            )  # fmt: skip
            if s > alpha and r > 0:
                s = -_pvs(
                    nopp, nme, hopp, nhme, 1 - side, turns + 1, nq, cur + 1, depth - 1, -alpha - _EPS,
                    -alpha, ply + 1, zero, ib, fb, tt, ttf, hist, tbi, tbd,
                )  # fmt: skip
            if s > alpha and s < beta:
                s = -_pvs(
                    nopp, nme, hopp, nhme, 1 - side, turns + 1, nq, cur + 1, depth - 1, -beta, -alpha,
                    ply + 1, zero, ib, fb, tt, ttf, hist, tbi, tbd,
                )  # fmt: skip
        if ib[S_STOP] != 0:
            return 0.0
        if s > best:
            best = s
            bestm = m
            if s > alpha:
                alpha = s
                _set_pv(ply, m, ib)
                if ply == 0:
                    ib[S_PART] = m
                    ib[S_PARTI] = i
                    fb[D_PART] = s
                if alpha >= beta:
                    if (m >> 10) & 31 == 24:
                        kp = O_KILL + 2 * ply
                        if ib[kp] != m:
                            ib[kp + 1] = ib[kp]
                            ib[kp] = m
                        hi = O_HH + 600 * side + (m & 31) * 24 + ((m >> 5) & 31)
                        ib[hi] += depth * depth
                        if ib[hi] > (1 << 24):
                            for a in range(1200):
                                ib[O_HH + a] >>= 1
                    break
    if ply == 0:
        ib[S_BEST] = bestm
    elif tt_mode != 0:
        flag = F_UPPER if best <= alpha0 else F_LOWER if best >= beta else F_EXACT
        v = best
        if v > MATE_BOUND:
            v += ply
        elif v < -MATE_BOUND:
            v -= ply
        info = (bestm & 0xFFFF) | (depth << 16) | (flag << 24) | (ib[C_GEN] << 28) | (ib[C_EPOCH] << 32)
        # slot 0 is depth-preferred (kept unless this search is at least as deep, the same position or the
        # entry is from an older search); otherwise slot 1, always replaced
        e = T_TT + 3 * slot_base
        old = tt[e + 1]
        if not (
            old == 0
            or ((old >> 32) & 0xFFFF) != ib[C_EPOCH]
            or (tt[e] ^ old ^ tt[e + 2]) == key
            or ((old >> 28) & 0x7) != ib[C_GEN]
            or ((old >> 16) & 0xFF) <= depth
        ):
            e += 3
        tt[e + 1] = info
        ttf[e + 2] = v
        tt[e] = key ^ info ^ tt[e + 2]
    return best


@njit_cached
def _root(
    me: int,
    opp: int,
    hme: int,
    hopp: int,
    side: int,
    turns: int,
    quiet: int,
    cur: int,
    rmoves: np.ndarray,
    n: int,
    depth: int,
    alpha: float,
    beta: float,
    ib: np.ndarray,
    fb: np.ndarray,
    tt: np.ndarray,
    ttf: np.ndarray,
    hist: np.ndarray,
    tbi: np.ndarray,
    tbd: np.ndarray,
) -> tuple[float, int]:
    """One iteration at the root over ``rmoves[:n]`` in that order: (best score, best index).

    The root is ply 0 of :func:`_pvs` (no table cutoff, null move or reduction there, the turns in this
    order)."""
    for i in range(n):
        ib[O_MOVES + i] = rmoves[i]
    ib[S_ROOTN] = n
    ib[S_ROOTD] = depth
    ib[S_BEST] = -1
    ib[S_PART] = -1
    ib[S_PARTI] = -1
    zero: Any = np.int64(0)
    score = _pvs(
        me, opp, hme, hopp, side, turns, quiet, cur, depth, alpha, beta, zero, zero, ib, fb, tt, ttf, hist,
        tbi, tbd,
    )  # fmt: skip
    besti = -1
    for i in range(n):
        if rmoves[i] == ib[S_BEST]:
            besti = i
    return score, besti


@njit_cached
def _helper(
    me: int,
    opp: int,
    hme: int,
    hopp: int,
    side: int,
    turns: int,
    quiet: int,
    cur: int,
    rmoves: np.ndarray,
    n: int,
    first: int,
    last: int,
    ib: np.ndarray,
    fb: np.ndarray,
    tt: np.ndarray,
    ttf: np.ndarray,
    hist: np.ndarray,
    tbi: np.ndarray,
    tbd: np.ndarray,
) -> int:
    """A helper thread of the shared-table parallel search (Lazy SMP): iterative deepening with full
    windows from depth ``first`` to ``last`` over its own buffers and the shared table, until the search
    stops (the shared stop word). Returns the last depth it completed (0: none)."""
    done = 0
    for d in range(first, last + 1):
        _root(me, opp, hme, hopp, side, turns, quiet, cur, rmoves, n, d, -_INF, _INF, ib, fb, tt, ttf, hist,
              tbi, tbd)  # fmt: skip
        if ib[S_STOP] != 0:
            break
        done = d
        # the best turn first at the next depth (as the driver does)
        best = ib[S_BEST]
        for i in range(n):
            if rmoves[i] == best:
                for j in range(i, 0, -1):
                    rmoves[j] = rmoves[j - 1]
                rmoves[0] = best
                break
    return done
