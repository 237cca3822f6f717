"""Shared pieces of the web app: templates, readable errors, the upload size limit, strict input readers.

Strict input (issue 24): every request body is a :class:`StrictModel` (strict types: ``"3"``, ``3.0``
and ``true`` are not integers; unknown keys refused, so a misspelled ``"fairnes"`` never queues a job);
every JSON body is parsed by :func:`boardeval.core.loads_json` through :class:`StrictJSONRoute` (duplicate
keys refused: ``{"text": "garbage", "text": CODE}`` is a 422, not the last value silently); every
numeric or boolean query and form field reads its text through :func:`text_int` / :func:`text_bool` (the
shared number reader: ``?seed=1_0``, ``+3``, `` 3``, ``-0``, ``game_index=0_0`` are refused). Each
router is made by :func:`api_router`; ``tests/web/test_strict_inputs.py`` walks the app and fails on a
route, body model or parameter that bypasses these.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, BeforeValidator, ConfigDict

from boardeval.core import BoardevalError, ParamsError, check_int, loads_json, parse_int, quote

__all__ = [
    "HERE",
    "MAX_HEADER_BYTES",
    "MAX_UPLOAD_BYTES",
    "UVICORN_OPTIONS",
    "BodySizeLimit",
    "HeaderSizeLimit",
    "PayloadTooLarge",
    "StrictJSONRoute",
    "StrictModel",
    "api_router",
    "content_disposition",
    "readable_validation_errors",
    "templates",
    "text_bool",
    "text_int",
]

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["tojson_compact"] = lambda v: json.dumps(v, separators=(",", ":"))

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
"""Largest request body the app accepts (uploads of saved Diplomacy games, pasted boards): 5 MB."""

MAX_HEADER_BYTES = 64 * 1024
"""Largest request head (request line and headers) the app answers; more is a 431. Browsers send a few
KB; 64 KB is also the most a header block may take under most servers' defaults."""

H11_MAX_HEAD_BYTES = 1024 * 1024
"""uvicorn's h11 buffer for an incomplete request head (its default is 16 KB). A head larger than h11's
buffer gets h11's 400 and the connection is closed while the client still sends, which the client sees
as a reset (issue 24: a 200 KB header); with 1 MB the head arrives whole and :class:`HeaderSizeLimit`
answers 431."""

