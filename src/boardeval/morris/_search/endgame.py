"""What the search asks of an endgame tablebase: a small interface, and the tablebase's values as scores.

The search never imports the tablebase (``boardeval.morris.tablebase``): it takes any object with the four
members of :class:`EndgameTable` -- the sub-databases built, a fast value lookup of side-relative
bitboards, a probe that rates every turn, and the tables packed for the compiled search -- the way
Stockfish's search asks ``syzygy/tbprobe`` and python-chess's users ask ``chess.syzygy``.
``boardeval.morris.tablebase.Tablebase`` is one (mypy checks it where a ``Tablebase`` is passed to the
search); a test double or another tablebase format can be another.

**The packed form** (:meth:`EndgameTable.packed`, issue 25): the compiled search probes every covered node
of its tree (``compiled/tbprobe.py``), so it needs the tables as two flat arrays it can read without Python:

- ``index`` (int64): a header, then the index tables. ``index[P_ROR + a]``, ``index[P_SOR + a]`` and
  ``index[P_MASK + a]`` are the offsets (in ``index``) of, for ``a`` men on the side to move, the row of each
  colex rank, the symmetry that maps it to its row's representative, and each row's representative mask
  (the tablebase's reduced rows); ``index[P_SUB + 4 (P_SLOTS a + b) + k]`` for sub-database ``(a, b)``:
  k = 0 its first byte in ``data``, 1 its columns, 2 its distance bits, 3 its bytes per cell (1 or 2,
  little-endian; 0 = not built). ``index[P_BINOM + 25 n + k] = C(n, k)``; ``index[P_SYM + 768 g + 256 i +
  v]`` is the image under symmetry ``g`` of the points of byte ``i`` of a bitboard whose byte value is ``v``.
- ``data`` (uint8): every built sub-database's stored cells, row-major, at its offset.

A cell holds the value above its distance bits (0 draw, 1 win, 2 loss) and the distance to the end in
turns below them (odd for a win, even for a loss). ``tests/morris/search/test_tb_search.py`` checks the
compiled probe against :meth:`EndgameTable.lookup_sides` on sampled positions of every built sub-database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from boardeval.morris._evaluate import WIN_SCORE
from boardeval.morris.rules import MEN_PER_SIDE, Position, Turn

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "PACK_FORMAT",
    "P_BINOM",
    "P_MASK",
    "P_ROR",
    "P_SLOTS",
    "P_SOR",
    "P_SUB",
    "P_SYM",
    "P_TABLES",
    "EndgameTable",
    "Probe",
    "ProbedTurn",
    "tablebase_score",
]

PACK_FORMAT: Final[int] = 0x32504254
"""``index[0]`` of the packed form ("TBP2"; "TBP1" had 8 slots per side, i.e. at most 7 men)."""
P_SLOTS: Final[int] = 16
"""Men counts the header has room for, per side (0..15: a side of Nine Men's Morris has at most 9 men)."""
P_ROR: Final[int] = P_SLOTS
P_SOR: Final[int] = 2 * P_SLOTS
P_MASK: Final[int] = 3 * P_SLOTS
P_SUB: Final[int] = 4 * P_SLOTS
P_BINOM: Final[int] = P_SUB + 4 * P_SLOTS * P_SLOTS
P_SYM: Final[int] = P_BINOM + 25 * 25
P_TABLES: Final[int] = P_SYM + 16 * 3 * 256
"""Where the per-men-count index tables start in ``index`` (the header's offsets point past it)."""


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

    @property
    def max_men(self) -> int:
        """The largest K such that every sub-database with 3..K men a side is built (9: every position of
        the moving phase, which makes the placing search's ends exact: ``EngineOptions.exact_placing``)."""
        ...

    def lookup_sides(self, own: int, opp: int) -> tuple[str, int | None]:
        """Value and distance of a side-relative position (``own`` = the side to move's bitboard)."""
        ...

    def probe(self, position: Position) -> Probe:
        """Value, distance and every legal turn's value (best first) of a covered position."""
        ...

    def packed(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Every built sub-database in the packed form of the module docstring: ``(index, data)``."""
        ...


def holds_every_moving_position(table: EndgameTable | None) -> bool:
    """Whether ``table`` holds every position of the moving phase (K <= 9 men a side): then every move
    after placing is a tablebase answer, so the placing search's ends are exact
    (``EngineOptions.exact_placing``) and a game clock can give the placing moves the game's time
    (``_search.clock.FULL_TABLES_ADVANCE``)."""
    return table is not None and table.max_men >= MEN_PER_SIDE


def tablebase_score(pos: Position, value: str, distance: int | None, ply: int) -> float:
    """A tablebase value as a search score: mate-distance scaled, a draw when the turn limit comes first."""
    if value == "draw" or distance is None:
        return 0.0
    limit = pos.variant.max_turns
    if limit is not None and pos.turns + distance > limit:
        return 0.0  # the game is drawn by the turn limit before the decided end is reached
    end = WIN_SCORE - (ply + distance)
    return end if value == "win" else -end
