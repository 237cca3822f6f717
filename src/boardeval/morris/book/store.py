"""The opening book on disk and in memory: :class:`Book`, :class:`BookEntry`, :func:`default_book`.

A book file is JSON::

    {"format": "boardeval-morris-book/1", "rules": "standard", "command": "boardeval morris book build ...",
     "weights": "base", "options": {...}, "search_key": "c3ef66948d9c1b92", "cpu_seconds": 1234.5,
     "entries": [["<canonical position text>", "<turn>", depth, score, nodes, ["<turn>", ...]], ...]}

Each entry is a position of the placing phase in its *canonical* form (the smallest ``(white, black)``
bitboards over the board's 16 symmetries, :func:`boardeval.morris.symmetry.canonical`; side to move and men
in hand as they are), the best turn found there (in that form), the depth it was searched to, its score
(side to move's view, the units of ``boardeval.morris.evaluate``), the nodes searched and the principal
variation. :meth:`Book.probe` maps a position to its canonical form, finds the entry and maps the turn and
line back with the inverse symmetry. Entries are sorted by position text, so a rebuild with the same
settings writes the same file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from boardeval.core import BoardevalError, MorrisError
from boardeval.core.files import write_atomic
from boardeval.morris._search.opening import OUTCOME_NAMES, turn_outcomes
from boardeval.morris.rules import STANDARD, Position, Turn
from boardeval.morris.symmetry import INVERSE, canonical, map_turn

__all__ = ["BOOK_FORMAT", "DEFAULT_BOOK", "Book", "BookEntry", "BookError", "canonical_text", "default_book"]

BOOK_FORMAT: Final[str] = "boardeval-morris-book/2"
"""Format 2 adds an optional 7th field to an entry: its proven value (see :attr:`BookEntry.value`)."""
READ_FORMATS: Final[frozenset[str]] = frozenset({"boardeval-morris-book/1", BOOK_FORMAT})
DEFAULT_BOOK: Final[Path] = Path(__file__).resolve().parents[1] / "data" / "opening_book.json"
"""The shipped book (package data)."""


IS_CURRENT: list[Callable[[dict[str, Any]], bool]] = []
"""Whether a book's meta names the search running now (:func:`boardeval.morris.book.build.is_current`,
which registers itself here when imported: the package imports it, so it is always there). The store sits
below the search in the layers and does not import it; :meth:`Book.stale` asks through this."""


class BookError(MorrisError):
    """A book file that cannot be read: missing, not JSON, another format, a bad entry."""


@dataclass(frozen=True)
class BookEntry:
    """A book move of a position: the turn, the depth and score it was searched to, nodes and line."""

    move: Turn
    depth: int
    score: float
    nodes: int = 0
    pv: tuple[Turn, ...] = field(default=())
    rebuild: str = ""
    """Empty when the book was made by this search; else the command that makes it again (the book's
    search key is another search's, or it has none: see :meth:`Book.stale`)."""
    value: str = ""
    """The position's proven value for the side to move with best play by both: ``"win"``, ``"draw"`` or
    ``"loss"`` (the move keeps it); empty in a book made without the K <= 9 tables (see
    :func:`~boardeval.morris.book.build.build_book`)."""
    exact: bool = False
    """True when the move itself comes from the search with the tables to the last placement (the exact
    ply); False when it comes from the evaluation's search and was checked to keep :attr:`value`."""

    @property
    def stale(self) -> bool:
        """True when the book holding this entry was searched by another version of the search."""
        return bool(self.rebuild)

    def text(self) -> str:
        """In words, e.g. ``"book move: searched to depth 20, +0.40"``; from a stale book the score is said
        to be another search's (``" (by another version of the search: `boardeval morris book build ...`
        makes the book again)"``). What is proven is not: a proof stands whatever version of the search
        reads it, so an exact entry says no more than its proof, and a checked one's value comes after the
        note on its score."""
        if self.exact:
            return f"book move: {_PROVEN[self.value]}, proven to the last placement with the K <= 9 tables"
        words = f"book move: searched to depth {self.depth}, {self.score:+.2f}"
        if self.rebuild:
            words += f" (by another version of the search: `{self.rebuild}` makes the book again)"
        if self.value:
            words += f"; keeps the {_KEEPS[self.value]}, proven with the K <= 9 tables"
        return words

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (turns in notation); ``stale``: see :attr:`stale`."""
        return {
            "move": str(self.move),
            "depth": self.depth,
            "score": self.score,
            "nodes": self.nodes,
            "pv": [str(t) for t in self.pv],
            "stale": self.stale,
            "value": self.value or None,
            "exact": self.exact,
            "text": self.text(),
        }


_PROVEN: Final[dict[str, str]] = {
    "win": "wins",
    "draw": "holds the draw",
    "loss": "the position is lost; this move holds out longest",
}
_KEEPS: Final[dict[str, str]] = {"win": "win", "draw": "draw", "loss": "longest defence"}


def canonical_text(pos: Position) -> tuple[str, int]:
    """The text of ``pos``'s canonical form (its book key) and the symmetry that maps ``pos`` there."""
    (white, black), g = canonical(pos.men[0], pos.men[1])
    image = Position([white, black], pos.hand, pos.side, validate=False)
    return image.text(), g


def _covers(pos: Position) -> bool:
    """Book positions: the standard rules, still placing, the men on the board those of the turns played."""
    return pos.variant == STANDARD and (pos.hand[0] > 0 or pos.hand[1] > 0)


class Book:
    """An opening book: canonical position text -> :class:`BookEntry` (in the canonical frame)."""

    def __init__(self, entries: dict[str, BookEntry], meta: dict[str, Any] | None = None) -> None:
        self.entries = entries
        self.meta = dict(meta or {})
        self._stale: bool | None = None

    def __len__(self) -> int:
        return len(self.entries)

    def stale(self) -> bool:
        """True when this book was not made by the search running now: its ``search_key`` (the build's
        :func:`~boardeval.morris.book.build.search_key`: the weights' values, the engine options and the
        search's code, comments and docstrings aside) is not the current one of its weight profile, or it
        has none. A stale book's moves are still played (deep searches of a near evaluation), but every
        answer from it says so and names the command that makes it again. Worked out once per book: ~1 ms
        where the search's files are the very ones its ``file_digest`` names, else ~0.3 s (parsing them).
        """
        if self._stale is None:
            try:
                self._stale = not IS_CURRENT[0](self.meta)
            except BoardevalError:  # a profile this installation does not know: not this search's book
                self._stale = True
        return self._stale

    @property
    def rebuild(self) -> str:
        """The command that makes this book again when it is :meth:`stale` (empty when it is current): the
        one it was built with, as its file records it."""
        return str(self.meta.get("command") or "boardeval morris book build") if self.stale() else ""

    def proven_value(self, position: Position) -> str | None:
        """The value of ``position`` with best play for the side to move (``"win"``, ``"draw"``, ``"loss"``)
        as this book proves it: its entry's, else, where the book holds every position a turn leads to,
        the best of those turns' outcomes (each the opponent's value there, negated); None otherwise."""
        entry = self.probe(position)
        if entry is not None:
            return entry.value or None
        outcomes = turn_outcomes(position, self)
        return None if outcomes is None else OUTCOME_NAMES[max(outcomes.values())]

    def probe(self, position: Position) -> BookEntry | None:
        """The book move of ``position`` in its own frame, or None when the book does not hold it."""
        if not _covers(position):
            return None
        key, g = canonical_text(position)
        entry = self.entries.get(key)
        if entry is None:
            return None
        back = INVERSE[g]
        move = map_turn(back, entry.move)
        if move not in position.legal_turns():
            return None  # a damaged entry: search instead
        pv = tuple(map_turn(back, t) for t in entry.pv)
        return BookEntry(
            move, entry.depth, entry.score, entry.nodes, pv, self.rebuild, entry.value, entry.exact
        )

    # ---- files ---------------------------------------------------------------------------------------

    @classmethod
    def read(cls, path: str | Path, *, check: bool = True) -> Book:
        """Read a book file (:class:`BookError` naming the file and what is wrong).

        ``check=False`` trusts each entry's position text and move (the shipped book, which the test suite
        reads with ``check=True`` and compares): it skips parsing every position, its legal turns and its
        canonical form, ~80 % of a checked read, which every ``boardeval morris`` process that searches
        would pay. The file's format, each entry's shape and every turn's notation are still checked, and
        :meth:`probe` still plays a move only when it is legal in the position asked."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise BookError(f"cannot read opening book {str(path)!r}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise BookError(f"opening book {str(path)!r} is not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") not in READ_FORMATS:
            raise BookError(f"{str(path)!r} is not a {BOOK_FORMAT} file")
        entries: dict[str, BookEntry] = {}
        turns: dict[str, Turn] = {}  # a book's lines repeat a few hundred turn texts: parse each once

        def turn_of(text: str) -> Turn:
            turn = turns.get(text) if isinstance(text, str) else None
            if turn is None:
                turn = turns[text] = Turn.parse(text)
            return turn

        for i, row in enumerate(data.get("entries", [])):
            try:
                text, move, depth, score, nodes, pv, *proof = row
                value, exact = _proof(proof)
                turn = turn_of(move)
                if check:
                    pos = Position.parse(text)
                    if turn not in pos.legal_turns() or canonical(*pos.men)[0] != tuple(pos.men):
                        raise ValueError("the turn is not legal there, or the position is not canonical")
                    text = pos.text()
                elif not isinstance(text, str):
                    raise ValueError(f"the position must be text, got {text!r}")
                if not isinstance(pv, list):
                    raise ValueError(f"the line must be a list of turns, got {pv!r}")
                if text in entries:  # a second row of a position would silently replace the first
                    raise ValueError(f"position {text!r} has an entry already")
                entries[text] = BookEntry(
                    turn, _count(depth, "depth"), _score(score), _count(nodes, "nodes"),
                    tuple(turn_of(t) for t in pv), value=value, exact=exact,
                )  # fmt: skip
            except (ValueError, TypeError, MorrisError) as exc:
                raise BookError(f"opening book {str(path)!r}, entry {i}: {exc}") from None
        meta = {k: v for k, v in data.items() if k != "entries"}
        return cls(entries, meta)

    def to_json(self) -> dict[str, Any]:
        """The file's content (entries sorted by position text)."""
        rows: list[list[Any]] = []
        for key, e in sorted(self.entries.items()):
            row: list[Any] = [key, str(e.move), e.depth, round(e.score, 4), e.nodes, [str(t) for t in e.pv]]
            if e.value:
                row.append({"value": e.value, "exact": e.exact})
            rows.append(row)
        return {**self.meta, "format": BOOK_FORMAT, "entries": rows}

    def write(self, path: str | Path) -> None:
        """Write the book (temporary file, then rename)."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=None, separators=(",", ":"))
        write_atomic(path, (text + "\n").encode())


def _count(value: Any, name: str) -> int:
    """An entry's depth or node count as the file says it: a whole number >= 0 (not ``true``, ``12.7``
    or ``"12"``, which a conversion would silently turn into one)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"the {name} must be a whole number >= 0, got {value!r}")
    return value


def _score(value: Any) -> float:
    """An entry's score: a finite number (JSON's ``1e400`` reads as infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"the score must be a finite number, got {value!r}")
    return float(value)


def _proof(extra: list[Any]) -> tuple[str, bool]:
    """An entry's optional 7th field ``{"value": "draw", "exact": true}`` (format 2) as (value, exact)."""
    if not extra:
        return "", False
    if len(extra) != 1 or not isinstance(extra[0], dict) or set(extra[0]) != {"value", "exact"}:
        raise ValueError(f'the 7th field must be {{"value": ..., "exact": ...}}, got {extra!r}')
    value, exact = extra[0]["value"], extra[0]["exact"]
    if value not in _PROVEN or not isinstance(exact, bool):
        raise ValueError(f"value must be one of {sorted(_PROVEN)} and exact true or false, got {extra[0]!r}")
    return str(value), exact


@cache
def default_book() -> Book | None:
    """The shipped book, read once per process (None if the package has none), its entries trusted
    (``check=False``: ``tests/morris/test_book.py`` reads it checked and compares)."""
    if not DEFAULT_BOOK.is_file():
        return None
    return Book.read(DEFAULT_BOOK, check=False)
