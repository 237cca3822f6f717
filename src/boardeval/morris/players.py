"""Morris players on the core :class:`~boardeval.core.Player` protocol, and the AI's strength levels.

- :class:`RandomPlayer`: a uniformly random legal turn.
- :class:`AlphaBetaPlayer`: the search with an evaluator and a depth and/or time budget, on the compiled
  engine (default) or the Python reference (``engine="python"``: today's AI before issue 12, kept for
  comparison); it keeps its transposition table between its own moves (cleared by ``new_game``) and also
  answers the why-panel of a position at the one depth rule the front ends share (:func:`why_depth`).
- :class:`HumanPlayer`: a person typing turns (``d2``, ``a1-a4``, ``d2xg7``); illegal input is reported
  and asked again.

Every player draws its randomness from the generator handed to :meth:`choose`, so a game is reproducible
from its seed whoever runs it. :data:`STRENGTHS` names the search budgets the web app offers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from boardeval.core import BoardevalError, ParamsError, Player, Progress
from boardeval.morris._evaluate import BASE_WEIGHTS, Evaluator, default_evaluator
from boardeval.morris._search.clock import (
    ADVANCE_FROM,
    FULL_TABLES_ADVANCE,
    FULL_TABLES_MAX_FACTOR,
    PLAYER_ADVANCE,
    TimeManager,
)
from boardeval.morris._search.endgame import holds_every_moving_position
from boardeval.morris._search.opening import OUTCOME_NAMES, OpeningBook
from boardeval.morris._search.plain import random_turn
from boardeval.morris._search.searcher import DEFAULT_DEPTH, ENGINES, Searcher, SearchResult
from boardeval.morris._search.searcher import _check_depth as check_budget
from boardeval.morris.rules import MEN_PER_SIDE, Position, Turn
from boardeval.morris.why import OUTCOME_VERBS, turn_outcomes, why_panel

if TYPE_CHECKING:
    import numpy as np

    from boardeval.morris._search.compiled.options import EngineOptions
    from boardeval.morris.tablebase import Tablebase

__all__ = [
    "STRENGTHS",
    "WHY_MAX_DEPTH",
    "WHY_RESERVE",
    "WHY_SHARE",
    "AlphaBetaPlayer",
    "HumanPlayer",
    "MorrisPlayer",
    "RandomPlayer",
    "why_depth",
]

MorrisPlayer: TypeAlias = Player[Position, Turn]
"""A Morris agent: ``choose(position, rng) -> Turn``, ``name``, ``new_game()``."""

STRENGTHS: Final[dict[str, tuple[int | None, float | None]]] = {
    # name -> (depth, time limit in seconds) on the compiled search: iterative deepening stops at whichever
    # comes first. easy looks one turn ahead (it takes a mill, it does not see a trap); the others are time
    # per move: medium ~depth 7-8, hard ~9-10, expert (~1 s) ~10-12 from placing positions (one core).
    "easy": (1, None),
    "medium": (None, 0.05),
    "hard": (None, 0.25),
    "expert": (None, 1.0),
}
"""The AI's strength levels (the web app's and the CLI's ``--strength``), as search budgets."""

WHY_MAX_DEPTH: Final[int] = 8
"""The why-panel searches its candidates at most this deep (every root turn gets its own full-window
search one turn shallower: ~10-100 ms in all at depth 8 on the compiled search)."""


WHY_SHARE: Final[float] = 0.2
"""The why-panel's share of one answer's time (:meth:`AlphaBetaPlayer.answer`, ``boardeval morris best
--time T``): the search stops at ``T`` less this share (at most :data:`WHY_RESERVE` seconds) and the
panel's candidate searches run in the rest (issue 25 section 3: the panel inside the same budget). After a
search of ~0.8 s on one core the panel takes 0.1-0.2 s (its depth is capped at :data:`WHY_MAX_DEPTH`)."""

WHY_RESERVE: Final[float] = 0.25
"""The most an answer's time budget holds back for its why-panel (seconds): with a long budget the
panel's cost no longer grows (its depth is capped), so the search keeps the rest."""


def why_depth(search_depth: int) -> int:
    """The depth of the why-panel after a search that reached ``search_depth``: the same depth (so the
    panel's scores are the AI's), capped at :data:`WHY_MAX_DEPTH` to stay quick."""
    return max(1, min(search_depth, WHY_MAX_DEPTH))


