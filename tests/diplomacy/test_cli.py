"""``boardeval diplomacy ...``: the exact output shapes, and bad input as one red line with exit code 2."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardeval.cli.main import app
from boardeval.diplomacy import shipped_game_paths

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["diplomacy", *args])
    return result.exit_code, result.stdout, result.stderr


def test_measures_start_json() -> None:
    code, out, _ = run("measures", "--start", "--json", "--measure", "battle_tiedness")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 7
    assert rows[0] == {
        "phase": "S1901M",
        "power": "AUSTRIA",
        "measure": "battle_tiedness",
        "other": None,
        "value": pytest.approx(1 / 3),
    }
    code, out, _ = run("measures", "--start", "--map", "ancmed", "--json", "-m", "progress")
    assert code == 0
    assert json.loads(out)[0]["phase"] == "S0001M"


def test_measures_game_csv_and_json(tmp_path: Path) -> None:
    game = str(shipped_game_paths()[2])
    code, out, _ = run("measures", game, "--csv", "-m", "stab_potential", "-m", "progress")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["phase", "power", "measure", "other", "value"]
    assert len(rows) == 52 * (1 + 42)
    stab = [r for r in rows if r["measure"] == "stab_potential"]
    assert all(r["power"] and r["other"] for r in stab)
    code, out, _ = run("measures", game, "--json", "-m", "incohesion_3")
    data = json.loads(out)
    assert any(r["value"] is None for r in data)  # powers with <= 3 units


def test_measures_power_filter() -> None:
    code, out, _ = run("measures", "--start", "--json", "-m", "progress", "-m", "tempi", "-p", "ITALY")
    assert code == 0
    rows = json.loads(out)
    assert [(r["power"], r["measure"]) for r in rows] == [(None, "progress"), ("ITALY", "tempi")]


def test_measures_summary_table() -> None:
    code, out, _ = run("measures", str(shipped_game_paths()[0]), "-m", "tempi", "-m", "progress")
    assert code == 0
    assert "tempi" in out and "progress" in out and "S1913R" in out


def test_fear_static_json() -> None:
    code, out, _ = run("fear", "--static", "--json")
    assert code == 0
    table = json.loads(out)
    assert list(table) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert "AUSTRIA" not in table["AUSTRIA"] and len(table["AUSTRIA"]) == 6
    assert all(isinstance(v, int) for row in table.values() for v in row.values())
    code, out, _ = run("fear", str(shipped_game_paths()[0]), "--phase", "F1905M", "--json")
    assert code == 0 and set(json.loads(out)) == set(table)


def test_chart_and_random_game(tmp_path: Path) -> None:
    games = tmp_path / "random.jsonl"
    code, _, _ = run("random-game", "--seed", "3", "--max-phases", "8", "--games", "2", "--out", str(games))
    assert code == 0
    lines = games.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    again = tmp_path / "again.jsonl"
    run("random-game", "--seed", "3", "--max-phases", "8", "--games", "2", "--out", str(again))

    # Same seed, same game (the engine's timestamps aside).
    def positions(path: Path) -> list[object]:
        return [
            [
                (p["name"], p["state"]["units"], p["state"]["centers"], p["orders"])
                for p in json.loads(line)["phases"]
            ]
            for line in path.read_text(encoding="utf-8").splitlines()
        ]

    assert positions(games) == positions(again)
    code, _, err = run("measures", str(games), "--json")
    assert code == 2 and "--game-index" in err
    code, out, _ = run("measures", str(games), "--game-index", "1", "--json", "-m", "tempi")
    assert code == 0 and len(json.loads(out)) == 8 * 7
    code, out, _ = run("measures", str(games), "--all-games", "--json", "-m", "tempi")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 2 * 8 * 7
    assert rows[0]["game"] == "random-standard-3" and rows[-1]["game"] == "random-standard-4"
    assert set(rows[0]) == {"game", "phase", "power", "measure", "other", "value"}
    svg = tmp_path / "tempi.svg"
    code, _, _ = run("chart", str(games), "--game-index", "0", "--measure", "tempi", "--out", str(svg))
    assert code == 0 and "<svg" in svg.read_text(encoding="utf-8")
    png = tmp_path / "stab.png"
    code, _, _ = run("chart", str(games), "--game-index", "0", "-m", "stab_potential", "--out", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["measures", "--start", "-m", "happiness"], "error: unknown measure 'happiness'"),
        (["measures", "--start", "--map", "narnia"], "error: unknown map 'narnia'"),
        (["fear", "--static", "--map", "narnia", "--json"], "error: unknown map 'narnia'"),
        (["measures"], "error: give a GAME file"),
        (["measures", "--start", "--power", "PRUSSIA"], "error: unknown power 'PRUSSIA'"),
        (["measures", "--start", "--json", "--csv"], "error: give at most one of --json and --csv"),
    ],
)
def test_bad_input_one_red_line(args: list[str], message: str) -> None:
    code, _out, err = run(*args)
    assert code == 2
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) >= 1 and lines[0].startswith(message)
    assert "Traceback" not in err


def test_bad_record_via_subprocess(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "id": "x1",
                "map": "standard",
                "phases": [{"name": "S1901M", "state": {"units": {"PRUSSIA": ["A BER"]}, "centers": {}}}],
            }
        ),
        encoding="utf-8",
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from boardeval.cli.main import main; main()",
            "diplomacy",
            "measures",
            str(bad),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "300"},
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: game 'x1', phase 'S1901M', state.units.PRUSSIA: unknown power 'PRUSSIA' on map 'standard' "
        "(powers: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)"
    )
