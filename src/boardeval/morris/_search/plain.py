"""Plain play without a search tree: fixed-depth alpha-beta with nothing else (the reference the tests
compare the searches with) and seeded random turns and positions (matches, sampling, tests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boardeval.core import ParamsError
from boardeval.morris._evaluate import Evaluator, default_evaluator, terminal_score
from boardeval.morris.rules import Position, Turn, Variant

if TYPE_CHECKING:
    import numpy as np

    from boardeval.core import SeedLike

__all__ = ["alphabeta", "random_position", "random_turn"]

_INF: Final[float] = float("inf")


def alphabeta(pos: Position, depth: int, evaluator: Evaluator | None = None) -> float:
    """Plain fixed-depth negamax alpha-beta, no table, no ordering: the reference the tests compare with."""
    ev = default_evaluator() if evaluator is None else evaluator

    def rec(d: int, alpha: float, beta: float, ply: int) -> float:
        term = terminal_score(pos)
        if term is not None:
            return term - ply if term > 0 else term + ply if term < 0 else 0.0
        if d == 0:
            return ev.score(pos)
        best = -_INF
        for turn in pos.legal_turns():
            pos.push(turn)
            try:
                score = -rec(d - 1, -beta, -alpha, ply + 1)
            finally:
                pos.pop()
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best

    return rec(depth, -_INF, _INF, 0)


def random_turn(pos: Position, rng: np.random.Generator) -> Turn:
    """A uniformly random legal turn (raises ``ParamsError`` for a finished game)."""
    turns = pos.legal_turns()
    if not turns:
        raise ParamsError(f"no legal turn in finished position {pos.text()!r}")
    return turns[int(rng.integers(len(turns)))]


def random_position(seed: SeedLike, turns: int, variant: Variant | None = None) -> Position:
    """The position after up to ``turns`` random turns from the start (stops early if the game ends)."""
    from boardeval.core import make_rng  # numpy on first use, not at import

    gen = make_rng(seed)
    pos = Position.start() if variant is None else Position.start(variant)
    for _ in range(turns):
        if pos.is_over():
            break
        pos.push(random_turn(pos, gen))
    return pos
