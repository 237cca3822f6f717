"""Perft against the golden table (OpenSpiel's counts), and the three implementations against each other."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from boardeval.core import JobsInterrupted, ParamsError
from boardeval.morris._perft import perft, perft_divide, perft_generic
from boardeval.morris.rules import OPENSPIEL, STANDARD, Outcome, Position, Termination, Variant

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "morris_perft.json").read_text())
CASES = [(conv, int(d), n) for conv in ("removal_plies", "turn_plies") for d, n in GOLDEN[conv].items()]


@pytest.mark.parametrize(("convention", "depth", "expected"), CASES)
def test_golden_cached(convention: str, depth: int, expected: int) -> None:
    pos = Position.parse(GOLDEN["position"], Variant.parse(GOLDEN["variant"]))
    assert perft(pos, depth, convention == "removal_plies") == expected


@pytest.mark.parametrize(("convention", "depth", "expected"), [c for c in CASES if c[1] <= 5])
def test_golden_without_cache(convention: str, depth: int, expected: int) -> None:
    """The raw recursion without the cache and the closed form also gives the golden counts (1..5)."""
    pos = Position.start(OPENSPIEL)
    assert perft(pos, depth, convention == "removal_plies", cache=False) == expected


@pytest.mark.parametrize(("convention", "depth", "expected"), [c for c in CASES if c[1] <= 4])
def test_golden_generic(convention: str, depth: int, expected: int) -> None:
    """Perft through the public Position API (legal_turns/push/pop) gives the golden counts (1..4)."""
    assert perft_generic(Position.start(STANDARD), depth, convention == "removal_plies") == expected


def test_standard_variant_start_is_the_same_tree() -> None:
    assert perft(Position.start(STANDARD), 5, True) == GOLDEN["removal_plies"]["5"]


def _random_positions(seed: int, count: int, variant: Variant) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.start(variant)
        for _ in range(rng.randrange(0, 120)):
            turns = pos.legal_turns()
            if not turns:
                break
            # prefer mills so that positions with few men (flying, endings) show up
            mills = [t for t in turns if t.remove is not None]
            pos.push(rng.choice(mills if mills and rng.random() < 0.7 else turns))
        out.append(Position.parse(pos.text(), variant, turns=pos.turns))
    return out


@pytest.mark.parametrize(
    "variant",
    [OPENSPIEL, Variant.parse("openspiel,flying=no"), Variant.parse("openspiel,max_turns=30")],
    ids=str,
)
def test_fast_equals_generic_on_random_positions(variant: Variant) -> None:
    phases = set()
    for pos in _random_positions(11, 60, variant):
        phases.add(pos.phase())
        for removal_plies in (False, True):
            for depth in (1, 2, 3):
                expected = perft_generic(pos, depth, removal_plies)
                assert perft(pos, depth, removal_plies) == expected, (pos.text(), depth, removal_plies)
                assert perft(pos, depth, removal_plies, cache=False) == expected, (pos.text(), depth)
    assert phases == {"placing", "moving", "flying"} or variant.flying is False


def test_history_rules_use_the_generic_count() -> None:
    """Under threefold repetition a repeated moving-phase position is a draw: perft sees no children."""
    pos = Position.parse("W.WB.BW..........BB..W.. w 0 0", STANDARD)
    cycle = ["a7-d7", "e3-d3", "d7-a7", "d3-e3"]
    for _ in range(2):
        for turn in cycle:
            pos.play(turn)
    assert pos.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)
    assert perft(pos, 1) == 0 and perft(pos, 3, True) == 0
    pos.pop()
    one_ply = perft(pos, 1)
    assert one_ply == len(pos.legal_turns()) > 0
    # the repeating reply is a draw (a leaf at depth 1, no children at depth 2)
    assert perft(pos, 2) == perft_generic(pos, 2) < perft(Position.parse(pos.text(), OPENSPIEL), 2)


def test_turn_limit_cuts_the_tree() -> None:
    pos = Position.parse("........................ w 9 9", Variant.parse("openspiel,max_turns=3"))
    assert [perft(pos, d) for d in (1, 2, 3, 4, 5)] == [24, 552, 12144, 0, 0]
    assert [perft(pos, d, True) for d in (1, 2, 3, 4)] == [24, 552, 12144, 0]


def test_divide_sums_to_perft() -> None:
    pos = Position.from_moves("a7 b6 d7 d6", OPENSPIEL)
    for removal_plies in (False, True):
        parts = perft_divide(pos, 3, removal_plies)
        assert sum(parts.values()) == perft(pos, 3, removal_plies)
    assert "g7" in perft_divide(pos, 3, True) and "g7xb6" in perft_divide(pos, 3)


def test_depth_zero_and_bad_depth() -> None:
    pos = Position.start()
    assert perft(pos, 0) == 1 == perft_generic(pos, 0)
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ParamsError, match="depth"):
            perft(pos, bad)  # type: ignore[arg-type]


def test_progress_reports_first_turns_and_ctrl_c_keeps_partial_counts() -> None:
    calls: list[tuple[int, int, str]] = []
    pos = Position.start(OPENSPIEL)
    assert perft(pos, 4, progress=lambda d, t, m: calls.append((d, t, m))) == 255024
    assert [c[:2] for c in calls] == [(i, 24) for i in range(1, 25)] and calls[0][2] == "a7"

    def stop_after_three(done: int, total: int, message: str) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(JobsInterrupted) as info:
        perft(pos, 4, True, progress=stop_after_three)
    assert info.value.total == 24
    kept = list(info.value.done.values())  # (first turn, count) pairs, for a partial count with names
    assert [count for _, count in kept] == [255024 // 24] * 3 and kept[0][0] == "a7"
