"""FastAPI application factory. Pages and the JSON API under ``/api`` call only the public library.

Error policy (the same everywhere): a library input error (:class:`~boardeval.core.BoardevalError`) and a
pydantic validation error answer 422 with one readable ``detail`` sentence; an oversized body 413; an
unknown job 404; a full job queue 429. A 5xx would be a bug, never the answer to bad input.

``/docs`` (Swagger UI) and ``/redoc`` work offline: the app is built by ``fastapi-offline``, which serves
their JavaScript and CSS itself (under ``/static-docs``); ``/openapi.json`` is the machine-readable schema.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardeval import __version__
from boardeval.core import BoardevalError
from boardeval.web import (
    catan,
    catan_equity,
    catan_gen,
    catan_play,
    diplomacy,
    glossary,
    jobs_api,
    morris,
    pages,
)
from boardeval.web.common import (
    HERE,
    MAX_UPLOAD_BYTES,
    BodySizeLimit,
    HeaderSizeLimit,
    readable_validation_errors,
    templates,
)
from boardeval.web.jobs import JobManager

__all__ = ["create_app"]

log = logging.getLogger("boardeval.web")

DESCRIPTION = """
The JSON API behind the boardeval pages. Every number comes with its explanation (a breakdown of named
terms, weights and contributions). Bad input answers 4xx with a readable `detail`; long jobs run in the
background: `POST /api/jobs/...` returns an id, `GET /api/jobs/{id}` its state, progress and result.
"""


def create_app(
    *, job_workers: int = 2, max_pending_jobs: int = 8, max_upload_bytes: int = MAX_UPLOAD_BYTES
) -> FastAPI:
    """Build the app: pages and API routers per game, background jobs, offline docs, error handlers."""
    manager = JobManager(workers=job_workers, max_pending=max_pending_jobs)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pages.prepare(app)  # before "Application startup complete": first answers are fast (issue 23)
        yield
        manager.shutdown()

    app = FastAPIOffline(
        title="boardeval",
        version=__version__,
        description=DESCRIPTION,
        static_url="/static-docs",
        favicon_url="/static/favicon.svg",
        lifespan=lifespan,
    )
    app.state.jobs = manager
    app.state.max_upload_bytes = max_upload_bytes
    app.add_middleware(BodySizeLimit, limit=max_upload_bytes)
    # Pages, scripts, SVG maps and JSON compress 3-5x: what a browser downloads stays small.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(HeaderSizeLimit)  # outermost: a 200 KB header is a 431 before anything else
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    _add_error_handlers(app)
    for module in (pages, catan, catan_gen, catan_play, catan_equity, morris, diplomacy, jobs_api, glossary):
        app.include_router(module.router)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """The error policy of the module docstring: 422 for bad input, readable 4xx, a logged 500 for bugs."""

    @app.exception_handler(BoardevalError)
    async def _bad_input(request: Request, exc: BoardevalError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": str(exc)})

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content=readable_validation_errors(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and not request.url.path.startswith("/api/") and _is_page(request):
            return templates.TemplateResponse(
                request,
                "error.html",
                {"status": 404, "message": f"No page at {request.url.path}."},
                status_code=404,
            )
        return JSONResponse(
            status_code=exc.status_code, content={"detail": exc.detail}, headers=getattr(exc, "headers", None)
        )

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(status_code=500, content={"detail": f"internal error: {type(exc).__name__}"})


def _is_page(request: Request) -> bool:
    return "text/html" in request.headers.get("accept", "")
