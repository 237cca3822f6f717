"""`boardeval catan ...`: output shapes scripts rely on, determinism, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardeval.catan import Board, board_energy, evaluate_spots
from boardeval.cli.main import app

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
runner = CliRunner()


def _ok(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_random_is_deterministic() -> None:
    a = _ok(["catan", "random", "--seed", "11"]).strip()
    assert a == _ok(["catan", "random", "--seed", "11"]).strip()
    assert a != _ok(["catan", "random", "--seed", "12"]).strip()
    assert Board.parse(a) == Board.random(11)


def test_random_json() -> None:
    d = json.loads(_ok(["catan", "random", "--seed", "4", "--json"]))
    assert Board.parse(d["code"]) == Board.from_json(d)


def test_spots_json_shape() -> None:
    d = json.loads(_ok(["catan", "spots", SPEC_CODE, "--json"]))
    assert set(d) == {"code", "board", "spots"} and d["code"] == d["board"] == SPEC_CODE
    assert len(d["spots"]) == 54
    assert [e["spot"] for e in d["spots"]] == list(range(54))
    table = evaluate_spots(Board.parse(SPEC_CODE))
    for e in d["spots"]:
        assert set(e) == {"spot", "hexes", "port", "metrics", "score"}
        assert list(e["metrics"]) == [
            "raw_production",
            "scarcity_production",
            "port",
            "prime_variate",
            "parity",
        ]
        assert e["score"] == pytest.approx(float(table.scores[e["spot"]]))
        assert e["port"] in (None, "3", "W", "B", "S", "G", "O")
    assert d["spots"][26]["port"] == "3" and d["spots"][0]["hexes"] == [0]


def test_spots_params_file_changes_scores(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text(
        "base_resource_strength = [1, 1, 1, 1, 1]\ndampening_factor = 1.0\nport_bonus = 0\n"
        "prime_variate_bonus = 0\nparity_preference = 0\neval_weights = [1, 0, 0, 0, 0]\n"
    )
    d = json.loads(_ok(["catan", "spots", SPEC_CODE, "--params", str(f), "--json"]))
    assert [e["score"] for e in d["spots"]] == [e["metrics"]["raw_production"] for e in d["spots"]]


def test_spots_table_sorted() -> None:
    out = _ok(["catan", "spots", SPEC_CODE, "--top", "3"])
    ranked = evaluate_spots(Board.parse(SPEC_CODE)).ranked()
    rows = [r for r in (ln.split() for ln in out.splitlines()) if len(r) > 5 and r[0].isdigit()]
    assert [int(r[1]) for r in rows] == ranked[:3]
    assert [int(r[0]) for r in rows] == [1, 2, 3]
    assert "score" in out


def test_energy_json_shape() -> None:
    d = json.loads(_ok(["catan", "energy", SPEC_CODE, "--json"]))
    assert list(d) == ["same_resource_pairs", "high_number_pairs", "pip_variance", "ports", "energy"]
    e = board_energy(Board.parse(SPEC_CODE))
    assert d["same_resource_pairs"] == 5 and isinstance(d["same_resource_pairs"], int)
    assert d["energy"] == pytest.approx(e.total)
    assert d["energy"] == pytest.approx(
        100 * 5 + 150 * d["high_number_pairs"] + 10 * d["pip_variance"] + 10 * d["ports"]
    )


def test_energy_table_has_the_harbour_line() -> None:
    out = _ok(["catan", "energy", SPEC_CODE])
    line = next(x for x in out.splitlines() if x.strip().startswith("ports"))
    # the spec board's harbour term: 6 own sheep pips + 5 per unreached 2:1 harbour (docs/catan.md)
    raw = board_energy(Board.parse(SPEC_CODE))["ports"].raw
    assert line.split()[1:4] == [f"{int(raw)}", "10", f"{10 * raw:.1f}"]


def test_show() -> None:
    out = _ok(["catan", "show", SPEC_CODE])
    assert "O10" in out and "energy" in out and "best spots" in out


def test_svg(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    _ok(["catan", "svg", SPEC_CODE, "--out", str(out), "--heatmap"])
    text = out.read_text()
    assert text.startswith("<svg") and text.count('class="spot"') == 54


def test_json_board_file_accepted(tmp_path: Path) -> None:
    f = tmp_path / "board.json"
    f.write_text(json.dumps(Board.parse(SPEC_CODE).to_json()))
    d = json.loads(_ok(["catan", "energy", str(f), "--json"]))
    assert d["same_resource_pairs"] == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["spots", SPEC_CODE.replace("O10", "O7", 1), "--json"], "7 is not a number token"),
        (["energy", "W5-B6", "--json"], "must be 19 hexes"),
        (["show", SPEC_CODE.replace("~3S3W3B3GO", "~3S3W3B3G")], "9 ports expected, got 8"),
        (["svg", SPEC_CODE, "--out", "/nonexistent-dir/b.svg"], "does not exist"),
        (["spots", SPEC_CODE, "--params", "/nonexistent.toml"], "does not exist"),
        (["random", "--seed", "-1"], "--seed: '-1' is out of range 0.."),
        (["spots", "missing.json"], "board file 'missing.json' does not exist"),
    ],
)
def test_bad_input_one_line_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["catan", *args])
    assert result.exit_code == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_bad_code_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from boardeval.cli.main import main; main()", "catan", "energy", "D5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: board code 'D5'")


def test_energy_weight_sets() -> None:
    """``--weights seed`` prints seed 001's energy (525.4 on the spec board), the default adds the harbour
    term (635.4), and each table says which formula it computed."""
    seed = json.loads(_ok(["catan", "energy", SPEC_CODE, "--weights", "seed", "--json"]))
    assert round(seed["energy"], 1) == 525.4 and seed["ports"] == 11
    assert round(json.loads(_ok(["catan", "energy", SPEC_CODE, "--json"]))["energy"], 1) == 635.4
    assert "energy (seed 001's formula)" in _ok(["catan", "energy", SPEC_CODE, "--weights", "seed"])
    assert "energy (seed 001 + harbour term)" in _ok(["catan", "energy", SPEC_CODE])


def test_share_code_has_one_name_in_every_json_shape() -> None:
    """Issue 22: the share code is ``code`` in every ``--json`` shape (``random`` said ``code``,
    ``generate`` ``board``); the shapes that said ``board`` keep it for one release, equal to ``code``."""
    shapes = {
        "random": ["catan", "random", "--seed", "4", "--json"],
        "spots": ["catan", "spots", SPEC_CODE, "--json"],
        "generate": ["catan", "generate", "--method", "random", "--seed", "4", "--json"],
        "advise": ["catan", "advise", SPEC_CODE, "--json"],
    }
    for name, args in shapes.items():
        d = json.loads(_ok(args))
        code = d["code"]
        assert Board.parse(code).code() == code, name
        if name != "random":
            assert d["board"] == code, name  # the old key, for one release
