"""CP-SAT: the proven optimum, seeded satisfaction re-checked by the independent checkers, fast
infeasibility errors naming the rules, counting with a limit."""

from __future__ import annotations

import math

import pytest

from boardeval.catan import (
    Board,
    board_energy,
    check_rules,
    count_boards,
    generate,
    optimum,
)
from boardeval.catan._generate.cp import satisfy
from boardeval.core import InfeasibleError

HARD = ["no-same-resource-neighbours", "no-68-neighbours", "max-spot-pips=11", "desert=coast", "2-12-apart"]


def test_optimum_is_proven_and_checked() -> None:
    opt = optimum()
    assert opt.proven and opt.scaled == 20
    assert optimum(time_limit=19.0).board == opt.board  # one worker: the same optimal board every run
    assert math.isclose(board_energy(opt.board).total, 20 / 1296)


def test_optimum_under_rules_satisfies_them() -> None:
    opt = optimum(["desert=centre", "max-cluster=1"])
    assert opt.proven
    assert all(check_rules(opt.board, ["desert=centre", "max-cluster=1"]).values())
    # the desert on the centre leaves the centre region at 0 pips: far from the free optimum
    assert opt.energy > 10 * optimum().energy
    assert math.isclose(board_energy(opt.board).total, opt.energy)


def test_satisfy_is_seeded_and_checked() -> None:
    a = satisfy(HARD, seed=5)
    assert a == satisfy(HARD, seed=5)
    assert a != satisfy(HARD, seed=6)
    for seed in range(5):
        b = satisfy(HARD, seed=seed)
        assert all(check_rules(b, HARD).values())


@pytest.mark.parametrize(
    "rules",
    [
        ["max-spot-pips=7"],
        ["min-spot-pips=12"],
        ["desert=centre", "desert=coast"],
        ["resource-pips-band=13..15"],  # 5 resources x 13 > 58 pips
    ],
)
def test_infeasible_sets_error(rules: list[str]) -> None:
    """How fast CP-SAT proves these infeasible is a figure of benchmarks/catan_cp.py, not a test."""
    with pytest.raises(InfeasibleError, match="no board satisfies " + rules[0]):
        satisfy(rules)


def test_generate_cp_result_shape() -> None:
    r = generate("cp", 2, rules=HARD)
    assert r.method == "cp" and r.optimal is False
    assert all(r.rules.values()) and set(r.rules) == set(HARD)
    r1 = generate("cp", 2, rules=["max-cluster=1"], fairness=1)
    assert r1.optimal is True and math.isclose(r1.energy.total, optimum(["max-cluster=1"]).energy)


def test_count_boards() -> None:
    assert count_boards(["max-spot-pips=7"], limit=10) == (0, True)
    n, complete = count_boards(HARD, limit=7)
    assert (n, complete) == (7, False)


def test_energy_equals_board_energy_for_random_checks() -> None:
    for seed in range(3):
        b = satisfy([], seed=seed)
        assert isinstance(b, Board)
        assert math.isclose(generate("cp", seed).energy.total, board_energy(generate("cp", seed).board).total)


def test_progress_does_not_change_the_board_and_a_stop_keeps_a_valid_one() -> None:
    """Issue 15 defect 1 (CP-SAT part): with a progress callback that never stops, cp_generate returns the
    same boards as without one; a stop at the watchdog's first poll either comes before any solution
    (KeyboardInterrupt: nothing valid to keep) or keeps a board on which the rules hold, flagged
    interrupted exactly when the optimum is not proven."""
    from boardeval.catan import parse_rules
    from boardeval.catan._generate.cp import cp_generate

    rules = parse_rules(["max-spot-pips=10", "min-spot-pips=8"])
    seen: list[str] = []
    quiet = cp_generate(2, rules, progress=lambda d, t, m="": seen.append(m))
    assert quiet.board.code() == cp_generate(2, rules).board.code()
    best = cp_generate(2, rules, minimise=True, progress=lambda d, t, m="": None)
    assert best.board.code() == cp_generate(2, rules, minimise=True).board.code() and best.optimal

    def stop(done: int, total: int, message: str = "") -> None:
        if message == "minimising the energy":
            raise KeyboardInterrupt

    try:
        r = cp_generate(2, parse_rules(["max-cluster=1"]), minimise=True, progress=stop)
    except KeyboardInterrupt:
        return
    assert all(check_rules(r.board, ["max-cluster=1"]).values())
    assert r.interrupted is (not r.optimal)
