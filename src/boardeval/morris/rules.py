"""Nine Men's Morris rules: positions, legal turns, playing and undoing turns, how a game ends.

Rules (spec section 1; the default variant is :data:`STANDARD`):

- White moves first. Each side places 9 men, one per turn, on empty points ("placing").
- When a side has no man in hand its men slide to an adjacent empty point ("moving"); a side with exactly
  3 men on board and none in hand flies to any empty point ("flying", variant option ``flying``).
- A placement or move that completes a line of three own men (a mill) removes one opponent man. A man in a
  mill may be removed only if all of that side's men on board are in mills. Closing two mills at once still
  removes one man. (If the opponent has no man on board at all -- possible only in hand-made positions --
  the mill removes nothing; OpenSpiel would instead end the game with a loss for the mover, see
  docs/morris-rules.md.)
- A side loses when it has fewer than 3 men (board + hand) or no legal turn when it is to move.
- Draws are variant options: ``max_turns`` (a turn is a placement or move together with its removal; the game
  is drawn once that many turns have been played), ``threefold_repetition`` (the same board, hands and side
  to move for the third time), ``no_mill_turns`` (that many turns in a row without a placement or removal,
  i.e. moving-phase turns without a mill). Losses take precedence over draws, as in OpenSpiel.

A *turn* is a placement or move plus its optional removal, written ``d2``, ``a1-a4``, ``d2xg7``,
``a1-a4xd7`` (:class:`Turn`). OpenSpiel splits a mill turn into two actions;
:func:`~boardeval.morris.perft` counts both ways.

The vocabulary has its own modules, all re-exported here: the sides and the Zobrist keys in :mod:`.board`,
the rule options in :mod:`.variants`, the move type in :mod:`.turns`, the game's end in :mod:`.outcome`.
This module is :class:`Position` and the checks of its text and fields. It is about 660 lines because
:class:`Position` is one class of about 470 (state, text forms, legal turns, push/pop with the incremental
hash, the game's end); splitting a class across files would not make it easier to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from boardeval.core import MorrisError
from boardeval.core.numbers import parse_int, quote
from boardeval.morris.board import (
    ADJ_MASK,
    BIT,
    BLACK,
    FULL_MASK,
    MEN_PER_SIDE,
    N_POINTS,
    POINT_MILL_MASKS,
    POINT_NAMES,
    SIDE_NAMES,
    WHITE,
    Z_BLACK_TO_MOVE,
    Z_HAND,
    Z_MEN,
    NotationError,
    in_mills,
    iter_bits,
    mill_closers,
    neighbours,
    zobrist_of,
)
from boardeval.morris.outcome import Outcome, Result, Status, Termination
from boardeval.morris.turns import _TURNS, OUTER_SPACE, Turn, _turn_table, make_turn, split_moves
from boardeval.morris.variants import OPENSPIEL, STANDARD, Variant, VariantError

# The rules' whole vocabulary is importable from here (the sides, variants, turns and outcomes are defined in
# board, variants, turns and outcome): code that works on positions needs one import line.
__all__ = [
    "BLACK",
    "MEN_PER_SIDE",
    "OPENSPIEL",
    "SIDE_NAMES",
    "STANDARD",
    "WHITE",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "Phase",
    "Position",
    "PositionError",
    "Result",
    "Status",
    "Termination",
    "Turn",
    "Variant",
    "VariantError",
    "make_turn",
    "zobrist_of",
]

Phase = Literal["placing", "moving", "flying"]


class IllegalMoveError(MorrisError):
    """A turn that is not legal in the position (the message names the turn, the position and why)."""


class PositionError(MorrisError):
    """A position text (or move list) that does not describe a valid position."""


# ---------------------------------------------------------------------------------------------- position

_TEXT_RE = re.compile(r"^([WB.]{24}) ([wb]) ([^ ]+) ([^ ]+)$")


class Position:
    """A Nine Men's Morris position with its history since it was created (for undo and repetition).

    State: ``men[WHITE]``, ``men[BLACK]`` (24-bit bitboards), ``hand`` (men not yet placed), ``side`` (to
    move), ``turns`` (turns played since the start), ``variant``, ``zobrist`` (kept incrementally).
    :meth:`push` / :meth:`pop` apply and undo a turn fast without checks; :meth:`play` checks legality.

    Text form (:meth:`parse` / :meth:`text`): 24 characters ``W``/``B``/``.`` in point order, side to move
    ``w``/``b``, White's men in hand, Black's men in hand -- the start is ``........................ w 9 9``.
    """

    __slots__ = ("_history", "_irrev", "_stack", "hand", "men", "side", "turns", "variant", "zobrist")

    def __init__(
        self,
        men: tuple[int, int] | list[int],
        hand: tuple[int, int] | list[int],
        side: int,
        *,
        turns: int | None = None,
        variant: Variant = STANDARD,
        validate: bool = True,
    ) -> None:
        """Build a position and validate it (raises :class:`PositionError` quoting every problem).

        ``turns`` defaults to the number of placements made (``18 - hands``), the fewest turns that can lead
        to the position; it only matters for the ``max_turns`` draw rule. ``validate=False`` accepts a
        position that cannot arise in a game, as long as its fields are in range (a 24-bit board per side,
        side 0/1, hands 0..9); :meth:`problems` then lists what is wrong with it.
        """
        for name, pair in (("men", men), ("hand", hand)):
            if (
                not isinstance(pair, (tuple, list))
                or len(pair) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
            ):
                raise PositionError(f"{name} must be a pair of integers (white, black), got {pair!r}")
        if not isinstance(side, int) or isinstance(side, bool):
            raise PositionError(f"side to move must be 0 (white) or 1 (black), got {side!r}")
        self.men = [men[0], men[1]]
        self.hand = [hand[0], hand[1]]
        self.side = side
        self.variant = variant
        self.turns = 2 * MEN_PER_SIDE - self.hand[0] - self.hand[1] if turns is None else turns
        problems = _problems(self)
        if problems and (validate or not _readable(self)):
            text = self.text() if _readable(self) else repr(self.men)
            raise PositionError(f"invalid position {text}: {'; '.join(problems)}")
        self.zobrist = zobrist_of(self.men, self.hand, side)
        self._stack: list[tuple[Turn, int]] = []
        self._history: list[int] = [self.zobrist]
        self._irrev = 0  # index in _history of the position after the last placement/removal

    # -- construction ------------------------------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant = STANDARD) -> Position:
        """The empty board, White to move, 9 men in each hand."""
        return cls((0, 0), (MEN_PER_SIDE, MEN_PER_SIDE), WHITE, turns=0, variant=variant)

    @classmethod
    def parse(
        cls, text: str, variant: Variant = STANDARD, *, turns: int | None = None, validate: bool = True
    ) -> Position:
        """Read a position text such as ``........................ w 9 9`` (see the class docstring).

        Grammar: 24 of ``W B .``, one space, ``w`` or ``b``, one space, two hands ``0``..``9`` (ASCII
        digits) separated by one space. Accepted on purpose: ASCII whitespace (space, tab, CR, LF) around
        the whole text, which a pasted line or a file's last line carries. Refused, quoting the text:
        tabs, newlines or runs of spaces between the fields, lower-case ``w``/``b`` on the board, ``+1``,
        ``09``, full-width digits. ``validate=False``: accept a well-formed text of a position that
        cannot arise (see :meth:`problems`).
        """
        if not isinstance(text, str):
            raise PositionError(f"a position must be text like '{'.' * 24} w 9 9', got {quote(text)}")
        stripped = text.strip(OUTER_SPACE)
        m = _TEXT_RE.fullmatch(stripped) if len(stripped) <= 40 else None
        if m is None:
            raise PositionError(_explain_bad_text(text))
        board, side_c, hw, hb = m.groups()
        white = sum(1 << i for i, c in enumerate(board) if c == "W")
        black = sum(1 << i for i, c in enumerate(board) if c == "B")
        hands = (
            parse_int(
                hw, f"bad position {quote(text)}: White's men in hand", lo=0, hi=9, error=PositionError
            ),
            parse_int(
                hb, f"bad position {quote(text)}: Black's men in hand", lo=0, hi=9, error=PositionError
            ),
        )
        return cls(
            (white, black),
            hands,
            WHITE if side_c == "w" else BLACK,
            turns=turns,
            variant=variant,
            validate=validate,
        )

    @classmethod
    def from_moves(
        cls,
        moves: str | Iterable[str | Turn],
        variant: Variant = STANDARD,
        *,
        start: Position | str | None = None,
    ) -> Position:
        """The position after playing ``moves`` (text ``"d2 f4 ..."`` or a list of turns) from ``start``.

        ``start`` is a position text (read under ``variant``), a :class:`Position` (copied, with its own
        variant) or None for the empty board. Each turn is checked; an illegal one raises
        :class:`IllegalMoveError` naming its number. :attr:`history` of the result lists the turns played.
        """
        if start is None:
            pos = cls.start(variant)
        elif isinstance(start, Position):
            pos = start.copy()
            pos._stack = []
        else:
            pos = cls.parse(start, variant)
        items: Iterable[str | Turn] = split_moves(moves) if isinstance(moves, str) else moves
        for number, item in enumerate(items, start=1):
            try:
                pos.play(item)
            except MorrisError as exc:
                raise type(exc)(f"move {number} of the move list: {exc}") from None
        return pos

    def copy(self) -> Position:
        """An independent copy, history included."""
        new = Position.__new__(Position)
        new.men = self.men[:]
        new.hand = self.hand[:]
        new.side = self.side
        new.turns = self.turns
        new.variant = self.variant
        new.zobrist = self.zobrist
        new._stack = self._stack[:]
        new._history = self._history[:]
        new._irrev = self._irrev
        return new

    def text(self) -> str:
        """The position text (board, side, hands); ``Position.parse(p.text())`` gives the same position."""
        w, b = self.men
        board = "".join("W" if w >> i & 1 else "B" if b >> i & 1 else "." for i in range(N_POINTS))
        return f"{board} {'wb'[self.side]} {self.hand[0]} {self.hand[1]}"

    def diagram(self) -> str:
        """The board as ASCII art: ``W`` white, ``B`` black, ``+`` empty, ranks 7..1 on the left, files
        a..g below, and a last line with the side to move and the men in hand (the layout of the module
        diagram in :mod:`boardeval.morris.board`)."""
        w, b = self.men
        c = ["W" if w >> i & 1 else "B" if b >> i & 1 else "+" for i in range(N_POINTS)]
        return "\n".join(
            [
                f"7 {c[0]}-----------{c[1]}-----------{c[2]}",
                "  |           |           |",
                f"6 |   {c[3]}-------{c[4]}-------{c[5]}   |",
                "  |   |       |       |   |",
                f"5 |   |   {c[6]}---{c[7]}---{c[8]}   |   |",
                "  |   |   |       |   |   |",
                f"4 {c[9]}---{c[10]}---{c[11]}       {c[12]}---{c[13]}---{c[14]}",
                "  |   |   |       |   |   |",
                f"3 |   |   {c[15]}---{c[16]}---{c[17]}   |   |",
                "  |   |       |       |   |",
                f"2 |   {c[18]}-------{c[19]}-------{c[20]}   |",
                "  |           |           |",
                f"1 {c[21]}-----------{c[22]}-----------{c[23]}",
                "  a   b   c   d   e   f   g",
                f"to move: {SIDE_NAMES[self.side]}   in hand: white {self.hand[0]}, black {self.hand[1]}",
            ]
        )

    def problems(self) -> list[str]:
        """Every reason why this position cannot arise in a game ([] for a valid one).

        A position built with ``validate=True`` (the default) is valid; this lists the problems of one
        built with ``validate=False`` or changed by hand.
        """
        return _problems(self)

    def is_valid(self) -> bool:
        """True if :meth:`problems` finds nothing."""
        return not _problems(self)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r}, turns={self.turns})"

    # -- queries ---------------------------------------------------------------------------------

    @property
    def empty(self) -> int:
        """Bitboard of the empty points."""
        return FULL_MASK ^ (self.men[0] | self.men[1])

    def on_board(self, side: int) -> int:
        """Number of ``side``'s men on the board."""
        return self.men[side].bit_count()

    def material(self, side: int) -> int:
        """Men on board plus men in hand."""
        return self.men[side].bit_count() + self.hand[side]

    def phase(self, side: int | None = None) -> Phase:
        """The phase of ``side`` (default: the side to move): placing, moving or flying.

        "placing" while it has men in hand, "flying" with exactly 3 men and none in hand (if the variant
        allows flying), else "moving".
        """
        s = self.side if side is None else side
        if self.hand[s]:
            return "placing"
        if self.variant.flying and self.men[s].bit_count() == 3:
            return "flying"
        return "moving"

    def in_mills(self, side: int) -> int:
        """Bitboard of ``side``'s men that stand in a closed mill."""
        return in_mills(self.men[side])

    def removable(self, side: int) -> int:
        """Bitboard of ``side``'s men the opponent may remove: those outside mills, or all if none is."""
        men = self.men[side]
        free = men & ~in_mills(men)
        return free if free else men

    def closes_mill(self, turn: Turn) -> bool:
        """True if the placement/move of ``turn`` (its removal aside) completes a mill for the mover."""
        own = self.men[self.side]
        if turn.src is not None:
            own &= ~BIT[turn.src]
        own |= BIT[turn.dst]
        return any(own & m == m for m in POINT_MILL_MASKS[turn.dst])

    @property
    def repetitions(self) -> int:
        """How often the current position (board, hands, side) occurred since the last irreversible turn."""
        return self._history[self._irrev :].count(self.zobrist)

    @property
    def quiet_turns(self) -> int:
        """Turns in a row without a placement or removal (the ``no_mill_turns`` counter)."""
        return len(self._history) - 1 - self._irrev

    @property
    def history(self) -> list[Turn]:
        """The turns pushed since this position object was created, oldest first."""
        return [turn for turn, _ in self._stack]

    # -- generation ------------------------------------------------------------------------------

    def _drawn_or_lost(self) -> bool:
        """Game over for a reason other than "no legal move" (cheap; used before generating)."""
        return self._ending(False) is not None

    def has_move(self) -> bool:
        """True if the side to move has a placement or move (ignoring game end by other reasons)."""
        s = self.side
        if self.hand[s]:
            return True  # at most 17 men are on the board while a side still places
        own = self.men[s]
        empty = FULL_MASK ^ (own | self.men[s ^ 1])
        if self.variant.flying and own.bit_count() == 3:
            return bool(empty)
        return bool(neighbours(own) & empty)

    def legal_turns(self) -> list[Turn]:
        """All legal turns of the side to move, one per distinct removal; [] once the game is over."""
        if self._ending(False) is not None:
            return []
        s = self.side
        own = self.men[s]
        opp = self.men[s ^ 1]
        empty = FULL_MASK ^ (own | opp)
        turns = _TURNS or _turn_table()
        out: list[Turn] = []
        append = out.append
        removable: list[int] | None = None
        if self.hand[s]:
            closers = mill_closers(own, empty) if opp else 0
            targets = empty
            while targets:
                low = targets & -targets
                targets ^= low
                dst = low.bit_length() - 1
                if low & closers:
                    if removable is None:
                        free = opp & ~in_mills(opp)
                        removable = iter_bits(free if free else opp)
                    for rem in removable:
                        append(turns[dst * 25 + rem + 1])  # type: ignore[arg-type]
                else:
                    append(turns[dst * 25])  # type: ignore[arg-type]
            return out
        fly = self.variant.flying and own.bit_count() == 3
        mill_masks = POINT_MILL_MASKS
        sources = own
        while sources:
            sb = sources & -sources
            sources ^= sb
            src = sb.bit_length() - 1
            targets = empty if fly else ADJ_MASK[src] & empty
            if not targets:
                continue
            base = own ^ sb
            # flying: one bit-trick pass over all targets; sliding (<= 4 targets): test the 2 lines of each
            closers = (mill_closers(base, empty) & targets if fly else -1) if opp else 0
            key0 = (src + 1) * 600
            while targets:
                low = targets & -targets
                targets ^= low
                dst = low.bit_length() - 1
                if closers == -1:
                    after = base | low
                    m0, m1 = mill_masks[dst]
                    closes = after & m0 == m0 or after & m1 == m1
                else:
                    closes = bool(low & closers)
                if closes:
                    if removable is None:
                        free = opp & ~in_mills(opp)
                        removable = iter_bits(free if free else opp)
                    for rem in removable:
                        append(turns[key0 + dst * 25 + rem + 1])  # type: ignore[arg-type]
                else:
                    append(turns[key0 + dst * 25])  # type: ignore[arg-type]
        return out

    def count_turns(self) -> int:
        """``len(self.legal_turns())`` without building the list."""
        return len(self.legal_turns())

    # -- making moves ----------------------------------------------------------------------------

    def push(self, turn: Turn) -> None:
        """Apply a legal turn (not checked: use :meth:`play` for untrusted input). Undo with :meth:`pop`."""
        s = self.side
        o = s ^ 1
        z = self.zobrist
        self._stack.append((turn, self._irrev))
        men = self.men
        src = turn.src
        dst = turn.dst
        if src is None:
            h = self.hand[s]
            self.hand[s] = h - 1
            z ^= Z_HAND[s][h] ^ Z_HAND[s][h - 1] ^ Z_MEN[s][dst]
            men[s] |= BIT[dst]
            irreversible = True
        else:
            z ^= Z_MEN[s][src] ^ Z_MEN[s][dst]
            men[s] ^= BIT[src] | BIT[dst]
            irreversible = False
        rem = turn.remove
        if rem is not None:
            men[o] ^= BIT[rem]
            z ^= Z_MEN[o][rem]
            irreversible = True
        z ^= Z_BLACK_TO_MOVE
        self.zobrist = z
        self.side = o
        self.turns += 1
        history = self._history
        history.append(z)
        if irreversible:
            self._irrev = len(history) - 1

    def pop(self) -> Turn:
        """Undo the last pushed turn and return it."""
        if not self._stack:
            raise IllegalMoveError(f"no turn to undo in position {self.text()}")
        turn, irrev = self._stack.pop()
        self._history.pop()
        self._irrev = irrev
        o = self.side
        s = o ^ 1
        men = self.men
        src = turn.src
        dst = turn.dst
        if src is None:
            self.hand[s] += 1
            men[s] ^= BIT[dst]
        else:
            men[s] ^= BIT[src] | BIT[dst]
        if turn.remove is not None:
            men[o] |= BIT[turn.remove]
        self.side = s
        self.turns -= 1
        self.zobrist = self._history[-1]
        return turn

    def play(self, turn: Turn | str) -> Turn:
        """Check and apply a turn given as :class:`Turn` or text; return the Turn played.

        Raises :class:`IllegalMoveError` (or :class:`NotationError` for unreadable text) naming the turn, the
        position text and the reason.
        """
        t = Turn.parse(turn) if isinstance(turn, str) else turn
        if not isinstance(t, Turn):
            raise NotationError(f"expected a turn (text or Turn), got {turn!r}")
        legal = self.legal_turns()
        if t not in legal:
            raise IllegalMoveError(f"illegal turn {t} in position {self.text()}: {self._why_illegal(t)}")
        self.push(t)
        return t

    def _why_illegal(self, t: Turn) -> str:
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over ({outcome})"
        s = self.side
        me, them = SIDE_NAMES[s], SIDE_NAMES[s ^ 1]
        own, opp = self.men[s], self.men[s ^ 1]
        dst = POINT_NAMES[t.dst]
        if self.hand[s] and t.src is not None:
            return f"{me} still has {self.hand[s]} men in hand and must place, not move"
        if not self.hand[s] and t.src is None:
            return f"{me} has no men in hand and must move a man"
        if t.src is not None:
            src = POINT_NAMES[t.src]
            if not own >> t.src & 1:
                return f"{src} does not hold a {me} man"
            if self.phase() != "flying" and not ADJ_MASK[t.src] >> t.dst & 1:
                return f"{src} and {dst} are not adjacent (and {me} cannot fly)"
        if (own | opp) >> t.dst & 1:
            return f"{dst} is occupied"
        if self.closes_mill(t):
            if t.remove is None:
                return f"{t} closes a mill, so it must name a {them} man to remove (e.g. {t}x...)"
            rem = POINT_NAMES[t.remove]
            if not opp >> t.remove & 1:
                return f"{rem} does not hold a {them} man"
            return f"{rem} stands in a mill and {them} has men outside mills"
        if t.remove is not None:
            return f"{t} does not close a mill, so it cannot remove a man"
        return "not a legal turn"  # pragma: no cover - every case is covered above

    # -- status ----------------------------------------------------------------------------------

    def _ending(self, check_moves: bool) -> Outcome | None:
        """The one place that decides whether (and how) the game has ended; losses before draws.

        ``check_moves=False`` skips the "no legal move" test (the move generator finds that out itself).
        """
        s = self.side
        if self.men[s].bit_count() + self.hand[s] < 3:
            return Outcome(Termination.FEWER_THAN_THREE_MEN, s ^ 1)
        if check_moves and not self.has_move():
            return Outcome(Termination.NO_LEGAL_MOVE, s ^ 1)
        v = self.variant
        if v.max_turns is not None and self.turns >= v.max_turns:
            return Outcome(Termination.TURN_LIMIT, None, v.max_turns)
        if v.threefold_repetition and self._history[self._irrev :].count(self.zobrist) >= 3:
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if v.no_mill_turns is not None and len(self._history) - 1 - self._irrev >= v.no_mill_turns:
            return Outcome(Termination.NO_MILL_TURNS, None, v.no_mill_turns)
        return None

    def outcome(self) -> Outcome | None:
        """How the game ended (:class:`Outcome`), or None while it goes on."""
        return self._ending(True)

    def status(self) -> Status:
        """The outcome as strings (see :class:`Status`; prefer :meth:`outcome`)."""
        return Status.of(self._ending(True))

    def is_over(self) -> bool:
        """True once the game has ended (won, lost or drawn)."""
        return self._ending(True) is not None


