"""App-wide behaviour: health, offline API docs, readable errors, jobs endpoints, body size limit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardeval.web.app import create_app


def test_health(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.json()["heavy_requests"] == 0 and r.json()["jobs_running"] >= 0  # the work in hand


def test_docs_pages_use_only_local_assets(client: TestClient) -> None:
    for url in ("/docs", "/redoc"):
        html = client.get(url).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: ?'([^']+)'", html)
        assert assets, url
        for asset in assets:
            assert asset.startswith("/"), f"{url} loads {asset} from outside the app"
        for asset in re.findall(r'(?:src|href)="(/static-docs/[^"]+)"', html):
            assert client.get(asset).status_code == 200, asset
    spec = client.get("/openapi.json").json()
    for path in (
        "/api/catan/board",
        "/api/morris/state",
        "/api/morris/ai",
        "/api/diplomacy/games",
        "/api/jobs/{job_id}",
        "/api/jobs/catan/generate",
        "/api/diplomacy/upload",
    ):
        assert path in spec["paths"], path


def test_pages_have_no_external_assets(client: TestClient) -> None:
    for url in ("/", "/catan", "/morris", "/diplomacy"):
        r = client.get(url)
        assert r.status_code == 200, url
        for asset in re.findall(r'(?:src|href)="([^"#]+)"', r.text):
            assert asset.startswith("/") and not asset.startswith("//"), f"{url} refers to {asset}"


def test_static_assets_are_served(client: TestClient) -> None:
    names = ("app.css", "common.js", "catan.js", "morris.js", "morris_why.js", "diplomacy.js", "favicon.svg")
    for name in names:
        assert client.get(f"/static/{name}").status_code == 200, name


def test_unknown_page_and_api_path(client: TestClient) -> None:
    r = client.get("/nowhere", headers={"accept": "text/html"})
    assert r.status_code == 404 and "No page at /nowhere" in r.text
    r = client.get("/api/nowhere")
    assert r.status_code == 404 and r.json()["detail"]


def test_malformed_json_body_is_a_readable_422(client: TestClient) -> None:
    r = client.post("/api/morris/state", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert "JSON" in r.json()["detail"]


def test_validation_error_names_the_field(client: TestClient) -> None:
    r = client.get("/api/catan/random", params={"seed": "abc"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail.startswith("seed: ") and "integer" in detail and "'abc'" in detail


def test_declared_oversized_body_is_413_and_server_stays_up(client: TestClient) -> None:
    big = b"x" * (5 * 1024 * 1024 + 10)
    r = client.post("/api/morris/state", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "5 MB" in r.json()["detail"]
    assert client.get("/api/health").status_code == 200


def test_chunked_oversized_body_is_413() -> None:
    app = create_app(max_upload_bytes=1024 * 1024)

    def chunks() -> Any:
        for _ in range(40):
            yield b"y" * 65536

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/morris/state", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert c.get("/api/health").status_code == 200


def test_unknown_job_is_404(client: TestClient) -> None:
    for method in ("GET", "DELETE"):
        r = client.request(method, "/api/jobs/nope")
        assert r.status_code == 404 and "no job with id 'nope'" in r.json()["detail"]


def test_large_responses_are_compressed_small_ones_not(client: TestClient) -> None:
    """Scripts and pages go out gzip-compressed when the browser accepts it (page weight, issue 15)."""
    script = client.get("/static/morris.js", headers={"accept-encoding": "gzip"})
    assert script.status_code == 200
    assert script.headers.get("content-encoding") == "gzip"
    assert "function" in script.text  # the client decoded it: the body is the real script
    plain = client.get("/static/morris.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text == script.text
    tiny = client.get("/api/health", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in tiny.headers


def test_the_app_reads_the_tablebase_ahead_once_its_workers_are_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 (twenty-first session): a search probing table pages not in memory reads the disk, so the
    app asks for the packed tables of its tablebase folder (``BOARDEVAL_TABLEBASE``) once its worker
    processes are up, and not for a tablebase switched off."""
    import boardeval.morris
    import boardeval.web.app as app_module
    from boardeval.web.morris import TABLEBASE_ENV

    order: list[str] = []

    class Pool:
        size = 1
        closed = False

        def start(self) -> None:
            order.append("search workers")

    class Tasks:
        pool = Pool()

    class Manager:
        workers = 1

        def start(self) -> None:
            order.append("job workers")

    monkeypatch.setattr(boardeval.morris, "prefetch_tablebase", lambda f: order.append(f"prefetch {f}"))
    monkeypatch.setenv(TABLEBASE_ENV, str(tmp_path))
    app_module._start_workers(Manager(), Tasks())  # type: ignore[arg-type]
    assert order == ["search workers", "job workers", f"prefetch {tmp_path}"]
    monkeypatch.setenv(TABLEBASE_ENV, "none")
    assert app_module._prefetch_tablebase() is None and len(order) == 3
