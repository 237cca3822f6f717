"""The fairness study: boards along the dial, pooled figures per level, the files it writes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from boardeval.catan import board_energy
from boardeval.catan.playtest import GameRecord
from boardeval.catan.study import _level, run_study, study_boards, write_study
from boardeval.cli.catan_playtest import register
from boardeval.core import CatanError
from tests.cli.json_shapes import assert_same_fields


def test_boards_follow_the_dial() -> None:
    made = study_boards([0.0, 1.0], 2, seed=3)
    assert [f for f, _, _ in made] == [0.0, 0.0, 1.0, 1.0]
    energies = [board_energy(b).total for _, _, b in made]
    assert max(energies[2:]) < min(energies[:2])  # the optimum is fairer than a random shuffle
    assert made == study_boards([0.0, 1.0], 2, seed=3)


def test_study_same_result_twice_and_files(tmp_path: Path) -> None:
    a = run_study([0.0, 1.0], boards=2, games=2, seed=1)
    b = run_study([0.0, 1.0], boards=2, games=2, seed=1, workers=2)
    ja, jb = a.to_json(), b.to_json()
    ja.pop("seconds")
    jb.pop("seconds")
    assert ja == jb
    assert [lv.games for lv in a.levels] == [4, 4]
    assert [lv.boards for lv in a.levels] == [2, 2]
    for lv in a.levels:
        assert lv.turns_ci95[0] <= lv.turns_mean <= lv.turns_ci95[1]
        assert lv.spread == pytest.approx(max(lv.seat_win_rates) - min(lv.seat_win_rates))
    paths = write_study(a, tmp_path / "out")
    names = sorted(p.name for p in paths)
    assert names == [
        "length_vs_energy.png",
        "length_vs_energy.svg",
        "spread_vs_energy.png",
        "spread_vs_energy.svg",
        "study.csv",
        "study.json",
    ]
    rows = list(csv.DictReader((tmp_path / "out" / "study.csv").open(encoding="utf-8")))
    assert [float(r["fairness"]) for r in rows] == [0.0, 1.0]
    assert int(rows[0]["games"]) == 4
    data = json.loads((tmp_path / "out" / "study.json").read_text(encoding="utf-8"))
    assert len(data["boards"]) == 4
    assert (tmp_path / "out" / "length_vs_energy.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert (tmp_path / "out" / "spread_vs_energy.png").read_bytes()[:4] == b"\x89PNG"


def test_level_pooling_hand_made() -> None:
    # Seat 1 wins two of three games; the best opening (seat scores) is checked by the caller: here two
    # of three games were won by the best opener.
    records = [
        GameRecord(1, 0, (0, 1, 2, 3), 0, 100, (10, 2, 2, 2), False),
        GameRecord(2, 0, (0, 1, 2, 3), 0, 200, (10, 2, 2, 2), False),
        GameRecord(3, 0, (0, 1, 2, 3), None, 1000, (9, 2, 2, 2), True),
    ]
    from boardeval.catan.study import BoardStudy

    board = BoardStudy(0.5, 1, "x", 10.0, 3, 433.3, 840.0, (2 / 3, 0, 0, 0), 2 / 3, 2, 1)
    level = _level(0.5, [board], records, [True, True, False])
    assert level.seat_win_rates == pytest.approx((2 / 3, 0.0, 0.0, 0.0))
    assert level.spread == pytest.approx(2 / 3)
    assert level.best_opening_share == pytest.approx(2 / 3)
    assert level.unfinished_share == pytest.approx(1 / 3)
    assert level.turns_mean == pytest.approx(1300 / 3)
    assert level.turns_median == 200.0


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"fairness": [1.5]}, "1.5"),
        ({"fairness": []}, "at least one"),
        ({"boards": 0}, "0"),
        ({"games": 0}, "0"),
    ],
)
def test_study_bad_input(kwargs: dict[str, object], fragment: str) -> None:
    args: dict[str, object] = {"fairness": [0.0], "boards": 1, "games": 1} | kwargs
    with pytest.raises(CatanError, match=fragment):
        run_study(**args)  # type: ignore[arg-type]


def test_cli_study(tmp_path: Path) -> None:
    app = typer.Typer()
    app.callback()(lambda: None)
    register(app)
    runner = CliRunner()
    out = tmp_path / "s"
    args = ["study", "--fairness", "0,1", "--boards", "1", "--games", "2", "--seed", "4", "--out", str(out)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert [lv["fairness"] for lv in json.loads(result.stdout)["levels"]] == [0.0, 1.0]
    assert_same_fields("catan study", json.loads(result.stdout))
    assert (out / "study.csv").is_file()
    bad = runner.invoke(app, ["study", "--fairness", "0,x", "--out", str(out)])
    assert isinstance(bad.exception, CatanError) and "'x'" in str(bad.exception)
