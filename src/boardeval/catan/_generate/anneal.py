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
* it stops as soon as the energy equals :func:`~.common.energy_lower_bound` (no bad pairs, no harbour
  cost, best region split), which is then provably optimal; with rules the bound is used only when every
  rule holds.
* harbours (``ports``, :mod:`.harbours`): ``fixed`` and ``random`` keep the start's (or reshuffled)
  harbours and draw no extra random numbers, so with ``fixed`` and a harbour weight of 0 a run is move
  for move the run of earlier versions; ``balanced`` (when the harbour term's weight is not 0) adds a
  fourth move, swapping the kinds of two harbour slots (one proposal in :data:`PORT_MOVE_SHARE`), and
  polishes the best board's harbours exactly for its tiles at the end (:func:`~.harbours.best_harbours`,
  kept only when that lowers the objective, rule penalties included; not with a ``target``, where the
  fairness dial wants the first board on the path).

Rules become penalties: each violation costs ``RULE_PENALTY`` scaled units (more than any energy term),
evaluated by the independent checkers on the full board, so annealing with rules is slower per move.
The output is never worse than the start: the start is the first "best".
Ctrl-C inside the loop returns the best board so far, flagged ``interrupted``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from boardeval.catan._generate.common import (
    ENERGY_SCALE,
    BoardState,
    GenerationResult,
    IntWeights,
    energy_lower_bound,
    integer_weights,
    make_result,
    ports_weight,
)
from boardeval.catan._generate.harbours import best_harbours, start_harbours
from boardeval.catan._generate.layouts import gen_layout, region_lower_bound
from boardeval.catan.board import DESERT_INDEX, N_HEXES, Board
from boardeval.catan.constraints import Rule
from boardeval.core import Progress, SeedLike, WeightSet, make_rng, report

__all__ = ["AnnealStats", "anneal", "forge_anneal", "metropolis_step"]

PORT_MOVE_SHARE = 0.1
"""With balanced harbours: the share of proposals that swap two harbour slots."""
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
    return _rule_penalty(board.layout) * sum(len(r.violations(board)) for r in rules)


def _rule_penalty(layout: str) -> int:
    """:data:`RULE_PENALTY` on the layout's scale (the same ten 6/8 pairs' worth of energy)."""
    return RULE_PENALTY // ENERGY_SCALE * gen_layout(layout).scale


def _lower_bound(w: tuple[int, ...], layout: str) -> int:
    """The stopping bound: :func:`~.common.energy_lower_bound` on the base board, the same bound on
    another layout's scale (:func:`~.layouts.region_lower_bound`)."""
    return energy_lower_bound(w) if layout == "base" else region_lower_bound(w[2], layout)


Move = Callable[[int, int], None]
"""A swap on a :class:`BoardState` (``swap_resources``, ``swap_numbers``, ``swap_hexes``): its own inverse."""


Objective = TypeVar("Objective", int, float)


def metropolis_step(
    move: Move,
    a: int,
    b: int,
    cur: Objective,
    temp: float,
    objective: Callable[[], Objective],
    rand: Callable[[], float],
    *,
    accept_ties: bool,
) -> tuple[bool, Objective]:
    """Propose a swap and accept it by the Metropolis rule, or undo it: the step both annealers share.

    Applies ``move(a, b)``, evaluates ``objective()`` and accepts when it falls (or stays equal, with
    ``accept_ties``) or with probability ``exp(-delta / temp)``; a rejected swap is undone by the same swap.
    Returns ``(accepted, objective now)``. ``rand`` is drawn only when the objective rises (or ties without
    ``accept_ties``), so a run's random stream, and with it the trajectory, depends only on the seed.
    """
    move(a, b)
    new = objective()
    delta = new - cur
    if (delta <= 0 if accept_ties else delta < 0) or rand() < math.exp(-delta / temp):
        return True, new
    move(a, b)
    return False, cur


