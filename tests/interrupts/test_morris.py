"""Ctrl-C on the long Morris commands: a match on one worker (the search used to swallow it) and on two
(it used to take 15-90 s to exit), and perft, keep and flag their partial result and exit 130 within 2 s."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from tests.cli.json_shapes import assert_same_fields
from tests.interrupts.helpers import interrupt, warm_compiled_search

pytestmark = pytest.mark.slow

MATCH = ["morris", "match", "--white", "ai:depth=4", "--black", "random", "--seed", "1"]
GAMES = 1000
"""Games asked of a match: ~15 s of play on one worker, ~7 s on two (idle machine), so that the Ctrl-C
lands in the match whatever the machine. 300 games took 2 s on two workers with the compiled search, and
in a clean-clone CI the match ended before the Ctrl-C (exit -2); 3,000 cost ~0.5 s to submit."""


@pytest.fixture(scope="module", autouse=True)
def compiled_search() -> None:
    """The AI's compiled search in numba's cache before any command here starts (helpers.py)."""
    warm_compiled_search()


def test_match_on_one_worker_stops(tmp_path: Path) -> None:
    r = interrupt([*MATCH, "--games", str(GAMES)], cwd=tmp_path, ready=rf"\b[1-9]\d*/{GAMES}\b")
    r.check()
    found = re.search(r"(\d+) games \(interrupted\)", r.out)
    assert found is not None, r.out
    played = int(found.group(1))
    assert 1 <= played < GAMES and f"kept the {played} finished game(s) of {GAMES}" in r.err


def test_match_on_two_workers_stops_at_once(tmp_path: Path) -> None:
    args = [*MATCH, "--games", str(GAMES), "--workers", "2", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=rf"\b[1-9]\d*/{GAMES}\b")  # a finished game
    r.check()
    data = r.json()
    assert data["interrupted"] is True and 1 <= data["games"] < GAMES
    assert data["wins"] + data["draws"] + data["losses"] == data["games"]
    assert_same_fields("morris match", data)


def test_sigterm_stops_a_match_on_two_workers_as_ctrl_c_does(tmp_path: Path) -> None:
    """``kill PID`` (SIGTERM to the command only) on a match: the finished games kept and printed,
    flagged, exit 143, the workers gone (a background job started with ``&`` ignores Ctrl-C, and SIGTERM
    used to end it at once, printing nothing)."""
    args = [*MATCH, "--games", str(GAMES), "--workers", "2", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=rf"\b[1-9]\d*/{GAMES}\b", sig=signal.SIGTERM)
    r.check()
    data = r.json()
    assert data["interrupted"] is True and 1 <= data["games"] < GAMES
    assert f"kept the {data['games']} finished game(s) of {GAMES}" in r.err


def test_perft_prints_the_finished_first_turns(tmp_path: Path) -> None:
    # a finished first turn (the start's 24 first turns are all alike: each has the same count)
    r = interrupt(["morris", "perft", "--depth", "8", "--json"], cwd=tmp_path, ready=r"\b[1-9]\d*/24\b")
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["first_turns"] == 24 and 1 <= data["first_turns_done"] < 24
    assert data["count"] > 0 and data["count"] % data["first_turns_done"] == 0  # equal first turns: symmetry
    assert_same_fields("morris perft", data)


def test_tune_stopped_while_playing_fits_what_it_gathered(tmp_path: Path, tablebase_3v3: Path) -> None:
    r = interrupt(
        ["morris", "tune", "--dir", str(tablebase_3v3), "--games", "400", "--json"],
        cwd=tmp_path,
        ready=r"\b[1-9]\d*/400\b",  # a finished self-play game
    )
    r.check()
    data = r.json()
    # the games were stopped (they used to be dropped silently: no flag, and the question refits ran on)
    assert data["interrupted"] is True and data["questions"] == []
    assert data["tablebase_positions"] == 2000 and data["placing_positions"] < 400 * 18
    assert data["tuned"]["train"]["positions"] + data["tuned"]["validation"]["positions"] == data["positions"]
    assert_same_fields("morris tune", data)


def test_best_stops_a_deep_search_and_keeps_its_last_depth(tmp_path: Path) -> None:
    """The compiled search runs in a thread (issue 25: no object-mode clock any more); the waiting
    thread takes the Ctrl-C and stops it: the best turn of the last completed depth, flagged, exit 130."""
    position = "W.......B............... w 8 8"
    # depth 8 done: the search works on depth 9 and beyond (depth 40 never finishes on its own)
    args = ["morris", "best", position, "--depth", "40", "--tablebase", "none", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"depth (8|9|[1-3]\d):")
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["why"] is None
    assert 8 <= data["depth"] < 40 and data["move"] is not None
    assert_same_fields("morris best", data)
    assert "last completed depth" in r.err