class RandomPlayer:
    """Plays a uniformly random legal turn."""

    @property
    def name(self) -> str:
        """``"random"`` (the player spec that builds it)."""
        return "random"

    def choose(self, state: Position, rng: np.random.Generator) -> Turn:
        """A random legal turn of ``state`` (raises ``ParamsError`` for a finished game)."""
        return random_turn(state, rng)

    def new_game(self) -> None:
        """Nothing to forget."""


def _game_clock(per_move: float, tablebase: Tablebase | None) -> TimeManager:
    """A player's game clock: the advance of :data:`~._search.clock.PLAYER_ADVANCE`, or with tables of every
    moving position (K <= 9), where no move after placing costs time, the larger advance and hard limit of
    :data:`~._search.clock.FULL_TABLES_ADVANCE` (the placing moves get the game's time)."""
    if holds_every_moving_position(tablebase):
        return TimeManager(per_move, advance=FULL_TABLES_ADVANCE, max_factor=FULL_TABLES_MAX_FACTOR)
    return TimeManager(per_move, advance=PLAYER_ADVANCE)


class AlphaBetaPlayer:
    """The alpha-beta search as a player: an evaluator and a budget (``depth`` and/or ``time`` seconds).

    Without a budget it searches :data:`~boardeval.morris.DEFAULT_DEPTH`. ``shuffle_ties``: break ties
    between equally scored root turns with the generator given to :meth:`choose` (matches); when False
    the deterministic move ordering decides (the same position always gets the same answer).
    ``tablebase``: the tablebase's best turn at a covered root, exact scores at covered nodes in the tree,
    and its verdict in the why-panel. ``engine``: ``"compiled"`` (default) or ``"python"`` (the reference
    search, today's AI before issue 12). ``book``: an opening book (default: the shipped one,
    ``boardeval.morris.book.default_book``, for the compiled engine with the default weights; ``None``:
    none). ``manage_time``: with a ``time`` budget, spend a game's time by :class:`~._search.clock.
    TimeManager` (critical positions more, forced moves less, a game's first searched moves past the first
    placements the endgame's savings in advance: :data:`~._search.clock.PLAYER_ADVANCE`, more with tables of
    every moving position; the average at ``time``); False: every move ``time`` seconds. ``options``: the
    compiled search's techniques (``EngineOptions``).
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        shuffle_ties: bool = True,
        name: str | None = None,
        tablebase: Tablebase | None = None,
        engine: str = "compiled",
        book: OpeningBook | str | None = "default",
        manage_time: bool = True,
        options: EngineOptions | None = None,
    ) -> None:
        if engine not in ENGINES:
            raise ParamsError(f"unknown search engine {engine!r}: expected one of {', '.join(ENGINES)}")
        self.evaluator = default_evaluator() if evaluator is None else evaluator
        self.depth = depth
        self.time = time
        self.shuffle_ties = shuffle_ties
        self.tablebase = tablebase
        self.engine = engine
        self.book = _book(book, engine, evaluator)
        check_budget(depth, time)  # fail at construction, not at the first move
        self.clock = (
            _game_clock(time, tablebase) if manage_time and time is not None and depth is None else None
        )
        self._searcher = Searcher(
            self.evaluator, tablebase=tablebase, engine=engine, options=options, book=self.book
        )
        self._last_depth: int | None = None  # the depth this player's last search reached
        self._last_searched: tuple[int, ...] | None = None  # the position (and history) it searched
        self.last_plan: str | None = None  # the time manager's plan of the last move (kind)
        self._name = name if name is not None else _budget_name(depth, time)

    @classmethod
    def at_strength(
        cls,
        strength: str,
        evaluator: Evaluator | None = None,
        *,
        shuffle_ties: bool = True,
        tablebase: Tablebase | None = None,
        engine: str = "compiled",
        manage_time: bool = True,
        book: OpeningBook | str | None = "default",
    ) -> AlphaBetaPlayer:
        """The player of a named strength level (:data:`STRENGTHS`), named after it (``book`` as in the
        constructor)."""
        if strength not in STRENGTHS:
            raise ParamsError(f"unknown strength {strength!r}: expected one of {', '.join(STRENGTHS)}")
        depth, limit = STRENGTHS[strength]
        return cls(
            evaluator,
            depth=depth,
            time=limit,
            shuffle_ties=shuffle_ties,
            name=strength,
            tablebase=tablebase,
            engine=engine,
            manage_time=manage_time,
            book=book,
        )

    @property
    def name(self) -> str:
        """The player spec text (``ai:depth=4``) unless a name was given."""
        return self._name

    def search(
        self, state: Position, rng: np.random.Generator | None = None, *, progress: Progress | None = None
    ) -> SearchResult:
        """The full search result (move, score, principal variation, effort) within this player's budget.

        ``state`` is left unchanged; ``rng`` breaks ties between equal root turns (None: move ordering).
        With the time manager the move's time is its plan's (:class:`~._search.clock.TimeManager`), and the
        time it took is booked against the game's.
        """
        if self.clock is None:
            result = self._searcher.search(state, self.depth, self.time, rng=rng, progress=progress)
        else:
            result = self._managed(state, rng, progress)
        return self._searched(state, result)

    def _searched(self, state: Position, result: SearchResult) -> SearchResult:
        """Remember what a search of ``state`` reached (the why-panel's depth, the position its table is
        fresh for) and hand its result on: where the opening book proves every turn's outcome and the
        search's turn gives the position's value away, the best-ranked turn that keeps it instead."""
        self._last_depth = result.depth or self._last_depth
        self._last_searched = _history_key(state)
        if self.book is None or result.move is None or result.book or result.tablebase or result.interrupted:
            return result
        known = turn_outcomes(state, self.book)
        if known is None or known[result.move] == max(known.values()):
            return result
        return self._keep_value(state, result, known)

    def _keep_value(self, state: Position, result: SearchResult, known: dict[Turn, int]) -> SearchResult:
        """The search's turn gives a proven value away (a position off the book whose every turn leads into
        it: a player who left the book, never this player in its own games): the best-ranked turn that
        keeps the value, ranked at the why-panel's depth from the search's warm table, said in ``book``."""
        import time as _time

        assert result.move is not None
        start = _time.perf_counter()
        best = max(known.values())
        ranked = self._searcher.top_moves(state, len(known), why_depth(result.depth or 1), fresh=False)
        kept = next(m for m in ranked if known[m.move] == best)
        note = (
            f"opening book: {kept.move} {OUTCOME_VERBS[OUTCOME_NAMES[best]]} with best play, every turn's "
            f"outcome proven; the search's {result.move} {OUTCOME_VERBS[OUTCOME_NAMES[known[result.move]]]}"
        )
        return replace(
            result,
            move=kept.move,
            score=kept.score,
            pv=kept.pv,
            nodes=result.nodes + self._searcher.nodes,
            seconds=result.seconds + _time.perf_counter() - start,
            book=note,
        )

    def answer(
        self, state: Position, n: int = 3, *, progress: Progress | None = None
    ) -> tuple[SearchResult, dict[str, Any] | None]:
        """One answer: the search and its why-panel (``n`` candidates), together within this player's
        time budget (``boardeval morris best``, issue 25 section 3).

        With a time budget (and no depth) the search stops at the time less the panel's share
        (:data:`WHY_SHARE`, at most :data:`WHY_RESERVE` s) and the panel's searches run in the rest: the
        result's ``seconds`` is the search's time, the panel's ``seconds`` its own, the two together about
        the budget. A depth budget searches that depth, the panel after it. Ctrl-C during the search: the
        cut-short result (flagged ``interrupted``) and no panel. Ties follow the move ordering (no rng).
        """
        if self.time is not None and self.depth is None:
            limit = self.time - min(WHY_SHARE * self.time, WHY_RESERVE)
            result = self._searched(state, self._searcher.search(state, None, limit, progress=progress))
        else:
            result = self.search(state, progress=progress)
        panel = None if result.interrupted else self.why(state, n, result.depth)
        return result, panel

    def _managed(
        self, state: Position, rng: np.random.Generator | None, progress: Progress | None
    ) -> SearchResult:
        """One move under the time manager: book or forced moves at once, else a planned search."""
        import time as _time

        assert self.clock is not None
        self._searcher.ready()  # the first move's set-up (the compiled search, the tables) is not its time
        start = _time.perf_counter()
        book = self.book.probe(state) if self.book is not None else None
        if book is not None or state.outcome() is not None or self._searcher.tb_covers(state):
            result = self._searcher.search(state, self.depth, self.time, rng=rng, progress=progress)
            self.last_plan = "book" if result.book else "tablebase" if result.tablebase else None
            self.clock.record(_time.perf_counter() - start)
            return result
        legal, safe = self._searcher.safe_turns(state)
        placed = 2 * MEN_PER_SIDE - state.hand[0] - state.hand[1]
        plan = self.clock.plan(legal, safe, hold_advance=placed < ADVANCE_FROM)
        if plan.kind == "forced":
            turn = state.legal_turns()[0]
            result = SearchResult(turn, 0.0, (turn,), 0, 0, _time.perf_counter() - start)
        else:
            limit = max(1e-3, plan.limit() - (_time.perf_counter() - start))

            def on_depth(depth: int, score: float, best: int, _nodes: int) -> float | None:
                return self.clock.after_depth(plan, depth, score, best, _time.perf_counter() - start)  # type: ignore[union-attr]

            result = self._searcher.search(state, None, limit, rng=rng, progress=progress, on_depth=on_depth)
        self.last_plan = plan.kind
        self.clock.record(_time.perf_counter() - start)
        return result

    def choose(self, state: Position, rng: np.random.Generator) -> Turn:
        """The best turn found within the budget (raises ``ParamsError`` for a finished game).

        Ctrl-C during the search raises KeyboardInterrupt here: the search keeps a cut-short result for
        ``best`` (flagged ``interrupted``), but a game must not go on with a move the budget did not pay
        for, so a match stops and keeps its finished games (issue 17)."""
        result = self.search(state, rng if self.shuffle_ties else None)
        if result.interrupted:
            raise KeyboardInterrupt
        if result.move is None:
            raise ParamsError(f"no legal turn in finished position {state.text()!r}")
        return result.move

    def why(self, state: Position, n: int = 3, search_depth: int | None = None) -> dict[str, Any]:
        """The why-panel of ``state`` with ``n`` candidates, searched at :func:`why_depth` of
        ``search_depth`` (default: this player's depth budget, else the depth its last search reached)."""
        depth = search_depth if search_depth is not None else self.depth or self._last_depth or DEFAULT_DEPTH
        # the player's own searcher: right after searching this position its table answers most of the
        # candidates' searches (issue 25 section 3)
        return why_panel(
            state,
            n,
            why_depth(depth),
            self.evaluator,
            tablebase=self.tablebase,
            engine=self.engine,
            book=self.book,
            searcher=self._searcher,
            fresh=self._last_searched != _history_key(state),
        )

    def new_game(self) -> None:
        """Forget the transposition table and the game's clock."""
        self._searcher.clear()
        self._last_depth = None
        if self.clock is not None:
            self.clock.new_game()


class HumanPlayer:
    """A person who types turns: ``read(state)`` returns one line of text (``d2``, ``a1-a4``, ``d2xg7``).

    An unreadable or illegal line is passed to ``on_error`` (the engine's message names the turn and why)
    and ``read`` is asked again; without ``on_error`` the error is raised. ``read`` may raise to leave the
    game (end of input, a "quit" command): the exception passes through :meth:`choose` unchanged.
    """

    def __init__(
        self,
        read: Callable[[Position], str],
        *,
        on_error: Callable[[str], None] | None = None,
        name: str = "human",
    ) -> None:
        self._read = read
        self._on_error = on_error
        self._name = name

    @property
    def name(self) -> str:
        """The name given at construction (default ``"human"``)."""
        return self._name

    def choose(self, state: Position, rng: np.random.Generator) -> Turn:
        """The first legal turn read (``state`` is left unchanged; ``rng`` is not used)."""
        while True:
            text = self._read(state)
            try:
                return state.copy().play(text)
            except BoardevalError as exc:
                if self._on_error is None:
                    raise
                self._on_error(str(exc))

    def new_game(self) -> None:
        """Nothing to forget."""


def _history_key(pos: Position) -> tuple[int, ...]:
    """A position with its game history, as far as a search's table depends on it."""
    return (pos.zobrist, pos.turns, pos.quiet_turns, len(pos.history))


def _book(book: OpeningBook | str | None, engine: str, evaluator: Evaluator | None) -> OpeningBook | None:
    """The player's opening book: ``"default"`` is the shipped one for the compiled engine with the
    default (``base``) weights (the book was searched with them), else none."""
    if book != "default":
        return book if not isinstance(book, str) else None
    if engine != "compiled" or (evaluator is not None and dict(evaluator.weights) != dict(BASE_WEIGHTS)):
        return None
    from boardeval.morris.book import default_book  # on first use

    shipped = default_book()
    if shipped is not None:
        shipped.stale()  # hashes the search's sources once (~10 ms): here, not inside a search's clock
    return shipped


def _budget_name(depth: int | None, time: float | None) -> str:
    """``ai:depth=4``, ``ai:time=0.2``, ``ai:depth=3,time=1`` (the player spec form)."""
    opts = []
    if depth is not None:
        opts.append(f"depth={depth}")
    if time is not None:
        opts.append(f"time={time:g}")
    return "ai:" + ",".join(opts) if opts else f"ai:depth={DEFAULT_DEPTH}"