def _propose(state: BoardState, a: int, b: int, u: float) -> Move | None:
    """Our move for hexes a != b and a uniform ``u``: the desert moves with a whole-tile swap (1 in 10
    draws that touch it), otherwise resources or tokens (50/50); None when the swap would change nothing."""
    res, num = state.res, state.num
    if res[a] == DESERT_INDEX or res[b] == DESERT_INDEX:
        return None if u < 0.9 else state.swap_hexes
    if u < 0.5:
        return None if res[a] == res[b] else state.swap_resources
    return None if num[a] == num[b] else state.swap_numbers


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
    layout: str = "base",
    progress: Progress | None = None,
    ports: str = "balanced",
) -> GenerationResult:
    """Our annealer: a seeded random board (or ``start``) annealed to low energy under ``rules``.

    ``target`` (scaled energy plus rule penalties): stop at the first board at or below it, the fairness
    dial's stopping rule. The trajectory does not depend on ``target``, only where it stops.
    ``layout``: the board drawn when no ``start`` is given (``"extended"``: the 5-6 player board; its
    energy is scaled by 39204 instead of 1296, and the temperatures scale with it). ``ports``:
    the harbour mode (module docstring).
    """
    t_start = time.perf_counter()
    rng = _python_rng(seed)
    w = integer_weights(weights)
    first = start_harbours(start if start is not None else Board.random(make_rng(seed), layout), ports, seed)
    state = BoardState(first, w)
    lay = state.lay
    bound = _lower_bound(w, lay.name) if stop_at_bound else -1
    if target is not None:
        bound, stop_at_bound = max(bound, target), True
    port_moves = ports == "balanced" and ports_weight(w) > 0  # no harbour term: nothing to move for
    run = _Run(state, rules, bound if stop_at_bound else None, rng, progress, port_moves)
    run.shortcut = port_moves and not rules and target is None
    interrupted = False
    cool = (t1 / t0) ** (1.0 / max(1, steps - 1))
    heat = lay.scale / ENERGY_SCALE  # temperatures are given in base-board (x1296) units
    try:
        for rnd in range(restarts):
            run.stats.rounds = rnd + 1
            if run.at_bound():
                break
            if rnd > 0:  # re-heat from the best board
                run.restart(w)
            run.round(rnd, steps, restarts, t0 * heat, cool)
            if run.stats.at_bound:
                break
    except KeyboardInterrupt:
        interrupted = True
    total = max(1, steps * restarts)
    report(progress, total, total, f"energy {run.best / lay.scale:.3f}")
    best = Board.from_arrays(*run.best_arrays, layout=first.layout)
    best_value = run.best
    if ports == "balanced" and not interrupted and ports_weight(w) and target is None:
        best, best_value = _polish_harbours(best, best_value, rules, w)
    return make_result(
        best,
        rules,
        "anneal",
        seed,
        time.perf_counter() - t_start,
        weights,
        optimal=True if best_value <= _lower_bound(w, lay.name) else None,
        interrupted=interrupted,
        extras={"moves": run.stats.moves, "rounds": run.stats.rounds},
        ports=ports,
    )


def _polish_harbours(board: Board, value: int, rules: Sequence[Rule], w: IntWeights) -> tuple[Board, int]:
    """The board with the best harbours for its tiles, when that lowers the objective (rules included)."""
    polished = best_harbours(board, rules)
    if polished.ports == board.ports:
        return board, value
    new = BoardState(polished, w).energy() + (
        _rule_penalty(polished.layout) * sum(len(r.violations(polished)) for r in rules) if rules else 0
    )
    return (polished, new) if new < value else (board, value)


