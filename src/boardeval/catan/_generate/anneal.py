"""Simulated annealing on the board energy (seed 001), ours and a faithful port of catan-forge's.

**catan-forge's schedule** (the baseline, :func:`forge_anneal`): start from a uniform board; each step
swaps either the resources of two non-desert hexes with different resources or the tokens of two
non-desert hexes (50/50; the desert never moves); Metropolis acceptance ``exp(-dE / T)`` on the float
energy; ``T0 = 1000``, ``T *= 0.95`` per step, 500 steps; keep the best board seen. (The seed gives the
schedule; "swap two tiles" is read as swapping resources with the tokens staying put, as catan-forge keeps
tiles and tokens in separate arrays.)

**Ours** (:func:`anneal`), tuned by measurement (``benchmarks/catan_anneal.py``):

* exact integer energy (``1296 x energy``, :mod:`.common`) maintained incrementally per swap in O(degree);
* three moves: resource swap, token swap, and moving the desert (whole-tile swap), because where the
  desert sits changes which region loses a token and the optimum needs it off the centre;
* geometric cooling from ``T0 = 60000`` to ``T1 = 20`` scaled units over ``steps`` moves, repeated from the
  best board for up to ``restarts`` rounds (re-heating: a restart keeps the best, a fresh random start
  would throw away the progress on the two cheap terms);
* it stops as soon as the energy equals :func:`~.common.energy_lower_bound` (no bad pairs, best region
  split), which is then provably optimal; with rules the bound is used only when every rule holds.

Rules become penalties: each violation costs ``RULE_PENALTY`` scaled units (more than any energy term),
evaluated by the independent checkers on the full board, so annealing with rules is slower per move.
The output is never worse than the start: the start is the first "best".
Ctrl-C inside the loop returns the best board so far, flagged ``interrupted``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from boardeval.catan._generate.common import (
    ENERGY_SCALE,
    BoardState,
    GenerationResult,
    energy_lower_bound,
    integer_weights,
    make_result,
)
from boardeval.catan.board import DESERT_INDEX, N_HEXES, Board
from boardeval.catan.constraints import Rule
from boardeval.core import Progress, SeedLike, WeightSet, make_rng, report

__all__ = ["AnnealStats", "anneal", "forge_anneal"]

RULE_PENALTY = 10 * ENERGY_SCALE * 150
"""Scaled cost of one rule violation (ten 6/8 pairs' worth)."""

T0 = 60000.0
T1 = 20.0
STEPS = 4000
RESTARTS = 8


class AnnealStats:
    """Counters of one run (moves tried, rounds, whether the lower bound was reached)."""

    __slots__ = ("at_bound", "moves", "rounds")

    def __init__(self) -> None:
        self.moves = 0
        self.rounds = 0
        self.at_bound = False


def _python_rng(seed: SeedLike) -> random.Random:
    """A fast stdlib generator seeded from the numpy one (reproducible from the int seed)."""
    return random.Random(int(make_rng(seed).integers(0, 2**63 - 1)))


def _penalty(state: BoardState, rules: Sequence[Rule]) -> int:
    if not rules:
        return 0
    board = state.board()
    return RULE_PENALTY * sum(len(r.violations(board)) for r in rules)


def anneal(
    seed: int,
    rules: Sequence[Rule] = (),
    *,
    weights: WeightSet | None = None,
    start: Board | None = None,
    steps: int = STEPS,
    restarts: int = RESTARTS,
    t0: float = T0,
    t1: float = T1,
    stop_at_bound: bool = True,
    target: int | None = None,
    progress: Progress | None = None,
) -> GenerationResult:
    """Our annealer: a seeded random board (or ``start``) annealed to low energy under ``rules``.

    ``target`` (scaled energy plus rule penalties): stop at the first board at or below it, the fairness
    dial's stopping rule. The trajectory does not depend on ``target``, only where it stops.
    """
    t_start = time.perf_counter()
    rng = _python_rng(seed)
    w = integer_weights(weights)
    board0 = start if start is not None else Board.random(make_rng(seed))
    state = BoardState(board0, w)
    bound = energy_lower_bound(w) if stop_at_bound else -1
    if target is not None:
        bound = max(bound, target)
        stop_at_bound = True
    stats = AnnealStats()
    cur = state.energy() + _penalty(state, rules)
    best = cur
    best_arrays = (list(state.res), list(state.num))
    interrupted = False
    total = max(1, steps * restarts)
    cool = (t1 / t0) ** (1.0 / max(1, steps - 1))
    randrange = rng.randrange
    rand = rng.random
    exp = math.exp
    try:
        for rnd in range(restarts):
            stats.rounds = rnd + 1
            if best <= bound and stop_at_bound:
                stats.at_bound = True
                break
            if rnd > 0:  # re-heat from the best board
                state = BoardState(Board.from_arrays(*best_arrays, state.ports), w)
                cur = best
            temp = t0
            res, num = state.res, state.num
            for step in range(steps):
                a = randrange(N_HEXES)
                b = randrange(N_HEXES)
                if a == b:
                    continue
                u = rand()
                if res[a] == DESERT_INDEX or res[b] == DESERT_INDEX:
                    if u < 0.9:
                        continue
                    kind = 2
                    state.swap_hexes(a, b)
                elif u < 0.5:
                    if res[a] == res[b]:
                        continue
                    kind = 0
                    state.swap_resources(a, b)
                else:
                    if num[a] == num[b]:
                        continue
                    kind = 1
                    state.swap_numbers(a, b)
                new = state.energy() + (_penalty(state, rules) if rules else 0)
                delta = new - cur
                if delta <= 0 or rand() < exp(-delta / temp):
                    cur = new
                    if cur < best:
                        best = cur
                        best_arrays = (list(res), list(num))
                        if best <= bound and stop_at_bound:
                            stats.at_bound = True
                            stats.moves += step + 1
                            break
                elif kind == 0:
                    state.swap_resources(a, b)
                elif kind == 1:
                    state.swap_numbers(a, b)
                else:
                    state.swap_hexes(a, b)
                temp *= cool
                if progress is not None and step % 1000 == 0:
                    report(progress, rnd * steps + step, total, f"energy {best / ENERGY_SCALE:.3f}")
            else:
                stats.moves += steps
            if stats.at_bound:
                break
    except KeyboardInterrupt:
        interrupted = True
    report(progress, total, total, f"energy {best / ENERGY_SCALE:.3f}")
    board = Board.from_arrays(*best_arrays, state.ports)
    return make_result(
        board,
        rules,
        "anneal",
        seed,
        time.perf_counter() - t_start,
        weights,
        optimal=True if best <= energy_lower_bound(w) else None,
        interrupted=interrupted,
        extras={"moves": stats.moves, "rounds": stats.rounds},
    )


def forge_anneal(
    seed: int,
    *,
    weights: WeightSet | None = None,
    steps: int = 500,
    t0: float = 1000.0,
    alpha: float = 0.95,
    progress: Progress | None = None,
) -> GenerationResult:
    """catan-forge's annealer, ported faithfully (see the module docstring): the baseline to beat."""
    t_start = time.perf_counter()
    rng = _python_rng(seed)
    w = integer_weights(weights)
    state = BoardState(Board.random(make_rng(seed)), w)
    cur = state.energy() / ENERGY_SCALE
    best = cur
    best_arrays = (list(state.res), list(state.num))
    land = [h for h in range(N_HEXES) if state.res[h] != DESERT_INDEX]
    temp = t0
    interrupted = False
    try:
        for step in range(steps):
            if rng.random() < 0.5:
                a, b = rng.sample(land, 2)
                if state.res[a] == state.res[b]:
                    temp *= alpha
                    continue
                kind = 0
                state.swap_resources(a, b)
            else:
                a, b = rng.sample(land, 2)
                kind = 1
                state.swap_numbers(a, b)
            new = state.energy() / ENERGY_SCALE
            delta = new - cur
            if delta < 0 or rng.random() < math.exp(-delta / temp):
                cur = new
                if cur < best:
                    best = cur
                    best_arrays = (list(state.res), list(state.num))
            elif kind == 0:
                state.swap_resources(a, b)
            else:
                state.swap_numbers(a, b)
            temp *= alpha
            if progress is not None and step % 100 == 0:
                report(progress, step, steps, f"energy {best:.3f}")
    except KeyboardInterrupt:
        interrupted = True
    board = Board.from_arrays(*best_arrays, state.ports)
    return make_result(
        board, (), "anneal-forge", seed, time.perf_counter() - t_start, weights, interrupted=interrupted
    )
