"""The fairness dial (mean energy falls as it rises, per seed too) and the generate() entry point."""

from __future__ import annotations

import itertools
import math
import statistics

import pytest

from boardeval.catan import Board, board_energy, generate, optimum
from boardeval.core import ParamsError

DIAL = (0.0, 0.25, 0.5, 0.75, 1.0)


def test_mean_energy_falls_monotonically_with_the_dial() -> None:
    seeds = range(40)
    per_seed = {s: [generate("anneal", s, fairness=f).energy.total for f in DIAL] for s in seeds}
    means = [statistics.mean(per_seed[s][k] for s in seeds) for k in range(len(DIAL))]
    assert all(a > b for a, b in itertools.pairwise(means)), means
    for s, es in per_seed.items():  # per seed the energy never rises with the dial
        assert all(a >= b - 1e-9 for a, b in itertools.pairwise(es)), (s, es)


def test_dial_ends() -> None:
    for seed in range(5):
        zero = generate("anneal", seed, fairness=0)
        assert zero.board == Board.random(seed) and zero.fairness == 0
        one = generate("anneal", seed, fairness=1)
        assert math.isclose(one.energy.total, optimum().energy)


def test_dial_with_rules_at_one_is_the_cp_optimum() -> None:
    r = generate("anneal", 4, rules=["max-cluster=1", "desert=coast"], fairness=1)
    assert r.optimal is True and all(r.rules.values())
    assert math.isclose(r.energy.total, optimum(["max-cluster=1", "desert=coast"]).energy)


def test_random_method_is_board_random_and_reports_rules() -> None:
    r = generate("random", 11, rules=["desert=centre"])
    assert r.board == Board.random(11)
    assert r.rules == {"desert=centre": r.board.desert == 9}
    assert r.energy.total == board_energy(r.board).total


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"method": "magic", "seed": 1}, "unknown method 'magic'"),
        ({"method": "anneal", "seed": -1}, "seed must be a non-negative integer"),
        ({"method": "anneal", "seed": 1, "fairness": 1.5}, "fairness must be in 0..1"),
        ({"method": "anneal", "seed": 1, "fairness": float("nan")}, "fairness must be a number"),
        ({"method": "random", "seed": 1, "fairness": 0.5}, "needs --method anneal"),
        ({"method": "tournament", "seed": 1, "fairness": 0.5}, "does not apply"),
        ({"method": "cp", "seed": 1, "fairness": 0.5}, "cp takes 0 = any board meeting the rules"),
    ],
)
def test_bad_arguments(kwargs: dict, fragment: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ParamsError, match=fragment):
        generate(**kwargs)


def test_generate_passes_progress_to_cp_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """``generate`` hands its progress callback to CP-SAT (method cp, and the anneal dial at 1 with rules),
    so a web cancel reaches the solver instead of waiting for it to finish."""
    from boardeval.catan import generate
    from boardeval.catan._generate import cp

    real = cp.cp_generate
    handed: list[object] = []

    def spy(*args: object, **kwargs: object) -> object:
        handed.append(kwargs.get("progress"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cp, "cp_generate", spy)

    def progress(done: int, total: int, message: str = "") -> None:
        return None

    for method, fairness in (("cp", None), ("cp", 1.0), ("anneal", 1.0)):
        handed.clear()
        generate(method, 2, ["max-spot-pips=10", "min-spot-pips=8"], fairness, progress)
        assert handed == [progress], (method, fairness)


def test_dial_ends_mean_the_same_for_every_method() -> None:
    """Issue 23: fairness 0 is "no balancing beyond the rules" for every method (cp: any board meeting
    them, the same as no dial; tournament: its repair), 1 is the fairest board for anneal and cp."""
    rules = ["no-68-neighbours"]
    cp0 = generate("cp", 3, rules=rules, fairness=0.0)
    assert cp0.board == generate("cp", 3, rules=rules).board
    assert cp0.fairness == 0.0 and cp0.optimal is not True
    tour0 = generate("tournament", 3, fairness=0.0)
    assert tour0.board == generate("tournament", 3).board and tour0.fairness == 0.0
    best = generate("cp", 3, rules=rules, fairness=1.0)
    assert best.optimal is True
    assert generate("anneal", 3, rules=rules, fairness=1.0).energy.total == pytest.approx(best.energy.total)
