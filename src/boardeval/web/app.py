"""FastAPI application factory. Pages and the JSON API under ``/api`` call only the public library.

Error policy (the same everywhere): a library input error (:class:`~boardeval.core.BoardevalError`) and a
pydantic validation error answer 422 with one readable ``detail`` sentence; an oversized body 413; an
unknown job 404; a full job queue 429; every search worker busy and the line of waiting requests full, or
a request's work stopped at its time limit, 503 (``Retry-After``). Another 5xx would be a bug, never the
answer to bad input.

Bounds (issue 24, ``docs/reliability.md``): heavy work never runs in the server process. Background jobs
run on ``job_workers`` worker processes (at most that many at once, ``max_pending_jobs`` unfinished, each
stopped at ``job_time_limit`` seconds; cancel kills a job that does not stop); the heavy requests (the
Morris AI, uploads of Diplomacy games) run on ``task_workers`` worker processes with at most
``max_waiting_tasks`` requests waiting (:mod:`boardeval.web.workers`). The workers start with the app (in
the background: ``/api/health`` answers at once) and are killed when it stops.

``/docs`` (Swagger UI) and ``/redoc`` work offline: the app is built by ``fastapi-offline``, which serves
their JavaScript and CSS itself (under ``/static-docs``); ``/openapi.json`` is the machine-readable schema.
"""

from __future__ import annotations

import logging
import threading
import time
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
from boardeval.web.workers import TaskCancelled, TaskFailed, TaskRunner, WorkerPool, WorkersBusy

__all__ = ["create_app"]

log = logging.getLogger("boardeval.web")

DESCRIPTION = """
The JSON API behind the boardeval pages. Every number comes with its explanation (a breakdown of named
terms, weights and contributions). Bad input answers 4xx with a readable `detail`; long jobs run in the
background: `POST /api/jobs/...` returns an id, `GET /api/jobs/{id}` its state, progress and result.
"""


def create_app(
    *,
    job_workers: int = 2,
    max_pending_jobs: int = 8,
    max_upload_bytes: int = MAX_UPLOAD_BYTES,
    task_workers: int = 2,
    max_waiting_tasks: int = 8,
    job_time_limit: float = 600.0,
) -> FastAPI:
    """Build the app: pages and API routers per game, background jobs and search workers (module
    docstring: bounds), offline docs, error handlers."""
    manager = JobManager(
        workers=job_workers, max_pending=max_pending_jobs, processes=True, time_limit=job_time_limit
    )
    tasks = TaskRunner(WorkerPool("tasks", task_workers), max_waiting=max_waiting_tasks)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        threading.Thread(target=_start_workers, args=(manager, tasks), daemon=True).start()
        pages.prepare(app)  # before "Application startup complete": first answers are fast (issue 23)
        try:
            yield
        finally:
            tasks.shutdown()
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
    app.state.tasks = tasks
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


def _start_workers(manager: JobManager, tasks: TaskRunner) -> None:
    """Start the worker processes (the fork server imports the libraries once: seconds); say when ready."""
    t0 = time.perf_counter()
    try:
        tasks.pool.start()
        manager.start()
    except Exception:  # the pools start again on first use; a failure here must not kill the server
        if tasks.pool.closed:  # a Ctrl-C while they started: the shutdown killed the fork server
            log.info("stopped before the worker processes were ready")
        else:
            log.exception("could not start the worker processes")
        return
    log.info(
        "%d search and %d job worker processes ready in %.1f s",
        tasks.pool.size,
        manager.workers,
        time.perf_counter() - t0,
    )
    _prefetch_tablebase()


def _prefetch_tablebase() -> threading.Thread | None:
    """Have the kernel read the Morris tablebase's packed tables into memory while nobody is playing yet:
    a search probing pages not in memory reads the disk (on a cold cache a 0.5 s search went from depth
    15-16 to 8-9; ``boardeval.morris.prefetch_tablebase``). Started once the workers are up, so the read
    does not slow their start; returns the reading thread (None: no tablebase, or too large to hold)."""
    from boardeval.morris import prefetch_tablebase
    from boardeval.web.morris import tablebase_folder

    folder = tablebase_folder()
    return None if folder is None else prefetch_tablebase(folder)


def _add_error_handlers(app: FastAPI) -> None:
    """The error policy of the module docstring: 422 for bad input, readable 4xx, a logged 500 for bugs."""

    @app.exception_handler(WorkersBusy)
    async def _busy(request: Request, exc: WorkersBusy) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(exc)}, headers={"Retry-After": "1"})

    @app.exception_handler(TaskCancelled)
    async def _stopped(request: Request, exc: TaskCancelled) -> JSONResponse:
        detail = f"the work of this request was stopped ({exc})"
        return JSONResponse(status_code=503, content={"detail": detail}, headers={"Retry-After": "1"})

    @app.exception_handler(TaskFailed)
    async def _worker_bug(request: Request, exc: TaskFailed) -> JSONResponse:
        log.error("task of %s %s failed in its worker: %s", request.method, request.url.path, exc)
        return JSONResponse(status_code=500, content={"detail": f"internal error: {exc}"})

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
