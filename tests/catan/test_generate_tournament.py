"""Tournament repair: rules hold afterwards, the swap plan replays to the result, minimal plans on small
cases, and the displacement is proven minimal by CP-SAT."""

from __future__ import annotations

import functools

import pytest

from boardeval.catan import Board, GenerationResult, board_energy, check_rules, parse_rules
from boardeval.catan._generate.tournament import DEFAULT_TOURNAMENT_RULES, plan_swaps, tournament
from boardeval.core import InfeasibleError


def _replay(board: Board, swaps: tuple) -> Board:  # type: ignore[type-arg]
    for s in swaps:
        if s.kind == "resources":
            board = board.with_swapped_resources(s.a, s.b)
        elif s.kind == "numbers":
            board = board.with_swapped_numbers(s.a, s.b)
        elif s.kind == "ports":
            board = board.with_swapped_ports(s.a, s.b)
        else:
            board = board.with_swapped_hexes(s.a, s.b)
    return board


SEEDS = range(8)


@functools.cache
def _result(seed: int) -> GenerationResult:
    """The repair alone: harbours fixed (the default ``balanced`` adds the harbour placement's swaps,
    tests/catan/test_harbours.py)."""
    return tournament(seed, ports="fixed")


@pytest.mark.parametrize("seed", SEEDS)
def test_default_rules_hold_and_swaps_replay(seed: int) -> None:
    r = _result(seed)
    start = Board.random(seed)
    assert r.swaps is not None
    assert _replay(start, r.swaps) == r.board
    assert all(check_rules(r.board, DEFAULT_TOURNAMENT_RULES).values())
    assert r.energy.total == board_energy(r.board).total
    # every swap displaces at most two items, and CP-SAT proved no repair displaces fewer
    assert len(r.swaps) >= r.extras["displaced_min"] / 2
    assert r.extras["swaps_proven_minimal"] is True
    if all(check_rules(start, DEFAULT_TOURNAMENT_RULES).values()):
        assert r.swaps == () and r.board == start


def test_reproducible() -> None:
    assert tournament(2, ports="fixed").board == _result(2).board
    assert tournament(2).board == tournament(2).board


def test_plan_swaps_is_minimal_on_small_cases() -> None:
    assert plan_swaps("ab", "ba", "resources") and len(plan_swaps("ab", "ba", "resources")) == 1
    assert len(plan_swaps("abc", "bca", "resources")) == 2  # a 3-cycle
    assert len(plan_swaps("abab", "baba", "resources")) == 2  # two 2-cycles, not a 4-cycle (3 swaps)
    assert plan_swaps("aab", "aab", "resources") == []


def test_one_bad_spot_needs_one_token_swap() -> None:
    # a board whose only problem is one 6-8-5 spot: the 8 and a 2 far away trade places
    ex = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
    bad = ex.with_swapped_numbers(0, 11).with_swapped_numbers(3, 15)  # spot 9 = 8-5-6
    rules = parse_rules(["max-spot-pips=12"])
    assert not check_rules(bad, rules)["max-spot-pips=12"]
    r = tournament(0, rules, start=bad, ports="fixed")
    assert len(r.swaps or ()) == 1 and r.extras["displaced_min"] == 2
    assert all(r.rules.values())


def test_desert_rule_moves_the_desert_first() -> None:
    rules = parse_rules(["desert=centre", "max-cluster=2"])
    for seed in range(3):
        r = tournament(seed, rules)
        assert r.board.desert == 9 and all(r.rules.values())
        if Board.random(seed).desert != 9:
            assert r.swaps and r.swaps[0].kind == "hexes"


def test_infeasible_rules() -> None:
    with pytest.raises(InfeasibleError, match="no board satisfies"):
        tournament(1, parse_rules(["max-spot-pips=7"]))


def _one_swap_neighbours(board: Board) -> list[Board]:
    land = [h for h in range(19) if h != board.desert]
    out = []
    for i, a in enumerate(land):
        for b in land[i + 1 :]:
            if board.resources[a] != board.resources[b]:
                out.append(board.with_swapped_resources(a, b))
            if board.numbers[a] != board.numbers[b]:
                out.append(board.with_swapped_numbers(a, b))
    for a in range(9):
        for b in range(a + 1, 9):
            if board.ports[a] != board.ports[b]:
                out.append(board.with_swapped_ports(a, b))
    return out


def test_two_swap_repairs_are_minimal_by_brute_force() -> None:
    """Independent check of "fewest": when the repair uses 2 swaps, no single swap is enough."""
    rules = parse_rules(DEFAULT_TOURNAMENT_RULES)
    checked = 0
    for seed in SEEDS:
        r = _result(seed)
        if r.swaps is not None and len(r.swaps) == 2:
            start = Board.random(seed)
            assert not any(all(x.holds(b) for x in rules) for b in _one_swap_neighbours(start))
            checked += 1
    assert checked >= 2


def test_stop_during_the_exact_search_keeps_a_valid_plan() -> None:
    """Issue 15 defect 1: a stop asked through the progress callback while CP-SAT proves the fewest swaps
    (seed 3 under these rules takes many seconds) ends the solve and keeps the valid upper-bound plan,
    flagged interrupted and unproven; the final report after the stop does not lose it."""
    rules = parse_rules(["max-spot-pips=10", "min-spot-pips=8"])
    calls: list[str] = []

    def progress(done: int, total: int, message: str = "") -> None:
        calls.append(message)
        if message == "proving the fewest swaps" and calls.count(message) == 1:
            raise KeyboardInterrupt  # the first watchdog poll of the exact search

    r = tournament(3, rules, progress=progress)
    assert "proving the fewest swaps" in calls and calls[-1].endswith("swaps")
    assert r.interrupted and r.swaps
    assert r.extras["swaps_proven_minimal"] is False
    assert all(check_rules(r.board, rules).values())
    assert _replay(Board.random(3), r.swaps).code() == r.board.code()
