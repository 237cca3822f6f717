"""``method="random"``: a uniform shuffle of tiles, tokens and ports (``Board.random``), checked."""

from __future__ import annotations

import time
from collections.abc import Sequence

from boardeval.catan._generate.common import GenerationResult, make_result
from boardeval.catan.board import Board
from boardeval.catan.constraints import Rule
from boardeval.core import WeightSet, make_rng

__all__ = ["random_board"]


def random_board(seed: int, rules: Sequence[Rule] = (), weights: WeightSet | None = None) -> GenerationResult:
    """A uniformly shuffled board; ``rules`` are only reported (true or false), never enforced."""
    t0 = time.perf_counter()
    board = Board.random(make_rng(seed))
    return make_result(board, rules, "random", seed, time.perf_counter() - t0, weights)
