"""Morris players on the core :class:`~boardeval.core.Player` protocol, and the AI's strength levels.

- :class:`RandomPlayer`: a uniformly random legal turn.
- :class:`AlphaBetaPlayer`: the alpha-beta search with an evaluator and a depth and/or time budget; it keeps
  its transposition table between its own moves (cleared by ``new_game``) and also answers the why-panel
  of a position at the one depth rule the front ends share (:func:`why_depth`).
- :class:`HumanPlayer`: a person typing turns (``d2``, ``a1-a4``, ``d2xg7``); illegal input is reported
  and asked again.

Every player draws its randomness from the generator handed to :meth:`choose`, so a game is reproducible
from its seed whoever runs it. :data:`STRENGTHS` names the search budgets the web app offers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from boardeval.core import BoardevalError, ParamsError, Player, Progress
from boardeval.morris._evaluate import Evaluator, default_evaluator
from boardeval.morris._search import DEFAULT_DEPTH, Searcher, SearchResult, random_turn
from boardeval.morris._search import _check_depth as check_budget
from boardeval.morris.rules import Position, Turn
from boardeval.morris.why import why_panel

if TYPE_CHECKING:
    import numpy as np

    from boardeval.morris.tablebase import Tablebase

__all__ = [
    "STRENGTHS",
    "WHY_MAX_DEPTH",
    "AlphaBetaPlayer",
    "HumanPlayer",
    "MorrisPlayer",
    "RandomPlayer",
    "why_depth",
]

MorrisPlayer: TypeAlias = Player[Position, Turn]
"""A Morris agent: ``choose(position, rng) -> Turn``, ``name``, ``new_game()``."""

STRENGTHS: Final[dict[str, tuple[int, float | None]]] = {
    # name -> (depth, time limit in seconds): iterative deepening stops at whichever comes first.
    # Measured on one core: easy ~1 ms, medium < 0.1 s, hard < 0.5 s, expert up to ~3 s per move.
    "easy": (1, None),
    "medium": (3, 1.0),
    "hard": (5, 2.0),
    "expert": (8, 3.0),
}
"""The AI's strength levels (the web app's choice), as search budgets."""

WHY_MAX_DEPTH: Final[int] = 5
"""The why-panel searches its candidates at most this deep (it searches every root turn in full)."""


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


class AlphaBetaPlayer:
    """The alpha-beta search as a player: an evaluator and a budget (``depth`` and/or ``time`` seconds).

    Without a budget it searches :data:`~boardeval.morris.DEFAULT_DEPTH`. ``shuffle_ties``: break ties
    between equally scored root turns with the generator given to :meth:`choose` (matches); when False
    the deterministic move ordering decides (the same position always gets the same answer).
    ``tablebase``: perfect play wherever it covers the position (exact scores in the tree, the tablebase's
    best turn at a covered root) and its verdict in the why-panel.
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
    ) -> None:
        self.evaluator = default_evaluator() if evaluator is None else evaluator
        self.depth = depth
        self.time = time
        self.shuffle_ties = shuffle_ties
        self.tablebase = tablebase
        self._searcher = Searcher(self.evaluator, tablebase=tablebase)
        check_budget(depth, time)  # fail at construction, not at the first move
        self._name = name if name is not None else _budget_name(depth, time)

    @classmethod
    def at_strength(
        cls,
        strength: str,
        evaluator: Evaluator | None = None,
        *,
        shuffle_ties: bool = True,
        tablebase: Tablebase | None = None,
    ) -> AlphaBetaPlayer:
        """The player of a named strength level (:data:`STRENGTHS`), named after it."""
        if strength not in STRENGTHS:
            raise ParamsError(f"unknown strength {strength!r}: expected one of {', '.join(STRENGTHS)}")
        depth, limit = STRENGTHS[strength]
        return cls(
            evaluator, depth=depth, time=limit, shuffle_ties=shuffle_ties, name=strength, tablebase=tablebase
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
        """
        return self._searcher.search(state, self.depth, self.time, rng=rng, progress=progress)

    def choose(self, state: Position, rng: np.random.Generator) -> Turn:
        """The best turn found within the budget (raises ``ParamsError`` for a finished game)."""
        result = self.search(state, rng if self.shuffle_ties else None)
        if result.move is None:
            raise ParamsError(f"no legal turn in finished position {state.text()!r}")
        return result.move

    def why(self, state: Position, n: int = 3, search_depth: int | None = None) -> dict[str, Any]:
        """The why-panel of ``state`` with ``n`` candidates, searched at :func:`why_depth` of
        ``search_depth`` (default: this player's depth budget)."""
        depth = search_depth if search_depth is not None else self.depth or DEFAULT_DEPTH
        return why_panel(state, n, why_depth(depth), self.evaluator, tablebase=self.tablebase)

    def new_game(self) -> None:
        """Forget the transposition table."""
        self._searcher.clear()


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


def _budget_name(depth: int | None, time: float | None) -> str:
    """``ai:depth=4``, ``ai:time=0.2``, ``ai:depth=3,time=1`` (the player spec form)."""
    opts = []
    if depth is not None:
        opts.append(f"depth={depth}")
    if time is not None:
        opts.append(f"time={time:g}")
    return "ai:" + ",".join(opts) if opts else f"ai:depth={DEFAULT_DEPTH}"
