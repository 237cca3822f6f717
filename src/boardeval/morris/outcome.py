"""How a Nine Men's Morris game ends: :class:`Termination` (why), :class:`Outcome` (why and who won) and
the older string form :class:`Status`. :meth:`.rules.Position.outcome` decides them; this module only says
them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from boardeval.morris.board import BLACK, SIDE_NAMES, WHITE

__all__ = ["Outcome", "Result", "Status", "Termination"]

Result = Literal["white", "black", "draw"]


class Termination(enum.Enum):
    """Why a game ended (python-chess style): two ways to lose, three draw rules of the variant."""

    FEWER_THAN_THREE_MEN = "fewer_than_three_men"
    NO_LEGAL_MOVE = "no_legal_move"
    TURN_LIMIT = "turn_limit"
    THREEFOLD_REPETITION = "threefold_repetition"
    NO_MILL_TURNS = "no_mill_turns"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``termination`` and ``winner`` (WHITE, BLACK, or None for a draw).

    ``limit`` is the variant's count behind a count-based draw (``TURN_LIMIT``: ``max_turns``,
    ``NO_MILL_TURNS``: ``no_mill_turns``), so :attr:`reason` can say "200 turns"; None otherwise.
    """

    termination: Termination
    winner: int | None
    limit: int | None = None

    @property
    def result(self) -> Result:
        """The winner ("white" or "black") or "draw"."""
        return "draw" if self.winner is None else "white" if self.winner == WHITE else "black"

    @property
    def reason(self) -> str:
        """Why, in words: "white has fewer than 3 men", "black has no legal move", "200 turns", ..."""
        loser = SIDE_NAMES[1 - self.winner] if self.winner is not None else ""
        return {
            Termination.FEWER_THAN_THREE_MEN: f"{loser} has fewer than 3 men",
            Termination.NO_LEGAL_MOVE: f"{loser} has no legal move",
            Termination.TURN_LIMIT: f"{self.limit} turns",
            Termination.THREEFOLD_REPETITION: "threefold repetition",
            Termination.NO_MILL_TURNS: f"{self.limit} turns without a mill",
        }[self.termination]

    def __str__(self) -> str:
        head = "draw" if self.winner is None else f"{self.result} wins"
        return f"{head} ({self.reason})"


@dataclass(frozen=True)
class Status:
    """The outcome as two strings (``outcome`` "ongoing"/"white"/"black"/"draw", ``reason``).

    Kept for code written against :meth:`Position.status`; new code uses :meth:`Position.outcome`, whose
    :class:`Outcome` carries the termination as data. Derived from it, so the rules live in one place.
    """

    outcome: str
    reason: str = ""

    @classmethod
    def of(cls, outcome: Outcome | None) -> Status:
        """The status of a game whose :meth:`Position.outcome` is ``outcome``."""
        return cls("ongoing") if outcome is None else cls(outcome.result, outcome.reason)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome != "ongoing"

    @property
    def winner(self) -> int | None:
        """WHITE or BLACK for a decided game, else None."""
        return {"white": WHITE, "black": BLACK}.get(self.outcome)

    def __str__(self) -> str:
        if self.outcome == "ongoing":
            return "ongoing"
        head = "draw" if self.outcome == "draw" else f"{self.outcome} wins"
        return f"{head} ({self.reason})"
