"""Issue 14: a tournament that loses a worker keeps and reports the finished games (and the CLI says a
worker died: exit 1, one red line), here with game 3's worker killed as the OOM killer would.

Game 3 dies once the parent has received three results (a gate file written when the job runner reports
its third finished game), not after a pause: games 0-2 were handed out before it, so they are all kept,
however busy the machine is."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boardeval.cli.main import app
from boardeval.core import runner
from boardeval.diplomacy import tournament as tournament_module

_real_play_job = tournament_module._play_job
_real_report = runner.report
_GATE = "BOARDEVAL_TEST_GATE"
GATE_GUARD = 60.0
"""Seconds game 3 waits for its gate at most (a failure guard: the test then fails, it does not hang)."""


def _dying_play_job(job: Any) -> Any:
    """Game 3 kills its worker once the gate file exists (three games are in); the others play."""
    if job.index == 3:
        deadline = time.monotonic() + GATE_GUARD
        while not os.path.exists(os.environ[_GATE]) and time.monotonic() < deadline:
            time.sleep(0.01)  # polling for the gate file; the file decides, not this pause
        os._exit(9)
    return _real_play_job(job)


def test_tournament_keeps_the_games_finished_before_a_worker_died(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = tmp_path / "three-done"

    def report(progress: Any, done: int, total: int, message: str = "") -> None:
        """The job runner's progress report, in the parent: three results in opens game 3's gate."""
        if done >= 3:
            gate.touch()
        _real_report(progress, done, total, message)

    monkeypatch.setenv(_GATE, str(gate))  # the forked workers inherit it
    monkeypatch.setattr(runner, "report", report)
    monkeypatch.setattr(tournament_module, "_play_job", _dying_play_job)  # the forked workers see it
    out = tmp_path / "t"
    args = ["diplomacy", "tournament", "--bots", "dumb,random*6", "--games", "8", "--seed", "1"]
    args += ["--max-year", "1902", "--workers", "2", "--out", str(out), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    data = json.loads(next(line for line in lines if line.startswith("{")))
    assert data["interrupted"] is True and data["requested"] == 8 and 3 <= data["games"] < 8
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1 and "a worker died" in errors[0]
    assert f"kept {data['games']} of 8 jobs" in errors[0]
    saved = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(saved) == data["games"]
