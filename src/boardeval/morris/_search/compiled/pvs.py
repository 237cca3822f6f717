"""Compiled Nine Men's Morris search (private): principal-variation search over the bitboards of
:mod:`._engine_core`, driven by :class:`Engine` from Python.

Techniques (each one switchable in :class:`EngineOptions`, measured in ``benchmarks/morris_search.py``):

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
* mate-distance scores (``WIN - plies`` to the end, so faster wins rank higher) and mate-distance pruning;
* quiescence over mill closures at the horizon (stand pat on the static score);
* game ends decided exactly like ``Position.status``: fewer than 3 men, no legal move, then the turn
  limit, threefold repetition (on the game history plus the line searched) and the no-mill rule. As in
  ``Searcher``, the table key adds the turn counter when the turn limit is within the horizon, the quiet
  counter when the no-mill limit is, and the repetition count of the node;
* a time limit (checked every 1,024 nodes), a node limit, and the result: best turn, score (side to
  move's view, the units of ``boardeval.morris.evaluate``), depth reached, nodes and principal variation.

The evaluation is the caller's: ``coef[phase, feature]`` = weight x PHASE_SCALE / NORM (:func:`coefficients`),
so this module sits beside the evaluation (layer 3), below the search that will wrap it.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import numba
import numpy as np

from boardeval.core import ParamsError, Progress, report
from boardeval.morris._engine_core import (
    _ADJ,
    _MILLS,
    _ZB,
    ENGINE_FEATURES,
    FLYING,
    FULL,
    MAX_TURNS_PER_NODE,
    PLACING,
    EngineState,
    _ctz,
    _popcnt,
    encode,
    evaluate_fast,
    generate,
    has_move,
    njit_cached,
    phase_of,
    repetitions,
    state_of,
    turn_of,
)
from boardeval.morris._engine_core import apply_turn as _apply
from boardeval.morris.rules import Position, Turn


def drop_stale_cache(cache_dir: Path, sources: list[Path], prefix: str = "_engine.") -> bool:
    """Delete this module's numba cache files (``prefix*.nbi`` / ``.nbc`` in ``cache_dir``) when one of
    ``sources`` changed since they were written; True if it deleted them.

    numba's cache does not follow imports: a cached function here holds a copy of the compiled core it calls
    (``evaluate_fast``, move generation), and the cache is keyed by this file alone. After an edit of the
    core, the search would run the old evaluation. A digest of the sources, kept beside the cache, notices
    the edit; the next call recompiles (~30 s CPU once)."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = cache_dir / f"{prefix}sources.sha256"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    for old in [*cache_dir.glob(f"{prefix}*.nbi"), *cache_dir.glob(f"{prefix}*.nbc")]:
        old.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass  # a read-only install: numba then caches elsewhere or not at all
    return True


_HERE = Path(__file__).resolve().parent
_CORE_SOURCES: Final[tuple[str, ...]] = ("_engine_core.py", "_features.py", "board.py", "rules.py")
drop_stale_cache(_HERE / "__pycache__", [_HERE / name for name in _CORE_SOURCES])

__all__ = [
    "FULL_WIDTH",
    "MAX_PLY",
    "WIN",
    "Engine",
    "EngineOptions",
    "EngineResult",
    "coefficients",
    "warm_up",
]

WIN: Final[float] = 10_000.0
"""Score of a won position (``evaluate.WIN_SCORE``); a win ``n`` turns away scores ``WIN - n``."""

MATE_BOUND: Final[float] = WIN - 1_000.0
MAX_PLY: Final[int] = 128
"""Deepest ply a line may reach (search depth plus quiescence)."""

_EPS: Final[float] = 1e-7  # width of a null window (scores are floats; any width > 0 is exact)
_INF: Final[float] = math.inf

