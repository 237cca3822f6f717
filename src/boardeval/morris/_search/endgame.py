"""What the search asks of an endgame tablebase: a small interface, and the tablebase's values as scores.

The search never imports the tablebase (``boardeval.morris.tablebase``): it takes any object with the three
members of :class:`EndgameTable` -- the sub-databases built, a fast value lookup of side-relative bitboards,
and a probe that rates every turn -- the way Stockfish's search asks ``syzygy/tbprobe`` and python-chess's
users ask ``chess.syzygy``. ``boardeval.morris.tablebase.Tablebase`` is one (mypy checks it where a
``Tablebase`` is passed to the search); a test double or another tablebase format can be another.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from boardeval.morris._evaluate import WIN_SCORE
from boardeval.morris.rules import Position, Turn

__all__ = ["EndgameTable", "Probe", "ProbedTurn", "tablebase_score"]


class ProbedTurn(Protocol):
    """One legal turn of a probed position, with its value for the side to move and the distance after it."""

    @property
    def turn(self) -> Turn: ...
    @property
    def value(self) -> str: ...
    @property
    def distance(self) -> int | None: ...


class Probe(Protocol):
    """A probed position: value (``"win"`` / ``"loss"`` / ``"draw"``) and distance in turns for the side to
    move, and every legal turn rated, best first."""

    @property
    def value(self) -> str: ...
    @property
    def distance(self) -> int | None: ...
    @property
    def turns(self) -> Sequence[ProbedTurn]: ...
    def summary(self) -> str:
        """In words, e.g. ``"white wins in 7"``."""
        ...


class EndgameTable(Protocol):
    """The endgame tablebase as the search sees it."""

    @property
    def subdatabases(self) -> Iterable[tuple[int, int]]:
        """The men counts ``(side to move, other side)`` it covers (positions without men in hand)."""
        ...

    def lookup_sides(self, own: int, opp: int) -> tuple[str, int | None]:
        """Value and distance of a side-relative position (``own`` = the side to move's bitboard)."""
        ...

    def probe(self, position: Position) -> Probe:
        """Value, distance and every legal turn's value (best first) of a covered position."""
        ...


def tablebase_score(pos: Position, value: str, distance: int | None, ply: int) -> float:
    """A tablebase value as a search score: mate-distance scaled, a draw when the turn limit comes first."""
    if value == "draw" or distance is None:
        return 0.0
    limit = pos.variant.max_turns
    if limit is not None and pos.turns + distance > limit:
        return 0.0  # the game is drawn by the turn limit before the decided end is reached
    end = WIN_SCORE - (ply + distance)
    return end if value == "win" else -end
