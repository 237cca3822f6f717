"""Catan API: board views, edits, downloads, generation jobs, and every bad request answered 4xx."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardeval.catan import Board, board_energy, evaluate_spots

SEED_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"  # the spec's example


def test_board_view_agrees_with_the_library(client: TestClient) -> None:
    r = client.get("/api/catan/board", params={"board": SEED_CODE})
    assert r.status_code == 200
    v = r.json()
    board = Board.parse(SEED_CODE)
    assert v["code"] == SEED_CODE and v["share_url"].startswith("/catan?board=O10-S2")
    assert math.isclose(v["energy"]["total"], board_energy(board).total)
    harbour = next(t for t in v["energy"]["terms"] if t["name"] == "ports")  # the harbour line (issue 16)
    assert (
        harbour["raw"] == board_energy(board)["ports"].raw and v["energy"]["extras"]["ports"]["own_pips"] == 6
    )
    table = evaluate_spots(board)
    assert len(v["spots"]) == 54
    assert sorted(s["rank"] for s in v["spots"]) == list(range(1, 55))
    for s in v["spots"]:
        assert math.isclose(s["score"], float(table.scores[s["spot"]]), rel_tol=1e-9, abs_tol=1e-12)
        terms = s["breakdown"]["terms"]
        assert len(terms) == 5
        assert math.isclose(sum(t["contribution"] for t in terms), s["score"], rel_tol=1e-9, abs_tol=1e-9)
    best = min(v["spots"], key=lambda s: s["rank"])
    assert best["score"] == max(s["score"] for s in v["spots"])
    assert v["svg"].lstrip().startswith("<svg") and v["svg"].count('class="spot"') >= 54
    assert 'data-hex="18"' in v["svg"]


def test_random_is_reproducible(client: TestClient) -> None:
    a = client.get("/api/catan/random", params={"seed": 11}).json()["code"]
    b = client.get("/api/catan/random", params={"seed": 11}).json()["code"]
    c = client.get("/api/catan/random", params={"seed": 12}).json()["code"]
    assert a == b == Board.random(11).code() and a != c


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("nonsense", "nonsense"),
        (SEED_CODE.replace("O10", "O7"), "7"),
        (SEED_CODE.replace("-D-", "-D5-"), "desert"),
        (SEED_CODE.replace("~3S3W3B3GO", "~3S3W3B3GX"), "X"),
        (SEED_CODE.replace("O10-S2", "O10-O2"), "ore"),
    ],
)
def test_bad_board_codes_are_422_with_the_reason(client: TestClient, code: str, fragment: str) -> None:
    for r in (
        client.get("/api/catan/board", params={"board": code}),
        client.post("/api/catan/swap", json={"board": code, "kind": "hexes", "a": 0, "b": 1}),
        client.post("/api/catan/parse", json={"text": code}),
        client.get("/api/catan/board.svg", params={"board": code}),
    ):
        assert r.status_code == 422
        assert fragment.lower() in r.json()["detail"].lower()


def test_missing_or_oversized_board_parameter(client: TestClient) -> None:
    r = client.get("/api/catan/board")
    assert r.status_code == 422 and r.json()["detail"].startswith("board: ")
    r = client.get("/api/catan/board", params={"board": "x" * 500})
    assert r.status_code == 422 and "200" in r.json()["detail"]


def test_broken_share_link_page_is_422_with_message(client: TestClient) -> None:
    r = client.get("/catan", params={"board": "W4-B3"})
    assert r.status_code == 422
    assert "That board link is broken" in r.text and "19" in r.text


def test_share_link_page_embeds_the_board(client: TestClient) -> None:
    r = client.get("/catan", params={"board": SEED_CODE})
    assert r.status_code == 200 and SEED_CODE in r.text


def test_swap_hexes_and_numbers(client: TestClient) -> None:
    board = Board.parse(SEED_CODE)
    v = client.post("/api/catan/swap", json={"board": SEED_CODE, "kind": "hexes", "a": 0, "b": 1}).json()
    new = Board.parse(v["code"])
    assert (new.resources[0], new.numbers[0]) == (board.resources[1], board.numbers[1])
    assert (new.resources[1], new.numbers[1]) == (board.resources[0], board.numbers[0])
    assert math.isclose(v["energy"]["total"], board_energy(new).total)
    v = client.post("/api/catan/swap", json={"board": SEED_CODE, "kind": "numbers", "a": 0, "b": 2}).json()
    new = Board.parse(v["code"])
    assert new.resources == board.resources
    assert (new.numbers[0], new.numbers[2]) == (board.numbers[2], board.numbers[0])


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"kind": "hexes", "a": 3, "b": 3}, "two different"),
        ({"kind": "hexes", "a": 0, "b": 30}, "b: "),
        ({"kind": "hexes", "a": 0, "b": 19}, "0..18"),  # in the schema (5-6 player boards), not this board
        ({"kind": "hexes", "a": -1, "b": 2}, "a: "),
        ({"kind": "rows", "a": 0, "b": 1}, "kind: "),
        ({"kind": "numbers", "a": 0, "b": 9}, "desert"),
        ({"kind": "ports", "a": 0, "b": 12}, "0..8"),
    ],
)
def test_bad_swaps_are_422(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    r = client.post("/api/catan/swap", json={"board": SEED_CODE, **body})
    assert r.status_code == 422, r.text
    assert fragment in r.json()["detail"]


def test_paste_json_round_trip(client: TestClient) -> None:
    import json

    board = Board.random(5)
    v = client.post("/api/catan/parse", json={"text": json.dumps(board.to_json())}).json()
    assert v["code"] == board.code()
    r = client.post("/api/catan/parse", json={"text": '{"hexes": [}'})
    assert r.status_code == 422 and r.json()["detail"]


def test_downloads(client: TestClient) -> None:
    r = client.get("/api/catan/board.svg", params={"board": SEED_CODE})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "attachment" in r.headers["content-disposition"] and r.text.lstrip().startswith("<svg")
    r = client.get("/api/catan/board.json", params={"board": SEED_CODE})
    data = r.json()
    assert data["code"] == SEED_CODE and len(data["spots"]) == 54
    assert Board.from_json(data["board"]).code() == SEED_CODE


def test_extended_layout_random_swap_and_generate(client: TestClient) -> None:
    v = client.get("/api/catan/random?seed=3&layout=extended").json()
    assert v["layout"] == "extended" and len(v["spots"]) == 80
    assert v["board"]["layout"] == "extended" and len(v["board"]["hexes"]) == 30
    assert Board.parse(v["code"]) == Board.random(3, layout="extended")
    swapped = client.post("/api/catan/swap", json={"board": v["code"], "kind": "hexes", "a": 0, "b": 29})
    assert swapped.status_code == 200 and swapped.json()["layout"] == "extended"
    ports = client.post("/api/catan/swap", json={"board": v["code"], "kind": "ports", "a": 0, "b": 11})
    assert ports.status_code == 422 and "0..10" in ports.json()["detail"]
    bad = client.get("/api/catan/random?seed=3&layout=huge")
    assert bad.status_code == 422
    page = client.get("/catan", params={"board": v["code"]})
    assert page.status_code == 200 and re.search(r'"layout":\s*"extended"', page.text)
