"""The Morris web page and the endgame tablebase (issue 13 section 2): with a tablebase built (a tiny 3v3 one
in a temporary folder, named by ``BOARDEVAL_TABLEBASE``) the AI plays its best turn and the answer carries
the verdict in words; without one, the answer says how to build it."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardeval.morris import Position
from boardeval.morris.tablebase import Tablebase
from boardeval.morris.tuning import sample_covered
from boardeval.web.morris import BUILD_COMMAND, TABLEBASE_ENV
from tests.morris.helpers import make

pytestmark = pytest.mark.slow  # the 3v3 build (tablebase_3v3) takes ~1-3 s, up to ~10 s on a loaded machine


@pytest.fixture(scope="module")
def tb3(tablebase_3v3: Path) -> Path:
    return tablebase_3v3  # tests/conftest.py: built once per test process


def _ai(client: TestClient, pos: Position, **extra: object) -> dict[str, object]:
    res = client.post("/api/morris/ai", json={"position": pos.text(), "moves": [], **extra})
    assert res.status_code == 200, res.text
    data: dict[str, object] = res.json()
    return data


def test_covered_position_shows_the_verdict_and_plays_the_best_turn(
    client: TestClient, tb3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """White (3 men, flying) closes a7-d7-g7 by g1-g7: Black is left with 2 men. The tablebase says White
    wins in 1; the AI (even at "easy") plays a winning turn, and the why-panel says it in words."""
    monkeypatch.setenv(TABLEBASE_ENV, str(tb3))
    pos = make("a7 d7 g1", "b6 f2 c4", side="w")
    want = Tablebase.open(tb3).probe(pos)
    assert (want.value, want.distance) == ("win", 1)
    ans = _ai(client, pos, strength="easy")
    tb = ans["tablebase"]
    assert isinstance(tb, dict)
    assert tb["available"] and tb["covers"] and tb["verdict"] == "tablebase: White wins in 1"
    assert str(ans["move"]).startswith("g1-g7x")
    why = ans["why"]
    assert isinstance(why, dict)
    assert why["explanation"][0] == "tablebase: White wins in 1."
    assert why["tablebase"]["value"] == "win"
    state = ans["state"]
    assert isinstance(state, dict) and state["outcome"] == "white"


def test_drawn_covered_position_is_said_to_be_a_draw(
    client: TestClient, tb3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 3v3 position the tablebase calls a draw: the verdict says so and the AI keeps the draw."""
    monkeypatch.setenv(TABLEBASE_ENV, str(tb3))
    tb = Tablebase.open(tb3)
    pos = next(
        p for p in sample_covered(tb, (3, 3), 20, seed=3, decided_share=0.0) if tb.probe(p).value == "draw"
    )
    ans = _ai(client, pos, strength="medium")
    assert ans["tablebase"] == {
        "available": True,
        "folder": str(tb3),
        "covers": True,
        "verdict": "tablebase: Draw",
        "note": "tablebase: Draw.",
    }
    after = pos.copy()
    after.play(str(ans["move"]))
    assert after.outcome() is None and tb.probe(after).value == "draw"


def test_uncovered_position_says_what_the_tablebase_covers(
    client: TestClient, tb3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TABLEBASE_ENV, str(tb3))
    ans = _ai(client, Position.start(), strength="easy")
    tb = ans["tablebase"]
    assert isinstance(tb, dict)
    assert tb["available"] and not tb["covers"] and tb["verdict"] is None
    assert "up to 3 men a side" in str(tb["note"]) and "does not cover" in str(tb["note"])


def test_without_a_tablebase_the_answer_says_how_to_build_one(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TABLEBASE_ENV, str(tmp_path / "nothing-here"))
    pos = make("a7 d7 g1", "b6 f2 c4", side="w")
    ans = _ai(client, pos, strength="easy")
    tb = ans["tablebase"]
    assert isinstance(tb, dict)
    assert not tb["available"] and tb["verdict"] is None
    assert BUILD_COMMAND in str(tb["note"]) and "nothing-here" in str(tb["note"])
    assert str(ans["move"]).startswith("g1-g7x")  # the search finds the win alone
    monkeypatch.setenv(TABLEBASE_ENV, "none")
    off = _ai(client, pos, strength="easy")["tablebase"]
    assert isinstance(off, dict) and "switched off" in str(off["note"])
