"""The start page (a random Catan board with its heatmap and energy, links to the three games) and health."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import HTMLResponse
from starlette.applications import Starlette

from boardeval import __version__
from boardeval.catan import DISPLAY_DIGITS, Board
from boardeval.web.catan import MAX_SEED, board_view
from boardeval.web.common import api_router, templates, text_int
from boardeval.web.glossary import page_glossary

__all__ = ["prepare", "router"]

router = api_router()

HOME_TERMS = frozenset({"seed", "spot score", "energy"})
"""The Catan glossary terms the start page's template marks (besides its energy terms' names)."""


def home_glossary(energy_terms: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The definitions the start page embeds: only the terms it shows (its template's terms and the names of
    its energy table's rows), not the whole Catan glossary (3.5 KB raw it never used: the web budget)."""
    shown = HOME_TERMS | {str(t["name"]) for t in energy_terms}
    return {k: v for k, v in page_glossary("catan").items() if k in shown}


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def index(
    request: Request,
    seed: Annotated[int | None, Query(ge=0, le=MAX_SEED), text_int("seed", 0, MAX_SEED)] = None,
) -> HTMLResponse:
    """A fresh random board on every visit (its seed is shown, and ``/?seed=N`` shows that one again)."""
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    view = board_view(Board.random(seed))
    top = sorted(view.spots, key=lambda s: s.rank)[:5]
    return templates.TemplateResponse(
        request,
        "index.html",
        {
            "page": "home",
            "version": __version__,
            "view": view,
            "seed": seed,
            "top": top,
            "digits": DISPLAY_DIGITS,
            "glossary": home_glossary(view.energy["terms"]),
        },
    )


def prepare(app: Starlette) -> None:
    """Ready every page before the first request, at start-up (issue 23 §5).

    A fresh server took 1.2 s for its first /diplomacy HTML: it measured all three shipped games (now it
    only reads their labels), every page's first answer compiled its templates, and FastAPI builds each
    included router's route table on the first request that walks past it (/diplomacy comes after the
    Catan and Morris routers: ~0.15 s on a quiet machine). The app's start-up calls this before uvicorn
    says "Application startup complete", so no first visitor waits for any of it.
    """
    from boardeval.web.diplomacy import api_games

    for name in templates.env.list_templates(extensions=["html"]):
        templates.env.get_template(name)
    api_games()
    nowhere = {"type": "http", "method": "GET", "path": "/-", "root_path": "", "headers": []}
    for route in app.router.routes:
        route.matches(nowhere)  # a path no route takes: each router builds its table on the way


@router.get("/api/health", tags=["meta"], summary="Liveness check and the work in hand")
async def health(request: Request) -> dict[str, str | int]:
    """Answered on the event loop itself (no thread): it is as quick as the loop is free (issue 24).

    ``heavy_requests``: requests whose work is in a search worker or waiting for one (the Morris AI,
    Diplomacy uploads); ``jobs_running``: background jobs running. What a load test or an operator waits
    on ("the server is in the middle of its work") instead of guessing it from the clock."""
    state = request.app.state
    running = sum(1 for job in state.jobs.jobs() if job.state == "running")
    return {
        "status": "ok",
        "version": __version__,
        "heavy_requests": state.tasks.in_flight,
        "jobs_running": running,
    }
