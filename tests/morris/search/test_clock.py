"""The time manager (issue 25 section 1): plans by the position's kind, and a game's average at the setting.

Synthetic games, no clock: each move has a kind (legal and safe turns) and a search whose depths take
``t0 * 2.5 ** d`` seconds; the manager's decisions alone decide what the move costs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardeval.core import ParamsError
from boardeval.morris._search.clock import (
    ADVANCE_FROM,
    FLOOR,
    FULL_TABLES_ADVANCE,
    FULL_TABLES_MAX_FACTOR,
    PLAYER_ADVANCE,
    MovePlan,
    TimeManager,
)


def play_move(tm: TimeManager, legal: int, safe: int, t0: float, scores: list[float]) -> float:
    """What one move costs under the manager: depths at t0 * 2.5**d seconds until it stops or the hard
    limit cuts a depth."""
    plan = tm.plan(legal, safe)
    if plan.kind == "forced":
        return 0.0
    deadline = plan.limit()
    elapsed = 0.0
    for depth in range(1, 40):
        took = t0 * 2.5**depth
        if elapsed + took > deadline and depth > 1:
            return deadline  # the depth is cut at the deadline
        elapsed += took
        score = scores[min(depth, len(scores) - 1)]
        deadline = tm.after_depth(plan, depth, score, best=depth % 3 if depth > 8 else 0, elapsed=elapsed)
        if deadline == 0.0:
            return elapsed
    return elapsed


@pytest.mark.parametrize("per_move", [0.1, 1.0])
def test_a_game_spends_the_setting_on_average(per_move: float) -> None:
    rng = random.Random(25)
    for game in range(40):
        tm = TimeManager(per_move)
        moves = rng.randint(20, 120)
        for _ in range(moves):
            legal = rng.choice([1, 2, 5, 20, 24])
            safe = min(legal, rng.choice([1, 2, 3, 6, 20]))
            fall = rng.random() < 0.2
            scores = [0.0] * 6 + ([-0.5, -1.0, -1.5] if fall else [0.1, 0.1, 0.1])
            t0 = per_move * rng.choice([1e-6, 1e-5, 1e-4])
            tm.record(play_move(tm, legal, safe, t0, scores))
        assert tm.moves == moves
        # never more than half a move's setting over moves x setting, whatever the plans were
        assert tm.spent <= moves * per_move + 0.5 * per_move + 1e-9, (game, tm.spent, moves * per_move)


def test_the_budget_is_used_not_hoarded() -> None:
    # normal positions only: the game spends most of its time (the bank is spent, a quarter a move)
    tm = TimeManager(1.0)
    for _ in range(60):
        tm.record(play_move(tm, 20, 20, 1e-5, [0.0] * 40))
    assert 0.6 * 60 <= tm.spent <= 60.5


def test_plans_by_kind() -> None:
    tm = TimeManager(1.0)
    assert tm.plan(1, 1).kind == "forced" and tm.plan(1, 1).target == 0.0
    one = tm.plan(20, 1)
    assert one.kind == "one safe turn" and one.target < 0.5
    normal = tm.plan(20, 20)
    assert normal.kind == "normal" and normal.target == pytest.approx(1.0)
    tm.bank = 4.0  # time saved by earlier book and forced moves
    critical = tm.plan(20, 2)
    assert critical.kind == "critical" and critical.target > 1.5 * normal.target
    assert critical.hard <= 3.0 + 1e-9


def test_a_falling_score_buys_time_and_a_late_stop() -> None:
    tm = TimeManager(1.0)
    tm.bank = 3.0
    plan = tm.plan(20, 20)
    target = plan.target
    for depth, score in enumerate([0.5, 0.5, 0.4, 0.5, 0.5], start=1):
        tm.after_depth(plan, depth, score, 0, 0.01)
    assert plan.kind == "normal" and plan.target == target
    # depth 6 against depth 4 (0.5): a fall of 1.1
    assert tm.after_depth(plan, 6, -0.6, 0, 0.02) > 0.0
    assert plan.kind == "falling score" and plan.target > target
    # past half the target no new depth starts
    assert tm.after_depth(plan, 7, -0.6, 0, plan.target * 0.6) == 0.0


def test_odd_and_even_depths_are_not_a_falling_score() -> None:
    """Odd depths end on the mover's own move and score about 2 higher than even ones (self-play, issue 25):
    a depth is compared with the one two before it, which ends on the same side's move. Compared with the
    depth before, as before, 83% of the moves of self-play at 0.2 s were a "falling score"."""
    tm = TimeManager(1.0)
    plan = tm.plan(20, 20)
    target = plan.target
    for depth in range(1, 14):
        tm.after_depth(plan, depth, -0.6 if depth % 2 else -2.5, 0, 0.001 * depth)
    assert plan.kind == "normal" and plan.target == target
    # an even depth falling against the even depth before it is one
    tm.after_depth(plan, 14, -3.6, 0, 0.02)
    assert plan.kind == "falling score" and plan.target > target


def test_a_negative_bank_is_repaid() -> None:
    tm = TimeManager(1.0)
    tm.record(1.5)
    assert tm.bank == pytest.approx(-0.5)
    plan = tm.plan(20, 20)
    assert plan.target < 1.0 and plan.hard <= 1.0 + 1e-9


def test_an_overrun_is_repaid_without_starving_the_next_moves() -> None:
    """One search 15 settings past its limit (a cold tablebase page read from disk) is repaid over later
    moves, each still planned at least ``FLOOR`` of the setting (before the floor: 0.05), until the bank is
    back where the hard limits keep it (at least -0.5 of a setting)."""
    tm = TimeManager(0.1, advance=PLAYER_ADVANCE)
    tm.record(1.5 + PLAYER_ADVANCE * 0.1)
    assert tm.bank == pytest.approx(-1.4)
    banks = []
    for _ in range(40):
        plan = tm.plan(20, 20)
        assert plan.hard >= FLOOR * 0.1 - 1e-12 and plan.target >= FLOOR * 0.1 - 1e-12
        tm.record(plan.target)  # the move spends its whole target
        banks.append(tm.bank)
    assert banks[9] < -0.5 * 0.1  # really repaid: at most 0.75 of a setting a move
    assert banks[-1] >= -0.5 * 0.1


@pytest.mark.parametrize(
    ("advance", "max_factor"), [(3.0, 3.0), (8.0, 3.0), (FULL_TABLES_ADVANCE, FULL_TABLES_MAX_FACTOR)]
)
def test_an_advance_is_spent_early_and_bounds_the_game(advance: float, max_factor: float) -> None:
    """A game that starts with ``advance`` moves' time spends it on its first searched moves (placing, where
    games are lost) and overruns ``moves x setting`` by at most the advance and half a setting."""
    rng = random.Random(26)
    for game in range(40):
        plain, ahead = TimeManager(0.1), TimeManager(0.1, advance=advance, max_factor=max_factor)
        ahead.new_game()
        moves = rng.randint(20, 120)
        first_plain = first_ahead = 0.0
        for i in range(moves):
            legal = rng.choice([1, 2, 5, 20, 24])
            safe = min(legal, rng.choice([1, 2, 3, 6, 20]))
            t0 = 0.1 * rng.choice([1e-6, 1e-5, 1e-4])
            for tm in (plain, ahead):
                took = play_move(tm, legal, safe, t0, [0.0] * 40)
                tm.record(took)
                if i < 10:
                    first_plain += took if tm is plain else 0.0
                    first_ahead += took if tm is ahead else 0.0
        assert first_ahead > first_plain, game
        assert ahead.spent <= (moves + advance + 0.5) * 0.1 + 1e-9, (game, ahead.spent, moves * 0.1)


def test_the_first_placements_hold_the_advance_back() -> None:
    """The empty board and the first placements are planned as if the game had no advance (a first move of
    about one setting, issue 25 section 3); what the game itself saved is still theirs."""
    tm = TimeManager(1.0, advance=PLAYER_ADVANCE)
    held, spent = tm.plan(20, 20, hold_advance=True), tm.plan(20, 20)
    assert held.target == pytest.approx(1.0) and held.hard <= 1.5 + 1e-9
    assert spent.target == pytest.approx(1.0 + 0.25 * PLAYER_ADVANCE) and spent.hard == pytest.approx(3.0)
    assert tm.plan(20, 20, hold_advance=True).target == TimeManager(1.0).plan(20, 20).target
    tm.record(0.0)  # a book move saved its setting
    assert tm.plan(20, 20, hold_advance=True).target == pytest.approx(1.25)


def test_the_player_holds_the_advance_until_the_fourth_placement(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardeval.core import make_rng
    from boardeval.morris import AlphaBetaPlayer, Position

    ai = AlphaBetaPlayer(time=0.005, book=None)
    assert ai.clock is not None
    held: list[tuple[int, bool]] = []
    plan = ai.clock.plan

    def spy(legal: int, safe: int, *, hold_advance: bool = False) -> MovePlan:
        held.append((len(held), hold_advance))
        return plan(legal, safe, hold_advance=hold_advance)

    monkeypatch.setattr(ai.clock, "plan", spy)
    pos, rng = Position.start(), make_rng(4)
    for _ in range(ADVANCE_FROM + 2):
        pos.push(ai.choose(pos, rng))
    assert held == [(i, i < ADVANCE_FROM) for i in range(ADVANCE_FROM + 2)]


def test_tables_of_every_moving_position_spend_the_game_in_placing() -> None:
    """With K <= 9 every move after placing is a tablebase answer (no time): the player's clock then starts
    with the larger advance and hard limit, and a game of seven searched placing moves and free moves after
    them spends about 0.8 of the setting a move instead of 0.4 (0.039 s of 0.1 s measured in 200 time-odds
    games with the six moves' advance), never more than the setting plus the advance over a game."""
    from types import SimpleNamespace

    from boardeval.morris.players import _game_clock

    nine: Any = SimpleNamespace(max_men=9)  # a stand-in: only the tables' coverage matters
    full = _game_clock(0.1, nine)
    assert full.advance == FULL_TABLES_ADVANCE and full.max_factor == FULL_TABLES_MAX_FACTOR
    for tables in (None, SimpleNamespace(max_men=7), SimpleNamespace(max_men=8)):
        clock = _game_clock(0.1, tables)  # type: ignore[arg-type]
        assert clock.advance == PLAYER_ADVANCE and clock.max_factor == 3.0
    rng = random.Random(27)
    used = {}
    for name, tables in (("six", None), ("full", nine)):
        share = []
        for _ in range(100):
            tm = _game_clock(0.1, tables)
            free = rng.randint(8, 40)
            for _ in range(7):
                tm.record(play_move(tm, 20, 20, 0.1 * rng.choice([1e-5, 3e-5, 1e-4]), [0.0] * 40))
            for _ in range(free):
                tm.record(0.0)
            assert tm.spent <= (tm.moves + tm.advance + 0.5) * 0.1 + 1e-9
            share.append(tm.spent / tm.moves / 0.1)
        used[name] = sum(share) / len(share)
    assert used["six"] < 0.5 < 0.7 < used["full"] <= 1.0, used


def test_bad_setting() -> None:
    with pytest.raises(ParamsError, match="time per move"):
        TimeManager(0.0)
    with pytest.raises(ParamsError, match="advance must be 0 or more"):
        TimeManager(0.1, advance=-1.0)
    for bad in (0.0, -0.5, 1.5, float("nan")):
        with pytest.raises(ParamsError, match=r"spend must be a share of the bank in \(0, 1\], got"):
            TimeManager(0.1, spend=bad)


def test_spend_is_the_share_of_the_bank_a_move_adds() -> None:
    """A move's share is the setting plus ``spend`` of the bank (a quarter unless set), capped by the hard
    limit, which ``spend`` does not change."""
    quarter, half = (
        TimeManager(1.0, advance=6.0, max_factor=30.0),
        TimeManager(1.0, advance=6.0, max_factor=30.0, spend=0.5),
    )
    assert quarter.plan(20, 20).target == pytest.approx(1.0 + 0.25 * 6.0)
    assert half.plan(20, 20).target == pytest.approx(1.0 + 0.5 * 6.0)
    assert half.plan(20, 20).hard == quarter.plan(20, 20).hard == pytest.approx(1.0 + 6.0 + 0.5)
    assert half.plan(20, 2).target == pytest.approx(min(2.0 * 4.0, 7.5))  # critical: twice the share, capped


def test_the_player_books_every_move_against_its_game_clock() -> None:
    """An AI with a time budget plays through the time manager: each of its moves is booked, forced
    moves are answered without a search, and a new game starts with the advance in the bank."""
    from boardeval.core import make_rng
    from boardeval.morris import AlphaBetaPlayer, Position

    ai = AlphaBetaPlayer(time=0.01, book=None)
    assert ai.clock is not None
    pos = Position.parse("WW............WBB.....B. w 0 0")  # moving against a flying side: few turns
    rng = make_rng(3)
    moves = 0
    kinds = set()
    while pos.outcome() is None and moves < 6:
        pos.push(ai.choose(pos, rng))
        moves += 1
        kinds.add(ai.last_plan)
        if pos.outcome() is None:
            pos.push(pos.legal_turns()[0])
    assert ai.clock.moves == moves
    assert kinds <= {"forced", "one safe turn", "critical", "normal", "falling score", "unstable"}
    ai.new_game()
    assert (
        ai.clock.moves == 0 and ai.clock.bank == pytest.approx(PLAYER_ADVANCE * 0.01) and PLAYER_ADVANCE > 0
    )
    forced = Position.parse("...W..WBW.BWB..WB.BB.... w 0 0")  # White has one legal turn
    assert len(forced.legal_turns()) == 1
    res = ai.search(forced)
    assert res.nodes == 0 and ai.last_plan == "forced" and res.move == forced.legal_turns()[0]
    # a depth budget or manage_time=False: no game clock
    assert AlphaBetaPlayer(depth=2).clock is None
    assert AlphaBetaPlayer(time=0.01, manage_time=False).clock is None
