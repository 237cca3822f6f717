"""What the search asks of an opening book: one method, the way :mod:`.endgame` asks a tablebase.

The search never imports the book (``boardeval.morris.book``): it takes any object with
:meth:`OpeningBook.probe`, whose answer has a move, the depth and score it was searched to, and a line.
``boardeval.morris.book.Book`` is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from boardeval.morris.rules import Position, Turn

__all__ = ["BookMove", "OpeningBook"]


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
