"""Catan board generation as background jobs: ``POST /api/jobs/catan/generate`` and the rule names.

Generation runs as a job because the CP-SAT optimum and long annealing runs can take seconds; fast
methods finish in milliseconds all the same, and the page polls ``GET /api/jobs/{id}`` for progress.
Rule texts are parsed before the job is queued, so a bad rule answers 422 at once.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Request
from pydantic import Field

from boardeval.catan import METHODS, generate, parse_rule
from boardeval.core import Progress
from boardeval.web.catan import MAX_SEED, Layout, board_view, describe_swap, rule_hints
from boardeval.web.common import StrictModel, api_router
from boardeval.web.jobs import JobFn
from boardeval.web.jobs_api import JobView, job_route, submit

__all__ = ["router"]

router = api_router(tags=["catan"])

Method = Literal["random", "anneal", "tournament", "cp"]


class GenerateIn(StrictModel):
    """What the generate form sends (strict: no unknown keys, no type coercion)."""

    method: Method = "anneal"
    seed: int = Field(0, ge=0, le=MAX_SEED)
    rules: list[str] = Field(
        default_factory=list, max_length=20, description="rule texts, e.g. 'max-spot-pips=12'"
    )
    fairness: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="0 = no balancing beyond the rules .. 1 = the optimal energy they allow (anneal: any "
        "value; cp: 0 or 1; random, tournament: 0); null: the method's default",
    )
    layout: Layout = Field("base", description="base, or extended: the 5-6 player board (30 hexes)")
    ports: Literal["random", "fixed", "balanced"] | None = Field(
        None,
        description="harbours: random (reshuffled from the seed), fixed (as drawn) or balanced (placed by "
        "the energy's harbour term); null: the method's default (fixed for random, else balanced)",
    )


@router.get("/api/catan/rules", summary="Generator methods and rule families")
def api_rules() -> dict[str, Any]:
    """Methods, and each rule family as ``{"rule": "max-spot-pips=N", "summary": ...}``."""
    return {"methods": list(METHODS), "rules": rule_hints()}


def _generate_job(body: GenerateIn) -> JobFn:
    rules = tuple(parse_rule(r) for r in body.rules)  # bad rule text fails now, as a 422

    def run(progress: Progress) -> dict[str, Any]:
        result = generate(
            body.method,
            body.seed,
            rules=rules,
            fairness=body.fairness,
            progress=progress,
            layout=body.layout,
            ports=body.ports,
        )
        view = board_view(result.board).model_dump()
        meta = {k: v for k, v in result.to_json().items() if k not in ("code", "board", "energy")}
        meta.setdefault("optimal", None)
        meta.setdefault("swaps", None)
        meta.update(
            method=body.method,
            seed=body.seed,
            fairness=body.fairness,
            interrupted=result.interrupted,
            layout=body.layout,
            rules_asked=list(body.rules),
            swaps_said=[describe_swap(result.board, s.kind, s.a, s.b) for s in result.swaps or ()],
        )
        view["generation"] = meta
        return view

    return run


@job_route(router, "/api/jobs/catan/generate", "Generate a board in the background")
def api_generate(request: Request, body: GenerateIn) -> JobView:
    """Returns a job; poll ``GET /api/jobs/{id}``. The result is a board view plus ``generation``."""
    return submit(request, "catan.generate", _generate_job(body))
