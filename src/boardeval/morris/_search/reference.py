"""The Python reference alpha-beta (``Searcher(engine="python")``): :class:`ReferenceTree`.

The compiled search (:mod:`.compiled`) is checked against this tree (same values at full width, tested), and
it plays "today's AI" in ``benchmarks/morris_strength.py``; a scorer that is not an ``Evaluator`` (anything
with ``score(pos)``) is searched here, since the compiled search needs coefficients.

Negamax with alpha-beta pruning and iterative deepening; a transposition table keyed by the position's
Zobrist hash; move ordering (:func:`ordered_turns`): the transposition-table move, then mill closures (best
removal first), then blocks (moves onto a point where the opponent would close a mill), then the rest; a
depth and/or time limit; the principal variation and node counts in the result.

Scores are from the side to move's view, in the units of :mod:`boardeval.morris._evaluate`. A won position
scores ``WIN_SCORE - plies`` and a lost one ``-(WIN_SCORE - plies)``, so the search prefers the fastest win
and the slowest loss. One ply here is one *turn* (a placement or move together with its removal).

Design choices:

* Transposition-table cutoffs are taken only from entries searched to exactly the remaining depth. Deeper
  entries would be more accurate but would make the result depend on search order; with exact-depth cutoffs
  a depth-``d`` search returns exactly the plain alpha-beta value at depth ``d`` (tested), and deeper
  entries still supply the first move to try.
* Path-dependent draw rules. The key includes the turn counter when the turn limit
  (``Variant.max_turns``) lies within the horizon, and the quiet-turn counter when the no-mill limit does,
  because the same men are then a draw on one path and not on another. Threefold repetition depends on the
  history: the key includes how often the node's position already occurred, and with that rule on the
  table is cleared at the start of every search, so a value computed before a position had repeated is
  never reused once it has (a real failure seen in a game: the AI, far ahead, walked into a repetition
  because a stale entry from its previous move hid the draw). Inside one search two paths to the same
  position with different repetition histories can still share an entry -- the usual engine compromise.
* Perfect endgames (issue 13 section 2): with a tablebase, every node it covers gets its exact score
  instead of a subtree (``tb_score``, the searcher's probe): the same mate-distance scale as the search's own
  ends, so a faster win ranks higher.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Final, Protocol

from boardeval.morris._evaluate import MATE_BOUND, terminal_score
from boardeval.morris.board import ADJ_MASK, MILL_MASKS, threat_points
from boardeval.morris.rules import Position, Turn

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["ReferenceTree", "ordered_turns"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF: Final[float] = float("inf")
_FULL: Final[int] = (1 << 24) - 1


class _Scorer(Protocol):
    def score(self, pos: Position) -> float: ...


def _to_tt(score: float, ply: int) -> float:
    """Win/loss scores are stored relative to the node (distance from it), not to the root."""
    return score + ply if score > MATE_BOUND else score - ply if score < -MATE_BOUND else score


def _from_tt(score: float, ply: int) -> float:
    return score - ply if score > MATE_BOUND else score + ply if score < -MATE_BOUND else score


class _Timeout(Exception):
    """Internal: the time limit expired inside the tree."""


def ordered_turns(pos: Position, hint: Turn | None) -> list[Turn]:
    """The legal turns of ``pos`` in search order: ``hint`` first, then mill closures (a removal that breaks
    an opponent threat first), then blocks of the opponent's threat points, then turns next to own men."""
    turns = pos.legal_turns()
    if len(turns) <= 1:
        return turns
    me = pos.side
    opp_men = pos.men[1 - me]
    empty = _FULL & ~(pos.men[0] | opp_men)
    opp_threats, _ = threat_points(opp_men, empty, pos.phase(1 - me))
    # opponent men standing on lines with two opponent men and a gap: removing them breaks a threat
    hot = 0
    for mask in MILL_MASKS:
        if (opp_men & mask).bit_count() == 2 and mask & empty:
            hot |= opp_men & mask

    def key(t: Turn) -> float:
        if t == hint:
            return -1e9
        k = 0.0
        if t.remove is not None:
            k -= 1000.0
            if (hot >> t.remove) & 1:
                k -= 100.0
        if (opp_threats >> t.dst) & 1:
            k -= 500.0
        k -= (ADJ_MASK[t.dst] & pos.men[me]).bit_count()
        return k

    turns.sort(key=key)
    return turns


