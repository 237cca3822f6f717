"""Alpha-beta search for Nine Men's Morris (spec section 4): :class:`Searcher`, :func:`search`,
:func:`top_moves`.

Two engines behind one :class:`Searcher` (issue 12):

* ``engine="compiled"`` (the default): the numba principal-variation search of :mod:`.compiled` (iterative
  deepening, aspiration windows, a depth-preferred + always-replace table, killers, history, late-move
  reductions, null move while placing, quiescence over mill closures, mate distances), 1.6-2.9 M nodes a
  CPU-second, over the evaluator's coefficients (the same numbers as :meth:`Evaluator.score`, checked to
  1e-9). ``options`` picks its techniques (``FULL_WIDTH``: plain full-width alpha-beta, the same tree values
  as the Python engine). :meth:`Searcher.top_moves` gives every root turn its own full-window search one
  turn shallower (the why-panel's per-candidate scores and lines).
* ``engine="python"``: the plain Python alpha-beta of :mod:`.reference` (the reference the tests compare
  with, and "today's AI" in ``benchmarks/morris_strength.py``). An evaluator that is not an :class:`Evaluator`
  (any object with ``score(pos)``) always uses it: the compiled search needs coefficients.

Both probe the tablebase at a covered root (its best turn, no search) and at every covered node inside the
tree (the compiled search since issue 25, from the tablebase's packed tables; with ``EngineOptions(
tb_probe=False)`` it takes exact scores only for the root turns that lead into a covered position and
searches the rest, as before; see ``docs/morris-search.md``).

Scores are from the side to move's view, in the units of :mod:`boardeval.morris._evaluate`; a won position
scores ``WIN_SCORE - plies`` and a lost one ``-(WIN_SCORE - plies)``. One ply is one *turn* (a placement or
move together with its removal).

Design choices:

* Ties between equal root moves are broken by a seeded shuffle when ``rng`` is given (matches), otherwise
  by the deterministic move ordering.
* Perfect endgames (issue 13 section 2): with a tablebase (:class:`~.endgame.EndgameTable`), every node
  the tablebase covers (no men in hand, both sides' men counts built) gets its exact score instead of a
  subtree: a win in ``d`` more turns scores ``WIN_SCORE - (ply + d)``, a loss ``-(WIN_SCORE - (ply + d))``,
  a draw 0 -- the same mate-distance scale as the search's own ends, so a faster win ranks higher. A
  decided value whose end lies beyond the variant's turn limit scores as the draw the limit makes of it. A
  covered root is not searched at all: the turn is the tablebase's best (shortest win, longest loss; among
  equal turns, seeded ties, then the evaluator's choice for the side that cannot force a win).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from boardeval.core import ParamsError, Progress, report
from boardeval.morris._evaluate import MATE_BOUND, Evaluator, default_evaluator, terminal_score
from boardeval.morris._search.endgame import EndgameTable, holds_every_moving_position, tablebase_score
from boardeval.morris._search.opening import OpeningBook
from boardeval.morris._search.reference import ReferenceTree, ordered_turns
from boardeval.morris.rules import Position, Turn

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from boardeval.core import SeedLike
    from boardeval.morris._search.compiled.engine import Engine, EngineOptions

__all__ = [
    "DEFAULT_DEPTH",
    "ENGINES",
    "MAX_DEPTH",
    "MoveScore",
    "SearchResult",
    "Searcher",
    "search",
    "top_moves",
]

DEFAULT_DEPTH: Final[int] = 4
"""Depth used when neither a depth nor a time limit is given."""

MAX_DEPTH: Final[int] = 64
"""Iterative deepening stops here at the latest (time-limited searches)."""

ENGINES: Final[tuple[str, ...]] = ("compiled", "python")
"""The search engines of :class:`Searcher`: the numba search (default) and the Python reference."""

_INF: Final[float] = float("inf")


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Outcome of a search: best turn, its score (side to move's view), principal variation, effort.

    ``move`` is ``None`` only for a finished game. ``depth`` is the last fully searched depth;
    ``interrupted`` is True when Ctrl-C stopped the search (the result is then from the last full depth).
    """

    move: Turn | None
    score: float
    pv: tuple[Turn, ...]
    nodes: int
    depth: int
    seconds: float
    interrupted: bool = False
    tablebase: str | None = None
    """The tablebase's verdict in words (``"white wins in 7"``) when the root was covered, else None."""
    book: str | None = None
    """The opening book's answer in words (``"book move: searched to depth 20, +0.40"``), else None."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form with turns in notation."""
        return {
            "move": None if self.move is None else str(self.move),
            "score": self.score,
            "pv": [str(t) for t in self.pv],
            "nodes": self.nodes,
            "depth": self.depth,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "tablebase": self.tablebase,
            "book": self.book,
        }


