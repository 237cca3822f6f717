"""Matches: player specs, reproducible seeded games, colour alternation, parallel = serial."""

from __future__ import annotations

import pytest

from boardeval.core import ParamsError
from boardeval.morris.match import PlayerSpec, play_game, play_match
from boardeval.morris.rules import OPENSPIEL, Position


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("random", PlayerSpec("random")),
        ("ai", PlayerSpec("ai", 4)),
        ("ai:depth=3", PlayerSpec("ai", 3)),
        ("ai:time=0.2", PlayerSpec("ai", None, 0.2)),
        ("ai:time=1e-3", PlayerSpec("ai", None, 0.001)),
        ("ai:depth=2,profile=initiative", PlayerSpec("ai", 2, None, "initiative")),
    ],
)
def test_player_spec_parse_and_format(text: str, expected: PlayerSpec) -> None:
    spec = PlayerSpec.parse(text)
    assert spec == expected
    assert PlayerSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("minimax", "expected 'random' or 'ai"),
        ("ai:depth=x", "depth: 'x' is not an integer"),
        ("ai:depth=0", "out of range 1..64"),
        ("ai:depth=+3", r"'\+3' is not an integer"),  # the shared number reader: no silent fix-ups
        ("ai:depth=03", "leading zero"),
        ("ai:time=-1", r"time: '-1' is out of range \(0, 1000000\]"),
        ("ai:time=0", r"time: '0' is out of range"),
        ("ai:time=.5", "write a 0 before the '.'"),
        ("ai:time=0_1", "no '_' between digits"),
        ("ai:speed=3", "unknown option"),
        # issue 24: names exactly as written, no spaces (these were folded silently)
        ("AI:depth=1", "did you mean 'ai'"),
        ("Random", "did you mean 'random'"),
        (" ai", "did you mean 'ai'"),
        ("ai: depth=1", "unknown option ' depth'; did you mean 'depth'"),
        ("ai:Depth=1", "did you mean 'depth'"),
        ("ai:depth=1,depth=2", "given twice"),
        ("ai:", "no option after ':'"),
        ("ai:depth=1,", "must look like name=value"),
        ("ai:depth", "name=value"),
        ("random:depth=2", "takes no options"),
        ("ai:profile=nosuch", "unknown weight profile"),
    ],
)
def test_bad_player_specs(text: str, message: str) -> None:
    with pytest.raises(ParamsError, match=message):
        PlayerSpec.parse(text)


def test_game_is_reproducible_and_replays_legally() -> None:
    a = play_game("random", "random", seed=11)
    b = play_game("random", "random", seed=11)
    assert a == b
    assert a.outcome in ("white", "black", "draw")
    Position.from_moves(" ".join(a.moves))  # every turn was legal (checked replay)
    assert play_game("random", "random", seed=12).moves != a.moves


def test_ai_beats_random_and_colours_alternate() -> None:
    res = play_match("ai:depth=2", "random", games=4, seed=3, alternate=True, variant=OPENSPIEL)
    assert res.played == 4
    assert res.wins == 4, [g.to_dict() for g in res.games]
    assert [g.white for g in res.games] == ["ai:depth=2", "random", "ai:depth=2", "random"]
    d = res.to_dict(with_games=True)
    assert d["wins"] == 4 and d["score"] == 1.0 and len(d["records"]) == 4


def test_counting_from_player_a_view() -> None:
    """Wins/draws/losses are player A's, whatever colour A had in each game."""
    res = play_match("random", "ai:depth=2", games=4, seed=4, alternate=True)
    tally = {"win": 0, "draw": 0, "loss": 0}
    for i, game in enumerate(res.games):
        a_colour = "white" if i % 2 == 0 else "black"
        assert (game.white == "random") == (a_colour == "white")
        tally["draw" if game.outcome == "draw" else "win" if game.outcome == a_colour else "loss"] += 1
    assert (res.wins, res.draws, res.losses) == (tally["win"], tally["draw"], tally["loss"])
    assert res.losses >= 3  # random play loses to the AI


def test_parallel_equals_serial() -> None:
    serial = play_match("ai:depth=1", "random", games=4, seed=9, alternate=True)
    parallel = play_match("ai:depth=1", "random", games=4, seed=9, alternate=True, workers=2)
    assert serial == parallel


def test_bad_games_count() -> None:
    with pytest.raises(ParamsError, match="number of games"):
        play_match("random", "random", games=0, seed=1)


def test_ctrl_c_keeps_finished_games() -> None:
    calls: list[int] = []

    def progress(done: int, total: int, message: str) -> None:
        calls.append(done)
        if done == 2:
            raise KeyboardInterrupt

    res = play_match("random", "random", games=5, seed=1, progress=progress)
    assert res.interrupted
    assert res.played == 2 and res.wins + res.draws + res.losses == 2
