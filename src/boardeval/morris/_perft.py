"""Perft: count the leaf nodes of the game tree to a fixed depth -- the standard move-generator check.

Two conventions (spec section 1):

- turn-plies (default): one ply per :class:`~boardeval.morris.rules.Turn`; a mill turn with each possible
  removal is a separate child;
- ``removal_plies=True``: OpenSpiel's actions -- a mill-closing placement/move is one ply, and the removal is
  a second ply by the same player (a "capture" node).

A node where the game is over (under the position's variant) has no children; a leaf at depth 0 counts 1.

Three implementations, which the tests hold equal:

- :func:`perft_generic`: ``Position.legal_turns/push/pop`` with bulk counting at the last ply (the
  reference, and the "plain" benchmark figure);
- :func:`perft` with ``cache=False``: recursion on raw side-relative bitboards ``(me, opp, hand_me,
  hand_opp)`` instead of Position objects, leaf counts from bit tricks (:func:`~.board.mill_closers`)
  without generating the last ply;
- :func:`perft` (default): the same plus a transposition cache of subtree counts keyed by the exact state
  (both bitboards, both hands, remaining depth, capture flag, and the turn limit when it is in reach) and a
  closed-form count of the last two plies while both sides are placing. The key is the state itself, not a
  hash of it, so there are no collisions: the counts are exact.

The raw recursion does not keep a history, so positions whose subtree could reach the moving phase under a
history rule (threefold repetition, ``no_mill_turns``) are counted by :func:`perft_generic`.
"""

from __future__ import annotations

from collections.abc import Callable

from boardeval.core import JobsInterrupted, ParamsError, Progress, report
from boardeval.morris.board import ADJ_MASK, FULL_MASK, in_mills, mill_closers
from boardeval.morris.rules import Position

__all__ = ["perft", "perft_divide", "perft_generic"]


