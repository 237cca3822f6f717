"""``method="random"``: a uniform shuffle of tiles, tokens and ports (``Board.random``), checked.

Harbours (:mod:`.harbours`): ``fixed`` (the default here) keeps ``Board.random``'s own uniform harbour
draw, so the boards are those of earlier versions; ``random`` reshuffles them from the seed's harbour
stream; ``balanced`` places the best harbours for the drawn tiles (exact, :func:`~.harbours.best_harbours`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from boardeval.catan._generate.common import GenerationResult, make_result
from boardeval.catan._generate.harbours import best_harbours, start_harbours
from boardeval.catan.board import Board
from boardeval.catan.constraints import Rule
from boardeval.core import WeightSet, make_rng

__all__ = ["random_board"]


def random_board(
    seed: int,
    rules: Sequence[Rule] = (),
    weights: WeightSet | None = None,
    ports: str = "fixed",
    layout: str = "base",
) -> GenerationResult:
    """A uniformly shuffled board; ``rules`` are only reported (true or false), never enforced (the
    balanced harbours keep them when they can, as every generator's harbour placement does)."""
    t0 = time.perf_counter()
    board = start_harbours(Board.random(make_rng(seed), layout), ports, seed)
    if ports == "balanced":
        board = best_harbours(board, rules)
    return make_result(board, rules, "random", seed, time.perf_counter() - t0, weights, ports=ports)
