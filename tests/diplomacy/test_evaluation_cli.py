"""``corpus``, ``fit-evaluation``, ``evaluate`` and ``alliances`` on a throw-away Typer app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardeval.cli.diplomacy_eval import register
from boardeval.core import DiplomacyError, ParamsError
from boardeval.diplomacy import load_records, shipped_game_paths
from boardeval.diplomacy.evaluation import FEATURES, Evaluation, evaluate_position
from tests.diplomacy.helpers import invoke_registered


def run(*args: str) -> tuple[int, str, BaseException | None]:
    return invoke_registered(register, *args)


@pytest.fixture(scope="module")
def human_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus folder holding the three human games (read from the installed engine, written to tmp)."""
    folder = tmp_path_factory.mktemp("humans")
    (folder / "human").mkdir()
    lines = [json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in shipped_game_paths()]
    (folder / "human" / "games.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [{"index": k, "allies": []} for k in range(len(lines))]
    (folder / "human" / "results.json").write_text(json.dumps({"games": rows}), encoding="utf-8")
    manifest = {
        "seed": 5,
        "games": 3,
        "max_year": None,
        "mixes": [{"bots": "humans", "allies": 0, "dir": "human", "seed": 5, "games": 3}],
    }
    (folder / "corpus.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def test_evaluate_json_is_every_powers_breakdown() -> None:
    game = shipped_game_paths()[0]
    code, text, exc = run("evaluate", str(game), "--phase", "F1903M", "--json")
    assert code == 0, exc
    data = json.loads(text)
    assert list(data) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    france = data["FRANCE"]
    assert [t["name"] for t in france["terms"]] == [*FEATURES, "intercept"]
    assert france["total"] == pytest.approx(sum(t["contribution"] for t in france["terms"]))
    expected = evaluate_position(load_records(game)[0], "F1903M")["FRANCE"].total
    assert france["total"] == pytest.approx(expected)


def test_evaluate_table_and_targets() -> None:
    game = shipped_game_paths()[1]
    code, text, exc = run("evaluate", str(game), "--target", "eliminated_3y")
    assert code == 0, exc
    assert "eliminated_3y" in text and "breakdown" in text and "intercept" in text


def test_evaluate_bad_input_is_a_library_error(tmp_path: Path) -> None:
    game = shipped_game_paths()[0]
    code, _, exc = run("evaluate", str(game), "--phase", "S1850M")
    assert code != 0 and isinstance(exc, DiplomacyError) and "'S1850M'" in str(exc)
    code, _, exc = run("evaluate", str(game), "--target", "glory")
    assert isinstance(exc, DiplomacyError) and "'glory'" in str(exc)
    code, _, exc = run("evaluate", str(game), "--game-index", "5")
    assert isinstance(exc, ParamsError) and "5" in str(exc)
    bad = tmp_path / "weights.json"
    bad.write_text("{}")
    code, _, exc = run("evaluate", str(game), "--weights", str(bad))
    assert isinstance(exc, DiplomacyError) and str(bad) in str(exc)


def test_fit_evaluation_writes_a_loadable_file(human_corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "ev.json"
    code, text, exc = run("fit-evaluation", str(human_corpus), "--out", str(out), "--test-fraction", "0.34")
    assert code == 0, exc
    assert "fitted on 2 games" in text and "1 held out" in text
    evaluation = Evaluation.load(out)
    assert evaluation.corpus["seed"] == 5 and evaluation.corpus["train_games"] == 2
    code, text, exc = run("evaluate", str(shipped_game_paths()[2]), "--weights", str(out), "--json")
    assert code == 0, exc
    assert set(json.loads(text)) >= {"FRANCE", "RUSSIA"}


def test_fit_evaluation_on_a_missing_corpus(tmp_path: Path) -> None:
    _, _, exc = run("fit-evaluation", str(tmp_path / "none"), "--out", str(tmp_path / "ev.json"))
    assert isinstance(exc, DiplomacyError) and "none" in str(exc)


def test_corpus_command_writes_the_mixes(tmp_path: Path) -> None:
    out = tmp_path / "c"
    code, text, exc = run("corpus", "--games", "4", "--seed", "2", "--max-year", "1901", "--out", str(out))
    assert code == 0, exc
    assert "dumb7-allies2" in text and (out / "corpus.json").exists()
    assert len((out / "dumb2-random5" / "games.jsonl").read_text().splitlines()) == 1
    code, _, exc = run("corpus", "--games", "2", "--seed", "2", "--out", str(tmp_path / "d"))
    assert isinstance(exc, DiplomacyError) and "2" in str(exc)


def test_alliances_json_and_table() -> None:
    game = shipped_game_paths()[2]
    code, text, exc = run("alliances", str(game), "--json")
    assert code == 0, exc
    data = json.loads(text)
    assert data["game"] == "0021f2cf" and [y["year"] for y in data["years"]][:2] == [1901, 1902]
    assert all(len(pair) == 2 for y in data["years"] for pair in y["pairs"])
    code, text, exc = run("alliances", str(game))
    assert code == 0, exc
    assert "1905" in text
    assert data["rule"] == "peace"
    code, text, exc = run("alliances", str(game), "--rule", "calm", "--json")
    assert code == 0 and json.loads(text)["rule"] == "calm", exc
    code, _, exc = run("alliances", str(game), "--rule", "friends")
    assert isinstance(exc, DiplomacyError) and "'friends'" in str(exc)
