"""A public :class:`~boardeval.morris.rules.Position` in the compiled search's form (private): turns as
ints, the hash history, make/unmake, and the compiled perft and evaluation of a state (tests, random games,
the search's root and principal variation).
"""

from __future__ import annotations

import numpy as np

from boardeval.morris._search.compiled.kernels import kernels
from boardeval.morris._search.compiled.layout import MAX_TURNS_PER_NODE, NO_LIMIT, NONE_POINT
from boardeval.morris.rules import Position
from boardeval.morris.turns import Turn, make_turn

__all__ = ["EngineState", "decode", "encode", "state_of", "turn_of"]

# ---- Python side -------------------------------------------------------------------------------------


def encode(turn: Turn) -> int:
    """The int encoding of a public :class:`Turn`."""
    src = NONE_POINT if turn.src is None else turn.src
    rem = NONE_POINT if turn.remove is None else turn.remove
    return src | turn.dst << 5 | rem << 10


def decode(m: int) -> tuple[int | None, int, int | None]:
    """(src or None, dst, removed point or None) of an encoded turn."""
    src, dst, rem = m & 31, (m >> 5) & 31, (m >> 10) & 31
    return (None if src == NONE_POINT else src), dst, (None if rem == NONE_POINT else rem)


def turn_of(m: int) -> Turn:
    """The shared public :class:`Turn` of an encoded turn."""
    src, dst, rem = decode(int(m))
    return make_turn(src, dst, rem)


class EngineState:
    """A position in engine form, with its hash history, and make/unmake (tests, random games, the root).

    ``hist[0..cur]`` holds the hashes since the last irreversible turn of the game (``quiet`` of them before
    the current one) plus room for ``extra`` more plies.
    """

    __slots__ = (
        "cur",
        "flying",
        "hand",
        "hist",
        "max_turns",
        "men",
        "no_mill",
        "quiet",
        "side",
        "threefold",
        "turns",
        "undo",
    )

    def __init__(self, pos: Position, extra: int = 1024) -> None:
        v = pos.variant
        self.men = [pos.men[0], pos.men[1]]
        self.hand = [pos.hand[0], pos.hand[1]]
        self.side = pos.side
        self.turns = pos.turns
        self.flying = v.flying
        self.max_turns = NO_LIMIT if v.max_turns is None else v.max_turns
        self.no_mill = NO_LIMIT if v.no_mill_turns is None else v.no_mill_turns
        self.threefold = v.threefold_repetition
        # the hashes since the last irreversible turn, oldest first, through the public API (pop a copy)
        q = pos.quiet_turns
        work = pos.copy()
        back = [work.zobrist]
        for _ in range(q):
            work.pop()
            back.append(work.zobrist)
        self.quiet = q
        self.hist = np.zeros(q + 1 + extra, dtype=np.uint64)
        self.hist[: q + 1] = np.array(back[::-1], dtype=np.uint64)
        self.cur = q
        self.undo: list[tuple[int, int]] = []

    @property
    def hash(self) -> int:
        """The Zobrist hash (equal to ``Position.zobrist`` of the same position)."""
        return int(self.hist[self.cur])

    def args(self) -> tuple[int, int, int, int, int]:
        """(me, opp, hme, hopp, side): the side-relative bitboards and hands."""
        s = self.side
        return self.men[s], self.men[1 - s], self.hand[s], self.hand[1 - s], s

    def status(self) -> int:
        """0 ongoing, -1 the side to move has lost, 2 drawn."""
        me, opp, hme, _hopp, _s = self.args()
        return int(
            kernels().game_over(
                me,
                opp,
                hme,
                self.flying,
                self.turns,
                self.quiet,
                self.hist,
                self.cur,
                self.max_turns,
                self.threefold,
                self.no_mill,
            )
        )

    def legal(self) -> list[int]:
        """The legal turns (encoded), in ``Position.legal_turns`` order; [] once the game is over."""
        if self.status() != 0:
            return []
        me, opp, hme, _hopp, _s = self.args()
        buf = np.zeros(MAX_TURNS_PER_NODE, dtype=np.int64)
        n = kernels().generate(me, opp, hme, self.flying, buf, 0)
        return [int(x) for x in buf[:n]]

    def make(self, m: int) -> None:
        """Play encoded turn ``m`` (not checked)."""
        if self.cur + 1 >= len(self.hist):
            self.hist = np.concatenate([self.hist, np.zeros(len(self.hist), dtype=np.uint64)])
        me, opp, hme, _hopp, s = self.args()
        nme, nopp, nhme, nh, irrev = kernels().apply_turn(me, opp, hme, s, self.hist[self.cur], m)
        self.undo.append((m, self.quiet))
        self.men[s], self.men[1 - s], self.hand[s] = int(nme), int(nopp), int(nhme)
        self.side = 1 - s
        self.turns += 1
        self.quiet = 0 if irrev else self.quiet + 1
        self.cur += 1
        self.hist[self.cur] = nh

    def unmake(self) -> int:
        """Undo the last :meth:`make` and return its turn."""
        m, quiet = self.undo.pop()
        src, dst, rem = decode(m)
        s = 1 - self.side
        if src is None:
            self.men[s] ^= 1 << dst
            self.hand[s] += 1
        else:
            self.men[s] ^= (1 << src) | (1 << dst)
        if rem is not None:
            self.men[1 - s] |= 1 << rem
        self.side = s
        self.turns -= 1
        self.quiet = quiet
        self.cur -= 1
        return m

    def evaluate(self, coef: np.ndarray) -> float:
        """The compiled static score (side to move's view) of a position that is not over."""
        me, opp, hme, hopp, _s = self.args()
        return float(kernels().evaluate(me, opp, hme, hopp, self.flying, coef))

    def perft(self, depth: int, removal_plies: bool = False) -> int:
        """Compiled perft (both conventions, every draw rule of the variant) from this state."""
        if depth == 0:
            return 1
        me, opp, hme, hopp, s = self.args()
        hist = np.zeros(self.cur + depth + 2, dtype=np.uint64)
        hist[: self.cur + 1] = self.hist[: self.cur + 1]
        buf = np.zeros((depth + 1, MAX_TURNS_PER_NODE), dtype=np.int64)
        return int(
            kernels().perft(
                me,
                opp,
                hme,
                hopp,
                s,
                self.turns,
                self.quiet,
                hist,
                self.cur,
                depth,
                removal_plies,
                self.flying,
                self.max_turns,
                self.threefold,
                self.no_mill,
                buf,
            )
        )


def state_of(pos: Position, extra: int = 1024) -> EngineState:
    """The engine form of a public position (its game history included, for the repetition rule)."""
    return EngineState(pos, extra)