def _check_depth(depth: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ParamsError(f"perft depth must be a non-negative integer, got {depth!r}")


def perft(
    pos: Position,
    depth: int,
    removal_plies: bool = False,
    *,
    cache: bool = True,
    progress: Progress | None = None,
) -> int:
    """Number of leaf nodes ``depth`` plies below ``pos`` (``pos`` is left unchanged).

    ``removal_plies``: count a removal as its own ply (OpenSpiel's convention) instead of turn-plies.
    ``cache``: use the transposition cache and the two-ply closed form (exact either way).
    ``progress``: called ``(done, total, first turn)`` after each first turn; then Ctrl-C raises
    :class:`~boardeval.core.JobsInterrupted` with the counts of the first turns already finished
    (:func:`perft_divide`).
    """
    _check_depth(depth)
    if progress is not None:
        return (
            sum(perft_divide(pos, depth, removal_plies, cache=cache, progress=progress).values())
            if depth
            else 1
        )
    return _count(pos, depth, removal_plies, _RawPerft(pos.variant.flying, cache))


def _count(pos: Position, depth: int, removal_plies: bool, counter: _RawPerft) -> int:
    """Perft of ``pos`` with a given raw counter (whose cache may be shared between calls)."""
    if depth == 0:
        return 1
    v = pos.variant
    history_rules = v.threefold_repetition or v.no_mill_turns is not None
    if history_rules and pos.hand[0] + pos.hand[1] < depth:
        return perft_generic(pos, depth, removal_plies)
    if pos._drawn_or_lost():
        return 0
    s = pos.side
    left = depth + 1 if v.max_turns is None else v.max_turns - pos.turns
    if removal_plies:
        return counter.actions(pos.men[s], pos.men[s ^ 1], pos.hand[s], pos.hand[s ^ 1], False, depth, left)
    return counter.turns(pos.men[s], pos.men[s ^ 1], pos.hand[s], pos.hand[s ^ 1], depth, left)


def perft_divide(
    pos: Position,
    depth: int,
    removal_plies: bool = False,
    *,
    cache: bool = True,
    progress: Progress | None = None,
) -> dict[str, int]:
    """Perft split by first turn (``{"d2": n, ...}``), for locating a move-generator difference.

    With ``removal_plies`` the first ply is the placement/move alone (mill turns are grouped under it,
    e.g. ``"g7"`` for ``g7xb6`` and ``g7xd6``). One cache is shared by all first turns. Ctrl-C raises
    :class:`~boardeval.core.JobsInterrupted` whose ``done`` maps 0, 1, ... to the ``(first turn, count)``
    pairs finished so far (``total``: the number of first turns), so a caller can print a partial count.
    """
    _check_depth(depth)
    if depth == 0:
        return {}
    out: dict[str, int] = {}
    work = pos.copy()
    counter = _RawPerft(pos.variant.flying, cache)
    turns = work.legal_turns()
    try:
        for i, turn in enumerate(turns):
            if removal_plies and turn.remove is not None:
                key = str(turn).split("x")[0]
                if depth == 1:
                    out[key] = 1
                elif depth == 2:
                    out[key] = out.get(key, 0) + 1
                else:
                    work.push(turn)
                    out[key] = out.get(key, 0) + _count(work, depth - 2, True, counter)
                    work.pop()
            else:
                work.push(turn)
                out[str(turn)] = _count(work, depth - 1, removal_plies, counter)
                work.pop()
            report(progress, i + 1, len(turns), str(turn))
    except KeyboardInterrupt:
        raise JobsInterrupted(dict(enumerate(out.items())), len(turns)) from None
    return out


def perft_generic(pos: Position, depth: int, removal_plies: bool = False) -> int:
    """Plain perft through ``Position.legal_turns/push/pop`` (no cache): the reference implementation."""
    _check_depth(depth)
    work = pos.copy()
    return _generic(work, depth, removal_plies)


def _generic(pos: Position, depth: int, removal_plies: bool) -> int:
    if depth == 0:
        return 1
    turns = pos.legal_turns()
    if not removal_plies:
        if depth == 1:
            return len(turns)
        total = 0
        for turn in turns:
            pos.push(turn)
            total += _generic(pos, depth - 1, False)
            pos.pop()
        return total
    # removal as its own ply: a mill turn is the placement/move ply, then the removal ply
    if depth == 1:
        return len({(t.src, t.dst) for t in turns})
    total = 0
    for turn in turns:
        if turn.remove is None:
            pos.push(turn)
            total += _generic(pos, depth - 1, True)
            pos.pop()
        elif depth == 2:
            total += 1  # the removal is the last ply
        else:
            pos.push(turn)
            total += _generic(pos, depth - 2, True)
            pos.pop()
    return total


def _removable(opp: int) -> int:
    free = opp & ~in_mills(opp)
    return free if free else opp


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


_Count = Callable[[int, int, int, int, bool, int, int], int]


class _RawPerft:
    """Perft on side-relative raw bitboards: ``me`` is the side to move, ``opp`` the other side.

    ``left`` is the number of turns that may still be played before the turn-limit draw (normalised to at
    most the remaining depth, where it can no longer matter).
    """

    def __init__(self, flying: bool, cache: bool) -> None:
        self.flying = flying
        self.memo: dict[int, int] | None = {} if cache else None

    # -- shared --------------------------------------------------------------------------------------

    def _moves(self, me: int, empty: int, hme: int) -> list[tuple[int, int, int]]:
        """(source bit or 0, target mask, mill-closing targets before the 'opp has men' check) per source."""
        if hme:
            return [(0, empty, mill_closers(me, empty))]
        out = []
        fly = self.flying and me.bit_count() == 3
        for sb in _bits(me):
            base = me ^ sb
            targets = empty if fly else ADJ_MASK[sb.bit_length() - 1] & empty
            if targets:
                out.append((sb, targets, mill_closers(base, empty) & targets))
        return out

    # -- turn-plies ----------------------------------------------------------------------------------

    def count_turns(self, me: int, opp: int, hme: int) -> int:
        """Legal turns of a non-terminal node (the last ply, counted without generating it)."""
        empty = FULL_MASK ^ (me | opp)
        extra = _removable(opp).bit_count() - 1 if opp else 0
        n = 0
        for _sb, targets, closers in self._moves(me, empty, hme):
            n += targets.bit_count()
            if extra and closers:
                n += closers.bit_count() * extra
        return n

    def turns(self, me: int, opp: int, hme: int, hopp: int, d: int, left: int) -> int:
        """Perft in turn-plies of a node with ``d >= 1`` plies to go."""
        if left <= 0 or me.bit_count() + hme < 3:
            return 0
        if d == 1:
            return self.count_turns(me, opp, hme)
        return self._cached(self._turns_below, me, opp, hme, hopp, False, d, min(left, d))

    def _cached(
        self, count: _Count, me: int, opp: int, hme: int, hopp: int, cap: bool, d: int, left: int
    ) -> int:
        """``count(...)`` through the transposition cache, keyed by the exact state (exact counts)."""
        memo = self.memo
        if memo is None:
            return count(me, opp, hme, hopp, cap, d, left)
        key = (((((me << 24 | opp) << 4 | hme) << 4 | hopp) << 8 | d) << 8 | left) << 1 | cap
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = count(me, opp, hme, hopp, cap, d, left)
        return hit

    def _turns_below(self, me: int, opp: int, hme: int, hopp: int, _cap: bool, d: int, left: int) -> int:
        """The sum over the children of a node with ``d >= 2`` turn-plies to go (``left <= d``)."""
        empty = FULL_MASK ^ (me | opp)
        total = 0
        nhme = hme - 1 if hme else 0
        rem_bits: list[int] | None = None
        if self.memo is not None and d == 2 and left >= 2 and hme and hopp and opp.bit_count() + hopp >= 3:
            # Closed form of the last two plies while both sides place. A placement p that does not close
            # a mill gives the opponent (E-1) placements, plus extra turns for each of its mill
            # points other than p, where R = my removable men after p = my men outside mills + 1 (p).
            closers = mill_closers(me, empty)
            opp_closers = mill_closers(opp, empty)
            e = empty.bit_count()
            n = e - closers.bit_count()
            free = (me & ~in_mills(me)).bit_count()
            total = n * (e - 1) + free * (n * opp_closers.bit_count() - (opp_closers & ~closers).bit_count())
            if closers:
                rem_bits = _bits(_removable(opp)) if opp else [0]
                for db in _bits(closers):
                    nme = me | db
                    for rb in rem_bits:
                        total += self.turns(opp ^ rb, nme, hopp, nhme, 1, left - 1)
        else:
            for sb, targets, closers in self._moves(me, empty, hme):
                base = me ^ sb
                if not opp:
                    closers = 0
                for db in _bits(targets):
                    nme = base | db
                    if db & closers:
                        if rem_bits is None:
                            rem_bits = _bits(_removable(opp))
                        for rb in rem_bits:
                            total += self.turns(opp ^ rb, nme, hopp, nhme, d - 1, left - 1)
                    else:
                        total += self.turns(opp, nme, hopp, nhme, d - 1, left - 1)
        return total

    # -- removal as its own ply ------------------------------------------------------------------------

    def count_actions(self, me: int, opp: int, hme: int) -> int:
        """OpenSpiel actions (placements/moves, a mill counted once) of a non-terminal node."""
        empty = FULL_MASK ^ (me | opp)
        if hme:
            return empty.bit_count()
        return sum(targets.bit_count() for _sb, targets, _c in self._moves(me, empty, hme))

    def actions(self, me: int, opp: int, hme: int, hopp: int, cap: bool, d: int, left: int) -> int:
        """Perft with removal plies of a node with ``d >= 1`` to go; ``cap``: ``me`` must now remove a man."""
        if cap:
            if d == 1:
                return _removable(opp).bit_count()
        elif left <= 0 or me.bit_count() + hme < 3:
            return 0
        elif d == 1:
            return self.count_actions(me, opp, hme)
        return self._cached(self._actions_below, me, opp, hme, hopp, cap, d, min(left, d))

    def _actions_below(self, me: int, opp: int, hme: int, hopp: int, cap: bool, d: int, left: int) -> int:
        """The sum over the children of a node with ``d >= 2`` plies to go (``left <= d``)."""
        total = 0
        if cap:
            for rb in _bits(_removable(opp)):
                total += self.actions(opp ^ rb, me, hopp, hme, False, d - 1, left - 1)
        else:
            empty = FULL_MASK ^ (me | opp)
            nhme = hme - 1 if hme else 0
            if (
                self.memo is not None
                and d == 2
                and left >= 2
                and hme
                and hopp
                and opp.bit_count() + hopp >= 3
            ):
                # Closed form: a non-mill placement leaves the opponent E-1 placements; a mill placement
                # leaves me R removals (R = the opponent's removable men).
                closers = mill_closers(me, empty) if opp else 0
                e = empty.bit_count()
                c = closers.bit_count()
                total = (e - c) * (e - 1) + (c * _removable(opp).bit_count() if c else 0)
            else:
                for sb, targets, closers in self._moves(me, empty, hme):
                    base = me ^ sb
                    if not opp:
                        closers = 0
                    for db in _bits(targets):
                        if db & closers:
                            total += self.actions(base | db, opp, nhme, hopp, True, d - 1, left)
                        else:
                            total += self.actions(opp, base | db, hopp, nhme, False, d - 1, left - 1)
        return total
