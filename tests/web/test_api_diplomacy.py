"""Diplomacy API: the shipped human games (read in place), uploads, CSV, and bad uploads answered 4xx."""

from __future__ import annotations

import html
import io
import json
import math
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardeval.diplomacy import (
    MEASURE_INFO,
    compute_measures,
    load_records,
    measures_table,
    shipped_game_paths,
)


def _shipped(i: int) -> Path:
    return next(p for p in shipped_game_paths() if p.stem == str(i))


def test_lists_the_three_shipped_games(client: TestClient) -> None:
    games = client.get("/api/diplomacy/games").json()
    assert [g["id"] for g in games] == ["1", "2", "3"]
    for g in games:
        assert g["phases"] == len(load_records(_shipped(int(g["id"])))[0].phases)


def test_game_view_start_values_match_the_spec(client: TestClient) -> None:
    """Spec: at the standard start progress is 70/324 = 21.6 %, battle-tiedness Austria = Italy = 1/3."""
    v = client.get("/api/diplomacy/games/1").json()
    assert v["phases"][0] == "S1901M" and v["map"] == "standard"
    assert v["powers"] == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert math.isclose(v["series"]["progress"][""][0], 100 * 70 / 324, rel_tol=1e-6)
    assert math.isclose(v["series"]["progress_from_zero"][""][0], 0.0, abs_tol=1e-9)
    bt = {p: v["series"]["battle_tiedness"][p][0] for p in v["powers"]}
    assert math.isclose(bt["AUSTRIA"], 1 / 3, rel_tol=1e-5) and math.isclose(bt["ITALY"], 1 / 3, rel_tol=1e-5)
    assert all(bt[p] == 0 for p in ("ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"))
    assert v["sc_counts"][0] == [3, 3, 3, 3, 3, 4, 3]
    n = len(v["phases"])
    for name in ("fear_dynamic", "stab_potential"):
        table = v["tables"][name]
        assert len(table) == n and all(len(row) == 7 for row in table[0])
        assert all(table[0][i][i] is None for i in range(7))
    assert len(v["static_fear"]) == 7 and v["colours"]["ENGLAND"]


def test_game_view_agrees_with_the_library(client: TestClient) -> None:
    v = client.get("/api/diplomacy/games/2").json()
    gm = compute_measures(load_records(_shipped(2))[0])
    t = len(gm.phases) // 2
    for k, p in enumerate(gm.powers):
        assert math.isclose(v["series"]["tempi"][p][t], float(gm.tempi[t, k]), abs_tol=1e-9)
        # Shown in the catalogue's units: personal progress as SCs / R, game progress in per cent.
        want_pp = float(gm.personal_progress[t, k])
        assert math.isclose(v["series"]["personal_progress"][p][t], want_pp, abs_tol=1e-6)
        for j in range(7):
            want = float(gm.stab_potential[t, k, j])
            got = v["tables"]["stab_potential"][t][k][j]
            assert (got is None and math.isnan(want)) or math.isclose(got, want, abs_tol=1e-9)
    assert math.isclose(v["series"]["progress"][""][t], 100 * float(gm.progress[t]), abs_tol=1e-4)
    assert v["labels"] == {m: info.caption for m, info in MEASURE_INFO.items()}
    assert v["labels"]["personal_progress"] == "Personal progress (SCs / R)"


def test_csv_is_the_tidy_table(client: TestClient) -> None:
    r = client.get("/api/diplomacy/games/3/measures.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    lines = r.text.strip().splitlines()
    assert lines[0] == "phase,power,measure,other,value"
    assert len(lines) - 1 == len(measures_table(load_records(_shipped(3))[0]))


def test_unknown_shipped_game_is_404(client: TestClient) -> None:
    r = client.get("/api/diplomacy/games/7")
    assert r.status_code == 404 and "1, 2, 3" in r.json()["detail"]
    assert client.get("/api/diplomacy/games/..%2F..%2Fetc").status_code in (404, 422)


def test_upload_measures_the_same_game(client: TestClient) -> None:
    data = _shipped(3).read_bytes()
    r = client.post("/api/diplomacy/upload", files={"file": ("mygame.json", data, "application/json")})
    assert r.status_code == 200, r.text
    up = r.json()
    ref = client.get("/api/diplomacy/games/3").json()
    assert (
        up["phases"] == ref["phases"]
        and up["series"] == ref["series"]
        and up["game"].startswith("mygame.json")
    )
    r = client.post("/api/diplomacy/upload.csv", files={"file": ("mygame.json", data, "application/json")})
    assert r.status_code == 200 and r.text == client.get("/api/diplomacy/games/3/measures.csv").text


def test_upload_jsonl_with_game_index(client: TestClient) -> None:
    docs = [json.loads(_shipped(i).read_text()) for i in (2, 3)]
    body = "\n".join(json.dumps(d) for d in docs).encode()
    r = client.post("/api/diplomacy/upload", files={"file": ("two.jsonl", body)}, data={"game_index": "1"})
    assert r.status_code == 200, r.text
    assert r.json()["phases"] == client.get("/api/diplomacy/games/3").json()["phases"]
    r = client.post("/api/diplomacy/upload", files={"file": ("two.jsonl", body)}, data={"game_index": "2"})
    assert r.status_code == 422 and "holds 2 game" in r.json()["detail"]


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("broken.json", b'{"id": "x", "phases": [', "broken.json"),
        ("empty.json", b"   ", "empty"),
        ("list.json", b"[1, 2]", "list.json"),
        ("binary.json", bytes(range(256)), "binary.json"),
    ],
)
def test_bad_uploads_are_422_naming_the_file(
    client: TestClient, name: str, content: bytes, fragment: str
) -> None:
    r = client.post("/api/diplomacy/upload", files={"file": (name, content)})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert fragment in detail and "/tmp" not in detail


