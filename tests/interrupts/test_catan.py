"""Ctrl-C on the long Catan commands: generators (anneal, tournament during its proof, cp), the blog
model count and a two-worker play-test keep their partial result, flag it, and exit 130 within 2 s.
Each Ctrl-C comes when the command's progress bar has shown the first finished unit of work."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardeval.cli.empty_json import empty_document
from tests.cli.json_shapes import assert_same_fields
from tests.interrupts.helpers import interrupt

pytestmark = pytest.mark.slow

CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def test_anneal_keeps_its_best_board(tmp_path: Path) -> None:
    # max-spot-pips=8 cannot hold: the annealer runs all its rounds (~2.4 CPU-s) instead of stopping early.
    # Ctrl-C once its progress bar shows an energy: the annealer holds a best board from then on (a Ctrl-C
    # timed by CPU seconds used to land before the first board on a fast machine: issue 22)
    args = ["catan", "generate", "--method", "anneal", "--seed", "3", "--rule", "max-spot-pips=8", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"energy \d")
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["method"] == "anneal"
    assert_same_fields("catan generate", data)
    assert len(data["board"].split("~")[0].split("-")) == 19 and data["rules"] == {"max-spot-pips=8": False}


def test_tournament_keeps_its_repair_when_stopped_during_the_proof(tmp_path: Path) -> None:
    """CP-SAT's own SIGINT handler used to swallow this Ctrl-C: exit 0, no flag (issue 17)."""
    args = ["catan", "generate", "--method", "tournament", "--seed", "3", "--rule", "max-spot-pips=10"]
    # "proving the fewest swaps" is re-sent only while CP-SAT's proof runs (solve_stoppable)
    r = interrupt(args, cwd=tmp_path, ready="proving the fewest swaps")
    r.check()
    assert "interrupted" in r.out and "yes: best board so far" in r.out
    assert "rule max-spot-pips=10" in r.out and "holds" in r.out  # the repaired board is valid


def test_cp_stops_within_the_solve(tmp_path: Path) -> None:
    # no board is found for seconds under these rules: a stop before the first one keeps nothing.
    # "minimising the energy" is re-sent only while the solve runs (solve_stoppable)
    args = ["catan", "generate", "--method", "cp", "--fairness", "1"]
    args += ["--rule", "resource-pips-band=10..14", "--rule", "max-spot-pips=10"]
    r = interrupt([*args, "--json"], cwd=tmp_path, ready="minimising the energy")
    r.check()
    data = r.json()  # one document either way (issue 22): the best board so far, or the empty document
    assert data["interrupted"] is True
    if data["board"] is None:
        assert "interrupted: nothing to keep" in r.err and data == empty_document("catan generate")
    else:
        assert_same_fields("catan generate", data)


def test_blog_model_prints_the_count_so_far(tmp_path: Path) -> None:
    args = ["catan", "blog-model", "markers", "--threshold", "24", "--count", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"\b[1-9][\d,]* layouts so far")  # the first layout counted
    r.check()
    data = r.json()
    assert data["interrupted"] is True and 1 <= data["count"] < 500170  # the full count is 500170
    assert_same_fields("catan blog-model", data)


def test_playtest_on_two_workers_keeps_the_finished_games(tmp_path: Path) -> None:
    args = ["catan", "playtest", CODE, "--games", "1000", "--seed", "1", "--workers", "2", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"\b[1-9]\d*/1000\b")  # a finished game
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["planned"] == 1000
    assert 1 <= data["games"] < 1000
    assert_same_fields("catan playtest", data) and all(p["games"] == data["games"] for p in data["players"])


def test_count_boards_prints_the_count_so_far(tmp_path: Path) -> None:
    # CP-SAT's own Ctrl-C handler used to end the enumeration as if --limit had been reached: exit 0, no flag
    args = ["catan", "count-boards", "--limit", "1000000000", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"\b[1-9]\d*/1000000000\b")  # a board counted
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["complete"] is False and data["count"] > 0
    assert_same_fields("catan count-boards", data)