# Flat work buffers (fewer arguments per call: faster calls and a shorter compile).
# ib (int64): configuration, counters, killers, history, principal variation, move lists, table info
C_FLY, C_MAXT, C_THREE, C_NOMILL, C_TT, C_KILL, C_HIST, C_LMR, C_QS, C_MDP, C_PVS, C_QSMAX, C_ORDER = range(
    13
)
C_LMR_MIN, C_LMR_DEPTH, C_TTMASK, C_GEN, C_NULL, C_NULL_R = 13, 14, 15, 16, 17, 18
S_NODES, S_STOP, S_NEXT, S_LIMIT, S_QNODES, S_TTHITS, S_ROOTN, S_BEST = 32, 33, 34, 35, 36, 37, 38, 39
S_PART, S_PARTI = 40, 41  # the root turn that last raised alpha in this pass, and its index
O_KILL = 64
O_HH = O_KILL + 2 * MAX_PLY
O_PVLEN = O_HH + 1200
O_PV = O_PVLEN + MAX_PLY
O_MOVES = O_PV + MAX_PLY * MAX_PLY
O_MSCORE = O_MOVES + MAX_PLY * MAX_TURNS_PER_NODE
O_TTINFO = O_MSCORE + MAX_PLY * MAX_TURNS_PER_NODE
# fb (float64): deadline, LMR divisor, coefficients, table values
D_DEADLINE, D_LMR_DIV, D_PART = 0, 1, 2
O_COEF = 8
O_TTVAL = 64
# ub (uint64): table-key tweaks, table keys
O_ZTW = 0
O_TTKEY = 3 * 1024
# table flags (0 = empty slot)
F_EXACT, F_LOWER, F_UPPER = 1, 2, 3


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

    def __post_init__(self) -> None:
        if self.tt not in ("on", "exact", "off"):
            raise ParamsError(f"engine option tt must be 'on', 'exact' or 'off', got {self.tt!r}")
        if not (isinstance(self.lmr_divisor, (int, float)) and self.lmr_divisor > 0):
            raise ParamsError(
                f"engine option lmr_divisor must be a positive number, got {self.lmr_divisor!r}"
            )
        for name in ("lmr_min_move", "lmr_min_depth", "qs_max", "null_reduction"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ParamsError(f"engine option {name} must be an integer >= 0, got {value!r}")
        if (
            isinstance(self.tt_bits, bool)
            or not isinstance(self.tt_bits, int)
            or not 10 <= self.tt_bits <= 26
        ):
            raise ParamsError(f"engine option tt_bits must be an integer in 10..26, got {self.tt_bits!r}")


FULL_WIDTH: Final[EngineOptions] = EngineOptions(
    aspiration=False, tt="exact", lmr=False, quiescence=False, mate_pruning=False, null_move=False
)
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


# ---- compiled search -----------------------------------------------------------------------------------


@njit_cached
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit_cached
def _check_limits(ib: np.ndarray, fb: np.ndarray) -> None:
    """Every 1,024 nodes (and at the node limit): stop at the node limit or past the deadline."""
    nodes = ib[S_NODES]
    limit = ib[S_LIMIT]
    if limit > 0 and nodes >= limit:
        ib[S_STOP] = 1
        return
    nxt = nodes + 1024
    if limit > 0 and nxt > limit:
        nxt = limit
    ib[S_NEXT] = nxt
    if fb[D_DEADLINE] > 0.0 and _now() > fb[D_DEADLINE]:
        ib[S_STOP] = 1


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
def _tt_key(h: Any, turns: int, quiet: int, reps: int, depth: int, ib: np.ndarray, ub: np.ndarray) -> Any:
    """The table key: the hash plus the counters a path-dependent draw rule makes relevant (module doc)."""
    key = h
    if ib[C_MAXT] >= 0 and turns + depth >= ib[C_MAXT]:
        key = key ^ ub[O_ZTW + (turns & 1023)]
    if ib[C_NOMILL] >= 0 and quiet + depth >= ib[C_NOMILL]:
        key = key ^ ub[O_ZTW + 1024 + (quiet & 1023)]
    if ib[C_THREE] != 0:
        key = key ^ ub[O_ZTW + 2048 + (reps & 1023)]
    return key


@njit_cached
def _score_moves(
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
def _pick(i: int, n: int, base: int, ib: np.ndarray) -> int:
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


@numba.njit(cache=True, inline="always")
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
    ub: np.ndarray,
    hist: np.ndarray,
) -> float:
    """Negamax principal-variation search, ``depth`` turns above the horizon (side to move's view)."""
    # No literal as an argument of the recursive calls: with numba 0.68.1 a literal there makes a second
    # specialisation of this function, and a process that loads such a recursion from the cache crashes.
    zero: Any = np.int64(0)
    ib[S_NODES] += 1
    if ib[S_NODES] >= ib[S_NEXT]:
        _check_limits(ib, fb)
    if ib[S_STOP] != 0:
        return 0.0
    ib[O_PVLEN + ply] = 0
    over, tscore, reps = _terminal(me, opp, hme, turns, quiet, cur, ply, ib, hist)
    if over:
        return tscore
    flying = ib[C_FLY] != 0
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
                qd + 1, ib, fb, ub, hist,
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
    slot_base: Any = 0
    key = h
    tt_mode = ib[C_TT]
    if tt_mode != 0:
        key = _tt_key(h, turns, quiet, reps, depth, ib, ub)
        slot_base = np.int64(key & np.uint64(ib[C_TTMASK])) * 2
        for j in range(2):
            slot = slot_base + j
            info = ib[O_TTINFO + slot]
            if info != 0 and ub[O_TTKEY + slot] == key:
                ttmove = info & 0xFFFF
                e_depth = (info >> 16) & 0xFF
                flag = (info >> 24) & 0x3
                if ply > 0 and (e_depth == depth or (tt_mode == 1 and e_depth > depth)):
                    v = fb[O_TTVAL + slot]
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
        and beta - alpha < 1e-3
        and abs(beta) < MATE_BOUND
        and evaluate_fast(me, opp, hme, hopp, flying, fb, O_COEF) >= beta
    ):
        hist[cur + 1] = h ^ _ZB
        r = ib[C_NULL_R]
        s = -_pvs(
            opp,
            me,
            hopp,
            hme,
            1 - side,
            turns,
            zero,
            cur + 1,
            depth - 1 - r,
            -beta,
            -beta + _EPS,
            ply + 1,
            zero,
            ib,
            fb,
            ub,
            hist,
        )
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
        _score_moves(me, opp, hopp, side, n, base, ttmove, ply, ib)
    best = -_INF
    bestm = -1
    use_pvs = ib[C_PVS] != 0
    lmr = ib[C_LMR] != 0 and depth >= ib[C_LMR_DEPTH] and ply > 0
    lmr_min = ib[C_LMR_MIN]
    for i in range(n):
        m = _pick(i, n, base, ib)
        nme, nopp, nhme, nh, irrev = _apply(me, opp, hme, side, h, m)
        hist[cur + 1] = nh
        nq = 0 if irrev else quiet + 1
        if i == 0 or not use_pvs:
            s = -_pvs(
                nopp,
                nme,
                hopp,
                nhme,
                1 - side,
                turns + 1,
                nq,
                cur + 1,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                zero,
                ib,
                fb,
                ub,
                hist,
            )
        else:
            r = 0
            if lmr and i >= lmr_min and ib[sb + i] < (1 << 32) - 1:
                r = int(0.5 + math.log(depth) * math.log(i - lmr_min + 2) / fb[D_LMR_DIV])
                if r < 1:
                    r = 1
                if r > depth - 2:
                    r = depth - 2
            s = -_pvs(
                nopp,
                nme,
                hopp,
                nhme,
                1 - side,
                turns + 1,
                nq,
                cur + 1,
                depth - 1 - r,
                -alpha - _EPS,
                -alpha,
                ply + 1,
                zero,
                ib,
                fb,
                ub,
                hist,
            )
            if s > alpha and r > 0:
                s = -_pvs(
                    nopp,
                    nme,
                    hopp,
                    nhme,
                    1 - side,
                    turns + 1,
                    nq,
                    cur + 1,
                    depth - 1,
                    -alpha - _EPS,
                    -alpha,
                    ply + 1,
                    zero,
                    ib,
                    fb,
                    ub,
                    hist,
                )
            if s > alpha and s < beta:
                s = -_pvs(
                    nopp,
                    nme,
                    hopp,
                    nhme,
                    1 - side,
                    turns + 1,
                    nq,
                    cur + 1,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    zero,
                    ib,
                    fb,
                    ub,
                    hist,
                )
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
        info = (bestm & 0xFFFF) | (depth << 16) | (flag << 24) | (ib[C_GEN] << 28)
        # slot 0 is depth-preferred (kept unless this search is at least as deep, the same position or the
        # entry is from an older search); otherwise slot 1, always replaced
        slot = slot_base
        old = ib[O_TTINFO + slot]
        if not (
            old == 0 or ub[O_TTKEY + slot] == key or (old >> 28) != ib[C_GEN] or ((old >> 16) & 0xFF) <= depth
        ):
            slot = slot_base + 1
        ub[O_TTKEY + slot] = key
        fb[O_TTVAL + slot] = v
        ib[O_TTINFO + slot] = info
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
    ub: np.ndarray,
    hist: np.ndarray,
) -> tuple[float, int]:
    """One iteration at the root over ``rmoves[:n]`` in that order: (best score, best index).

    The root is ply 0 of :func:`_pvs` (no table cutoff, null move or reduction there, the turns in this
    order)."""
    for i in range(n):
        ib[O_MOVES + i] = rmoves[i]
    ib[S_ROOTN] = n
    ib[S_BEST] = -1
    ib[S_PART] = -1
    ib[S_PARTI] = -1
    zero: Any = np.int64(0)
    score = _pvs(
        me, opp, hme, hopp, side, turns, quiet, cur, depth, alpha, beta, zero, zero, ib, fb, ub, hist
    )  # fmt: skip
    besti = -1
    for i in range(n):
        if rmoves[i] == ib[S_BEST]:
            besti = i
    return score, besti


