"""Boards generated for seat equity: the ``seat-equity`` objective for the annealer and tournament repair.

**Objective** (lower is better)::

    objective = 100 * predicted_spread + energy_weight * energy

``predicted_spread`` is the best minus the worst seat's win probability under the advisor draft
(:func:`~boardeval.catan.equity.seat_equity`, the play-fitted model), in points; ``energy`` is seed
001's board energy (harbour term included). ``energy_weight`` 0 is seat equity alone; the default
:data:`ENERGY_WEIGHT` (0.1: 100 energy units, one same-resource pair, cost ten points of spread) keeps the
usual fairness in play: among boards about equally fair to the seats, the one without clumps wins.

**Annealing** (:func:`equity_anneal`): from the seeded energy-optimal board (``generate("anneal", seed)``;
with ``energy_weight`` 0 from the seeded uniform board), Metropolis moves that swap two resources, two
tokens (the desert keeps its place and has no token) or two harbour kinds, geometric cooling from
:data:`T0` to :data:`T1` points over ``steps`` proposals, keeping the best board seen. Each proposal runs
the whole draft again on arrays (:func:`~boardeval.catan.draft.draft_arrays_fast`, no :class:`Board`
built), about 0.2 ms on an idle core; the energy is maintained incrementally by the annealer's own
:class:`~boardeval.catan._generate.common.BoardState`.

**Tournament repair** (:func:`equity_tournament`): the usual fewest-swap repair until the rules hold, then
at most ``extra_swaps`` more swaps, each the best of a seeded sample of candidate swaps that keeps every
rule and lowers the objective; the swaps are listed like the repair's.

**CP-SAT**: not encoded, and why. The objective is a function of a sequential draft: eight nested
argmax choices over the 54 spots, each spot's value a sum of products of pips with resource strengths
that are square roots of ratios of board-wide pip totals, the second picks depending on the first, then
a logistic link. A faithful CP-SAT model needs every spot's score as an integer expression (the strengths
tabulated over all reachable totals), an argmax per pick with tie-breaking (a boolean per spot and pick,
big-M against all 54 rivals), and the probabilities linearised; that is thousands of non-linear
constraints for an objective that a local search evaluates in a fraction of a millisecond. The ``cp``
method keeps optimising the energy; ``--objective seat-equity`` answers that CP-SAT cannot target it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardeval.catan._generate.common import ENERGY_SCALE, BoardState, GenerationResult, Swap, make_result
from boardeval.catan.board import DESERT_INDEX, PIPS_BY_NUMBER, Board
from boardeval.catan.constraints import Rule, parse_rules
from boardeval.catan.equity import SeatModel, load_seat_model, seat_equity
from boardeval.catan.equity_fast import fast_equity
from boardeval.core import CatanError, ParamsError, Progress, WeightSet, check_number, make_rng, report

__all__ = ["ENERGY_WEIGHT", "OBJECTIVES", "equity_anneal", "equity_tournament", "objective_value"]

OBJECTIVES = ("energy", "seat-equity")
ENERGY_WEIGHT = 0.1
T0 = 3.0
T1 = 0.05
STEPS = 2500
PORT_MOVE_SHARE = 0.1
PIPS_FLOAT = PIPS_BY_NUMBER.astype(np.float64)


def _check_base(board_layout: str) -> None:
    if board_layout != "base":
        raise CatanError(
            "the seat-equity objective needs a base board: catanatron has no 5-6 player map, so there is no "
            "play-fitted model to optimise (the draft-only opening values are shown by 'catan equity')"
        )


class _Scorer:
    """The objective of a :class:`BoardState`, evaluated on its arrays by the compiled kernel."""

    def __init__(self, state: BoardState, model: SeatModel, energy_weight: float) -> None:
        self.state = state
        self.kernel = fast_equity(model)
        self.energy_weight = energy_weight
        self.evaluations = 0

    def spread(self) -> float:
        st = self.state
        res = np.asarray(st.res, dtype=np.int64)
        nums = np.asarray(st.num, dtype=np.int64)
        self.evaluations += 1
        return self.kernel.spread(res, PIPS_FLOAT[nums], nums, np.asarray(st.port_idx, dtype=np.int64))

    def __call__(self) -> float:
        value = 100.0 * self.spread()
        if self.energy_weight:
            value += self.energy_weight * self.state.energy() / ENERGY_SCALE
        return value


def objective_value(
    board: Board, energy_weight: float = ENERGY_WEIGHT, model: SeatModel | None = None
) -> float:
    """The seat-equity objective of a board (module docstring), from the exact evaluation."""
    _check_base(board.layout)
    from boardeval.catan import board_energy

    eq = seat_equity(board, model)
    assert eq.spread is not None
    return 100.0 * eq.spread + energy_weight * board_energy(board).total


def _check_weight(energy_weight: float) -> float:
    return check_number(energy_weight, "seat-equity energy weight", nonnegative=True)


def equity_anneal(
    seed: int,
    *,
    energy_weight: float = ENERGY_WEIGHT,
    steps: int = STEPS,
    start: Board | None = None,
    weights: WeightSet | None = None,
    progress: Progress | None = None,
    model: SeatModel | None = None,
) -> GenerationResult:
    """A seeded board annealed on the seat-equity objective (module docstring). Ctrl-C returns the best
    board so far, flagged ``interrupted``."""
    from boardeval.catan import generate

    t_start = time.perf_counter()
    w = _check_weight(energy_weight)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ParamsError(f"steps must be a positive integer, got {steps!r}")
    if start is None:
        start = generate("anneal", seed, weights=weights).board if w > 0 else generate("random", seed).board
    _check_base(start.layout)
    m = model or load_seat_model()
    from boardeval.catan._generate.common import integer_weights

    state = BoardState(start, integer_weights(weights))
    score = _Scorer(state, m, w)
    rng = random.Random(int(make_rng(seed).integers(0, 2**63 - 1)))
    land = [h for h in range(len(state.res)) if state.res[h] != DESERT_INDEX]
    n_ports = len(state.ports)
    cur = best = score()
    best_arrays = (list(state.res), list(state.num), state.ports)
    cool = (T1 / T0) ** (1.0 / max(1, steps - 1))
    temp = T0
    interrupted = False
    try:
        for step in range(steps):
            u = rng.random()
            if u < PORT_MOVE_SHARE:
                a, b = rng.randrange(n_ports), rng.randrange(n_ports)
                if state.port_idx[a] == state.port_idx[b]:
                    continue
                move = state.swap_ports
            else:
                a, b = rng.sample(land, 2)
                if u < 0.55:
                    if state.res[a] == state.res[b]:
                        continue
                    move = state.swap_resources
                else:
                    if state.num[a] == state.num[b]:
                        continue
                    move = state.swap_numbers
            move(a, b)
            new = score()
            if new <= cur or rng.random() < math.exp(-(new - cur) / temp):
                cur = new
                if cur < best:
                    best = cur
                    best_arrays = (list(state.res), list(state.num), state.ports)
            else:
                move(a, b)
            temp *= cool
            if progress is not None and step % 250 == 0:
                report(progress, step, steps, f"objective {best:.2f}")
    except KeyboardInterrupt:
        interrupted = True
    board = Board.from_arrays(*best_arrays)
    return _result(board, (), "anneal", seed, t_start, weights, w, m, score.evaluations, interrupted)


def _result(
    board: Board,
    rules: Sequence[Rule],
    method: str,
    seed: int,
    t_start: float,
    weights: WeightSet | None,
    energy_weight: float,
    model: SeatModel,
    evaluations: int,
    interrupted: bool,
    swaps: tuple[Swap, ...] | None = None,
) -> GenerationResult:
    eq = seat_equity(board, model)
    extras: dict[str, Any] = {
        "objective": "seat-equity",
        "energy_weight": energy_weight,
        "evaluations": evaluations,
        "seat_equity": _summary(eq),
    }
    return make_result(
        board,
        rules,
        method,
        seed,
        time.perf_counter() - t_start,
        weights,
        interrupted=interrupted,
        extras=extras,
        swaps=swaps,
        ports="balanced",  # harbour kinds move like the other tiles
    )


def _summary(eq: Any) -> dict[str, Any]:
    """The generators' JSON carries the seat equity: probabilities, spread, each seat's spots."""
    return {
        "win_probabilities": None if eq.win_probabilities is None else list(eq.win_probabilities),
        "spread": eq.spread,
        "seats": [list(s) for s in eq.draft.seats],
        "opening_values": list(eq.opening_values),
        "note": eq.note,
    }


def equity_summary(board: Board) -> dict[str, Any]:
    """The seat-equity summary a generator's JSON carries for any board (draft only on 5-6 players)."""
    return _summary(seat_equity(board))