def _explain_bad_text(text: str) -> str:
    stripped = text.strip(OUTER_SPACE)
    parts = stripped.split(" ")
    example = f"'{'.' * 24} w 9 9'"
    prefix = f"bad position {quote(text)}:"
    if len(stripped) > 40:
        return f"{prefix} too long for a position text ({len(text)} characters), expected one like {example}"
    odd = sorted({c for c in stripped if c.isspace() and c != " "})
    if odd or "  " in stripped:
        what = ", ".join(repr(c) for c in odd) if odd else "a run of spaces"
        return f"{prefix} {what} between the fields; separate the 4 fields with one space, like {example}"
    if len(parts) != 4:
        return f"{prefix} expected 4 fields (board, side, White's hand, Black's hand) like {example}"
    board, side = parts[0], parts[1]
    if len(board) != 24:
        return f"{prefix} the board must have 24 characters W, B or '.', got {len(board)}"
    bad = sorted({c for c in board if c not in "WB."})
    if bad:
        return f"{prefix} unknown board characters {' '.join(repr(c) for c in bad)} (use W, B or '.')"
    if side not in ("w", "b"):
        return f"{prefix} side to move must be 'w' or 'b', got {side!r}"
    return f"{prefix} expected a position like {example}"  # pragma: no cover


def _problems(pos: Position) -> list[str]:
    """Every reason why ``pos`` cannot arise in a game (empty for a valid position).

    Checks that need a readable field (a 24-bit board, a side 0/1, hands 0..9) are skipped when that
    field is itself reported as wrong, so each problem is reported once, in its own words.
    """
    out: list[str] = []
    if not isinstance(pos.variant, Variant):
        out.append(f"variant must be a Variant, got {pos.variant!r}")
    side_ok = pos.side in (WHITE, BLACK)
    if not side_ok:
        out.append(f"side to move must be 0 (white) or 1 (black), got {pos.side!r}")
    boards_ok = True
    for s in (WHITE, BLACK):
        if not 0 <= pos.men[s] <= FULL_MASK:
            out.append(f"{SIDE_NAMES[s]} bitboard {pos.men[s]} is not a 24-bit board")
            boards_ok = False
    w, b = pos.men
    if boards_ok and w & b:
        out.append(f"points {', '.join(POINT_NAMES[p] for p in iter_bits(w & b))} hold both sides")
    hw, hb = pos.hand
    hands_ok = True
    for s, h in ((WHITE, hw), (BLACK, hb)):
        name = SIDE_NAMES[s]
        total = pos.men[s].bit_count() + h
        if not 0 <= h <= MEN_PER_SIDE:
            out.append(f"{name} has {h} men in hand; must be 0..9")
            hands_ok = False
        elif boards_ok and total > MEN_PER_SIDE:
            out.append(
                f"{name} has {pos.men[s].bit_count()} on board + {h} in hand = {total} men, more than 9"
            )
    if side_ok and pos.side == WHITE and hw != hb:
        out.append(
            "with white to move both sides must have placed equally many men (White places first), "
            f"but the hands are {hw} and {hb}"
        )
    if side_ok and pos.side == BLACK and hb != hw + 1 and (hw or hb):
        out.append(
            "with black to move black must have exactly one more man in hand than white "
            f"(White places first), but the hands are {hw} and {hb}"
        )
    if side_ok and boards_ok and hands_ok:
        other = pos.side ^ 1
        if pos.men[other].bit_count() + pos.hand[other] < 3:
            out.append(
                f"{SIDE_NAMES[other]} has fewer than 3 men but it is {SIDE_NAMES[pos.side]}'s turn: "
                f"the game ended before {SIDE_NAMES[other]} could have made the last turn"
            )
    if not isinstance(pos.turns, int) or isinstance(pos.turns, bool) or pos.turns < 0:
        out.append(f"turns played must be a non-negative integer, got {pos.turns!r}")
    elif hands_ok:
        placed = 2 * MEN_PER_SIDE - hw - hb
        if pos.turns < placed:
            out.append(f"{placed} men were placed, so at least {placed} turns were played, not {pos.turns}")
    return out


def _readable(pos: Position) -> bool:
    """True if the fields are in range for a position text and a Zobrist hash (problems aside)."""
    return (
        pos.side in (WHITE, BLACK)
        and all(0 <= m <= FULL_MASK for m in pos.men)
        and all(0 <= h <= MEN_PER_SIDE for h in pos.hand)
    )
