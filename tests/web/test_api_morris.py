"""Morris API: replaying games statelessly, legal turns, the AI's turn and its why-panel, bad requests."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from boardeval.morris import STRENGTHS, Position
from boardeval.web.morris import Strength

START = "........................ w 9 9"


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def test_start_state(client: TestClient) -> None:
    s = client.post("/api/morris/state", json={}).json()
    assert s["position"] == START and s["side"] == "white" and s["phase"] == "placing"
    assert len(s["legal"]) == 24 and s["outcome"] == "ongoing"
    assert s["names"][:3] == ["a7", "d7", "g7"] and s["points"] == ["."] * 24


def test_state_matches_the_engine(client: TestClient) -> None:
    moves = ["d2", "f4", "d1", "b4"]
    s = client.post("/api/morris/state", json={"moves": moves}).json()
    pos = Position.from_moves(" ".join(moves))
    assert s["position"] == pos.text() and s["moves"] == moves
    assert sorted(s["legal"]) == sorted(str(t) for t in pos.legal_turns())
    assert s["hand"] == {"white": 7, "black": 7} and s["on_board"] == {"white": 2, "black": 2}


def test_closing_a_mill_requires_a_removal(client: TestClient) -> None:
    s = client.post("/api/morris/state", json={"moves": ["a7", "b6", "d7", "b4"]}).json()
    closing = [t for t in s["legal"] if t.startswith("g7")]
    assert sorted(closing) == ["g7xb4", "g7xb6"]
    after = client.post("/api/morris/state", json={"moves": ["a7", "b6", "d7", "b4", "g7xb6"]}).json()
    assert after["points"][3] == "." and after["on_board"] == {"white": 3, "black": 1}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"moves": ["d2", "d2"]}, "move 2"),
        ({"moves": ["zz9"]}, "move 1"),
        ({"moves": ["a7", "b6", "d7", "b4", "g7"]}, "move 5"),
        ({"position": "WWW w 9 9"}, "WWW"),
        ({"variant": "chess"}, "variant: "),
        ({"moves": ["d2"] * 1001}, "moves: "),
        ({"moves": "d2"}, "moves: "),
    ],
)
def test_bad_games_are_422(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    r = client.post("/api/morris/state", json=body)
    assert r.status_code == 422, r.text
    assert fragment in r.json()["detail"]


def test_ai_plays_a_legal_turn_and_explains_it(client: TestClient) -> None:
    moves = ["d2", "f4"]
    before = client.post("/api/morris/state", json={"moves": moves}).json()
    ans = client.post("/api/morris/ai", json={"moves": moves, "strength": "easy", "candidates": 3}).json()
    assert ans["move"] in before["legal"]
    assert ans["state"]["moves"] == [*moves, ans["move"]] and ans["state"]["side"] == "black"
    why = ans["why"]
    assert why["side"] == "white" and why["features"]["white"]["material"] == 9
    assert 1 <= len(why["candidates"]) <= 3 and why["explanation"]
    assert "scale" not in _keys(why) and "scales" not in _keys(why)


def test_ai_takes_a_mill_when_it_can(client: TestClient) -> None:
    """White a7, d7 and g7 empty: closing the mill wins a man, and a one-turn look-ahead (easy) takes it.

    (Deeper searches with the default weights may keep the threat and place for mobility instead: the
    placing-phase judgement of docs/morris-eval.md.)"""
    ans = client.post("/api/morris/ai", json={"moves": ["a7", "b6", "d7", "b4"], "strength": "easy"}).json()
    assert ans["move"].startswith("g7x")


def test_ai_on_a_finished_game_is_422(client: TestClient) -> None:
    # Black is down to 2 men on board and none in hand: the game is over.
    pos = "WWW.........BB.......... b 0 0"
    r = client.post("/api/morris/ai", json={"position": pos, "moves": []})
    assert r.status_code == 422
    assert r.json()["detail"] == (
        "the game is over (White has won: Black has fewer than 3 men); start a new game"
    )


def test_ai_bad_strength_is_422(client: TestClient) -> None:
    r = client.post("/api/morris/ai", json={"strength": "godlike"})
    assert r.status_code == 422 and r.json()["detail"].startswith("strength: ")
    r = client.post("/api/morris/ai", json={"candidates": 50})
    assert r.status_code == 422 and r.json()["detail"].startswith("candidates: ")


def test_resume_page_from_url(client: TestClient) -> None:
    r = client.get("/morris", params={"moves": "d2 f4", "colour": "black"})
    assert r.status_code == 200 and '"moves": "d2 f4"' in r.text
    assert client.get("/morris", params={"colour": "green"}).status_code == 422


def test_variant_is_used(client: TestClient) -> None:
    s = client.post("/api/morris/state", json={"moves": ["d2"], "variant": "openspiel"}).json()
    assert s["side"] == "black" and len(s["legal"]) == 23
    r = client.get("/morris", params={"variant": "openspiel"})
    assert r.status_code == 200 and '"variant": "openspiel"' in r.text


def test_strength_names_are_the_library_levels() -> None:
    """The API's strength choice lists exactly the library's levels (one definition of strength)."""
    assert list(get_args(Strength)) == list(STRENGTHS)


def test_ai_answer_names_the_scored_features(client: TestClient) -> None:
    """The page labels a feature "not scored" from this list: the base profile gives initiative weight 0."""
    ans = client.post("/api/morris/ai", json={"moves": ["a7", "e3", "g7"], "strength": "easy"}).json()
    assert "initiative" not in ans["scored"] and {"material", "threats", "mobility"} <= set(ans["scored"])
    assert set(ans["scored"]) <= set(ans["why"]["features"]["white"])


def test_why_explains_the_best_move_without_playing_it(client: TestClient) -> None:
    moves = ["d2", "a7", "f4", "d7", "b4"]
    hint = client.post("/api/morris/why", json={"moves": moves, "strength": "easy"}).json()
    ai = client.post("/api/morris/ai", json={"moves": moves, "strength": "easy"}).json()
    assert hint["move"] == ai["move"] and hint["score"] == ai["score"]
    assert hint["state"]["moves"] == moves and hint["state"]["side"] == "black"  # nothing played
    assert hint["why"]["side"] == "black" and hint["why"]["candidates"][0]["move"] in hint["state"]["legal"]
    over = client.post("/api/morris/why", json={"position": "WWW.........BB.......... b 0 0"})
    assert over.status_code == 422 and "over" in over.json()["detail"]


def test_evals_are_the_analysis_in_white_view(client: TestClient) -> None:
    """The graph's value of a position is the analysis' best root turn (each position from a fresh table),
    White's view, searched 6 turns deep with White to move and 7 with Black to move (issue 23 §2.2)."""
    from boardeval.morris import WHITE, Searcher

    moves = ["d2", "a7", "f4", "d7", "b4"]
    ans = client.post("/api/morris/evals", json={"moves": moves}).json()
    assert ans["total"] == 6 and ans["from_ply"] == 0 and ans["depth"] == 6 and len(ans["scores"]) == 6
    assert ans["depths"] == [6, 7, 6, 7, 6, 7] and ans["verdicts"] == [None] * 6
    for ply, score in enumerate(ans["scores"][:2]):
        pos = Position.from_moves(moves[:ply])
        expected = Searcher().top_moves(pos, 1, ans["depths"][ply])[0].score
        assert score == pytest.approx(expected if pos.side == WHITE else -expected, abs=1e-4)
    tail = client.post("/api/morris/evals", json={"moves": moves, "from_ply": 4}).json()
    assert tail["from_ply"] == 4 and tail["scores"] == ans["scores"][4:] and tail["depths"] == [6, 7]
    r = client.post("/api/morris/evals", json={"moves": moves, "from_ply": 6})
    assert r.status_code == 422 and "from_ply 6" in r.json()["detail"]
    r = client.post("/api/morris/evals", json={"moves": ["d2", "d2"]})
    assert r.status_code == 422 and "move 2" in r.json()["detail"]