def equity_tournament(
    seed: int,
    rules: Sequence[str | Rule] | None = None,
    *,
    extra_swaps: int = 3,
    candidates: int = 120,
    energy_weight: float = ENERGY_WEIGHT,
    weights: WeightSet | None = None,
    progress: Progress | None = None,
    model: SeatModel | None = None,
) -> GenerationResult:
    """Tournament repair, then up to ``extra_swaps`` seat-equity swaps that keep the rules (module
    docstring). ``candidates``: swaps sampled (seeded) per extra swap."""
    from boardeval.catan._generate.common import integer_weights
    from boardeval.catan._generate.tournament import tournament

    t_start = time.perf_counter()
    w = _check_weight(energy_weight)
    for count, what in ((extra_swaps, "extra swaps"), (candidates, "candidates")):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ParamsError(f"{what} must be a non-negative integer, got {count!r}")
    repaired = tournament(seed, None if rules is None else parse_rules(rules), weights=weights)
    board = repaired.board
    _check_base(board.layout)
    rule_list = parse_rules(list(repaired.rules)) if repaired.rules else []
    m = model or load_seat_model()
    state = BoardState(board, integer_weights(weights))
    score = _Scorer(state, m, w)
    rng = random.Random(int(make_rng(seed).integers(0, 2**63 - 1)) ^ 0x5EA7)
    land = [h for h in range(len(state.res)) if state.res[h] != DESERT_INDEX]
    kinds = (
        ("resources", state.swap_resources),
        ("numbers", state.swap_numbers),
        ("ports", state.swap_ports),
    )
    cur = score()
    swaps = list(repaired.swaps or ())
    interrupted = False
    try:
        for k in range(extra_swaps):
            report(progress, k, extra_swaps, f"objective {cur:.2f}")
            best: tuple[float, str, int, int] | None = None
            for _ in range(candidates):
                kind_i = rng.randrange(3) if rng.random() > PORT_MOVE_SHARE else 2
                name, move = kinds[kind_i]
                if name == "ports":
                    a, b = rng.sample(range(len(state.ports)), 2)
                    if state.port_idx[a] == state.port_idx[b]:
                        continue
                else:
                    a, b = rng.sample(land, 2)
                    if (state.res if name == "resources" else state.num)[a] == (
                        state.res if name == "resources" else state.num
                    )[b]:
                        continue
                move(a, b)
                value = score()
                ok = value < cur and (best is None or value < best[0])
                if ok and rule_list:
                    trial = state.board()
                    ok = all(not r.violations(trial) for r in rule_list)
                move(a, b)
                if ok:
                    best = (value, name, a, b)
            if best is None:
                break
            value, name, a, b = best
            dict(kinds)[name](a, b)
            cur = value
            swaps.append(Swap(name, a, b))
    except KeyboardInterrupt:
        interrupted = True
    return _result(
        state.board(),
        rule_list,
        "tournament",
        seed,
        t_start,
        weights,
        w,
        m,
        score.evaluations,
        interrupted,
        tuple(swaps),
    )
