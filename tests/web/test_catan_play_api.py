"""Play-test and advise endpoints: the CLI's JSON shapes, the same games as the library, bounded game counts
(422), base board only, cancel keeps the finished games flagged."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardeval.catan import Board, advise, run_playtest
from boardeval.web.app import create_app
from tests.web.helpers import wait_for_job

BOARD = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
KEYS = {"code", "board", "games", "players", "seats", "turns", "unfinished", "seconds"}


def test_playtest_job_matches_the_library(client: TestClient) -> None:
    body = {"board": BOARD, "games": 2, "players": ["advisor", "pips", "weighted", "weighted"], "seed": 4}
    resp = client.post("/api/jobs/catan/playtest", json=body)
    assert resp.status_code == 202, resp.text
    job = wait_for_job(client, resp.json()["id"])
    assert job["state"] == "done", job
    result = job["result"]
    assert set(result) >= KEYS
    assert result["code"] == BOARD  # the share code's one name in every answer (issue 22)
    expected = run_playtest(Board.parse(BOARD), body["players"], games=2, seed=4, rotate=True).to_json()
    for key in KEYS - {"seconds"}:
        assert result[key] == expected[key], key
    assert result["games"] == 8 and result["planned"] == 8 and result["interrupted"] is False
    assert result["listed"] == body["players"] and result["rotate"] is True
    lo, hi = result["turns_ci95"]
    assert lo <= result["turns"]["mean"] <= hi
    # the advisor settles twice per game: its picks count 16 settlements over 8 games
    picks = result["advisor_picks"]
    assert sum(p["count"] for p in picks) == 16
    assert sum(p["share"] for p in picks) == pytest.approx(1.0)
    assert [p["count"] for p in picks] == sorted((p["count"] for p in picks), reverse=True)
    assert result["advice"]["spot"] == advise(Board.parse(BOARD)).spot
    assert any(p["spot"] == result["advice"]["spot"] for p in picks)  # in seat 1 it takes exactly that


def test_advise_endpoint_is_the_cli_shape(client: TestClient) -> None:
    resp = client.post("/api/catan/advise", json={"board": BOARD, "taken": [40, 13, 24, 2]})
    assert resp.status_code == 200, resp.text
    data = resp.json()
    assert data == advise(Board.parse(BOARD), (40, 13, 24, 2)).to_json()
    assert data["seat"] == 4 and data["pick"] == 2 and data["first"] == 2
    assert {t["name"] for t in data["why"]["terms"]} >= {"spot_score", "diversity", "harbour"}


@pytest.mark.parametrize(
    ("path", "body", "fragment"),
    [
        ("/api/jobs/catan/playtest", {"board": BOARD, "games": 0}, "games"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "games": 2001}, "games"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "games": 600}, "2400 games"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "players": ["advisor", "bogus"]}, "bogus"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "players": ["advisor"]}, "players"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "players": ["pips"] * 5}, "players"),
        ("/api/jobs/catan/playtest", {"board": "X1-nope"}, "X1-nope"),
        ("/api/jobs/catan/playtest", {"board": BOARD, "seed": -1}, "seed"),
        ("/api/catan/advise", {"board": BOARD, "taken": [40, 41]}, "neighbours"),
        ("/api/catan/advise", {"board": BOARD, "taken": [99]}, "99"),
        ("/api/catan/advise", {"board": "nonsense"}, "nonsense"),
    ],
)
def test_bad_requests_answer_422(client: TestClient, path: str, body: dict[str, Any], fragment: str) -> None:
    resp = client.post(path, json=body)
    assert resp.status_code == 422, resp.text
    assert fragment in str(resp.json()["detail"])


def test_extended_board_is_refused_with_the_reason(client: TestClient) -> None:
    code = Board.random(seed=1, layout="extended").code()
    for path in ("/api/jobs/catan/playtest", "/api/catan/advise"):
        resp = client.post(path, json={"board": code})
        assert resp.status_code == 422, resp.text
        assert "5-6 player" in resp.json()["detail"]


def test_cancel_keeps_the_finished_games_flagged() -> None:
    with TestClient(create_app(job_workers=1)) as c:
        resp = c.post("/api/jobs/catan/playtest", json={"board": BOARD, "games": 500, "seed": 1})
        job_id = resp.json()["id"]
        wait_for_job(c, job_id, until=lambda job: job["done"] >= 2)  # two games finished
        c.delete(f"/api/jobs/{job_id}")
        job = wait_for_job(c, job_id)
    assert job["state"] == "cancelled"
    result = job["result"]
    assert result["interrupted"] is True and 2 <= result["games"] < result["planned"] == 2000
    assert sum(p["wins"] for p in result["players"]) + result["unfinished"] == result["games"]


def test_equity_endpoint_is_the_cli_shape_and_strict(client: TestClient) -> None:
    from boardeval.catan import seat_equity

    resp = client.post("/api/catan/equity", json={"board": BOARD})
    assert resp.status_code == 200, resp.text
    assert resp.json() == seat_equity(Board.parse(BOARD)).to_json()
    assert client.post("/api/catan/equity", json={"board": BOARD, "seats": 4}).status_code == 422
    assert client.post("/api/catan/equity", json={"board": "X1"}).status_code in (400, 422)
    five = Board.random(2, "extended").code()
    body = client.post("/api/catan/equity", json={"board": five}).json()
    assert body["win_probabilities"] is None and "5-6 player" in body["note"] and len(body["seats"]) == 6