def test_the_hint_is_the_analysis_and_scores_the_graphs_value(client: TestClient) -> None:
    """With ``analysis`` the hint explains the analysis' best turn: its score is the graph's value there,
    in the side to move's view (``score``) and White's (``white_score``), whatever the strength. Where the
    opening book holds the position, the turn is the book's (the AI's), among the analysis' candidates."""
    off_book = ["d2", "a7", "f4", "g7", "b4", "a1", "d6", "g1"]  # ply 8 (White to move): past the book
    moves = ["d2", "a7", "f4"]  # ply 3, in the book; Black to move: the two views differ in sign
    graph = client.post("/api/morris/evals", json={"moves": off_book}).json()
    for turns in (moves, off_book):
        ask = {"moves": turns, "strength": "easy", "analysis": True}
        hint = client.post("/api/morris/why", json=ask).json()
        black = len(turns) % 2 == 1
        assert hint["analysis"] is True and hint["depth"] == (7 if black else 6) and hint["verdict"] is None
        assert hint["white_score"] == pytest.approx(graph["scores"][len(turns)], abs=1e-4)
        assert hint["score"] == pytest.approx(hint["white_score"] * (-1 if black else 1), abs=1e-4)
        first = hint["why"]["candidates"][0]
        assert first["white_score"] == hint["white_score"] and hint["nodes"] > 0
        book = hint["why"]["book"]
        if turns is off_book:
            assert book is None and hint["move"] == first["move"] and hint["pv"] == first["pv"]
            continue
        # the book's move, with its proven value in words, whatever rank the depth-7 analysis gives it
        (tagged,) = [c for c in hint["why"]["candidates"] if c["book"]]
        assert hint["move"] == book["move"] == tagged["move"] and hint["pv"] == tagged["pv"]
        assert book["exact"] is True and hint["why"]["explanation"][0].startswith("Book move: ")
        # the graph's answer carries what the book proves of each position it holds, in words
        assert book["value"] == "draw" and graph["book"][3] == "a draw with best play"
        assert tagged["score"] <= first["score"] == hint["score"]  # side to move's view
        # the hint's answer says what the book proves of the position, as the graph's readout does
        assert hint["book"] == graph["book"][3]
    # off the book (White's a7, then g1), where the book knows every turn's outcome: the hint keeps the draw
    ask = {"moves": ["a7", "b4", "g1", "d2"], "strength": "easy", "analysis": True}
    hint = client.post("/api/morris/why", json=ask).json()
    assert hint["why"]["book"] is None and hint["why"]["proven"]["value"] == "draw"
    (kept,) = [c for c in hint["why"]["candidates"] if c["keeps"]]
    assert hint["move"] == kept["move"] == hint["why"]["proven"]["move"] and kept["proven"]["value"] == "draw"
    assert hint["white_score"] == hint["why"]["candidates"][0]["white_score"]  # still the graph's value
    # the graph knows the position's value too: not held by the book, but every turn's outcome is
    off = client.post("/api/morris/evals", json={"moves": ask["moves"]}).json()["book"]
    assert off[4] == "a draw with best play" and all(off)
    assert graph["book"][0] == "a draw with best play"  # Gasser's result, which the book reproduces
    assert all(graph["book"][:4]) and graph["book"][8] is None  # every position of plies 0-3; ply 8: none
    # the AI plays the book's move without a search; its answer carries the book's value too
    for turns in (moves, off_book):
        ai = client.post("/api/morris/ai", json={"moves": turns, "strength": "easy"}).json()
        assert ai["book"] == graph["book"][len(turns)]
        assert (ai["nodes"] == 0) == (turns is moves)
    # strict: a boolean, on /why only
    for bad in ({"analysis": "true"}, {"analysis": 1}):
        r = client.post("/api/morris/why", json={"moves": moves, **bad})
        assert r.status_code == 422 and r.json()["detail"].startswith("analysis: ")
    r = client.post("/api/morris/ai", json={"moves": moves, "analysis": True})
    assert r.status_code == 422 and "analysis" in r.json()["detail"]
    r = client.post("/api/morris/why", json={"moves": moves, "analyse": True})
    assert r.status_code == 422 and r.json()["detail"].startswith("analyse: ")


