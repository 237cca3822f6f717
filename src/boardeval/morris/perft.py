"""Perft: count the leaf nodes of the game tree to a fixed depth -- the standard move-generator check.

Two conventions (spec section 1):

- turn-plies (default): one ply per :class:`~boardeval.morris.rules.Turn`, a mill turn with each possible
  removal being a separate child;
- ``removal_plies=True``: OpenSpiel's actions -- a mill-closing placement/move is one ply, and the removal is
  a second ply by the same player.

A node where the game is over (under the position's variant) has no children; a leaf at depth 0 counts 1.
"""

from __future__ import annotations

from boardeval.core import ParamsError
from boardeval.morris.rules import Position

__all__ = ["perft", "perft_generic"]


def _check_depth(depth: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ParamsError(f"perft depth must be a non-negative integer, got {depth!r}")


def perft(pos: Position, depth: int, removal_plies: bool = False) -> int:
    """Number of leaf nodes ``depth`` plies below ``pos`` (``pos`` is left unchanged)."""
    _check_depth(depth)
    return perft_generic(pos, depth, removal_plies)


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
    # removal as its own ply: group the turns by their placement/move
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
