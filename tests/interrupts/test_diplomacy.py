"""Ctrl-C on the long Diplomacy commands: random games, measures over many games and a two-worker bot
tournament keep the finished games, flag them, and exit 130 within 2 s."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.json_shapes import assert_same_fields
from tests.interrupts.helpers import interrupt

pytestmark = pytest.mark.slow


def test_random_game_saves_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["diplomacy", "random-game", "--seed", "1", "--games", "60", "--max-phases", "30"]
    args += ["--out", str(out)]
    r = interrupt(args, cwd=tmp_path, ready=r"\b[1-9]\d*/60\b")
    r.check()
    assert "(interrupted: the finished games)" in r.out
    written = int(r.out.split("wrote ")[1].split()[0])
    assert 1 <= written < 60 and len(out.read_text(encoding="utf-8").splitlines()) == written


GAMES = 3000


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSONL file of :data:`GAMES` short games: one seeded random game of two phases under 3,000 ids.

    Sized so that the Ctrl-C lands in the measuring loop whatever the machine: one measure of them takes
    ~5 s after the first progress line on an idle machine, for ~1 s of loading before it, and the rows
    are few (one measure, two phases), so printing the finished games' rows after the Ctrl-C costs
    next to nothing. The 200 games of 30 phases and every measure used before were measured in 0.8 s
    (after ~2 s of loading) and then printed 1.5 million rows for ~5 s: in clean-clone CI the Ctrl-C
    landed in that printing ("nothing to keep"), and a Ctrl-C in the loop still had up to ~2 CPU-s
    of rows to print."""
    from boardeval.diplomacy import random_game, save_records

    folder = tmp_path_factory.mktemp("diplomacy")
    one = folder / "one.jsonl"
    save_records([random_game(3, max_phases=2)], one)
    game = json.loads(one.read_text(encoding="utf-8").splitlines()[0])
    path = folder / "many.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(GAMES):
            fh.write(json.dumps({**game, "id": f"copy-{i}"}) + "\n")
    return path


def test_measures_over_many_games_keeps_the_finished_rows(tmp_path: Path, many_games: Path) -> None:
    args = ["diplomacy", "measures", str(many_games), "--all-games", "--measure", "progress", "--json"]
    r = interrupt(args, cwd=tmp_path, ready=rf"\b[1-9]\d*/{GAMES}\b")
    r.check()
    assert "interrupted: rows of the finished games only" in r.err
    rows = r.json()  # a JSON list of rows: the flag is the yellow line
    games = {row["game"] for row in rows}
    assert 1 <= len(games) < GAMES and {row["measure"] for row in rows} == {"progress"}


def test_tournament_on_two_workers_keeps_the_finished_games(tmp_path: Path) -> None:
    args = ["diplomacy", "tournament", "--bots", "dumb,random*6", "--games", "400", "--seed", "1"]
    args += ["--workers", "2", "--out", str(tmp_path / "t"), "--json"]
    r = interrupt(args, cwd=tmp_path, ready=r"\b[1-9]\d*/400\b")  # a finished game
    r.check()
    data = r.json()
    assert data["interrupted"] is True and data["requested"] == 400 and 1 <= data["games"] < 400
    assert_same_fields("diplomacy tournament", data)
    saved = (tmp_path / "t" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(saved) == data["games"]


def test_ctrl_c_while_a_map_is_prepared_exits_130_without_tracebacks(tmp_path: Path) -> None:
    """The first use of a map without a shipped convoy table builds it (issue 24): Ctrl-C then stops the
    build's workers at once, prints no traceback (the engine's builder printed three), keeps nothing."""
    home = tmp_path / "home"
    home.mkdir()
    out = tmp_path / "games.jsonl"
    args = ["diplomacy", "random-game", "--map", "colonial", "--seed", "1", "--max-phases", "2"]
    args += ["--out", str(out)]
    r = interrupt(args, cwd=tmp_path, ready=r"convoy paths.*\b[1-9]\d*/\d+", env={"HOME": str(home)})
    r.check()
    assert "used for the first time" in r.err and "Generating convoy paths" not in r.out + r.err
    assert "wrote 0 game(s)" in r.out
    assert not (home / ".cache" / "diplomacy" / "convoy_paths_cache.pkl").exists()
