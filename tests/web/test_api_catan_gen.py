"""Catan generation jobs: reproducible results checked by the library, bad requests 422, a full queue 429."""

from __future__ import annotations

import html
import math
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardeval.catan import METHODS, RULES, Board, board_energy, check_rules, optimum, parse_rule
from boardeval.core import Progress
from boardeval.web.app import create_app
from tests.web.helpers import wait_for_job


def test_rules_listing(client: TestClient) -> None:
    data = client.get("/api/catan/rules").json()
    assert data["methods"] == list(METHODS)
    rules = {r["rule"]: r["summary"] for r in data["rules"]}
    assert "max-spot-pips=N" in rules and "no-68-neighbours" in rules and len(rules) == len(RULES)
    page = client.get("/catan").text
    assert 'value="max-spot-pips=N"' in page


@pytest.mark.parametrize(
    ("method", "rules", "fairness"),
    [
        ("random", [], None),
        ("anneal", ["no-68-neighbours"], 0.5),
        ("tournament", ["max-spot-pips=12", "max-cluster=2"], None),
        ("cp", ["no-same-resource-neighbours", "2-12-apart"], None),
    ],
)
def test_each_method_result_is_rechecked_by_the_library(
    client: TestClient, method: str, rules: list[str], fairness: float | None
) -> None:
    body = {"method": method, "seed": 21, "rules": rules, "fairness": fairness}
    job = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])
    assert job["state"] == "done", job
    res = job["result"]
    board = Board.parse(res["code"])
    assert math.isclose(res["energy"]["total"], board_energy(board).total)
    status = check_rules(board, [parse_rule(r) for r in rules])
    assert res["generation"]["rules"] == {str(k): bool(v) for k, v in dict(status).items()}
    if method != "random":  # random only reports the rules; the others enforce them
        assert all(res["generation"]["rules"].values())
    if method == "tournament":
        g = res["generation"]
        assert g["swaps"] == len(g["swap_list"])
    assert job["done"] <= job["total"] or job["total"] == 0


def test_cp_optimum_is_proven_and_matches_the_library(client: TestClient) -> None:
    body = {"method": "cp", "seed": 1, "fairness": 1.0}
    res = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])["result"]
    assert res["generation"]["optimal"] is True
    assert math.isclose(res["energy"]["total"], optimum(()).energy, abs_tol=1e-9)


def test_cancel_a_finished_job_is_harmless(client: TestClient) -> None:
    job = wait_for_job(
        client, client.post("/api/jobs/catan/generate", json={"method": "random"}).json()["id"]
    )
    r = client.delete(f"/api/jobs/{job['id']}")
    assert r.status_code == 200 and r.json()["state"] == "done" and r.json()["result"] is not None


def test_generate_job_reproducible_and_checked(client: TestClient) -> None:
    body = {"method": "anneal", "seed": 3, "rules": [], "fairness": None}
    r = client.post("/api/jobs/catan/generate", json=body)
    assert r.status_code == 202
    job = wait_for_job(client, r.json()["id"])
    assert job["state"] == "done", job
    result = job["result"]
    board = Board.parse(result["code"])
    assert math.isclose(result["energy"]["total"], board_energy(board).total)
    assert result["generation"]["method"] == "anneal" and result["generation"]["seed"] == 3
    again = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])
    assert again["result"]["code"] == result["code"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"method": "magic"}, "method: "),
        ({"seed": -4}, "seed: "),
        ({"seed": 2**40}, "seed: "),
        ({"fairness": 1.5}, "fairness: "),
        ({"rules": ["no-such-rule"]}, "no-such-rule"),
    ],
)
def test_bad_generate_requests_are_422(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    r = client.post("/api/jobs/catan/generate", json=body)
    assert r.status_code == 422, r.text
    assert fragment in r.json()["detail"]


def test_full_job_queue_is_429_then_recovers(tmp_path: Path) -> None:
    app = create_app(job_workers=1, max_pending_jobs=1)
    gate = tmp_path / "gate"
    os.mkfifo(gate)  # the job runs in a worker process: it waits until the test writes to this pipe

    def blocker(progress: Progress) -> dict[str, Any]:
        with open(gate, encoding="utf-8") as fh:
            fh.read()
        return {}

    with TestClient(app, raise_server_exceptions=False) as c:
        job = app.state.jobs.submit("blocker", blocker)
        r = c.post("/api/jobs/catan/generate", json={"method": "random", "seed": 1})
        assert r.status_code == 429 and "limit 1" in r.json()["detail"]
        with open(gate, "w", encoding="utf-8") as fh:  # blocks until the job has opened its end
            fh.write("go")
        app.state.jobs.wait(job.id, 120)  # a hang guard: the blocker ends as soon as the gate opens
        r = c.post("/api/jobs/catan/generate", json={"method": "random", "seed": 1})
        assert r.status_code == 202
        listed = c.get("/api/jobs").json()
        assert {j["kind"] for j in listed} >= {"blocker", "catan.generate"}


def test_generate_takes_the_harbours_mode_and_says_its_swaps(client: TestClient) -> None:
    """Issue 23: the form's harbours control (``ports``) reaches the generator; a tournament's swaps come
    described in the board's language; unknown or mistyped fields are a 422, not silently dropped."""
    from boardeval.catan import generate

    body = {"method": "random", "seed": 5, "ports": "random", "fairness": 0.0}
    res = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])["result"]
    assert res["code"] == generate("random", 5, ports="random").board.code()
    assert res["generation"]["ports"] == "random" and res["generation"]["fairness"] == 0.0
    body = {"method": "tournament", "seed": 2, "rules": [], "fairness": 0.0}
    g = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])["result"][
        "generation"
    ]
    assert len(g["swaps_said"]) == g["swaps"] and g["rules_asked"] == []
    assert all("↔" in s for s in g["swaps_said"])
    for bad in (
        {"method": "random", "harbours": "random"},
        {"method": "random", "ports": "shuffled"},
        {"method": "anneal", "seed": "3"},
    ):
        assert client.post("/api/jobs/catan/generate", json=bad).status_code == 422, bad