class ReferenceTree:
    """One search context of the Python alpha-beta: the scorer, the transposition table and a node counter.

    ``tb_score(pos, ply)`` is the exact score of a tablebase-covered node ``ply`` turns below the root (None
    when not covered); None when there is no tablebase. The owner (a ``Searcher``) resets ``nodes``.
    """

    def __init__(
        self,
        scorer: _Scorer,
        tt_size: int,
        tb_score: Callable[[Position, int], float | None] | None = None,
    ) -> None:
        self.scorer = scorer
        self.tt: dict[int | tuple[int, ...], tuple[int, int, float, Turn | None]] = {}
        self.tt_size = tt_size
        self.tb_score = tb_score
        self.nodes = 0
        self._deadline: float | None = None

    def _key(self, pos: Position, depth: int) -> int | tuple[int, ...]:
        v = pos.variant
        key: tuple[int, ...] = (pos.zobrist,)
        if v.max_turns is not None and pos.turns + depth >= v.max_turns:
            key += (pos.turns,)
        if v.no_mill_turns is not None and pos.quiet_turns + depth >= v.no_mill_turns:
            key += (-1 - pos.quiet_turns,)
        if v.threefold_repetition:
            key += (-100 - pos.repetitions,)
        return key[0] if len(key) == 1 else key

    def negamax(
        self, pos: Position, depth: int, alpha: float = -_INF, beta: float = _INF, ply: int = 1
    ) -> tuple[float, list[Turn]]:
        """The alpha-beta value of ``pos`` (its side to move's view) ``depth`` turns deep and its line."""
        self.nodes += 1
        if self._deadline is not None and not self.nodes & 1023 and time.perf_counter() > self._deadline:
            raise _Timeout
        term = terminal_score(pos)
        if term is not None:
            if term > 0:
                return term - ply, []
            if term < 0:
                return term + ply, []
            return 0.0, []
        if self.tb_score is not None:
            exact = self.tb_score(pos, ply)
            if exact is not None:
                return exact, []
        if depth == 0:
            return self.scorer.score(pos), []

        alpha0 = alpha
        key = self._key(pos, depth)
        entry = self.tt.get(key)
        hint: Turn | None = None
        if entry is not None:
            e_depth, flag, stored, hint = entry
            if e_depth == depth:
                score = _from_tt(stored, ply)
                if flag == _EXACT:
                    return score, [hint] if hint is not None else []
                if flag == _LOWER and score >= beta:
                    return score, [hint] if hint is not None else []
                if flag == _UPPER and score <= alpha:
                    return score, [hint] if hint is not None else []

        best = -_INF
        best_move: Turn | None = None
        best_pv: list[Turn] = []
        for turn in ordered_turns(pos, hint):
            pos.push(turn)
            try:
                child, child_pv = self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            finally:
                pos.pop()
            score = -child
            if score > best:
                best, best_move, best_pv = score, turn, [turn, *child_pv]
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break

        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        stored = _to_tt(best, ply)
        if len(self.tt) >= self.tt_size:
            self.tt.clear()
        old = self.tt.get(key)
        if old is None or old[0] <= depth:
            self.tt[key] = (depth, flag, stored, best_move)
        return best, best_pv

    def _root(self, pos: Position, depth: int, order: list[Turn]) -> tuple[Turn, float, list[Turn]]:
        alpha = -_INF
        best_move = order[0]
        best_pv: list[Turn] = [order[0]]
        for turn in order:
            pos.push(turn)
            try:
                child, child_pv = self.negamax(pos, depth - 1, -_INF, -alpha, 1)
            finally:
                pos.pop()
            score = -child
            if score > alpha:
                alpha, best_move, best_pv = score, turn, [turn, *child_pv]
        return best_move, alpha, best_pv

    def deepen(
        self, pos: Position, max_depth: int, limit: float | None, order: list[Turn], start: float
    ) -> Iterator[tuple[int, Turn, float, list[Turn]]]:
        """Iterative deepening over the root turns ``order``: ``(depth, turn, score, line)`` after every
        completed depth, until ``max_depth``, a forced result, or ``limit`` seconds after ``start`` (depth 1
        always completes; a depth that would not finish in time is not started). ``pos`` is left unchanged."""
        try:
            for d in range(1, max_depth + 1):
                self._deadline = None if limit is None or d == 1 else start + limit
                try:
                    move, score, pv = self._root(pos, d, order)
                except _Timeout:
                    return
                order = [move, *(t for t in order if t != move)]
                yield d, move, score, pv
                if abs(score) > MATE_BOUND:
                    return  # a forced result: deeper search cannot change it
                if limit is not None and time.perf_counter() - start > limit * 0.5:
                    return  # the next depth would not finish in time
        finally:
            self._deadline = None
