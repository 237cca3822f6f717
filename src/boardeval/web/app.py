"""FastAPI application factory. Pages and the JSON API under ``/api`` call only the public library."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse

from boardeval import __version__
from boardeval.core import BoardevalError

__all__ = ["create_app"]


def create_app() -> FastAPI:
    """Build the app: routers per game, and 422 answers for every library input error."""
    app = FastAPI(title="boardeval", version=__version__)

    @app.exception_handler(BoardevalError)
    async def _bad_input(request: Request, exc: BoardevalError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": str(exc)})

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return "<!doctype html><title>boardeval</title><h1>boardeval</h1>"

    return app
