"""Play-tests on catanatron: seeded games, the same JSON whatever runs them, the summary, bad input."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from boardeval.catan import Board
from boardeval.catan.advisor import advise
from boardeval.catan.playtest import GameRecord, game_specs, play_game, run_playtest, summarize
from boardeval.cli.catan_playtest import register
from boardeval.core import BoardevalError, CatanError, ParamsError

BOARD = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
LINEUP = ["advisor", "pips", "weighted", "weighted"]
EXTENDED = Board.random(seed=1, layout="extended").code()


def _stable(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.to_json()
    data.pop("seconds")
    return data


def test_same_seed_same_game_and_global_random_untouched() -> None:
    spec = game_specs(BOARD, LINEUP, 1, seed=4)[0]
    random.seed(123)
    before = random.getstate()
    a = play_game(spec)
    assert random.getstate() == before  # the caller's global random is untouched
    random.seed(999)  # and does not change the game
    b = play_game(spec)
    assert a == b
    other = play_game(game_specs(BOARD, LINEUP, 2, seed=5)[1])
    assert (other.turns, other.vps) != (a.turns, a.vps)
    assert a.winner_seat is None or a.vps[a.winner_seat] >= 10
    assert a.turn_limit == (a.winner_seat is None)
    assert [len(o) for o in a.openings] == [2, 2, 2, 2]
    spots = [s for o in a.openings for s in o]
    assert len(set(spots)) == 8 and all(0 <= s < 54 for s in spots)
    advisor_seat = a.seating.index(0)  # LINEUP[0] is the advisor; no one places before seat 1
    if advisor_seat == 0:
        assert a.openings[0][0] == advise(BOARD).spot


def test_same_game_in_processes_with_different_hash_seeds() -> None:
    # catanatron builds some action lists from sets of strings, whose order follows PYTHONHASHSEED: a
    # spawned pool worker or a Dask worker on another machine must still play the same game.
    script = (
        "import sys, json; from boardeval.catan import Board; "
        "from boardeval.catan.playtest import game_specs, play_game; "
        f"b = Board.parse({BOARD.code()!r}); "
        "specs = game_specs(b, ['advisor', 'pips', 'weighted', 'vp'], 2, seed=6); "
        "print(json.dumps([play_game(s).__dict__ for s in specs]))"
    )
    outputs = set()
    for hash_seed in ("1", "2"):
        env = os.environ | {"PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    local = [
        play_game(s).__dict__ for s in game_specs(BOARD, ["advisor", "pips", "weighted", "vp"], 2, seed=6)
    ]
    assert json.loads(outputs.pop()) == json.loads(json.dumps(local))


def test_rotation_seats_every_player_everywhere() -> None:
    specs = game_specs(BOARD, LINEUP, 2, seed=1, rotate=True)
    assert len(specs) == 8
    assert len({s.seed for s in specs}) == 2
    first = specs[:4]
    for k in range(4):  # listed player k sits in seat (k + r) % 4 in rotation r
        assert sorted(s.seating.index(k) for s in first) == [0, 1, 2, 3]
        for s in first:
            assert s.players[(k + s.rotation) % 4] == LINEUP[k]


def test_json_shape_and_same_json_twice() -> None:
    a = run_playtest(BOARD, LINEUP, games=2, seed=9, rotate=True)
    b = run_playtest(BOARD, LINEUP, games=2, seed=9, rotate=True)
    data = a.to_json()
    assert list(data) == ["code", "board", "games", "players", "seats", "turns", "unfinished", "seconds"]
    assert data["code"] == data["board"] == BOARD.code() and data["games"] == 8
    for row in (*data["players"], *data["seats"]):
        assert list(row) == ["name", "games", "wins", "win_rate", "ci95", "mean_vp"]
        assert row["games"] == 8
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert [p["name"] for p in data["players"]] == LINEUP
    assert [s["name"] for s in data["seats"]] == ["seat 1", "seat 2", "seat 3", "seat 4"]
    wins = sum(p["wins"] for p in data["players"])
    assert wins == sum(s["wins"] for s in data["seats"]) == 8 - data["unfinished"]
    assert set(data["turns"]) == {"mean", "median", "p90"}
    assert data["turns"]["median"] <= data["turns"]["p90"]
    json.dumps(data)
    assert _stable(a) == _stable(b)
    assert _stable(a) != _stable(run_playtest(BOARD, LINEUP, games=2, seed=10, rotate=True))


def test_one_and_two_workers_identical() -> None:
    one = run_playtest(BOARD, LINEUP, games=3, seed=2)
    two = run_playtest(BOARD, LINEUP, games=3, seed=2, workers=2)
    assert one.records == two.records
    assert _stable(one) == _stable(two)


def test_dask_local_cluster_identical() -> None:
    distributed = pytest.importorskip("distributed")
    serial = run_playtest(BOARD, LINEUP, games=3, seed=2)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
    ):
        remote = run_playtest(BOARD, LINEUP, games=3, seed=2, address=cluster.scheduler_address)
    assert remote.records == serial.records


def test_summary_hand_made_records() -> None:
    # Two games, listed players A and B. Game 1: A in seat 1 wins 10-7. Game 2 (rotated): A in seat 2,
    # B in seat 1 wins 10-4... and a third game that hit the turn limit.
    records = [
        GameRecord(1, 0, (0, 1), 0, 100, (10, 7), False),
        GameRecord(1, 1, (1, 0), 0, 200, (10, 4), False),
        GameRecord(2, 0, (0, 1), None, 1000, (8, 9), True),
    ]
    result = summarize(records, ["a", "b"], board="x", seconds=2.0)
    a, b = result.players
    assert (a.wins, b.wins) == (1, 1)
    assert a.mean_vp == pytest.approx((10 + 4 + 8) / 3)
    assert b.mean_vp == pytest.approx((7 + 10 + 9) / 3)
    s1, s2 = result.seats
    assert (s1.wins, s2.wins) == (2, 0)
    assert s1.rate.value == pytest.approx(2 / 3)
    assert result.unfinished == 1
    assert result.turns == {"mean": pytest.approx(1300 / 3), "median": 200.0, "p90": pytest.approx(840.0)}
    assert result.games_per_second == 1.5


def test_interrupt_keeps_finished_games() -> None:
    calls = []

    def progress(done: int, total: int, message: str = "") -> None:
        calls.append(done)
        if done == 2:
            raise KeyboardInterrupt

    result = run_playtest(BOARD, LINEUP, games=5, seed=1, progress=progress)
    assert result.interrupted and result.games == 2 and result.planned == 5
    assert result.records == run_playtest(BOARD, LINEUP, games=5, seed=1).records[:2]


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"players": ["advisor", "alphago", "pips", "pips"]}, "'alphago'"),
        ({"players": ["advisor"]}, "2 to 4"),
        ({"games": 0}, "0"),
        ({"games": -3}, "-3"),
        ({"seed": -1}, "-1"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs: dict[str, Any], fragment: str) -> None:
    args: dict[str, Any] = {"players": LINEUP, "games": 1} | kwargs
    with pytest.raises(CatanError, match=fragment):
        run_playtest(BOARD, **args)


def test_bad_workers() -> None:
    with pytest.raises(ParamsError, match="0"):
        run_playtest(BOARD, LINEUP, games=2, workers=0)


# -- CLI (a throw-away group; the root group turns BoardevalError into one red line, exit 2) ----------------

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)
    register(app)
    return app


def test_cli_playtest_json_matches_library() -> None:
    args = [
        "playtest",
        BOARD.code(),
        "--games",
        "1",
        "--players",
        ",".join(LINEUP),
        "--rotate",
        "--seed",
        "3",
    ]
    result = runner.invoke(_app(), [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    data.pop("seconds")
    assert data == _stable(run_playtest(BOARD, LINEUP, games=1, seed=3, rotate=True))
    table = runner.invoke(_app(), args)
    assert table.exit_code == 0
    for text in ("advisor", "seat 4", "games/s", "p90", "unfinished"):
        assert text in table.stdout


def test_cli_advise() -> None:
    result = runner.invoke(_app(), ["advise", BOARD.code(), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["spot"] == 40
    result = runner.invoke(_app(), ["advise", BOARD.code(), "--taken", "40,13,24,2"])
    assert result.exit_code == 0 and "second" in result.stdout and "diversity" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["playtest", "X1-nope", "--games", "1"], "X1-nope"),
        (["playtest", BOARD.code(), "--players", "advisor,bogus,pips,pips"], "bogus"),
        (["playtest", "missing.json", "--games", "1"], "missing.json"),
        (["advise", BOARD.code(), "--taken", "40,41"], "neighbours"),
        (["advise", BOARD.code(), "--taken", "40,x"], "'x'"),
        (["playtest", EXTENDED, "--games", "1"], "no 5-6 player map"),
        (["advise", EXTENDED], "no 5-6 player map"),
        (["advise", BOARD.code(), "--params", "tuned-nonexistent.toml"], "tuned-nonexistent.toml"),
    ],
)
def test_cli_bad_input_raises_library_error(args: list[str], fragment: str) -> None:
    result = runner.invoke(_app(), args)
    assert isinstance(result.exception, BoardevalError), result.output
    assert fragment in str(result.exception)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["playtest", BOARD.code(), "--games", "0"], "--games: '0' is out of range 1..1000000"),
        (["playtest", BOARD.code(), "--games", "0_2"], "--games: '0_2' is not an integer"),
        (["study", "--boards", "0"], "--boards: '0' is out of range"),
        (["study", "--fairness", "0, 0.5"], "entry 2: ' 0.5' is not a decimal number"),
        (["advise", BOARD.code(), "--taken", "40, 12"], "entry 2: ' 12' is not an integer"),
    ],
)
def test_cli_numbers_go_through_the_shared_reader(args: list[str], line: str) -> None:
    """Issue 24: option values are read by the shared number reader, one red line quoting the text."""
    from boardeval.cli.main import app

    result = runner.invoke(app, ["catan", *args])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and line in lines[0], result.stderr


def test_cli_unreachable_dask_address(quick_dask_connect: float) -> None:
    result = runner.invoke(
        _app(), ["playtest", BOARD.code(), "--games", "1", "--dask", "tcp://127.0.0.1:9", "--json"]
    )
    assert isinstance(result.exception, BoardevalError)
    assert "tcp://127.0.0.1:9" in str(result.exception)
