"""Shared pieces of the web app: templates, readable errors, the upload size limit, small helpers."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.templating import Jinja2Templates

__all__ = [
    "HERE",
    "MAX_UPLOAD_BYTES",
    "BodySizeLimit",
    "PayloadTooLarge",
    "content_disposition",
    "readable_validation_errors",
    "templates",
]

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["tojson_compact"] = lambda v: json.dumps(v, separators=(",", ":"))

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
"""Largest request body the app accepts (uploads of saved Diplomacy games, pasted boards): 5 MB."""

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
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "form")]
        field = ".".join(loc) or "request"
        msg = str(err.get("msg", "invalid value"))
        bad = err.get("input")
        if isinstance(bad, str | int | float) and not isinstance(bad, bool) and len(repr(bad)) <= 60:
            msg += f" (got {bad!r})"
        items.append({"field": field, "message": msg})
    detail = "; ".join(f"{i['field']}: {i['message']}" for i in items) or "invalid request"
    return {"detail": detail, "errors": items}


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