BLOCKADE = "......BW..WBW.WBBB..W... w 0 0"  # f2-d2 leaves Black no legal move


def test_a_decided_line_has_a_verdict_in_words(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23 §2.1: the answer carries a structured verdict beside the number; the why-panel's words say
    it (no feature list for a winning move)."""
    from boardeval.web.morris import TABLEBASE_ENV

    monkeypatch.setenv(TABLEBASE_ENV, "none")
    ans = client.post("/api/morris/ai", json={"position": BLOCKADE, "strength": "easy"}).json()
    assert ans["move"] == "f2-d2" and ans["score"] == 9999.0 and ans["white_score"] == 9999.0
    assert ans["verdict"] == {
        "result": "win",
        "winner": "white",
        "turns": 1,
        "source": "rules",
        "text": "wins: Black has no legal move after this",
        "headline": "White wins: Black has no legal move",
    }
    assert ans["why"]["verdict"] == ans["verdict"]
    assert ans["why"]["explanation"][0] == "White wins: Black has no legal move (f2-d2)."
    graph = client.post("/api/morris/evals", json={"position": BLOCKADE, "moves": ["f2-d2"]}).json()
    assert graph["verdicts"][0] == ans["verdict"] and graph["depths"] == [6, 0]
    assert graph["verdicts"][1]["headline"] == "White has won: Black has no legal move"


def test_evals_of_a_won_position(client: TestClient) -> None:
    ans = client.post("/api/morris/evals", json={"position": "WWW.........BB.......... b 0 0"}).json()
    assert ans["scores"] == [10000.0]  # black has 2 men: White has won
    assert ans["verdicts"][0]["headline"] == "White has won: Black has fewer than 3 men"
    assert ans["verdicts"][0]["result"] == "loss" and ans["depths"] == [0]  # Black, to move, has lost


def test_page_takes_a_share_link(client: TestClient) -> None:
    r = client.get(
        "/morris",
        params={"moves": "d2 f4", "colour": "both", "ply": 1, "why": 1, "strength": "easy",
                "start": "........................  w 9 9"},
    )  # fmt: skip
    assert r.status_code == 200
    for fragment in (
        '"colour": "both"',
        '"ply": 1',
        '"why": 1',
        '"strength": "easy"',
        '"start": "........................  w 9 9"',  # as given: no silent fix-up (issue 24)
    ):
        assert fragment in r.text
    assert client.get("/morris", params={"strength": "godlike"}).status_code == 422
    assert client.get("/morris", params={"ply": -1}).status_code == 422