@dataclass(frozen=True, slots=True)
class MoveScore:
    """One root turn with its search score (side to move's view) and principal variation."""

    move: Turn
    score: float
    pv: tuple[Turn, ...] = field(default=())


def _check_depth(depth: int | None, time_limit: float | None) -> tuple[int, float | None]:
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ParamsError(f"search depth must be an integer >= 1, got {depth!r}")
    if depth is not None and depth > MAX_DEPTH:
        raise ParamsError(f"search depth must be <= {MAX_DEPTH}, got {depth!r}")
    if time_limit is not None and not (time_limit > 0 and time_limit < 1e7):
        raise ParamsError(f"time limit must be a positive number of seconds, got {time_limit!r}")
    if depth is None:
        return (MAX_DEPTH if time_limit is not None else DEFAULT_DEPTH), time_limit
    return depth, time_limit


class Searcher:
    """A reusable search context: evaluator, engine, transposition table and node counter.

    ``evaluator`` scores the leaves (default: the base weights); anything with ``score(pos) -> float`` from
    the side to move's view will do (it then runs on the Python engine). ``engine``: ``"compiled"`` (the
    numba search, default) or ``"python"`` (the reference); ``options`` (an ``EngineOptions``) picks the
    compiled search's techniques. ``tablebase``: the tablebase's best turn at a covered root, and (Python
    engine) exact scores at every covered node (see the module docstring). Keep one per game to reuse the
    table between moves; call :meth:`clear` to forget it. ``tb_hits`` counts the probes of the last search.
    ``book``: an opening book (:class:`~.opening.OpeningBook`) whose move is played without a search when
    it holds the root and was searched at least as deep as asked (always under a time or node limit).
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        *,
        tt_size: int = 1 << 20,
        tablebase: EndgameTable | None = None,
        engine: str = "compiled",
        options: EngineOptions | None = None,
        book: OpeningBook | None = None,
    ) -> None:
        if engine not in ENGINES:
            raise ParamsError(f"unknown search engine {engine!r}: expected one of {', '.join(ENGINES)}")
        self.evaluator = default_evaluator() if evaluator is None else evaluator
        # the compiled search needs the evaluator's coefficient table: a custom scorer runs in Python
        self.engine = engine if isinstance(self.evaluator, Evaluator) else "python"
        self.options = options
        self._engine: Engine | None = None
        self.nodes = 0
        self.tb_hits = 0
        self.tablebase = tablebase
        self.book = book
        self._tb_keys: frozenset[tuple[int, int]] = (
            frozenset() if tablebase is None else frozenset(tablebase.subdatabases)
        )
        self._tree = ReferenceTree(self.evaluator, tt_size, self._tb_score if self._tb_keys else None)
        """The Python engine's tree and table (the compiled engine keeps its own)."""
        self._last_move: Turn | None = None
        """The compiled search's last answer: the why-panel of that move searches it first."""

    def clear(self) -> None:
        """Forget the transposition table (and the compiled search's killers and history)."""
        self._tree.tt.clear()
        if self._engine is not None:
            self._engine.clear()

    def compiled(self) -> Engine:
        """The compiled search over this evaluator's coefficients (built on first use: numba loads then)."""
        if self._engine is None:
            from boardeval.morris._search.compiled.engine import Engine, warm_up  # numba on first use

            assert isinstance(self.evaluator, Evaluator)
            warm_up()  # load the compiled code before any clock runs
            self._engine = Engine(_coefficients(self.evaluator), self.options)
            if self.tablebase is not None and self._engine.options.tb_probe:
                # tables of every moving position make the placing search's ends exact (exact_placing)
                self._engine.set_tablebase(
                    self.tablebase.packed(), full=holds_every_moving_position(self.tablebase)
                )
        return self._engine

    def ready(self) -> None:
        """Load what a first search would otherwise load inside its time: the compiled search and the
        tablebase's packed tables (a game clock calls this before it starts a move's clock)."""
        if self.engine == "compiled":
            self.compiled()

    @property
    def _probes_in_tree(self) -> bool:
        """True when the compiled search probes the tablebase at every covered node (issue 25)."""
        return bool(self._tb_keys) and (self.options is None or self.options.tb_probe)

    # ---- the tablebase ---------------------------------------------------------------------------------

    def tb_covers(self, pos: Position) -> bool:
        """True if the tablebase holds ``pos`` (no men in hand, flying rules, its sub-database built)."""
        if not self._tb_keys or pos.hand[0] or pos.hand[1] or not pos.variant.flying:
            return False
        s = pos.side
        return (pos.men[s].bit_count(), pos.men[s ^ 1].bit_count()) in self._tb_keys

    def _tb_score(self, pos: Position, ply: int) -> float | None:
        """The exact score of a covered node (``ply`` turns below the root), None if not covered."""
        if not self.tb_covers(pos):
            return None
        assert self.tablebase is not None
        self.tb_hits += 1
        s = pos.side
        value, distance = self.tablebase.lookup_sides(pos.men[s], pos.men[s ^ 1])
        return tablebase_score(pos, value, distance, ply)

    def _tb_root(self, pos: Position, rng: SeedLike | None, start: float) -> SearchResult:
        """The tablebase's best turn at a covered root (no search below it)."""
        assert self.tablebase is not None
        result = self.tablebase.probe(pos)
        self.tb_hits += 1 + len(result.turns)
        best = result.turns[0]
        tied = [t.turn for t in result.turns if (t.value, t.distance) == (best.value, best.distance)]
        if rng is not None and len(tied) > 1:
            from boardeval.core import make_rng  # numpy on first use, not at import

            gen = make_rng(rng)
            tied = [tied[int(i)] for i in gen.permutation(len(tied))]
        if best.value == "draw" and len(tied) > 1:
            # every drawing turn keeps the draw: prefer the one the evaluator likes (chances vs a weaker side)
            scored = []
            for turn in tied:
                pos.push(turn)
                try:
                    term = terminal_score(pos)
                    scored.append(-(term if term is not None else self.evaluator.score(pos)))
                finally:
                    pos.pop()
            tied = [tied[max(range(len(tied)), key=lambda i: scored[i])]]
        score = tablebase_score(pos, result.value, result.distance, 0)
        summary = result.summary()
        return SearchResult(
            tied[0], score, (tied[0],), len(result.turns), 1, time.perf_counter() - start, tablebase=summary
        )

    # ---- public ---------------------------------------------------------------------------------------

    def search(
        self,
        pos: Position,
        depth: int | None = None,
        time_limit: float | None = None,
        *,
        rng: SeedLike | None = None,
        progress: Progress | None = None,
        on_depth: Callable[[int, float, int, int], float | None] | None = None,
        node_limit: int | None = None,
    ) -> SearchResult:
        """Iterative deepening to ``depth`` (default :data:`DEFAULT_DEPTH`) or until ``time_limit`` seconds.

        With a time limit the last *completed* depth gives the move (depth 1 is always completed). Ctrl-C
        returns the last completed depth with ``interrupted=True``. ``pos`` is left unchanged.
        ``on_depth``: the compiled search's callback after every depth (``Engine.search``: a time manager
        may move the deadline or stop). ``node_limit``: the compiled search stops after that many nodes
        (and searches as deep as they reach when no depth is given): a budget the machine's load does not
        change, for matches on a busy machine.
        """
        max_depth, limit = _check_depth(depth, time_limit)
        if node_limit is not None and depth is None:
            max_depth = MAX_DEPTH
        start = time.perf_counter()
        self.nodes = 0
        self.tb_hits = 0
        if pos.variant.threefold_repetition:
            self._tree.tt.clear()  # entries from earlier searches may predate a repetition (see .reference)
        term = terminal_score(pos)
        if term is not None:
            return SearchResult(None, term, (), 0, 0, 0.0)
        if self.tb_covers(pos):
            return self._tb_root(pos, rng, start)
        if self.book is not None:
            entry = self.book.probe(pos)
            if entry is not None and (
                (depth is None and (limit is not None or node_limit is not None)) or entry.depth >= max_depth
            ):
                return SearchResult(
                    entry.move, entry.score, tuple(entry.pv), 0, entry.depth, time.perf_counter() - start,
                    book=entry.text(),
                )  # fmt: skip
        if self.engine == "compiled":
            self.compiled()  # loaded (and the table's pages touched) before the clock starts
            start = time.perf_counter()
            return self._search_compiled(pos, max_depth, limit, rng, progress, start, on_depth, node_limit)
        order = self._root_order(pos, rng)
        tree = self._tree
        tree.nodes = 0
        result: SearchResult | None = None
        try:
            for d, move, score, pv in tree.deepen(pos, max_depth, limit, order, start):
                result = SearchResult(move, score, tuple(pv), tree.nodes, d, time.perf_counter() - start)
                report(progress, d, max_depth, f"depth {d}: {move} {score:+.2f}")
        except KeyboardInterrupt:
            if result is None:
                raise
            return replace(result, nodes=tree.nodes, seconds=time.perf_counter() - start, interrupted=True)
        finally:
            self.nodes = tree.nodes  # every exit, Ctrl-C included
        assert result is not None  # depth 1 never times out
        return replace(result, nodes=tree.nodes, seconds=time.perf_counter() - start)

    def _search_compiled(
        self,
        pos: Position,
        depth: int,
        limit: float | None,
        rng: SeedLike | None,
        progress: Progress | None,
        start: float,
        on_depth: Callable[[int, float, int, int], float | None] | None = None,
        node_limit: int | None = None,
    ) -> SearchResult:
        """The compiled search's result as a :class:`SearchResult` (``pos`` is left unchanged).

        With a tablebase, the root turns that lead into a covered position (a capture down to the built
        men counts) get their exact scores and the compiled search covers the other turns; the better of
        the two wins (ties: the exact one)."""
        gen = None
        if rng is not None:
            from boardeval.core import make_rng  # numpy on first use, not at import

            gen = make_rng(rng)
        # without probes in the tree (``tb_probe=False``, the search before issue 25): the root turns into
        # covered positions get their exact scores here, the compiled search covers the others
        old_way = self._tb_keys and not self._probes_in_tree
        exact, rest = self._covered_children(pos) if old_way else ([], None)
        best_exact = max(exact, key=lambda e: e[1], default=None)
        if best_exact is not None and not rest:
            turn, score = best_exact  # every turn is covered: no search needed
            return SearchResult(turn, score, (turn,), self.nodes, 1, time.perf_counter() - start)
        res = self.compiled().search(
            pos, depth, limit, node_limit, progress=progress, rng=gen, root_moves=rest, on_depth=on_depth
        )
        self._last_move = res.move
        self.nodes += res.nodes
        self.tb_hits += res.tb_hits
        if best_exact is not None and best_exact[1] >= res.score:
            turn, score = best_exact
            return SearchResult(
                turn, score, (turn,), self.nodes, res.depth, time.perf_counter() - start, res.interrupted
            )
        return SearchResult(
            res.move, res.score, res.pv, self.nodes, res.depth, time.perf_counter() - start, res.interrupted
        )

    def _covered_children(self, pos: Position) -> tuple[list[tuple[Turn, float]], list[Turn] | None]:
        """The root turns into covered positions with their exact scores (root's view), and the other
        turns (None when no turn leads into the tablebase: search them all)."""
        exact: list[tuple[Turn, float]] = []
        rest: list[Turn] = []
        for turn in pos.legal_turns():
            if turn.remove is None:
                rest.append(turn)  # the men counts change only by a removal
                continue
            pos.push(turn)
            try:
                score = self._tb_score(pos, 0) if terminal_score(pos) is None else None
            finally:
                pos.pop()
            if score is None:
                rest.append(turn)
            else:
                exact.append((turn, _one_ply_up(score)))
        return exact, (rest if exact else None)

    def _root_order(self, pos: Position, rng: SeedLike | None) -> list[Turn]:
        """The root turns in search order; with ``rng``, shuffled, then stably sorted by class (closures
        first), so that ties between equal turns are broken by the shuffle."""
        order = ordered_turns(pos, None)
        if rng is not None:
            from boardeval.core import make_rng  # numpy on first use, not at import

            gen = make_rng(rng)
            order = [order[int(i)] for i in gen.permutation(len(order))]
            order.sort(key=lambda t: 0 if t.remove is not None else 1)
        return order

    def top_moves(
        self, pos: Position, n: int = 3, depth: int = DEFAULT_DEPTH, *, fresh: bool = True
    ) -> list[MoveScore]:
        """The ``n`` best root turns with exact scores (each searched with a full window), best first.

        ``fresh=False`` keeps the table of this searcher's last search: only right after searching the
        same position with the same history (the why-panel of the AI's own move), whose entries then
        answer most of the candidates' searches (issue 25 section 3); the compiled engine then also
        screens the turns past the first ``n`` with null-window searches (exact for the top ``n`` where
        the search is exact: full width; with the default reductions a turn's score depends on the
        table's contents anyway, so either way may rank a near-tie differently)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ParamsError(f"number of moves must be an integer >= 1, got {n!r}")
        max_depth, _ = _check_depth(depth, None)
        self.nodes = 0
        self.tb_hits = 0
        if pos.variant.threefold_repetition and fresh:
            self._tree.tt.clear()
            if self._engine is not None:
                self._engine.clear()  # once: the candidates' searches below share the table
        out: list[MoveScore] = []
        # after the AI's own search its answer goes first: its exact score sets a high bar for the screening
        hint = None if fresh else self._last_move
        for turn in ordered_turns(pos, hint):
            pos.push(turn)
            try:
                if self.engine == "compiled":
                    # after the AI's own search (fresh=False), once n turns have exact scores, a turn is
                    # searched exactly only if a null-window search says it beats the n-th best so far (a
                    # tie does not: the earlier turn keeps its place, as in the stable sort below); with the
                    # search's table most turns fail that test for a fraction of a full search's nodes
                    # (issue 25 section 3: the why-panel's time). A fresh call scores every turn, so the
                    # web's graph (top 1) and hint (top 3) agree on the best turn's score.
                    if not fresh and len(out) >= n and not self._beats(pos, max_depth - 1, _nth_best(out, n)):
                        continue
                    score, line = self._child_compiled(pos, max_depth - 1)
                else:
                    self._tree.nodes = 0
                    child, child_pv = self._tree.negamax(pos, max_depth - 1, -_INF, _INF, 1)
                    self.nodes += self._tree.nodes
                    score, line = -child, tuple(child_pv)
            finally:
                pos.pop()
            out.append(MoveScore(turn, score, (turn, *line)))
        out.sort(key=lambda m: -m.score)
        return out[:n]

    def safe_turns(self, pos: Position, depth: int = 2, margin: float = 1.0) -> tuple[int, int]:
        """(legal turns, safe turns) of ``pos``: a turn is safe when a ``depth``-turn look (each turn's own
        search one turn shallower) neither loses the game nor scores ``margin`` or more below the best turn
        (about a man: material weighs ~1.1 a man). The time manager's measure of a critical position."""
        turns = pos.legal_turns()
        if len(turns) <= 1 or self.engine != "compiled":
            return len(turns), len(turns)
        scores = []
        for turn in turns:
            pos.push(turn)
            try:
                scores.append(self._child_compiled(pos, depth - 1)[0])
            finally:
                pos.pop()
        best = max(scores)
        safe = sum(1 for s in scores if s > -MATE_BOUND and s >= best - margin)
        return len(turns), max(1, safe)

    def _beats(self, child: Position, depth: int, threshold: float) -> bool:
        """Whether the root turn that led to ``child`` scores above ``threshold`` (root's view) at
        ``depth``: a null-window compiled search where that answers it cheaply; True (search it exactly)
        at a game end, a covered position, depth 0 or a mate-range threshold."""
        if depth < 1 or abs(threshold) >= MATE_BOUND or terminal_score(child) is not None:
            return True
        if self._tb_keys and self._tb_score(child, 0) is not None:
            return True
        # the root's score is -(the child's) outside the mate range: above t <=> the child's below -t
        res = self.compiled().search(child, depth, keep_table=True, window=(-threshold - _NULL, -threshold))
        self.nodes += res.nodes
        self.tb_hits += res.tb_hits
        return res.score < -threshold

    def _child_compiled(self, child: Position, depth: int) -> tuple[float, tuple[Turn, ...]]:
        """A root turn's score (root's view) and line after it: the compiled search of the position after
        the turn, ``depth`` turns deep with a full window (static score at depth 0, exact at a game end or
        a covered position)."""
        term = terminal_score(child)
        if term is not None:
            return _one_ply_up(term), ()
        exact = self._tb_score(child, 0) if self._tb_keys else None
        if exact is not None:
            return _one_ply_up(exact), ()
        engine = self.compiled()
        if depth == 0:
            self.nodes += 1
            return -engine.evaluate(child), ()
        res = engine.search(child, depth, keep_table=True)
        self.nodes += res.nodes
        self.tb_hits += res.tb_hits
        return _one_ply_up(res.score), res.pv


