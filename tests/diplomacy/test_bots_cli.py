"""``bot-game`` and ``tournament`` on a throw-away Typer app (``register`` adds them to any app)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from diplomacy.utils.export import from_saved_game_format, is_valid_saved_game

from boardeval.cli.diplomacy_bots import register
from boardeval.core import DiplomacyError
from boardeval.diplomacy.records import load_records
from tests.diplomacy.helpers import invoke_registered


def run(*args: str) -> tuple[int, str, BaseException | None]:
    return invoke_registered(register, *args)


def test_bot_game_writes_a_game_the_engine_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    code, text, exc = run(
        "bot-game", "--bots", "dumb,dumb,random*5", "--seed", "3", "--max-year", "1902", "--out", str(out)
    )
    assert code == 0, exc
    assert "wrote" in text and "AUSTRIA" in text
    saved = json.loads(out.read_text())
    assert is_valid_saved_game(saved)
    assert from_saved_game_format(saved).get_current_phase() == "S1903M"
    record = load_records(out)[0]
    assert record.phases[0].phase == "S1901M" and record.phases[-1].phase == "S1903M"
    # same seed, same bytes
    again = tmp_path / "again.json"
    run("bot-game", "--bots", "dumb,dumb,random*5", "--seed", "3", "--max-year", "1902", "--out", str(again))
    assert again.read_bytes() == out.read_bytes()


def test_tournament_json_is_the_documented_shape_and_reproducible(tmp_path: Path) -> None:
    args = [
        "tournament",
        "--bots",
        "dumb,random*6",
        "--games",
        "2",
        "--seed",
        "4",
        "--max-year",
        "1901",
        "--json",
    ]
    code, text, exc = run(*args, "--out", str(tmp_path / "a"))
    assert code == 0, exc
    data = json.loads(text)
    assert list(data) == ["games", "bots"] and data["games"] == 2
    assert [list(b) for b in data["bots"]] == [
        ["name", "seats", "mean_final_scs", "ci95", "solos", "survivals"]
    ] * 2
    code, text2, _ = run(*args, "--workers", "2", "--out", str(tmp_path / "b"))
    assert code == 0 and text2 == text
    assert (tmp_path / "a" / "games.jsonl").read_bytes() == (tmp_path / "b" / "games.jsonl").read_bytes()
    assert len(load_records(tmp_path / "a" / "games.jsonl")) == 2


def test_tournament_table(tmp_path: Path) -> None:
    code, text, exc = run(
        "tournament",
        "--bots",
        "dumb",
        "--games",
        "1",
        "--seed",
        "1",
        "--max-year",
        "1901",
        "--out",
        str(tmp_path),
    )
    assert code == 0, exc
    assert "dumb" in text and "95% interval" in text and "7 (100%)" in text


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["bot-game", "--bots", "dumb,clever*6", "--seed", "1"], "'clever'"),
        (["bot-game", "--bots", "dumb", "--seed", "1", "--map", "world"], "'world'"),
        (["tournament", "--bots", "dumb,random", "--games", "2", "--seed", "1"], "'dumb,random'"),
        (["tournament", "--bots", "dumb", "--games", "2", "--seed", "1", "--dask", "nowhere"], "'nowhere'"),
    ],
)
def test_bad_input_is_a_diplomacy_error(tmp_path: Path, args: list[str], quoted: str) -> None:
    code, _, exc = run(*args, "--out", str(tmp_path / "x.json"))
    assert code != 0
    assert isinstance(exc, DiplomacyError) and quoted in str(exc)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["bot-game", "--bots", "dumb", "--seed", "-2"], "--seed: '-2' is out of range 0.."),
        (["tournament", "--bots", "dumb", "--games", "0", "--seed", "1"], "--games: '0' is out of range 1.."),
        (["tournament", "--bots", "dumb", "--games", "0_2", "--seed", "1"], "--games: '0_2' is not"),
        (["tournament", "--bots", "dumb", "--games", "2", "--seed", "+1"], "--seed: '+1' is not an integer"),
        (["bot-game", "--bots", "dumb", "--seed", "1", "--max-year", "1_905"], "--max-year: '1_905'"),
    ],
)
def test_numbers_are_read_by_the_shared_reader(tmp_path: Path, args: list[str], line: str) -> None:
    """Issue 24: option values go through the shared number reader: one red line quoting the text."""
    from typer.testing import CliRunner

    from boardeval.cli.main import app

    result = CliRunner().invoke(app, ["diplomacy", *args, "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and line in lines[0], result.stderr


def test_tournament_out_must_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    _, _, exc = run(
        "tournament", "--bots", "dumb", "--games", "1", "--seed", "1", "--out", str(tmp_path / "file")
    )
    assert isinstance(exc, DiplomacyError) and "is a file" in str(exc)


def test_bot_game_out_folder_must_exist(tmp_path: Path) -> None:
    _, _, exc = run("bot-game", "--bots", "dumb", "--seed", "1", "--out", str(tmp_path / "no" / "g.json"))
    assert isinstance(exc, DiplomacyError) and "does not exist" in str(exc)


def test_allies_options(tmp_path: Path) -> None:
    code, text, exc = run(
        "tournament",
        "--bots",
        "dumb*4,random*3",
        "--games",
        "2",
        "--seed",
        "2",
        "--max-year",
        "1901",
        "--allies",
        "1",
        "--json",
        "--out",
        str(tmp_path / "t"),
    )
    assert code == 0, exc
    assert [b["name"] for b in json.loads(text)["bots"]] == ["dumb", "random", "dumb+ally"]
    rows = json.loads((tmp_path / "t" / "results.json").read_text())["games"]
    assert all(len(r["allies"]) == 1 for r in rows)
    code, text, exc = run(
        "bot-game",
        "--bots",
        "dumb",
        "--seed",
        "1",
        "--max-year",
        "1901",
        "--allies",
        "ENGLAND:FRANCE",
        "--out",
        str(tmp_path / "g.json"),
    )
    assert code == 0, exc
    assert "dumb+ally" in text
    _, _, exc = run(
        "bot-game",
        "--bots",
        "dumb",
        "--seed",
        "1",
        "--allies",
        "england:france",
        "--out",
        str(tmp_path / "i.json"),
    )
    assert isinstance(exc, DiplomacyError) and "did you mean 'ENGLAND'" in str(exc)  # issue 24: exact names
    _, _, exc = run(
        "bot-game",
        "--bots",
        "dumb,random*6",
        "--seed",
        "1",
        "--allies",
        "AUSTRIA:ENGLAND",
        "--out",
        str(tmp_path / "h.json"),
    )
    assert isinstance(exc, DiplomacyError) and "ENGLAND is played by 'random'" in str(exc)