@njit_cached
def _order_root(me: int, opp: int, hopp: int, side: int, n: int, rmoves: np.ndarray, ib: np.ndarray) -> None:
    """Sort the root turns by the ordering keys (stable for equal keys)."""
    for i in range(n):
        ib[O_MOVES + i] = rmoves[i]
    _score_moves(me, opp, hopp, side, n, O_MOVES, -1, 0, ib)
    sc = ib[O_MSCORE : O_MSCORE + n].copy()
    order = np.argsort(-sc, kind="mergesort")
    for i in range(n):
        rmoves[i] = ib[O_MOVES + order[i]]


# ---- Python driver ---------------------------------------------------------------------------------------


def _splitmix(seed: int, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.uint64)
    state = seed
    mask = (1 << 64) - 1
    for i in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out[i] = z ^ (z >> 31)
    return out


_ZTW = _splitmix(0x456E67696E65, 3 * 1024)  # "Engine": table-key tweaks


class Engine:
    """A reusable compiled search: evaluation coefficients, transposition table, killers and history.

    Keep one per game to reuse the table between moves (it is cleared when the variant has the repetition
    rule, as ``Searcher`` does). ``coef`` comes from :func:`coefficients`.
    """

    def __init__(self, coef: np.ndarray, options: EngineOptions | None = None) -> None:
        coef = np.ascontiguousarray(coef, dtype=np.float64)
        if coef.shape != (3, len(ENGINE_FEATURES)) or not np.all(np.isfinite(coef)):
            raise ParamsError(
                f"evaluation coefficients must be a finite 3 x 10 table, got shape {coef.shape}"
            )
        self.coef = coef
        self.options = options if options is not None else EngineOptions()
        size = 1 << self.options.tt_bits
        self.ib = np.zeros(O_TTINFO + size, dtype=np.int64)
        self.fb = np.zeros(O_TTVAL + size, dtype=np.float64)
        self.ub = np.zeros(O_TTKEY + size, dtype=np.uint64)
        # touch every page now (np.zeros maps them lazily): the first search would otherwise pay ~0.1-0.2 s
        # of page faults on a fresh table inside its time limit
        for buf in (self.ib, self.fb, self.ub):
            buf.fill(0)
        self.ub[O_ZTW : O_ZTW + 3 * 1024] = _ZTW
        self.fb[O_COEF : O_COEF + coef.size] = coef.reshape(-1)
        self.generation = 0

    def clear(self) -> None:
        """Forget the table, killers and history."""
        self.ib[O_TTINFO:] = 0
        self.ib[O_KILL : O_KILL + 2 * MAX_PLY] = -1
        self.ib[O_HH : O_HH + 1200] = 0

    def with_options(self, options: EngineOptions) -> Engine:
        """A fresh engine with the same evaluation and other options."""
        return Engine(self.coef, options)

    def _configure(self, st: EngineState) -> None:
        o = self.options
        ib = self.ib
        ib[:64] = 0
        ib[C_FLY] = st.flying
        ib[C_MAXT] = st.max_turns
        ib[C_THREE] = st.threefold
        ib[C_NOMILL] = st.no_mill
        ib[C_TT] = {"off": 0, "on": 1, "exact": 2}[o.tt]
        ib[C_KILL] = o.killers
        ib[C_HIST] = o.history
        ib[C_LMR] = o.lmr
        ib[C_QS] = o.quiescence
        ib[C_MDP] = o.mate_pruning
        ib[C_PVS] = o.pvs
        ib[C_QSMAX] = o.qs_max
        ib[C_ORDER] = o.ordering
        ib[C_LMR_MIN] = o.lmr_min_move
        ib[C_LMR_DEPTH] = o.lmr_min_depth
        ib[C_TTMASK] = ((len(ib) - O_TTINFO) >> 1) - 1
        ib[C_GEN] = self.generation & 0x7
        ib[C_NULL] = o.null_move
        ib[C_NULL_R] = o.null_reduction
        self.fb[D_LMR_DIV] = o.lmr_divisor
        self.fb[D_DEADLINE] = 0.0

    def evaluate(self, pos: Position) -> float:
        """The compiled static score of a position that is not over (side to move's view)."""
        st = state_of(pos, 1)
        me, opp, hme, hopp, _s = st.args()
        return float(evaluate_fast(me, opp, hme, hopp, st.flying, self.fb, O_COEF))

    def search(
        self,
        pos: Position,
        depth: int | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        *,
        progress: Progress | None = None,
        rng: np.random.Generator | None = None,
        root_moves: Sequence[Turn] | None = None,
    ) -> EngineResult:
        """Iterative deepening to ``depth`` (default 64) within ``time_limit`` seconds / ``node_limit`` nodes.

        The result is the last fully searched depth (depth 1 always completes). ``pos`` is not changed.
        Ctrl-C between iterations returns the last completed depth with ``stopped=True`` and
        ``interrupted=True``. ``rng`` shuffles the root turns before the (stable) ordering, so ties between
        equally scored root turns follow it (matches); without it the move ordering decides.
        ``root_moves``: search only these root turns (a root split; the benchmark measures whether it pays).
        """
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 64
        ):
            raise ParamsError(f"search depth must be an integer in 1..64, got {depth!r}")
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, (int, float))
            or not 0 < time_limit < 1e7
        ):
            raise ParamsError(f"time limit must be a positive number of seconds, got {time_limit!r}")
        if node_limit is not None and (
            isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1
        ):
            raise ParamsError(f"node limit must be a positive integer, got {node_limit!r}")
        max_depth = 64 if depth is None else depth
        start = time.perf_counter()
        st = state_of(pos, MAX_PLY + 2)
        over = st.status()
        if over != 0:
            return EngineResult(None, -WIN if over < 0 else 0.0, 0, 0, (), 0.0)
        self.generation += 1
        ib, fb, ub, hist = self.ib, self.fb, self.ub, st.hist
        if st.threefold:
            ib[O_TTINFO:] = 0  # entries of an earlier search may predate a repetition (as in Searcher)
        self._configure(st)
        ib[O_KILL : O_KILL + 2 * MAX_PLY] = -1
        me, opp, hme, hopp, side = st.args()
        rmoves = np.zeros(MAX_TURNS_PER_NODE, dtype=np.int64)
        n = int(generate(me, opp, hme, st.flying, rmoves, 0))
        if root_moves is not None:
            allowed = {encode(t) for t in root_moves}
            kept = [int(m) for m in rmoves[:n] if int(m) in allowed]
            if not kept:
                raise ParamsError(f"none of the root turns {[str(t) for t in root_moves]} is legal here")
            n = len(kept)
            rmoves[:n] = kept
        if rng is not None and n > 1:
            rmoves[:n] = rmoves[:n][rng.permutation(n)]
        _order_root(me, opp, hopp, side, n, rmoves, ib)
        args = (me, opp, hme, hopp, side, st.turns, st.quiet, st.cur)
        best: tuple[int, float, list[int]] | None = None
        done_depth = 0
        iterations: list[tuple[int, float, int, float]] = []
        stopped = False
        interrupted = False
        partial = False
        prev = 0.0
        try:
            for d in range(1, max_depth + 1):
                # depth 1 always completes: no limits for it
                ib[S_LIMIT] = 0 if d == 1 or node_limit is None else node_limit
                ib[S_NEXT] = ib[S_NODES] + 1
                fb[D_DEADLINE] = 0.0 if d == 1 or time_limit is None else start + time_limit
                if self.options.aspiration and d >= 4 and abs(prev) < MATE_BOUND:
                    delta = 0.25
                    lo, hi = prev - delta, prev + delta
                    while True:
                        score, bi = _root(*args, rmoves, n, d, lo, hi, ib, fb, ub, hist)
                        if ib[S_STOP]:
                            break
                        if score <= lo:
                            lo = -_INF if delta > 4 else score - delta
                        elif score >= hi:
                            hi = _INF if delta > 4 else score + delta
                        else:
                            break
                        delta *= 4
                else:
                    score, bi = _root(*args, rmoves, n, d, -_INF, _INF, ib, fb, ub, hist)
                if ib[S_STOP]:
                    stopped = True
                    if best is not None and ib[S_PARTI] > 0:
                        # the unfinished depth already proved a later root turn better than its first turn
                        # (the last depth's best, searched first): play that one
                        part = int(ib[S_PART])
                        line = [int(x) for x in ib[O_PV : O_PV + ib[O_PVLEN]]]
                        best = (part, float(fb[D_PART]), line if line and line[0] == part else [part])
                        partial = True
                    break
                m = int(rmoves[bi])
                pv_moves = [int(x) for x in ib[O_PV : O_PV + ib[O_PVLEN]]]
                if not pv_moves or pv_moves[0] != m:
                    pv_moves = [m]
                best = (m, float(score), pv_moves)
                done_depth = d
                prev = float(score)
                iterations.append((d, float(score), int(ib[S_NODES]), time.perf_counter() - start))
                rmoves[: bi + 1] = np.concatenate([[m], rmoves[:bi]])
                report(progress, d, max_depth, f"depth {d}: {turn_of(m)} {score:+.2f}")
                if abs(score) > MATE_BOUND:
                    break  # a forced result
        except (KeyboardInterrupt, SystemError) as exc:
            # Ctrl-C inside the compiled search lands in the clock's object-mode call, which numba reports
            # as a SystemError caused by the KeyboardInterrupt: both are an interrupt
            if not _is_interrupt(exc):
                raise
            if best is None:
                raise KeyboardInterrupt from None
            stopped = interrupted = True
        assert best is not None
        m, score, pv_moves = best
        return EngineResult(
            turn_of(m),
            score,
            done_depth,
            int(ib[S_NODES]),
            _legal_pv(pos, pv_moves),
            time.perf_counter() - start,
            stopped,
            int(ib[S_QNODES]),
            tuple(iterations),
            interrupted,
            partial,
        )