def _coefficients(ev: Evaluator) -> np.ndarray:
    """The compiled evaluation's table ``coef[phase, feature]`` of an evaluator: its own per-phase
    coefficients (``weight * PHASE_SCALE / NORM``, phases placing, moving, flying), so the compiled score is
    the evaluator's whatever way it computed them."""
    import numpy as np  # on first use, not at import

    return np.array([ev._coef[ph] for ph in ("placing", "moving", "flying")], dtype=np.float64)


_NULL: Final[float] = 1e-7
"""Width of the why-panel's null windows (the compiled search's own ``_EPS``)."""


def _nth_best(scored: list[MoveScore], n: int) -> float:
    """The ``n``-th best score of ``scored`` (at least ``n`` entries)."""
    return sorted((m.score for m in scored), reverse=True)[n - 1]


def _one_ply_up(child: float) -> float:
    """A score of the position after a turn (its side to move's view, mate distance from there) seen from
    the turn's mover: negated, and a decided result one turn further away."""
    if child > MATE_BOUND:
        return -child + 1.0
    if child < -MATE_BOUND:
        return -child - 1.0
    return -child


def search(
    pos: Position,
    depth: int | None = None,
    time_limit: float | None = None,
    evaluator: Evaluator | None = None,
    *,
    rng: SeedLike | None = None,
    progress: Progress | None = None,
    engine: str = "compiled",
) -> SearchResult:
    """Best turn for the side to move (see :meth:`Searcher.search`)."""
    return Searcher(evaluator, engine=engine).search(pos, depth, time_limit, rng=rng, progress=progress)


def top_moves(
    pos: Position,
    n: int = 3,
    depth: int = DEFAULT_DEPTH,
    evaluator: Evaluator | None = None,
    *,
    engine: str = "compiled",
) -> list[MoveScore]:
    """Scores of the ``n`` best root turns at ``depth`` (for the why-panel)."""
    return Searcher(evaluator, engine=engine).top_moves(pos, n, depth)