class _Run:
    """The state of one :func:`anneal` run across its rounds: current and best objective and board."""

    def __init__(
        self,
        state: BoardState,
        rules: Sequence[Rule],
        bound: int | None,
        rng: random.Random,
        progress: Progress | None,
        port_moves: bool = False,
    ) -> None:
        self.state = state
        self.rules = rules
        self.bound = bound
        self.rng = rng
        self.progress = progress
        self.port_moves = port_moves and len(state.ports) > 1
        self.shortcut = False
        self.tried: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        """At a new best whose tiles meet the bound, place the best harbours for them at once (exact,
        :func:`~.harbours.best_harbours`): the bound is then reached without waiting for harbour moves."""
        self.stats = AnnealStats()
        self.cur = self.objective()
        self.best = self.cur
        self.best_arrays = (list(state.res), list(state.num), state.ports)

    def objective(self) -> int:
        """Scaled energy plus the rule penalties of the current state."""
        return self.state.energy() + (_penalty(self.state, self.rules) if self.rules else 0)

    def at_bound(self) -> bool:
        """The best board reached the stopping bound (flags it in the stats)."""
        if self.bound is not None and self.best <= self.bound:
            self.stats.at_bound = True
        return self.stats.at_bound

    def restart(self, weights: IntWeights) -> None:
        """Re-heat from the best board so far."""
        self.state = BoardState(Board.from_arrays(*self.best_arrays), weights)
        self.cur = self.best

    def _harbours_at_bound(self) -> None:
        """When the tiles alone meet the bound, the best harbours for them (kept if the objective falls)."""
        state = self.state
        if self.bound is None or state.tile_energy() > self.bound:
            return
        key = (tuple(state.res), tuple(state.num))
        if key in self.tried:  # these tiles had their best harbours already
            return
        self.tried.add(key)
        placed = best_harbours(state.board())
        if placed.ports == state.board().ports:
            return
        old = state.ports
        state.set_ports("".join(placed.ports))
        new = self.objective()
        if new < self.cur:
            self.cur = new
        else:
            state.set_ports(old)

    def round(self, rnd: int, steps: int, restarts: int, temp: float, cool: float) -> None:
        """One cooling schedule of ``steps`` proposed moves from ``temp``; stops early at the bound."""
        randrange, rand = self.rng.randrange, self.rng.random
        state, objective = self.state, self.objective
        n_hexes, n_ports = len(state.res), len(state.ports)
        for step in range(steps):
            move: Move | None
            if self.port_moves and rand() < PORT_MOVE_SHARE:
                a, b = randrange(n_ports), randrange(n_ports)
                move = None if state.port_idx[a] == state.port_idx[b] else state.swap_ports
            else:
                a, b = randrange(n_hexes), randrange(n_hexes)
                if a == b:
                    continue
                move = _propose(state, a, b, rand())
            if move is None:
                continue
            accepted, self.cur = metropolis_step(
                move, a, b, self.cur, temp, objective, rand, accept_ties=True
            )
            if accepted and self.shortcut and self.bound is not None and self.cur > self.bound:
                self._harbours_at_bound()
            if accepted and self.cur < self.best:
                self.best = self.cur
                self.best_arrays = (list(state.res), list(state.num), state.ports)
                if self.at_bound():
                    self.stats.moves += step + 1
                    return
            temp *= cool
            if self.progress is not None and step % 1000 == 0:
                done, total = rnd * steps + step, max(1, steps * restarts)
                report(self.progress, done, total, f"energy {self.best / self.state.lay.scale:.3f}")
        self.stats.moves += steps


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

    def objective() -> float:
        return state.energy() / ENERGY_SCALE

    cur = best = objective()
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
                move: Move = state.swap_resources
            else:
                a, b = rng.sample(land, 2)
                move = state.swap_numbers
            accepted, cur = metropolis_step(move, a, b, cur, temp, objective, rng.random, accept_ties=False)
            if accepted and cur < best:
                best = cur
                best_arrays = (list(state.res), list(state.num))
            temp *= alpha
            if progress is not None and step % 100 == 0:
                report(progress, step, steps, f"energy {best:.3f}")
    except KeyboardInterrupt:
        interrupted = True
    board = Board.from_arrays(*best_arrays, state.ports)
    return make_result(
        board, (), "anneal-forge", seed, time.perf_counter() - t_start, weights, interrupted=interrupted
    )