def test_unknown_power_in_upload_is_422(client: TestClient) -> None:
    doc = json.loads(_shipped(3).read_text())
    text = json.dumps(doc).replace('"AUSTRIA"', '"ATLANTIS"', 1)
    r = client.post("/api/diplomacy/upload", files={"file": ("bad.json", text.encode())})
    assert r.status_code == 422 and "ATLANTIS" in r.json()["detail"]


def test_oversized_upload_is_413(client: TestClient) -> None:
    big = io.BytesIO(b" " * (5 * 1024 * 1024 + 1))
    r = client.post("/api/diplomacy/upload", files={"file": ("big.json", big)})
    assert r.status_code == 413 and "5 MB" in r.json()["detail"]
    assert client.get("/api/health").status_code == 200


def test_upload_without_file_is_422(client: TestClient) -> None:
    r = client.post("/api/diplomacy/upload", data={"game_index": "0"})
    assert r.status_code == 422 and r.json()["detail"].startswith("file: ")


def test_library_chart_downloads(client: TestClient) -> None:
    r = client.get("/api/diplomacy/games/3/chart.svg", params={"measure": "tempi"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text[:500] and "attachment" in r.headers["content-disposition"]
    r = client.get(
        "/api/diplomacy/games/3/chart.svg", params={"measure": "stab_potential", "phase": "F1901M"}
    )
    assert r.status_code == 200 and "<svg" in r.text[:500]
    r = client.get("/api/diplomacy/games/3/chart.svg", params={"measure": "fear_dynamic", "phase": "W2999A"})
    assert r.status_code == 422 and "W2999A" in r.json()["detail"]
    r = client.get("/api/diplomacy/games/3/chart.svg", params={"measure": "happiness"})
    assert r.status_code == 422 and "happiness" in r.json()["detail"]


def test_upload_a_game_on_another_map(client: TestClient, tmp_path: Path) -> None:
    """A seeded random game on 'ancmed' (5 powers) from the engine: the view follows the map's powers."""
    from boardeval.diplomacy import random_game, save_records

    path = tmp_path / "ancmed.jsonl"
    save_records([random_game(3, map_name="ancmed", max_phases=5)], path)
    r = client.post("/api/diplomacy/upload", files={"file": ("ancmed.jsonl", path.read_bytes())})
    assert r.status_code == 200, r.text
    v = r.json()
    gm = compute_measures(load_records(path)[0])
    assert v["map"] == "ancmed" and v["powers"] == list(gm.powers) and len(v["powers"]) == 5
    assert len(v["tables"]["fear_dynamic"][0]) == 5 and len(set(v["colours"].values())) == 5


def test_board_map_of_a_shipped_game(client: TestClient) -> None:
    """The engine-drawn board at a phase: inline SVG, one unit symbol per unit of the record."""
    r = client.get("/api/diplomacy/games/1/map.svg", params={"phase": "F1901M"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    state = next(p for p in json.loads(_shipped(1).read_text())["phases"] if p["name"] == "F1901M")["state"]
    n_units = sum(len(us) for us in state["units"].values())
    assert r.text.count('<use id="unit_') + r.text.count('<use id="dislodged_unit_') == n_units
    r = client.get("/api/diplomacy/games/1/map.svg", params={"phase": "W2999A"})
    assert r.status_code == 422 and "W2999A" in r.json()["detail"]
    assert client.get("/api/diplomacy/games/9/map.svg", params={"phase": "S1901M"}).status_code == 404


def test_board_map_and_library_chart_of_an_upload(client: TestClient) -> None:
    """Issue 15 defect 10: an uploaded game gets the same map and SVG chart downloads as a shipped one."""
    data = _shipped(3).read_bytes()
    files = {"file": ("mine.json", data, "application/json")}
    r = client.post("/api/diplomacy/upload/map.svg", files=files, data={"phase": "S1902M"})
    assert r.status_code == 200, r.text
    assert r.text == client.get("/api/diplomacy/games/3/map.svg", params={"phase": "S1902M"}).text
    r = client.post("/api/diplomacy/upload/map.svg", files=files, data={"phase": "X1"})
    assert r.status_code == 422 and "X1" in r.json()["detail"]
    r = client.post("/api/diplomacy/upload/chart.svg", files=files, data={"measure": "tempi"})
    assert (
        r.status_code == 200
        and "<svg" in r.text[:500]
        and "mine-tempi.svg" in r.headers["content-disposition"]
    )
    r = client.post(
        "/api/diplomacy/upload/chart.svg", files=files, data={"measure": "stab_potential", "phase": "F1901M"}
    )
    assert r.status_code == 200 and "stab potential at F1901M" in r.text
    r = client.post("/api/diplomacy/upload/chart.svg", files=files, data={"measure": "happiness"})
    assert r.status_code == 422 and "happiness" in r.json()["detail"]
    bad = {"file": ("broken.json", b'{"id": "x", "phases": [', "application/json")}
    r = client.post("/api/diplomacy/upload/map.svg", files=bad, data={"phase": "S1901M"})
    assert r.status_code == 422 and "broken.json" in r.json()["detail"]


# ---- the fitted evaluation and detected alliances (issue 14 web part) ----------------------------------


def test_evaluation_of_a_shipped_game_agrees_with_the_library(client: TestClient) -> None:
    from boardeval.diplomacy import detect_alliances, evaluate_game, evaluate_position

    record = load_records(_shipped(2))[0]
    gm = compute_measures(record)
    phase = "F1905M"
    r = client.get("/api/diplomacy/games/2/evaluation", params={"phase": phase})
    assert r.status_code == 200, r.text
    ev = r.json()
    assert ev["phase"] == phase and ev["target"] == "sc_change_1y" and ev["phases"] == list(gm.phases)
    scores = evaluate_game(record, measures=gm)
    for i, power in enumerate(gm.powers):
        got = ev["scores"][power]
        assert len(got) == len(gm.phases)
        for v, want in zip(got, scores[:, i], strict=True):
            assert (v is None and math.isnan(want)) or v == pytest.approx(want, abs=1e-5)
    ref = evaluate_position(record, phase, measures=gm)
    assert [row["power"] for row in ev["breakdown"]] == list(gm.powers)
    for row in ev["breakdown"]:
        bd = ref[row["power"]]
        assert row["eliminated"] is bool(bd.extras.get("eliminated", False))
        if row["eliminated"]:
            assert row["total"] is None
            continue
        assert row["total"] == pytest.approx(bd.total, abs=1e-5)
        assert [t["name"] for t in row["terms"]] == [t.name for t in bd.terms]
        assert row["terms"][-1]["name"] == "intercept" and row["terms"][-1]["vs_average"] is None
        for t in row["terms"]:  # value x weight = contribution, and they add up to the total
            assert t["value"] * t["weight"] == pytest.approx(t["contribution"], abs=1e-4)
        assert sum(t["contribution"] for t in row["terms"]) == pytest.approx(row["total"], abs=1e-4)
    found = detect_alliances(record, measures=gm, through=phase)  # issue 23: nothing after the phase
    assert [(a["year"], a["pairs"]) for a in ev["alliances"]] == [
        (y.year, [list(p) for p in y.pairs]) for y in found.years
    ]
    assert ev["alliances"][-1]["year"] == 1905 and ev["alliances"][-1]["last_phase"] == phase
    assert any(a["pairs"] for a in ev["alliances"])
    # the default phase is the last one
    assert client.get("/api/diplomacy/games/2/evaluation").json()["phase"] == gm.phases[-1]


def test_evaluation_bad_phase_is_422_and_unknown_game_404(client: TestClient) -> None:
    r = client.get("/api/diplomacy/games/1/evaluation", params={"phase": "X1901M"})
    assert r.status_code == 422 and "'X1901M'" in r.json()["detail"]
    assert client.get("/api/diplomacy/games/9/evaluation").status_code == 404


def test_evaluation_of_an_upload_is_the_shipped_one(client: TestClient) -> None:
    data = _shipped(3).read_bytes()
    files = {"file": ("mine.json", data, "application/json")}
    r = client.post("/api/diplomacy/upload/evaluation", files=files, data={"phase": "S1903M"})
    assert r.status_code == 200, r.text
    up = r.json()
    ref = client.get("/api/diplomacy/games/3/evaluation", params={"phase": "S1903M"}).json()
    assert up["game"].startswith("mine.json")
    assert {k: v for k, v in up.items() if k != "game"} == {k: v for k, v in ref.items() if k != "game"}
    bad = client.post("/api/diplomacy/upload/evaluation", files=files, data={"phase": "S2999M"})
    assert bad.status_code == 422 and "'S2999M'" in bad.json()["detail"]
    broken = {"file": ("broken.json", b'{"id": "x", "phases": [', "application/json")}
    r = client.post("/api/diplomacy/upload/evaluation", files=broken)
    assert r.status_code == 422 and "broken.json" in r.json()["detail"]


# ---- issue 23 §3: names a player recognises, errors in a player's words, the first answer fast ----------


def test_games_are_named_by_map_players_years_and_result(client: TestClient) -> None:
    games = client.get("/api/diplomacy/games").json()
    first = games[0]
    assert first["name"].startswith("Game 1: human players, standard map, 1901–1913; Italy 16, Russia 12")
    assert first["years"] == "1901–1913" and first["result"].endswith("centres at S1913R")
    assert first["first_phase"] == "S1901M" and first["last_phase"] == "S1913R"
    for g in games:
        assert ".json" not in g["name"] and "(0" not in g["name"]  # not "1.json (00128f1d)"
    assert client.get("/api/diplomacy/games/2").json()["game"] == games[1]["name"]


def test_the_info_line_is_one_wording_for_shipped_and_uploaded_games(client: TestClient) -> None:
    """The page renders a shipped game's line from the list, diplomacy.js writes the view's after a load or an
    upload: both come from ``info_line`` (they were formatted twice, from different data)."""
    listed = client.get("/api/diplomacy/games").json()[0]
    view = client.get("/api/diplomacy/games/1").json()
    assert listed["info"] == view["info"] == f"{listed['name']} · {listed['phases']} phases (S1901M … S1913R)"
    page = client.get("/diplomacy?game=1").text
    assert f'id="game-info" aria-live="polite">{html.escape(view["info"], quote=False)}</p>' in page
    up = client.post(
        "/api/diplomacy/upload", files={"file": ("mygame.json", _shipped(3).read_bytes(), "application/json")}
    ).json()
    assert up["info"].startswith(up["game"] + " · ") and up["info"].endswith(f"… {up['phases'][-1]})")


@pytest.mark.parametrize(
    ("content", "says", "never"),
    [
        (b"\xb7\x00binary", "is not a text file", ("codec", "0xb7", "utf-8")),
        (b'{"id": "x", "map": "standard", "phases": 3}', "not a saved Diplomacy game", ("$.", "must be a")),
        (
            b'{"id": "x", "phases": [',
            "not complete JSON (it breaks off at line 1, column 24)",
            ("Expecting",),
        ),
        (
            b'{"id": "x", "map": "moon", "phases": []}',
            "map the diplomacy engine does not know",
            ("game 'x'",),
        ),
        (b'{"id": "x", "map": "standard", "phases": [], "foo": 1}', "not a saved Diplomacy game", ("['",)),
    ],
)
def test_upload_errors_are_in_a_players_words(
    client: TestClient, content: bytes, says: str, never: tuple[str, ...]
) -> None:
    r = client.post("/api/diplomacy/upload", files={"file": ("mine.json", content)})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail.startswith("“mine.json”") and says in detail, detail
    for internal in never:
        assert internal not in detail, detail


def test_first_request_needs_no_game_measured() -> None:
    """Issue 23 §5: the page lists the games from their files; nothing is measured and the engine is not
    imported for the HTML (a fresh process: the first /diplomacy took 1.2 s)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom fastapi.testclient import TestClient\nfrom boardeval.web.app import create_app\n"
        "before = 'diplomacy' in sys.modules\n"
        "r = TestClient(create_app()).get('/diplomacy', headers={'accept': 'text/html'})\n"
        "from boardeval.web import diplomacy as d\n"
        "print(r.status_code, before, 'diplomacy' in sys.modules, d._shipped_measures.cache_info().currsize,"
        " 'Game 1: human players' in r.text)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["200", "False", "False", "0", "True"], out


def test_start_up_prepares_every_page_before_the_first_request() -> None:
    """Issue 23 §5: the app's start-up (before uvicorn's "Application startup complete") compiles every page
    template and lists the Diplomacy games, so the first visitor of any page waits for neither."""
    import subprocess
    import sys

    code = (
        "from fastapi.testclient import TestClient\nfrom boardeval.web.app import create_app\n"
        "from boardeval.web.common import templates\nfrom boardeval.web import diplomacy as d\n"
        "with TestClient(create_app()):\n"
        "    names = sorted(t.name for t in templates.env.cache.values())\n"
        "    print(names, d._catalogue.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    names, listed = out.rsplit(" ", 1)
    for page in ("base.html", "index.html", "catan.html", "morris.html", "diplomacy.html", "error.html"):
        assert page in names
    assert listed.strip() == "1"
