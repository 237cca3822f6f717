"""Every route reads its input strictly (issue 24): a walk over the app fails on anything that bypasses it.

- every API route is a :class:`~boardeval.web.common.StrictJSONRoute` (JSON bodies through
  ``loads_json``: duplicate keys refused);
- every request body is a :class:`~boardeval.web.common.StrictModel` (strict types, unknown keys refused),
  nested models included;
- every integer or boolean query or form field reads its text through ``text_int`` / ``text_bool``;
- a 200 KB request header is answered 431 by a real uvicorn (it used to reset the connection).

The refusals themselves (the issue's requests, drawn bodies and parameters) are in tests/fuzz/test_fixups.py.
"""

from __future__ import annotations

import socket
import typing
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

from fastapi.routing import APIRoute
from pydantic import BaseModel

from boardeval.web.app import create_app
from boardeval.web.common import MAX_HEADER_BYTES, StrictJSONRoute, StrictModel


def api_routes(routes: list[Any]) -> Iterator[Any]:
    """Every route of the app, routers included (FastAPI keeps an included router as one entry)."""
    for route in routes:
        if hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)
        else:
            yield route


ROUTES = [r for r in api_routes(create_app().routes) if isinstance(r, APIRoute)]


def _models(annotation: Any) -> Iterator[type[BaseModel]]:
    """The pydantic models inside an annotation, and the models their fields hold, recursively."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        for field in annotation.model_fields.values():
            yield from _models(field.annotation)
    for arg in typing.get_args(annotation):
        yield from _models(arg)


def _validators(field: Any) -> list[str]:
    return [getattr(m.func, "__qualname__", "") for m in field.field_info.metadata if hasattr(m, "func")]


def test_the_walk_sees_the_routes() -> None:
    paths = {r.path for r in ROUTES}
    assert {"/api/catan/parse", "/api/catan/random", "/api/morris/ai", "/api/diplomacy/upload"} <= paths
    assert len(ROUTES) >= 25


def test_every_route_reads_json_strictly() -> None:
    ours = [r for r in ROUTES if r.endpoint.__module__.startswith("boardeval.")]  # not the offline docs
    assert len(ours) >= 25
    loose = [r.path for r in ours if not isinstance(r, StrictJSONRoute)]
    assert not loose, f"routes on a router not made by web.common.api_router: {loose}"


def test_every_body_model_is_strict() -> None:
    seen = 0
    for route in ROUTES:
        for param in route.dependant.body_params:
            for model in _models(param.field_info.annotation):
                seen += 1
                assert issubclass(model, StrictModel), (route.path, model)
                assert model.model_config.get("strict") is True, (route.path, model)
                assert model.model_config.get("extra") == "forbid", (route.path, model)
    assert seen >= 8


def test_every_number_and_flag_parameter_uses_a_text_reader() -> None:
    checked = 0
    for route in ROUTES:
        for param in route.dependant.query_params + route.dependant.body_params:
            leaf = [a for a in typing.get_args(param.field_info.annotation) if a is not type(None)]
            kind = leaf[0] if leaf else param.field_info.annotation
            if kind in (int, float):
                assert any(v.startswith("text_int(") for v in _validators(param)), (route.path, param.name)
                checked += 1
            elif kind is bool:
                assert any(v.startswith("text_bool(") for v in _validators(param)), (route.path, param.name)
                checked += 1
    assert checked >= 10


def _raw_get(base: str, head_extra: bytes) -> bytes:
    """A GET /api/health with extra header bytes over a socket; the whole answer (the server closes)."""
    url = urlparse(base)
    request = b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + head_extra + b"\r\n"
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_200_kb_header_is_a_431_not_a_reset(live_server: str) -> None:
    """uvicorn's h11 buffered 16 KB of head and reset the connection past it; now the head arrives whole
    (``UVICORN_OPTIONS``) and ``HeaderSizeLimit`` answers 431 with a JSON detail."""
    answer = _raw_get(live_server, b"X-Big: " + b"a" * 200_000 + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b'"detail": "request headers are 195 KB, more than the 64 KB limit"' in answer, answer[-200:]
    small = _raw_get(live_server, b"X-Small: " + b"a" * (MAX_HEADER_BYTES // 2) + b"\r\n")
    assert small.startswith(b"HTTP/1.1 200 "), small[:200]
