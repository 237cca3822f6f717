"""Nine Men's Morris turns: the public move type, its notation, the shared instances, and move lists.

A *turn* is a placement or move plus its optional removal, written ``d2``, ``a1-a4``, ``d2xg7``,
``a1-a4xd7`` (:class:`Turn`). :func:`make_turn` hands out one shared instance per turn (no allocation in
move generation). Which turns are legal is the business of :mod:`.rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from boardeval.core.numbers import quote
from boardeval.morris.board import N_POINTS, POINT_NAMES, NotationError, point_index

__all__ = ["MAX_MOVE_LIST_CHARS", "OUTER_SPACE", "Turn", "make_turn", "split_moves"]

OUTER_SPACE = " \t\r\n"
"""The ASCII whitespace read around a turn or position text (a typed or pasted line ends in a newline)."""

_TURN_RE = re.compile(r"^(?:([a-g][1-7])-)?([a-g][1-7])(?:x([a-g][1-7]))?$")


def _turn_key(src: int | None, dst: int, remove: int | None) -> int:
    return ((-1 if src is None else src) + 1) * 600 + dst * 25 + ((-1 if remove is None else remove) + 1)


@dataclass(frozen=True, slots=True)
class Turn:
    """A placement (``src is None``) or a move ``src -> dst``, with the man removed if it closes a mill.

    Written ``d2`` (place), ``a1-a4`` (move), ``d2xg7`` / ``a1-a4xd7`` (with removal); ``str(turn)`` and
    :meth:`parse` round-trip. ``key`` is a small unique int (0..14999) usable as a table index.
    """

    src: int | None
    dst: int
    remove: int | None = None
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, value, optional in (
            ("src", self.src, True),
            ("dst", self.dst, False),
            ("remove", self.remove, True),
        ):
            if value is None and optional:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < N_POINTS:
                raise NotationError(f"turn {name} must be a point index 0..23, got {value!r}")
        if self.src == self.dst:
            raise NotationError(
                f"a move must change point, got {POINT_NAMES[self.dst]}-{POINT_NAMES[self.dst]}"
            )
        if self.remove is not None and self.remove in (self.src, self.dst):
            raise NotationError(f"a turn cannot remove a man from its own points: {self._format()}")
        object.__setattr__(self, "key", _turn_key(self.src, self.dst, self.remove))

    def __hash__(self) -> int:
        return self.key

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read ``d2``, ``a1-a4``, ``d2xg7`` or ``a1-a4xd7``.

        Accepted on purpose: upper-case letters (``D2``, ``A1-A4XD7``: a point name like a chess square,
        unambiguous in either case) and ASCII whitespace around the turn (a line typed or pasted by a
        person ends in a newline), as for positions and share codes; the canonical text is lower case
        without spaces. Nothing else is fixed up: no space inside the turn, no other characters.
        """
        if not isinstance(text, str):
            raise NotationError(f"a turn must be text like 'd2', 'a1-a4', 'd2xg7', got {quote(text)}")
        core = text.strip(OUTER_SPACE)
        m = _TURN_RE.fullmatch(core.lower()) if core.isascii() and len(core) <= 8 else None
        if m is None:
            space = " (no spaces inside a turn)" if any(c.isspace() for c in core) else ""
            raise NotationError(
                f"cannot read turn {quote(text)}{space}: expected a placement 'd2', a move 'a1-a4', "
                "optionally with a removal 'xg7' (points are named a..g by 1..7, e.g. a7, d6, c5, g4, d2, a1)"
            )
        src_s, dst_s, rem_s = m.groups()
        try:  # a point off the board (a6), a move that stays put, a removal of its own man: say which turn
            src = point_index(src_s) if src_s else None
            dst = point_index(dst_s)
            rem = point_index(rem_s) if rem_s else None
            if src == dst or (rem is not None and rem in (src, dst)):
                return cls(src, dst, rem)  # raises the NotationError that explains the problem
        except NotationError as exc:
            raise NotationError(f"cannot read turn {quote(text)}: {exc}") from None
        return make_turn(src, dst, rem)

    @property
    def is_placement(self) -> bool:
        """True for a placement (no source point)."""
        return self.src is None

    def _format(self) -> str:
        text = (
            POINT_NAMES[self.dst] if self.src is None else f"{POINT_NAMES[self.src]}-{POINT_NAMES[self.dst]}"
        )
        return text if self.remove is None else f"{text}x{POINT_NAMES[self.remove]}"

    def __str__(self) -> str:
        return self._format()


def _build_turn_table() -> list[Turn | None]:
    """Every possible turn, indexed by its key (the combinations are valid by construction, so the
    instances are made without ``Turn.__post_init__``'s checks: ~3x faster)."""
    table: list[Turn | None] = [None] * (25 * 600)
    new, put = object.__new__, object.__setattr__
    for src in [None, *range(N_POINTS)]:
        for dst in range(N_POINTS):
            if src == dst:
                continue
            for rem in [None, *range(N_POINTS)]:
                if rem is not None and rem in (src, dst):
                    continue
                turn = new(Turn)
                key = _turn_key(src, dst, rem)
                put(turn, "src", src)
                put(turn, "dst", dst)
                put(turn, "remove", rem)
                put(turn, "key", key)
                table[key] = turn
    return table


_TURNS: list[Turn | None] = []  # the shared Turn instances, built on first use (not at import)


def _turn_table() -> list[Turn | None]:
    if not _TURNS:
        _TURNS.extend(_build_turn_table())
    return _TURNS


def make_turn(src: int | None, dst: int, remove: int | None = None) -> Turn:
    """The shared :class:`Turn` instance for these points (no allocation); bad points raise like Turn()."""
    if (
        isinstance(dst, int)
        and 0 <= dst < N_POINTS
        and (src is None or (isinstance(src, int) and 0 <= src < N_POINTS))
        and (remove is None or (isinstance(remove, int) and 0 <= remove < N_POINTS))
    ):
        turn = (_TURNS or _turn_table())[_turn_key(src, dst, remove)]
        if turn is not None:
            return turn
    return Turn(src, dst, remove)  # raises the NotationError that explains the problem


def split_moves(moves: str) -> list[str]:
    """A move-list text as turn texts: turns separated by runs of ASCII whitespace (space, tab, CR, LF),
    accepted on purpose because a list is often pasted over several lines. Commas and other separators
    are refused (``d2,f4``), quoting the list."""
    if len(moves) > MAX_MOVE_LIST_CHARS:
        raise NotationError(
            f"move list {quote(moves)} is too long (at most {MAX_MOVE_LIST_CHARS} characters)"
        )
    bad = sorted({c for c in moves if not (c.isascii() and (c.isalnum() or c in "-" + OUTER_SPACE))})
    if bad:
        raise NotationError(
            f"move list {quote(moves)}: unexpected {', '.join(quote(c) for c in bad[:5])}; separate the "
            "turns with spaces, e.g. 'd2 f4 d1xf4'"
        )
    return moves.split()


MAX_MOVE_LIST_CHARS = 20_000
"""Longest move-list text read (1,000 turns of up to 8 characters and a space: 9,000)."""
