"""Tuning the advisor's spot weights by play: seeded and reproducible, common games, files, bad input."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from boardeval.catan import Board, SpotParams
from boardeval.catan import spot_tuning as tuning
from boardeval.catan.advisor import OpeningParams
from boardeval.catan.playtest import game_specs, play_game
from boardeval.cli.catan_playtest import register
from boardeval.core import BoardevalError, CatanError, ParamsError
from tests.cli.json_shapes import assert_same_fields

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("noop")(lambda: None)
    register(app)
    return app


def _stable(result: tuning.TuneResult) -> dict[str, Any]:
    data = result.to_json()
    data.pop("seconds")
    return data


def test_tiny_run_is_reproducible_and_trial_0_is_the_default() -> None:
    a = tuning.tune_spots(trials=2, games_per_trial=4, seed=5, fresh_games=4)
    b = tuning.tune_spots(trials=2, games_per_trial=4, seed=5, fresh_games=4)
    assert _stable(a) == _stable(b)
    assert [t.number for t in a.trials] == [0, 1]
    assert a.trials[0].params == tuning.DEFAULT_TRIAL
    assert a.trials[1].params != tuning.DEFAULT_TRIAL
    for name, value in a.trials[1].params.items():
        lo, hi = tuning.SEARCH_SPACE[name]
        assert lo <= value <= hi
    assert all(t.games == 4 for t in a.trials)
    assert a.best is not None and a.best.wins == max(t.wins for t in a.trials)
    assert a.fresh_games == 4 and a.fresh_best is not None and a.fresh_default is not None
    assert not a.interrupted
    data = a.to_json()
    assert set(data["fresh"]) == {"games", "best", "default", "difference", "beats_default"}
    assert data["fresh"]["beats_default"] == (a.fresh_best.value > a.fresh_default.hi)
    # another seed samples another trial 1
    c = tuning.tune_spots(trials=2, games_per_trial=4, seed=6, fresh_games=0)
    assert c.trials[1].params != a.trials[1].params and c.fresh_best is None


def test_every_trial_plays_the_same_games_and_the_fresh_ones_differ() -> None:
    train_seed, fresh_seed, _ = tuning.spawn_seeds(5, 3)
    train = tuning._specs(train_seed, 8)
    fresh = tuning._specs(fresh_seed, 8)
    assert len(train) == 8 and [s.rotation for s in train] == [0, 1, 2, 3] * 2
    assert {s.board for s in train}.isdisjoint({s.board for s in fresh})
    assert {s.seed for s in train}.isdisjoint({s.seed for s in fresh})
    one = tuning._with(train, tuning.candidate(tuning._default_trial()))
    two = tuning._with(train, tuning.candidate({**tuning._default_trial(), "w_port": 2.5}))
    assert [dataclasses.replace(s, advisor=None) for s in one] == train
    assert [dataclasses.replace(s, advisor=None) for s in two] == train


def test_candidate_maps_the_seven_numbers() -> None:
    params = {**tuning._default_trial(), "w_parity": 2.0, "diversity_weight": 1.5, "harbour_weight": 0.0}
    spot, opening = tuning.candidate(params)
    assert spot.eval_weights == (1.0, 1.5, 1.0, 1.0, 2.0)
    assert spot.base_resource_strength == SpotParams.default().base_resource_strength
    assert opening == OpeningParams(1.5, 0.0)
    assert tuning.candidate(tuning._default_trial()) == (SpotParams.default(), OpeningParams())
    with pytest.raises(ParamsError, match="w_port"):
        tuning.candidate({k: v for k, v in params.items() if k != "w_port"})


def test_advisor_weights_reach_the_game() -> None:
    board = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
    spec = game_specs(board, ["advisor", "pips", "pips", "pips"], 1, seed=2)[0]
    plain = play_game(spec)
    assert play_game(dataclasses.replace(spec, advisor=tuning._default())) == plain
    # weighting only the port metric moves the advisor's first settlement to a port
    port_only = dataclasses.replace(SpotParams.default(), eval_weights=(0.0, 0.0, 1.0, 0.0, 0.0))
    moved = play_game(dataclasses.replace(spec, advisor=(port_only, OpeningParams())))
    seat = moved.seating.index(0)
    assert moved.openings[seat][0] != plain.openings[seat][0]
    assert board.spot_port(moved.openings[seat][0]) is not None


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"trials": 0}, "trials must be an integer from 1"),
        ({"trials": True}, "True"),
        ({"games_per_trial": 6}, "got 6"),
        ({"games_per_trial": 0}, "got 0"),
        ({"fresh_games": -4}, "got -4"),
        ({"seed": -1}, "got -1"),
    ],
)
def test_bad_input(kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(CatanError, match=fragment):
        tuning.tune_spots(**{"trials": 1, "games_per_trial": 4, "fresh_games": 0, **kwargs})


def test_write_and_load_named_params(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = tuning.tune_spots(trials=2, games_per_trial=4, seed=1, fresh_games=0)
    path = tuning.write_tuned(result, tmp_path / "tuned.toml")
    assert result.best is not None
    spot, opening = tuning.load_named_params(path)
    assert (spot, opening) == tuning.candidate(result.best.params)
    assert "best trial" in path.read_text(encoding="utf-8")
    assert tuning.load_named_params("default") == (SpotParams.default(), OpeningParams())
    # a plain spot-parameter file has no [advisor] table: the opening weights stay at their defaults
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(SpotParams.default().to_dict()), encoding="utf-8")
    assert tuning.load_named_params(plain) == (SpotParams.default(), OpeningParams())
    bad = tmp_path / "bad.toml"
    bad.write_text(path.read_text(encoding="utf-8").replace("harbour_weight", "harbor"), encoding="utf-8")
    with pytest.raises(ParamsError, match="harbor"):
        tuning.load_named_params(bad)
    monkeypatch.setitem(tuning.NAMED_PARAMS, "tuned", tmp_path / "absent.toml")
    with pytest.raises(ParamsError, match="'tuned'"):
        tuning.load_named_params("tuned")


def test_cli_tune_spots_json_and_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "best.toml"
    result = runner.invoke(
        _app(),
        [
            "tune-spots",
            "--trials",
            "2",
            "--games-per-trial",
            "4",
            "--fresh-games",
            "0",
            "--seed",
            "5",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [t["number"] for t in data["trials"]] == [0, 1] and data["fresh"]["games"] == 0
    assert_same_fields("catan tune-spots", data)
    assert out.exists()
    result = runner.invoke(_app(), ["tune-spots", "--games-per-trial", "10"])
    assert isinstance(result.exception, BoardevalError) and "10" in str(result.exception)
    result = runner.invoke(
        _app(),
        [
            "advise",
            "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO",
            "--taken",
            "40,13,24,2",
            "--params",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    weights = {t["name"]: t["weight"] for t in json.loads(result.stdout)["why"]["terms"]}
    assert weights["diversity"] == pytest.approx(data["best"]["params"]["diversity_weight"])


def test_ctrl_c_keeps_the_finished_trials_flagged() -> None:
    raised = []

    def progress(done: int, total: int, message: str) -> None:
        if done == 6 and not raised:  # the second game of trial 1 (Ctrl-C arrives inside the job runner)
            raised.append(message)
            raise KeyboardInterrupt

    result = tuning.tune_spots(trials=3, games_per_trial=4, seed=5, fresh_games=4, progress=progress)
    assert raised == ["trial 2/3"]
    assert result.interrupted and [t.number for t in result.trials] == [0]
    assert result.best == result.trials[0] and result.fresh_best is None and result.fresh_games == 0
    assert result.to_json()["interrupted"] is True and result.planned_trials == 3


def test_playtest_takes_the_advisors_weights(tmp_path: Path) -> None:
    code = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
    port_only = dataclasses.replace(SpotParams.default(), eval_weights=(0.0, 0.0, 1.0, 0.0, 0.0))
    path = tmp_path / "port_only.json"
    path.write_text(json.dumps(port_only.to_dict()), encoding="utf-8")
    args = ["playtest", code, "--games", "1", "--players", "advisor,pips,pips,pips", "--seed", "2", "--json"]
    plain = runner.invoke(_app(), args)
    default = runner.invoke(_app(), [*args, "--params", "default"])
    moved = runner.invoke(_app(), [*args, "--params", str(path)])
    assert plain.exit_code == default.exit_code == moved.exit_code == 0, moved.output
    strip = lambda r: {k: v for k, v in json.loads(r.stdout).items() if k != "seconds"}  # noqa: E731
    assert strip(plain) == strip(default)
    spec = game_specs(Board.parse(code), ["advisor", "pips", "pips", "pips"], 1, seed=2)[0]
    expected = play_game(dataclasses.replace(spec, advisor=(port_only, OpeningParams())))
    assert strip(moved)["players"][0]["wins"] == int(expected.winner_player == 0)
    assert strip(moved)["turns"]["mean"] == expected.turns
