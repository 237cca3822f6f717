"""Tournament repair: rules hold afterwards, the swap plan replays to the result, minimal plans on small
cases, and the displacement is proven minimal by CP-SAT."""

from __future__ import annotations

import pytest

from boardeval.catan import (
    DEFAULT_TOURNAMENT_RULES,
    Board,
    board_energy,
    check_rules,
    parse_rules,
    plan_swaps,
    tournament,
)
from boardeval.core import InfeasibleError


def _replay(board: Board, swaps: tuple) -> Board:  # type: ignore[type-arg]
    for s in swaps:
        if s.kind == "tiles":
            board = board.with_swapped_resources(s.a, s.b)
        elif s.kind == "tokens":
            board = board.with_swapped_numbers(s.a, s.b)
        elif s.kind == "ports":
            board = board.with_swapped_ports(s.a, s.b)
        else:
            board = board.with_swapped_hexes(s.a, s.b)
    return board


@pytest.mark.parametrize("seed", range(12))
def test_default_rules_hold_and_swaps_replay(seed: int) -> None:
    r = tournament(seed)
    start = Board.random(seed)
    assert r.swaps is not None
    assert _replay(start, r.swaps) == r.board
    assert all(check_rules(r.board, DEFAULT_TOURNAMENT_RULES).values())
    assert r.energy.total == board_energy(r.board).total
    assert r.extras["displaced"] >= len(r.swaps) or len(r.swaps) == 0
    assert len(r.swaps) >= r.extras["displaced"] / 2
    if all(check_rules(start, DEFAULT_TOURNAMENT_RULES).values()):
        assert r.swaps == () and r.board == start


def test_reproducible() -> None:
    assert tournament(5).board == tournament(5).board


def test_plan_swaps_is_minimal_on_small_cases() -> None:
    assert plan_swaps("ab", "ba", "tiles") and len(plan_swaps("ab", "ba", "tiles")) == 1
    assert len(plan_swaps("abc", "bca", "tiles")) == 2  # a 3-cycle
    assert len(plan_swaps("abab", "baba", "tiles")) == 2  # two 2-cycles, not a 4-cycle (3 swaps)
    assert plan_swaps("aab", "aab", "tiles") == []


def test_one_bad_spot_needs_one_token_swap() -> None:
    # a board whose only problem is one 6-8-5 spot: the 8 and a 2 far away trade places
    ex = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
    bad = ex.with_swapped_numbers(0, 11).with_swapped_numbers(3, 15)  # spot 9 = 8-5-6
    rules = parse_rules(["max-spot-pips=12"])
    assert not check_rules(bad, rules)["max-spot-pips=12"]
    r = tournament(0, rules, start=bad)
    assert len(r.swaps or ()) == 1 and r.extras["displaced"] == 2
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