def test_describe_swap_reads_the_board() -> None:
    from boardeval.web.catan import describe_swap

    board = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
    assert describe_swap(board, "hexes", 0, 9) == "ore 10 ↔ desert"
    assert describe_swap(board, "numbers", 0, 1) == "10 ↔ 2 (numbers, on ore and sheep)"
    assert describe_swap(board, "resources", 0, 9) == "ore ↔ desert (resources, under the 10 and the desert)"
    assert describe_swap(board, "ports", 1, 8) == "harbours 1 ↔ 8"


def test_rule_presets_parse_and_are_offered(client: TestClient) -> None:
    from boardeval.web.catan import RULE_PRESETS

    page = client.get("/catan").text
    for key, (label, _what, rules) in RULE_PRESETS.items():
        assert all(parse_rule(r) for r in rules)
        assert f'value="{key}" data-rules="{", ".join(rules)}"' in page and html.escape(label) in page


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"objective": "seat-equity", "method": "random"}, "optimises nothing"),
        ({"objective": "seat-equity", "method": "cp"}, "CP-SAT cannot encode"),
        ({"objective": "seat-equity", "layout": "extended"}, "no 5-6 player map"),
        ({"objective": "seat-equity", "method": "anneal", "rules": ["max-spot-pips=12"]}, "takes no rules"),
        ({"objective": "seat-equity", "fairness": 0.5}, "fairness dials the energy"),
        ({"objective": "seat-equity", "ports": "fixed"}, "moves the harbours itself"),
        ({"energy_weight": 0.5}, "energy_weight goes with objective 'seat-equity'"),
        ({"objective": "seats"}, "objective: "),
    ],
)
def test_seat_equity_objective_refusals_are_422_before_a_job(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    """Issue 26 §3: the fairness control can target the seats where the generator can; elsewhere the
    request is refused with the reason (the CLI's), before any job is queued."""
    r = client.post("/api/jobs/catan/generate", json={"method": "anneal", "seed": 2, **body})
    assert r.status_code == 422, r.text
    assert fragment in r.json()["detail"]


def test_seat_equity_objective_is_the_library_generator(client: TestClient) -> None:
    """A tournament for the seats answers the board ``equity_tournament`` makes, its seat equity beside
    the energy (the board view's ``seat_equity`` is ``equity_summary``'s), the objective said back."""
    from boardeval.catan import equity_summary, equity_tournament

    body = {"method": "tournament", "seed": 8, "rules": ["max-spot-pips=12"], "objective": "seat-equity"}
    job = wait_for_job(client, client.post("/api/jobs/catan/generate", json=body).json()["id"])
    assert job["state"] == "done", job
    res = job["result"]
    made = equity_tournament(8, ["max-spot-pips=12"])
    assert res["code"] == made.board.code()
    assert res["generation"]["objective"] == "seat-equity" and all(res["generation"]["rules"].values())
    summary = equity_summary(made.board)
    assert res["seat_equity"]["seats"] == summary["seats"]
    got, want = res["seat_equity"]["win_probabilities"], summary["win_probabilities"]
    assert len(got) == 4 and all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(got, want, strict=True))
    assert math.isclose(sum(got), 1.0, rel_tol=1e-9)