UVICORN_OPTIONS: dict[str, Any] = {"http": "h11", "h11_max_incomplete_event_size": H11_MAX_HEAD_BYTES}
"""Options every uvicorn that serves the app gets (``boardeval web``, the tests' live server)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class PayloadTooLarge(HTTPException):
    """413 with a message saying how large the limit is."""

    def __init__(self, limit: int, what: str = "request body") -> None:
        super().__init__(
            status_code=413,
            detail=f"{what} is larger than the {limit // (1024 * 1024)} MB limit",
        )


_SAFE_NAME_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$&'()+,-.=@[]^_`{}~"
)


def content_disposition(filename: str, *, attachment: bool = True) -> str:
    """A ``Content-Disposition`` value for a download named ``filename`` (any text: an upload's name).

    HTTP headers are Latin-1, and a ``"`` or ``\\`` ends or escapes the quoted ``filename=``: a name such as
    ``Ölkrieg "final".json`` gave a 500 (``UnicodeEncodeError``) or a broken header (issue 17). So the
    header carries an ASCII fallback ``filename="..."`` (other characters as ``_``) and, when the name is
    not plain ASCII, the exact name as RFC 5987/6266 ``filename*=UTF-8''...`` (percent-encoded UTF-8),
    which browsers prefer.
    """
    kind = "attachment" if attachment else "inline"
    fallback = "".join(c if c in _SAFE_NAME_CHARS else "_" for c in filename).strip() or "download"
    if fallback == filename:
        return f'{kind}; filename="{filename}"'
    exact = urllib.parse.quote(filename.encode("utf-8", "replace"), safe="!#$&+^`|~")
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{exact}"


def readable_validation_errors(exc: RequestValidationError) -> dict[str, Any]:
    """Turn pydantic's error list into one readable sentence plus a short per-field list.

    ``loc`` prefixes like ``body``/``query`` are dropped ("seed: Input should be a valid integer"); the
    offending input is echoed only when it is short, so a broken upload is never copied back whole.
    """
    items: list[dict[str, str]] = []
    sentences: list[str] = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "form")]
        field = ".".join(loc) or "request"
        msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
        if err.get("type") == "value_error" and msg.startswith(f"{field}: "):
            # one of our readers (text_int, text_bool): it names the field and quotes the input itself
            items.append({"field": field, "message": msg.removeprefix(f"{field}: ")})
            sentences.append(msg)
            continue
        bad = err.get("input")
        if isinstance(bad, str | int | float) and not isinstance(bad, bool) and len(repr(bad)) <= 60:
            msg += f" (got {bad!r})"
        items.append({"field": field, "message": msg})
        sentences.append(f"{field}: {msg}")
    detail = "; ".join(sentences) or "invalid request"
    return {"detail": detail, "errors": items}


class HeaderSizeLimit:
    """ASGI middleware: a request whose head (method, path, query and headers) is over ``limit`` bytes
    is answered 431 ("Request Header Fields Too Large") before the app sees it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_HEADER_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
            size += sum(len(k) + len(v) + 4 for k, v in scope.get("headers") or [])
            if size > self.limit:
                message = (
                    f"request headers are {size // 1024} KB, more than the {self.limit // 1024} KB limit"
                )
                await BodySizeLimit._refuse(send, 431, message)
                return
        await self.app(scope, receive, send)


class BodySizeLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413, before reading them.

    A declared ``Content-Length`` over the limit is refused at once; a body without one (chunked) is
    counted as it arrives and refused when it crosses the limit. The app never buffers more than that.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_UPLOAD_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await self._refuse(send, 400, "Content-Length header is not a number")
                return
            if size > self.limit:
                await self._refuse(send, 413, self._message())
                return
        seen = 0
        too_big = False

        async def counting_receive() -> Message:
            nonlocal seen, too_big
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_big = True
                    raise PayloadTooLarge(self.limit)
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except PayloadTooLarge:
            if not started:
                await self._refuse(send, 413, self._message())
        except Exception:
            if too_big and not started:
                await self._refuse(send, 413, self._message())
            else:
                raise

    def _message(self) -> str:
        return f"request body is larger than the {self.limit // (1024 * 1024)} MB limit"

    @staticmethod
    async def _refuse(send: Send, status: int, message: str) -> None:
        body = json.dumps({"detail": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class StrictModel(BaseModel):
    """Base of every request body: strict types (no ``"3"``, ``3.0`` or ``true`` for an integer, no
    ``"1.5"`` for a number), unknown keys refused. Response models stay plain :class:`BaseModel`."""

    model_config = ConfigDict(strict=True, extra="forbid")


class StrictJSONRequest(Request):
    """A request whose JSON body is read by :func:`~boardeval.core.loads_json`: UTF-8 only, duplicate
    keys refused, no ``NaN``/``Infinity``, bounded nesting and integer literals; a problem is a 422 whose
    ``detail`` names it (``request body: key 'text' appears twice in one object``)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            raw = await self.body()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise HTTPException(
                    status_code=422, detail=f"request body is not UTF-8 text (byte {exc.start})"
                ) from None
            try:
                self._json = loads_json(text, "request body", max_chars=MAX_UPLOAD_BYTES)
            except BoardevalError as exc:
                raise HTTPException(status_code=422, detail=str(exc)) from None
        return self._json


class StrictJSONRoute(APIRoute):
    """The route class of every router (:func:`api_router`): FastAPI parses a JSON body with
    ``request.json()``, which here is :class:`StrictJSONRequest`'s."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler


def api_router(**kwargs: Any) -> APIRouter:
    """An :class:`APIRouter` whose routes read JSON bodies strictly (:class:`StrictJSONRoute`)."""
    return APIRouter(route_class=StrictJSONRoute, **kwargs)


def text_int(where: str, lo: int, hi: int) -> BeforeValidator:
    """``Annotated[int, Query(...), text_int("seed", 0, N)]``: a query or form field's text through the
    shared number reader (``parse_int``: ASCII digits, no ``_``, ``+``, spaces or ``-0``), ``lo..hi``."""

    def read(value: Any) -> int:
        if isinstance(value, str):
            return parse_int(value, where, lo=lo, hi=hi)
        return check_int(value, where, lo=lo, hi=hi)  # a default

    read.__qualname__ = f"text_int({where!r})"
    return BeforeValidator(read)


def text_bool(where: str) -> BeforeValidator:
    """``Annotated[bool, Query(...), text_bool("orders")]``: exactly ``true`` or ``false`` (pydantic's own
    reading also takes ``1``, ``yes``, ``on``, ``T``, ``TRUE`` ...)."""

    def read(value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if value == "true":
            return True
        if value == "false":
            return False
        raise ParamsError(f"{where}: {quote(value)} is not a boolean; write true or false")

    read.__qualname__ = f"text_bool({where!r})"
    return BeforeValidator(read)