def _is_interrupt(exc: BaseException) -> bool:
    """True for a KeyboardInterrupt, also one wrapped (as cause or context) in numba's SystemError."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


_warm = False


def warm_up() -> None:
    """Load the compiled search once per process (from numba's cache, ~1 s; a compile when the cache is
    stale) with a tiny search, so that the first timed search of a process spends its time searching: a
    time-limited first move would otherwise reach depth 1 only."""
    global _warm
    if _warm:
        return
    engine = Engine(np.zeros((3, len(ENGINE_FEATURES))), EngineOptions(tt_bits=10))
    # placing with a mill on offer, then moving against flying; a (never reached) deadline loads the clock
    engine.search(Position.parse("WW.BB................... w 7 7"), depth=4, time_limit=600.0)
    engine.search(Position.parse("WW............WBB.....B. w 0 0"), depth=2, time_limit=600.0)
    _warm = True


def _legal_pv(pos: Position, moves: Sequence[int]) -> tuple[Turn, ...]:
    """The principal variation as turns, cut at the first turn that is not legal (a stale table move)."""
    st = state_of(pos, len(moves) + 2)
    out: list[Turn] = []
    for m in moves:
        if m not in st.legal():
            break
        out.append(turn_of(m))
        st.make(m)
    return tuple(out)


def full_width(options: EngineOptions | None = None) -> EngineOptions:
    """``options`` (default: all on) turned into full-width alpha-beta (see :data:`FULL_WIDTH`)."""
    base = options if options is not None else EngineOptions()
    return replace(
        base, aspiration=False, tt="exact", lmr=False, quiescence=False, mate_pruning=False, null_move=False
    )
