"""``/api/jobs``: state, progress and result of background jobs; cancellation.

Jobs are created by the game routers (e.g. ``POST /api/jobs/catan/generate``) through :func:`submit`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from boardeval.web.common import api_router
from boardeval.web.jobs import Job, JobFn, JobManager, JobsBusyError, JobState, UnknownJobError

__all__ = ["JobView", "job_route", "manager", "router", "submit"]

router = api_router(prefix="/api/jobs", tags=["jobs"])


class JobView(BaseModel):
    """A background job as the API shows it."""

    id: str
    kind: str = Field(description="what the job does, e.g. 'catan.generate'")
    state: JobState
    done: int = Field(description="units of work done so far (meaning depends on the job)")
    total: int = Field(description="units of work in all; 0 while unknown")
    message: str
    result: dict[str, Any] | None = Field(description="the result once the job is done (or cancelled)")
    error: str | None = Field(description="why the job failed, in words")
    seconds: float = Field(description="seconds since the job started (until it finished)")
    cancel_requested: bool


def manager(request: Request) -> JobManager:
    """The app's job manager."""
    jobs: JobManager = request.app.state.jobs
    return jobs


def submit(request: Request, kind: str, fn: JobFn) -> JobView:
    """Queue ``fn(progress) -> dict`` as a job; 429 when the queue is full."""
    try:
        job = manager(request).submit(kind, fn)
    except JobsBusyError as exc:
        raise HTTPException(status_code=429, detail=str(exc)) from None
    return JobView(**job.view())


F = TypeVar("F", bound=Callable[..., Any])


def job_route(game_router: APIRouter, path: str, summary: str) -> Callable[[F], F]:
    """The ``POST`` route of a game router that starts a job (its handler returns :func:`submit`'s view):
    202 Accepted with the :class:`JobView` to poll at ``GET /api/jobs/{id}``, listed under "jobs"."""
    return game_router.post(path, response_model=JobView, status_code=202, tags=["jobs"], summary=summary)


def _get(request: Request, job_id: str) -> Job:
    try:
        return manager(request).get(job_id)
    except UnknownJobError:
        raise HTTPException(
            status_code=404, detail=f"no job with id {job_id!r} (it never existed or was forgotten)"
        ) from None


@router.get("", response_model=list[JobView], summary="List recent jobs")
def list_jobs(request: Request) -> list[JobView]:
    """Recent jobs, oldest first, without their results (fetch one job for its result)."""
    views = []
    for job in manager(request).jobs():
        view = job.view()
        view["result"] = None
        views.append(JobView(**view))
    return views


@router.get("/{job_id}", response_model=JobView, summary="A job's state, progress and result")
def get_job(request: Request, job_id: str) -> JobView:
    """Poll this until ``state`` is ``done``, ``failed`` or ``cancelled``."""
    return JobView(**_get(request, job_id).view())


@router.delete("/{job_id}", response_model=JobView, summary="Cancel a job")
def cancel_job(request: Request, job_id: str) -> JobView:
    """Ask the job to stop; a long search stops at its next progress report and keeps its best result."""
    job = _get(request, job_id)
    manager(request).cancel(job.id)
    return JobView(**job.view())
