"""``boardeval morris perft``: prints the count; bad input is one red line and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from boardeval.cli.main import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["morris", "perft", *args])
    return result.exit_code, result.output


def test_prints_the_count() -> None:
    assert _run("--depth", "4") == (0, "255024\n")
    assert _run("--depth", "5", "--removal-plies") == (0, "5100480\n")
    assert _run("--depth", "5") == (0, "5140800\n")


def test_position_and_moves_give_the_same_count() -> None:
    code, by_moves = _run("--depth", "3", "--moves", "a7 b6 d7 d6")
    assert code == 0
    text = "WW.BB................... w 7 7"
    assert _run("--depth", "3", "--position", text) == (0, by_moves)
    # g7 closes a mill: turn-plies count each removal, removal-plies count the removal as a ply
    assert int(by_moves) != int(_run("--depth", "3", "--moves", "a7 b6 d7 d6", "--removal-plies")[1])


def test_divide_and_json() -> None:
    code, out = _run("--depth", "2", "--moves", "a7 b6 d7 d6", "--divide")
    lines = out.splitlines()
    assert code == 0 and "g7xb6: 20" in lines and "g7xd6: 20" in lines
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == int(lines[-1])
    code, out = _run("--depth", "2", "--json", "--variant", "openspiel")
    assert code == 0
    assert json.loads(out) == {
        "position": "........................ w 9 9",
        "variant": "openspiel",
        "depth": 2,
        "convention": "turn-plies",
        "count": 552,
    }


_BAD_DEPTH = "--depth: 'x' is not an integer (ASCII digits 0-9 only, in 0..20)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--depth", "x"], _BAD_DEPTH),
        (["--depth", "-2"], "--depth: '-2' is out of range 0..20"),
        (["--depth", "0_1"], "--depth: '0_1' is not an integer; no '_' between digits"),
        (["--depth", "2", "--position", "W w 9"], "error: bad position 'W w 9': expected 4 fields"),
        (["--depth", "2", "--position", "." * 24 + " b 9 9"], "with black to move black must have"),
        (["--depth", "2", "--moves", "a7 a7"], "error: move 2 of the move list: illegal turn a7"),
        (["--depth", "2", "--moves", "a7", "--position", "x"], "error: give either --position or --moves"),
        (["--depth", "2", "--variant", "fast"], "error: unknown variant 'fast'"),
    ],
)
def test_bad_input_is_one_red_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["morris", "perft", *args])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and result.stdout == ""
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_bad_input_in_a_real_process() -> None:
    """The same contract through the console entry point: one red line on stderr, exit code 2."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from boardeval.cli.main import main; main()",
            "morris",
            "perft",
            "--depth",
            "x",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith(_BAD_DEPTH), proc.stderr
