"""Our annealer and the catan-forge port: optimum reached, never worse than the start, reproducible,
energies equal to the independent ``board_energy``, Ctrl-C keeps the best board."""

from __future__ import annotations

import math

import pytest

from boardeval.catan import Board, board_energy, check_rules, optimum, parse_rules
from boardeval.catan._generate.anneal import anneal, forge_anneal
from boardeval.catan._generate.common import ENERGY_SCALE, BoardState, energy_lower_bound


def test_lower_bound_is_the_cp_optimum() -> None:
    opt = optimum()
    assert opt.proven
    assert energy_lower_bound() == opt.scaled == 20  # pip variance 2/1296, no bad pairs


def test_board_state_energy_matches_board_energy() -> None:
    for seed in range(20):
        b = Board.random(seed)
        state = BoardState(b)
        assert math.isclose(state.energy() / ENERGY_SCALE, board_energy(b).total, abs_tol=1e-9)
        a, c = [h for h in range(19) if h != b.desert][seed % 5 : seed % 5 + 2]
        state.swap_numbers(a, c)
        state.swap_resources(a, c + 1 if c + 1 != b.desert else c + 2)
        state.swap_hexes(b.desert, 18 if b.desert != 18 else 17)
        assert math.isclose(state.energy() / ENERGY_SCALE, board_energy(state.board()).total, abs_tol=1e-9)


def test_reaches_the_proven_optimum() -> None:
    opt = optimum().energy
    for seed in range(40):
        r = anneal(seed)
        assert math.isclose(r.energy.total, board_energy(r.board).total)
        assert math.isclose(r.energy.total, opt, abs_tol=1e-9), seed
        assert r.optimal is True


def test_reproducible() -> None:
    assert anneal(7).board == anneal(7).board
    assert forge_anneal(7).board == forge_anneal(7).board
    assert anneal(7).board != anneal(8).board


@pytest.mark.parametrize("seed", range(25))
def test_never_worse_than_start(seed: int) -> None:
    start = Board.random(seed + 1000)
    e0 = board_energy(start).total
    short = anneal(seed, start=start, steps=5, restarts=1, t0=1e9, t1=1e8)  # hot: accepts anything
    assert board_energy(short.board).total <= e0 + 1e-9
    assert forge_anneal(seed).energy.total <= board_energy(Board.random(seed)).total + 1e-9


def test_forge_port_keeps_the_desert_and_improves() -> None:
    for seed in range(10):
        r = forge_anneal(seed)
        assert r.board.desert == Board.random(seed).desert
        assert r.energy.total < board_energy(Board.random(seed)).total


def test_rules_as_penalties_hold_when_easy() -> None:
    rules = parse_rules(["max-spot-pips=12", "no-equal-number-neighbours", "2-12-apart"])
    for seed in range(5):
        r = anneal(seed, rules)
        assert all(check_rules(r.board, rules).values()), seed
        assert dict(r.rules) == check_rules(r.board, rules)


def test_ctrl_c_returns_best_so_far() -> None:
    calls = 0

    def progress(done: int, total: int, msg: str) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    r = anneal(3, steps=5000, restarts=3, stop_at_bound=False, progress=progress)
    assert r.interrupted
    assert r.energy.total <= board_energy(Board.random(3)).total
