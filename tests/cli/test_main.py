from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from boardeval.cli.main import app


def test_help_lists_games() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for word in ("catan", "morris", "diplomacy", "web"):
        assert word in result.output


def test_bad_input_is_one_red_line_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from boardeval.cli.main import main; main()", "web", "--port", "0"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert lines == ["error: --port must be in 1..65535, got 0"]
