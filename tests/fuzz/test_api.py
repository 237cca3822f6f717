"""Fuzz the web API over its own OpenAPI schema (issue 17): no request, however malformed, gets a 5xx.

In process: the FastAPI app through Starlette's ``TestClient`` (no server, ``raise_server_exceptions=False``
so a bug is a 500 response, as a browser would see it). Each request is drawn for one operation of
``app.openapi()`` by :mod:`tests.fuzz.api_strategies`: well-formed, mutated or malformed bodies, odd
parameters, uploads with odd names and contents. The contract for every response: status < 500; an API
answer that says it is JSON parses as JSON; no traceback in the body; a 4xx JSON answer has a ``detail``.

Every request is counted (:data:`COUNTS`, printed at the end of the session's deep run by the test itself
through ``-s``), so the figure in docs/reliability.md is requests sent, not examples planned.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from boardeval.diplomacy import shipped_game_paths
from boardeval.web.app import create_app
from tests.fuzz.api_strategies import ODD_NAMES, Request, requests

COUNTS: Counter[str] = Counter()
"""Requests sent by this module, by status class ("2xx", "4xx", "5xx"): the fuzz figures."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # one job worker and a short queue: job endpoints answer 429 rather than pile up work
    app = create_app(job_workers=1, max_pending_jobs=2)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
    print(f"\nAPI fuzz requests: {sum(COUNTS.values())} ({dict(sorted(COUNTS.items()))})")


_SCHEMA: dict[str, Any] = create_app().openapi()


def _send(client: TestClient, req: Request) -> Any:
    if req.files is not None or req.data is not None:
        return client.request(req.method, req.path, params=req.params, files=req.files, data=req.data)
    if req.content is not None:
        return client.request(
            req.method, req.path, params=req.params, content=req.content, headers=req.headers
        )
    if req.json_body is not None:  # as text: json.dumps escapes a lone surrogate (valid JSON, \ud800)
        body = json.dumps(req.json_body).encode()
        headers = {"content-type": "application/json"}
        return client.request(req.method, req.path, params=req.params, content=body, headers=headers)
    return client.request(req.method, req.path, params=req.params)


def check(client: TestClient, req: Request) -> Any:
    """Send ``req`` and check the contract; cancel a job it started (fuzzing must not queue work)."""
    r = _send(client, req)
    COUNTS[f"{r.status_code // 100}xx"] += 1
    assert r.status_code < 500, (req, r.status_code, r.text[:500])
    assert "Traceback" not in r.text, (req, r.text[:500])
    ctype = r.headers.get("content-type", "")
    if ctype.startswith("application/json"):
        body = r.json()
        if 400 <= r.status_code < 500:
            assert isinstance(body, dict) and body.get("detail"), (req, body)
        if (
            req.path.startswith("/api/jobs/")
            and r.status_code < 300
            and isinstance(body, dict)
            and "id" in body
        ):
            client.delete(f"/api/jobs/{body['id']}")
    disposition = r.headers.get("content-disposition")
    if disposition is not None:
        disposition.encode("latin-1")  # a header is Latin-1: the name travels in filename*
        assert disposition.count('"') in (0, 2), disposition
    return r


# 100 requests in the default profile; 6,000 in the deep one (issue 17 asks for >= 5,000)
@settings(max_examples=max(100, settings().max_examples * 6 // 10))
@given(st.data())
def test_no_request_gets_a_server_error(client: TestClient, data: st.DataObject) -> None:
    check(client, data.draw(requests(_SCHEMA)))


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, item in sorted(_SCHEMA["paths"].items()) for m, op in sorted(item.items())]


BAD_BODIES = [b"", b"{", b'{"a": NaN}', b"[" * 50_000, b'{"x": ' + b"9" * 5000 + b"}", b"\xff\xfe"]


@pytest.mark.parametrize(("method", "path"), [(m, p) for m, p, _ in _operations()])
def test_every_operation_refuses_malformed_input_with_4xx(client: TestClient, method: str, path: str) -> None:
    """Every operation, with odd parameters and each malformed body: 4xx (or 2xx for a body it ignores)."""
    filled = path.replace("{game_id}", "1").replace("{job_id}", "nope")
    for body in BAD_BODIES:
        req = Request(method.upper(), filled, content=body, headers={"content-type": "application/json"})
        check(client, req)
        req.headers["content-type"] = "multipart/form-data; boundary=zz"
        check(client, req)
    odd = {
        "board": "x" * 5000,
        "seed": "9" * 5000,
        "phase": "",
        "measure": "é",
        "game": "\u0000",
        "orders": "x",
    }
    check(client, Request(method.upper(), filled, params=odd))


UPLOADS = ["/api/diplomacy/upload", "/api/diplomacy/upload.csv", "/api/diplomacy/upload/map.svg"]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_uploads_with_odd_file_names_answer_without_5xx(client: TestClient, name: str) -> None:
    """Issue 17: a non-Latin-1 name made upload.csv answer 500; a '"' broke Content-Disposition."""
    data = shipped_game_paths()[2].read_bytes()
    for path in UPLOADS:
        form = {"phase": "S1901M"} if path.endswith("map.svg") else {}
        r = check(client, Request("POST", path, files={"file": (name, data, "application/json")}, data=form))
        if name == "":  # a part with an empty file name is a plain form field, not a file: 422
            assert r.status_code == 422 and "file" in r.json()["detail"], r.text[:300]
        else:
            assert r.status_code == 200, (name, path, r.text[:300])


def test_download_names_keep_non_ascii_names_in_filename_star(client: TestClient) -> None:
    data = shipped_game_paths()[2].read_bytes()
    r = client.post("/api/diplomacy/upload.csv", files={"file": ("Ölkrieg.json", data, "application/json")})
    assert r.status_code == 200
    assert r.headers["content-disposition"] == (
        "attachment; filename=\"_lkrieg-measures.csv\"; filename*=UTF-8''%C3%96lkrieg-measures.csv"
    )
    r = client.post("/api/diplomacy/upload.csv", files={"file": ("plain.json", data, "application/json")})
    assert r.headers["content-disposition"] == 'attachment; filename="plain-measures.csv"'


def test_a_file_holding_an_empty_list_is_422(client: TestClient) -> None:
    r = client.post("/api/diplomacy/upload", files={"file": ("empty.json", b"[]", "application/json")})
    assert r.status_code == 422 and "holds no game" in r.json()["detail"]
    assert "empty.json" in json.loads(r.text)["detail"]  # the page's wording quotes the name “empty.json”
