"""A pool worker that dies: the command keeps (and prints) the finished jobs, and the root group adds
one red ``error: a worker died ...`` line and exits 1 (issue 17; issue 14: a tournament that loses a
worker keeps and reports the finished games)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from boardeval.cli.main import COMMANDS, LazyCommand, app


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "fake", LazyCommand("tests.interrupts.fake_jobs", "Fake jobs."))


def test_kept_results_and_one_red_line(fake: None) -> None:
    result = CliRunner().invoke(app, ["fake", "keep"])
    assert result.exit_code == 1, result.output
    finished = re.search(r"finished \[([\d, ]*)\]", result.output)
    # job 5 dies once five results are in: jobs 0-4, handed out before it (fake_jobs.py)
    assert finished is not None and {0, 1, 2, 3, 4} <= {int(x) for x in finished.group(1).split(",")}
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "a worker died" in errors[0] and "of 8 jobs" in errors[0]
    assert "Traceback" not in result.output


def test_failure_reaching_the_root_is_one_red_line(fake: None) -> None:
    result = CliRunner().invoke(app, ["fake", "drop"])
    assert result.exit_code == 1
    one_line = r"error: a worker died \(.*\): kept [5-7] of 8 jobs\n"
    assert re.fullmatch(one_line, result.output, re.S), result.output


def test_a_later_command_is_not_blamed(fake: None) -> None:
    """The failure record is per process: a command after a failed one exits 0."""
    CliRunner().invoke(app, ["fake", "drop"])
    result = CliRunner().invoke(app, ["morris", "perft", "--depth", "2"])
    assert result.exit_code == 0 and result.output == "552\n"
