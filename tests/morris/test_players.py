"""Players on the core protocol: random, alpha-beta (budgets, strengths, why-depth rule), a scripted human."""

from __future__ import annotations

import numpy as np
import pytest

from boardeval.core import ParamsError, Player, make_rng
from boardeval.morris import (
    STRENGTHS,
    AlphaBetaPlayer,
    Evaluator,
    HumanPlayer,
    IllegalMoveError,
    NotationError,
    PlayerSpec,
    Position,
    RandomPlayer,
    Turn,
    load_weights,
    play_game,
    random_position,
    search,
    why_panel,
)
from boardeval.morris.players import WHY_MAX_DEPTH, WHY_RESERVE, WHY_SHARE, why_depth
from tests.morris.helpers import make


def test_players_implement_the_core_protocol() -> None:
    human = HumanPlayer(lambda pos: "d2")
    for player in (RandomPlayer(), AlphaBetaPlayer(depth=1), human):
        assert isinstance(player, Player)
    assert (RandomPlayer().name, AlphaBetaPlayer(depth=3).name, human.name) == (
        "random",
        "ai:depth=3",
        "human",
    )
    assert AlphaBetaPlayer(time=0.5).name == "ai:time=0.5" and AlphaBetaPlayer().name == "ai:depth=4"


def test_random_player_draws_only_from_the_given_generator() -> None:
    pos = random_position(3, 20)
    a = [RandomPlayer().choose(pos, make_rng(7)) for _ in range(3)]
    assert a[0] == a[1] == a[2] and a[0] in pos.legal_turns()
    picks = {str(RandomPlayer().choose(pos, make_rng(s))) for s in range(20)}
    assert len(picks) > 3


def test_alpha_beta_player_plays_the_search_move() -> None:
    """A mill is on offer (White a7 d7, g7 empty): every depth takes it, as the plain search does."""
    pos = make("a7 d7", "b6 d6", side="w", hands=(7, 7))
    for depth in (1, 2, 3):
        ai = AlphaBetaPlayer(depth=depth, shuffle_ties=False)
        move = ai.choose(pos, make_rng(0))
        assert move == search(pos, depth).move and str(move).startswith("g7x")
    assert pos.text() == make("a7 d7", "b6 d6", side="w", hands=(7, 7)).text()  # left unchanged


def test_alpha_beta_player_uses_its_evaluator() -> None:
    """Threat weight 0 vs 40: the weights change the score of the same search."""
    pos = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3", side="w")  # White threatens g7 (by g4-g7)
    low = AlphaBetaPlayer(Evaluator(load_weights("base").replace(threats=0.0)), depth=1).search(pos)
    high = AlphaBetaPlayer(Evaluator(load_weights("base").replace(threats=40.0)), depth=1).search(pos)
    assert low.score != high.score


def test_bad_budgets_fail_at_construction() -> None:
    with pytest.raises(ParamsError, match="search depth"):
        AlphaBetaPlayer(depth=0)
    with pytest.raises(ParamsError, match="time limit"):
        AlphaBetaPlayer(time=-1.0)


def test_strength_levels() -> None:
    assert list(STRENGTHS) == ["easy", "medium", "hard", "expert"]
    hard = AlphaBetaPlayer.at_strength("hard")
    assert (hard.depth, hard.time, hard.name, hard.engine) == (None, 0.25, "hard", "compiled")
    # the levels are time per move on the compiled search, expert about a second (issue 12 section 4)
    assert STRENGTHS["expert"] == (None, 1.0) and STRENGTHS["easy"] == (1, None)
    times = [STRENGTHS[s][1] for s in ("medium", "hard", "expert")]
    assert times == sorted(times)
    with pytest.raises(ParamsError, match="unknown strength 'godlike'"):
        AlphaBetaPlayer.at_strength("godlike")
    finished = Position.parse("WWW.........BB.......... b 0 0")
    with pytest.raises(ParamsError, match="finished position"):
        AlphaBetaPlayer.at_strength("easy").choose(finished, make_rng(0))


def test_one_why_depth_rule() -> None:
    """The why-panel searches at the AI's depth, at most WHY_MAX_DEPTH = 8 (the CLI and the web share it)."""
    assert WHY_MAX_DEPTH == 8
    assert [why_depth(d) for d in (0, 1, 3, 5, 8, 12)] == [1, 1, 3, 5, 8, 8]
    pos = random_position(8, 10)
    ai = AlphaBetaPlayer(depth=2)

    def same(panel: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in panel.items() if k != "seconds"}  # the panel's own time differs

    assert same(ai.why(pos, 2)) == same(why_panel(pos, 2, 2))
    assert same(ai.why(pos, 2, search_depth=1)) == same(why_panel(pos, 2, 1))


