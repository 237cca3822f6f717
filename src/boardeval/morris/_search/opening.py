"""What the search asks of an opening book: one method, the way :mod:`.endgame` asks a tablebase.

The search never imports the book (``boardeval.morris.book``): it takes any object with
:meth:`OpeningBook.probe`, whose answer has a move, the depth and score it was searched to, and a line.
``boardeval.morris.book.Book`` is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from boardeval.morris.rules import Position, Turn

__all__ = ["OUTCOMES", "OUTCOME_NAMES", "BookMove", "OpeningBook", "turn_outcomes"]

OUTCOMES: dict[str, int] = {"win": 1, "draw": 0, "loss": -1}
"""A proven value for the side to move as a number (the other side's is its negation; the best is the
largest)."""

OUTCOME_NAMES: dict[int, str] = {v: k for k, v in OUTCOMES.items()}
"""The value of a number of :data:`OUTCOMES`."""


class BookMove(Protocol):
    """A book's answer: the move, the depth and score (side to move's view) it was searched to, its line."""

    @property
    def move(self) -> Turn: ...
    @property
    def depth(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def pv(self) -> Sequence[Turn]: ...
    @property
    def stale(self) -> bool:
        """True when the book was searched by another version of the search (see ``rebuild``)."""
        ...

    @property
    def rebuild(self) -> str:
        """The command that makes a stale book again (empty when the book is this search's)."""
        ...

    @property
    def value(self) -> str:
        """The position's proven value for the side to move (``"win"``, ``"draw"``, ``"loss"``; the move
        keeps it), or empty when the book does not know it."""
        ...

    @property
    def exact(self) -> bool:
        """True when the move comes from a search that proved it (not only checked it keeps the value)."""
        ...

    def text(self) -> str:
        """In words, e.g. ``"book move: searched to depth 20, +0.40"``."""
        ...


class OpeningBook(Protocol):
    """The opening book as the search sees it."""

    def probe(self, position: Position) -> BookMove | None:
        """The book move of ``position`` (in its own frame), or None when the book does not hold it."""
        ...


def turn_outcomes(pos: Position, book: OpeningBook) -> dict[Turn, int] | None:
    """Each turn's proven outcome for the mover (1 win, 0 draw, -1 loss) where the opening book holds the
    position every turn leads to (its value, negated); None as soon as one is not held (or holds no value).
    The turns whose outcome is the best one keep the position's value."""
    out: dict[Turn, int] = {}
    for turn in pos.legal_turns():
        pos.push(turn)
        try:
            entry = book.probe(pos)
        finally:
            pos.pop()
        if entry is None or not entry.value:
            return None
        out[turn] = -OUTCOMES[entry.value]  # the opponent's value there, negated
    return out or None
