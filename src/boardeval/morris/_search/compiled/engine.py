"""The compiled search's Python face (private): :class:`Engine` (one per game: evaluation coefficients,
transposition table, killers, history) and :func:`warm_up`. Its settings and answer (:class:`EngineOptions`,
:class:`EngineResult`, :func:`coefficients`, :data:`FULL_WIDTH`) live in :mod:`.options` and are re-exported
here for the callers that drive an engine.

:meth:`Engine.search` runs iterative deepening with aspiration windows over :mod:`.pvs`, between depths
reports progress, checks the limits and lets Ctrl-C through (the last completed depth is kept).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardeval.core import ParamsError, Progress, report
from boardeval.morris._features import FEATURES as ENGINE_FEATURES
from boardeval.morris._search.compiled.kernels import kernels
from boardeval.morris._search.compiled.layout import (
    C_BEXT,
    C_CLOCK,
    C_EPOCH,
    C_EXACT,
    C_FLY,
    C_GEN,
    C_HIST,
    C_KILL,
    C_LMR,
    C_LMR_DEPTH,
    C_LMR_MIN,
    C_MAXT,
    C_MDP,
    C_NOMILL,
    C_NULL,
    C_NULL_R,
    C_ORDER,
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
    FB_SIZE,
    IB_SIZE,
    INF,
    MATE_BOUND,
    MAX_PLY,
    MAX_TURNS_PER_NODE,
    O_COEF,
    O_HH,
    O_KILL,
    O_PV,
    O_PVLEN,
    S_EXT,
    S_LIMIT,
    S_NEXT,
    S_NODES,
    S_PART,
    S_PARTI,
    S_QNODES,
    S_STOP,
    S_TBHITS,
    T_STOP,
    T_TT,
    T_ZTW,
    WIN,
)
from boardeval.morris._search.compiled.options import (
    FULL_WIDTH,
    EngineOptions,
    EngineResult,
    coefficients,
    full_width,
)
from boardeval.morris._search.compiled.state import EngineState, encode, state_of, turn_of
from boardeval.morris.rules import Position, Turn

__all__ = [
    "FULL_WIDTH",
    "MAX_PLY",
    "WIN",
    "Engine",
    "EngineOptions",
    "EngineResult",
    "coefficients",
    "full_width",
    "warm_up",
]


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


_NO_TB = (np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.uint8))


def _monotonic() -> float:
    """The clock the compiled search checks its deadline against (``pvs.CLOCK_ID``)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def _call(fn: Callable[..., Any], args: tuple[Any, ...], tt: np.ndarray) -> Any:
    """``fn(*args)`` in a thread, this one waiting: compiled code does not see Ctrl-C, the waiting thread
    does; it then sets the shared stop word (the search stops within 1,024 nodes) and re-raises."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["out"] = fn(*args)
        except BaseException as exc:  # handed to the calling thread
            box["exc"] = exc

    worker = threading.Thread(target=run, name="morris-search", daemon=True)
    worker.start()
    try:
        worker.join()
    except KeyboardInterrupt:
        tt[T_STOP] = 1
        worker.join()
        raise
    if "exc" in box:
        raise box["exc"]
    return box["out"]


class Engine:
    """A reusable compiled search: evaluation coefficients, transposition table, killers and history.

    Keep one per game to reuse the table between moves. Under the repetition rule a table entry's value may
    count repetitions of positions before its search's root, so the table is emptied (a new epoch) before a
    search unless it can be kept (``options.reuse_table``): no position before this root can recur (the
    game's last turn was irreversible: a placement or a capture, so the root's history is the root alone)
    and the same held for every search that wrote the table since it was emptied. Then every entry's value
    depends on the game only through its position and the line searched, exactly as within one search.
    That covers all of placing, where the losses of issue 25 begin. ``coef`` comes from
    :func:`coefficients`. :meth:`set_tablebase` hands it
    a tablebase's packed tables (probed at every covered node when ``options.tb_probe``).
    """

    def __init__(self, coef: np.ndarray, options: EngineOptions | None = None) -> None:
        coef = np.ascontiguousarray(coef, dtype=np.float64)
        if coef.shape != (3, len(ENGINE_FEATURES)) or not np.all(np.isfinite(coef)):
            raise ParamsError(
                f"evaluation coefficients must be a finite 3 x {len(ENGINE_FEATURES)} table, got shape "
                f"{coef.shape}"
            )
        self.coef = coef
        self.options = options if options is not None else EngineOptions()
        slots = 1 << self.options.tt_bits
        self.ib = np.zeros(IB_SIZE, dtype=np.int64)
        self.fb = np.zeros(FB_SIZE, dtype=np.float64)
        self.tt = np.zeros(T_TT + 3 * slots, dtype=np.int64)
        # touch every page now (np.zeros maps them lazily): the first search would otherwise pay ~0.1-0.2 s
        # of page faults on a fresh table inside its time limit
        self.tt.fill(0)
        self.ttf = self.tt.view(np.float64)
        self.tt[T_ZTW : T_ZTW + 3 * 1024] = _ZTW.view(np.int64)
        self.fb[O_COEF : O_COEF + coef.size] = coef.reshape(-1)
        self.ib[C_TTMASK] = (slots >> 1) - 1
        self.generation = 0
        self.epoch = 1
        self.clean = True
        """Every entry since the table was emptied came from a search whose root had no repeatable history."""
        self.tables: tuple[np.ndarray, np.ndarray] = _NO_TB
        self.full_tables = False

    def set_tablebase(self, packed: tuple[np.ndarray, np.ndarray] | None, *, full: bool = False) -> None:
        """The tablebase's packed tables (``EndgameTable.packed()``), or None for none; ``full``: they hold
        every position of the moving phase (K <= 9), which turns on ``EngineOptions.exact_placing``."""
        self.full_tables = full and packed is not None
        if packed is None:
            self.tables = _NO_TB
            return
        index, data = packed
        self.tables = (np.ascontiguousarray(index, dtype=np.int64), data)

    def clear(self) -> None:
        """Forget the table, killers and history."""
        self.tt[T_TT:] = 0
        self.epoch = 1
        self.clean = True
        self.ib[O_KILL : O_KILL + 2 * MAX_PLY] = -1
        self.ib[O_HH : O_HH + 1200] = 0

    def with_options(self, options: EngineOptions) -> Engine:
        """A fresh engine with the same evaluation, tablebase and other options."""
        engine = Engine(self.coef, options)
        engine.tables = self.tables
        engine.full_tables = self.full_tables
        return engine

    def _configure(self, st: EngineState) -> None:
        o = self.options
        ib = self.ib
        mask = ib[C_TTMASK]
        ib[:64] = 0
        ib[C_TTMASK] = mask
        ib[C_EPOCH] = self.epoch
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
        ib[C_GEN] = self.generation & 0x7
        ib[C_NULL] = o.null_move
        ib[C_NULL_R] = o.null_reduction
        # the tablebase holds the standard rules' values: only where men fly
        ib[C_TB] = int(o.tb_probe and st.flying and self.tables is not _NO_TB)
        ib[C_BEXT] = o.blockade_extension
        # the placing search is kept exact only where the values past placing are
        ib[C_EXACT] = o.exact_placing if self.full_tables and ib[C_TB] else 0
        ib[C_CLOCK] = time.CLOCK_MONOTONIC
        self.fb[D_LMR_DIV] = o.lmr_divisor
        self.fb[D_DEADLINE] = 0.0

    def evaluate(self, pos: Position) -> float:
        """The compiled static score of a position that is not over (side to move's view)."""
        st = state_of(pos, 1)
        me, opp, hme, hopp, _s = st.args()
        return float(kernels().evaluate_fast(me, opp, hme, hopp, st.flying, self.fb, O_COEF))

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
        on_depth: Callable[[int, float, int, int], float | None] | None = None,
        keep_table: bool = False,
        window: tuple[float, float] | None = None,
    ) -> EngineResult:
        """Iterative deepening to ``depth`` (default 64) within ``time_limit`` seconds / ``node_limit`` nodes.

        The result is the last fully searched depth (depth 1 always completes). ``pos`` is not changed.
        Ctrl-C returns the last completed depth with ``stopped=True`` and ``interrupted=True``. ``rng``
        shuffles the root turns before the (stable) ordering, so ties between equally scored root turns
        follow it (matches); without it the move ordering decides. ``root_moves``: search only these root
        turns (a root split; the benchmark measures whether it pays). ``on_depth(depth, score, best turn,
        nodes)``, after every completed depth, may return a new time limit (seconds from the start; the
        time manager's say), or 0 to stop now. ``keep_table``: do not clear the table under the repetition
        rule (the caller's searches share one game history: the why-panel's candidates). ``window``:
        search every depth within ``(lo, hi)`` instead of a full (or aspiration) window: the score is then
        exact only inside it, an upper bound at or below ``lo``, a lower bound at or above ``hi`` (a null
        window answers "better than x?" for far fewer nodes: the why-panel's screening of candidates).
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
        clock0 = _monotonic()
        st = state_of(pos, MAX_PLY + 2)
        over = st.status()
        if over != 0:
            return EngineResult(None, -WIN if over < 0 else 0.0, 0, 0, (), 0.0)
        k = kernels()
        self.generation += 1
        ib, fb, tt, ttf, hist = self.ib, self.fb, self.tt, self.ttf, st.hist
        tbi, tbd = self.tables
        fresh = st.quiet == 0  # the root's history is the root alone: nothing before it can recur
        if st.threefold and not keep_table and not (self.options.reuse_table and fresh and self.clean):
            # entries of an earlier search may count repetitions of positions before its root (as in
            # Searcher): a new epoch makes them read as empty (a real clear only when the epoch wraps)
            self.epoch += 1
            if self.epoch > 0xFFFF:
                tt[T_TT:] = 0
                self.epoch = 1
            self.clean = fresh
        else:
            self.clean = self.clean and fresh
        tt[T_STOP] = 0
        self._configure(st)
        ib[O_KILL : O_KILL + 2 * MAX_PLY] = -1
        me, opp, hme, hopp, side = st.args()
        rmoves = np.zeros(MAX_TURNS_PER_NODE, dtype=np.int64)
        n = int(k.generate(me, opp, hme, st.flying, rmoves, 0))
        if root_moves is not None:
            allowed = {encode(t) for t in root_moves}
            kept = [int(m) for m in rmoves[:n] if int(m) in allowed]
            if not kept:
                raise ParamsError(f"none of the root turns {[str(t) for t in root_moves]} is legal here")
            n = len(kept)
            rmoves[:n] = kept
        if rng is not None and n > 1:
            rmoves[:n] = rmoves[:n][rng.permutation(n)]
        k.order_root(me, opp, hopp, side, n, rmoves, ib)
        args = (me, opp, hme, hopp, side, st.turns, st.quiet, st.cur)
        tail = (ib, fb, tt, ttf, hist, tbi, tbd)
        best: tuple[int, float, list[int]] | None = None
        done_depth = 0
        iterations: list[tuple[int, float, int, float]] = []
        stopped = False
        interrupted = False
        partial = False
        prev = 0.0
        limit = time_limit
        helpers = self._start_helpers(args, rmoves, n, max_depth, clock0, limit, hist) if n > 1 else []

        # a call that may run long runs in a thread (this one waits for Ctrl-C); a short one runs here: a
        # thread costs a start and two switches (milliseconds on a loaded machine), and a Ctrl-C then waits
        # for the end of the depth, at most the time limit (up to 1 s) away
        bounded = node_limit is not None or (time_limit is not None and time_limit <= 1.0)

        def root(d: int, lo: float, hi: float) -> tuple[float, int]:
            call = (*args, rmoves, n, d, lo, hi, *tail)
            if (d < 8 or bounded) and not helpers:
                return k.root(*call)  # type: ignore[no-any-return]
            return _call(k.root, call, tt)  # type: ignore[no-any-return]

        try:
            for d in range(1, max_depth + 1):
                # depth 1 always completes: no limits for it
                ib[S_LIMIT] = 0 if d == 1 or node_limit is None else node_limit
                ib[S_NEXT] = ib[S_NODES] + 1
                fb[D_DEADLINE] = 0.0 if d == 1 or limit is None else clock0 + limit
                if window is not None:
                    score, bi = root(d, window[0], window[1])
                elif self.options.aspiration and d >= 4 and abs(prev) < MATE_BOUND:
                    delta = 0.25
                    lo, hi = prev - delta, prev + delta
                    while True:
                        score, bi = root(d, lo, hi)
                        if ib[S_STOP]:
                            break
                        if score <= lo:
                            lo = -INF if delta > 4 else score - delta
                        elif score >= hi:
                            hi = INF if delta > 4 else score + delta
                        else:
                            break
                        delta *= 4
                else:
                    score, bi = root(d, -INF, INF)
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
                if on_depth is not None:
                    said = on_depth(d, float(score), m, int(ib[S_NODES]))
                    if said is not None:
                        if said <= 0 or (time.perf_counter() - start) >= said:
                            break
                        limit = said
        except (KeyboardInterrupt, SystemError) as exc:
            # Ctrl-C reaches the thread waiting for the compiled search (or, on an old path, numba's
            # SystemError wrapping the KeyboardInterrupt): both are an interrupt
            if not _is_interrupt(exc):
                raise
            if best is None:
                self._stop_helpers(helpers)
                raise KeyboardInterrupt from None
            stopped = interrupted = True
        helper_nodes = self._stop_helpers(helpers)
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
            int(ib[S_TBHITS]),
            int(ib[S_EXT]),
            helper_nodes,
        )

    def _start_helpers(
        self,
        args: tuple[int, ...],
        rmoves: np.ndarray,
        n: int,
        max_depth: int,
        clock0: float,
        limit: float | None,
        hist: np.ndarray,
    ) -> list[tuple[threading.Thread, np.ndarray]]:
        """Lazy SMP: ``threads - 1`` helper threads searching the same root over the shared table, each
        with its own buffers, starting one or two depths ahead of the main thread."""
        out: list[tuple[threading.Thread, np.ndarray]] = []
        k = kernels()
        for i in range(1, self.options.threads):
            ib = self.ib.copy()
            fb = self.fb.copy()
            ib[S_NODES] = ib[S_STOP] = ib[S_LIMIT] = 0
            ib[S_NEXT] = 1
            fb[D_DEADLINE] = 0.0 if limit is None else clock0 + limit
            first = 2 + (i % 2)
            shared = (self.tt, self.ttf, hist.copy(), *self.tables)
            call = (*args, rmoves.copy(), n, first, max_depth, ib, fb, *shared)
            t = threading.Thread(target=k.helper, args=call, name=f"morris-helper-{i}", daemon=True)
            t.start()
            out.append((t, ib))
        return out

    def _stop_helpers(self, helpers: list[tuple[threading.Thread, np.ndarray]]) -> int:
        """Stop the helper threads (the shared stop word) and return the nodes they searched."""
        if not helpers:
            return 0
        self.tt[T_STOP] = 1
        nodes = 0
        for t, ib in helpers:
            t.join()
            nodes += int(ib[S_NODES])
        self.tt[T_STOP] = 0
        return nodes


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