def test_an_answer_keeps_its_why_panel_inside_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``answer`` (``morris best``): under a time budget the search gets the budget less the panel's share
    (a fifth, at most WHY_RESERVE s); a depth budget searches its depth; the panel is the player's own
    why-panel of the position searched; an interrupted search gets no panel."""
    assert (WHY_SHARE, WHY_RESERVE) == (0.2, 0.25)
    pos = random_position(8, 10)
    asked: list[tuple[int | None, float | None]] = []
    ai = AlphaBetaPlayer(time=1.0, shuffle_ties=False, manage_time=False, book=None)
    real = ai._searcher.search

    def spy(p: Position, depth: int | None = None, time_limit: float | None = None, **kw: object) -> object:
        asked.append((depth, time_limit))
        return real(p, 3, None)  # a fixed depth: no clock in the test

    monkeypatch.setattr(ai._searcher, "search", spy)
    result, panel = ai.answer(pos, 2)
    assert asked == [(None, pytest.approx(0.8))] and panel is not None
    effort = ("seconds", "nodes")  # a second panel finds the first one's entries in the table
    same = {k: v for k, v in panel.items() if k not in effort}
    assert same == {k: v for k, v in ai.why(pos, 2, result.depth).items() if k not in effort}
    assert panel["candidates"][0]["move"] == str(result.move)
    for budget, search_time in ((10.0, 9.75), (0.05, 0.04)):
        asked.clear()
        ai.time = budget
        ai.answer(pos, 2)
        assert asked == [(None, pytest.approx(search_time))]
    deep = AlphaBetaPlayer(depth=2, shuffle_ties=False, book=None)
    result, panel = deep.answer(pos, 2)
    assert result.depth == 2 and panel is not None and panel["candidates"][0]["move"] == str(result.move)

    def cut(p: Position, depth: int | None = None, time_limit: float | None = None, **kw: object) -> object:
        from dataclasses import replace

        return replace(real(p, 1, None), interrupted=True)

    monkeypatch.setattr(ai._searcher, "search", cut)
    result, panel = ai.answer(pos, 2)
    assert result.interrupted and panel is None


def test_human_player_asks_again_after_bad_input() -> None:
    lines = iter(["zz", "a1-a4", "  D2 "])
    errors: list[str] = []
    human = HumanPlayer(lambda pos: next(lines), on_error=errors.append)
    pos = Position.start()
    assert human.choose(pos, make_rng(0)) == Turn.parse("d2")
    assert len(errors) == 2
    assert errors[0].startswith("cannot read turn 'zz'")
    assert "white still has 9 men in hand and must place" in errors[1]
    assert pos.text() == Position.start().text()  # choosing does not play


def test_human_player_without_error_handler_raises_and_read_can_leave() -> None:
    with pytest.raises(IllegalMoveError, match="must place"):
        HumanPlayer(lambda pos: "a1-a4").choose(Position.start(), make_rng(0))
    with pytest.raises(NotationError):
        HumanPlayer(lambda pos: "h9").choose(Position.start(), make_rng(0))

    def leave(pos: Position) -> str:
        raise EOFError

    with pytest.raises(EOFError):
        HumanPlayer(leave).choose(Position.start(), make_rng(0))


def test_specs_build_players_and_games_accept_players() -> None:
    assert isinstance(PlayerSpec.parse("random").make(), RandomPlayer)
    ai = PlayerSpec.parse("ai:depth=2,profile=initiative").make()
    assert isinstance(ai, AlphaBetaPlayer) and ai.depth == 2 and ai.name == "ai:depth=2,profile=initiative"
    assert ai.evaluator.weights == load_weights("initiative")
    by_text = play_game("random", "ai:depth=1", seed=4)
    by_object = play_game(RandomPlayer(), AlphaBetaPlayer(depth=1), seed=4)
    assert by_text == by_object
    assert (by_text.white, by_text.black) == ("random", "ai:depth=1")


def test_the_python_engine_stays_constructible() -> None:
    """Today's AI before issue 12 (the Python search) by object and by spec; at full width both engines
    agree, and a bad engine name is refused quoting it."""
    old = PlayerSpec.parse("ai:depth=2,engine=python").make()
    assert isinstance(old, AlphaBetaPlayer) and old.engine == "python"
    assert old.name == "ai:depth=2,engine=python"
    assert AlphaBetaPlayer(depth=2).engine == "compiled"
    pos = make("a7 d7", "b6 d6", side="w", hands=(7, 7))
    assert str(old.choose(pos, make_rng(0))).startswith("g7x")
    with pytest.raises(ParamsError, match="engine must be one of compiled, python, got 'java'"):
        PlayerSpec.parse("ai:depth=2,engine=java")
    with pytest.raises(ParamsError, match="unknown search engine 'java'"):
        AlphaBetaPlayer(engine="java")


def test_a_game_of_scripted_humans_replays() -> None:
    """Two HumanPlayers typing a fixed game: the record holds exactly their turns, then the end."""
    script = ["a7", "b6", "d7", "d6", "g7xb6"]
    pos = Position.from_moves(script[:-1])
    human = HumanPlayer(lambda p: script[p.turns])
    assert human.choose(pos, np.random.default_rng(0)) == Turn.parse("g7xb6")
