"""The background job manager: progress, results, failures, cancellation, the bound on pending jobs."""

from __future__ import annotations

import threading
import time

import pytest

from boardeval.core import ParamsError, Progress
from boardeval.web.jobs import JobManager, JobsBusyError, UnknownJobError

GUARD = 120.0
"""Seconds any wait below may take: a hang guard only (each job here takes milliseconds; ``jm.wait`` returns
the job unfinished at the guard, and the state check then fails)."""


def test_job_reports_progress_and_result() -> None:
    jm = JobManager(workers=1, max_pending=2)
    seen: list[int] = []
    gate = threading.Event()

    def fn(progress: Progress) -> dict[str, int]:
        for i in range(1, 4):
            progress(i, 3, f"step {i}")
            seen.append(i)
        gate.wait(GUARD)  # a failure guard: the test opens the gate once it has seen the job running
        return {"answer": 42}

    job = jm.submit("test", fn)
    deadline = time.monotonic() + GUARD
    while jm.get(job.id).done < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    view = jm.get(job.id).view()
    assert view["state"] == "running" and view["done"] == 3 and view["total"] == 3
    assert view["message"] == "step 3" and view["result"] is None
    gate.set()
    done = jm.wait(job.id, GUARD)
    assert done.state == "done" and done.result == {"answer": 42} and seen == [1, 2, 3]
    jm.shutdown()


def test_library_error_fails_the_job_with_its_message() -> None:
    jm = JobManager(workers=1)

    def fn(progress: Progress) -> dict[str, int]:
        raise ParamsError("fairness must be in [0, 1], got 2")

    job = jm.wait(jm.submit("bad", fn).id, GUARD)
    assert job.state == "failed" and job.error == "fairness must be in [0, 1], got 2"


def test_crash_is_reported_and_the_pool_keeps_working() -> None:
    jm = JobManager(workers=1)
    crashed = jm.wait(jm.submit("bug", lambda p: {"x": 1 // 0}).id, GUARD)
    assert crashed.state == "failed" and crashed.error is not None and "ZeroDivisionError" in crashed.error
    ok = jm.wait(jm.submit("fine", lambda p: {"x": 1}).id, GUARD)
    assert ok.state == "done" and ok.result == {"x": 1}


def test_cancel_interrupts_at_next_progress_and_keeps_best_result() -> None:
    """The library's long loops treat KeyboardInterrupt as Ctrl-C and return their best so far."""
    jm = JobManager(workers=1)
    started = threading.Event()

    def fn(progress: Progress) -> dict[str, int]:
        best = 0
        try:
            for i in range(10_000):
                best = i
                started.set()
                progress(i, 10_000, "")
                time.sleep(0.001)
        except KeyboardInterrupt:
            return {"best": best, "interrupted": True}
        return {"best": best, "interrupted": False}

    job = jm.submit("long", fn)
    assert started.wait(GUARD)
    jm.cancel(job.id)
    done = jm.wait(job.id, GUARD)
    assert done.state == "cancelled"
    assert done.result is not None and done.result["interrupted"] is True and done.result["best"] < 9_999


def test_cancel_interrupts_once_so_the_last_report_keeps_the_result() -> None:
    """Issue 15 defect 1: a loop that stops on the interrupt and then reports its end must not be
    interrupted a second time (that threw the kept result away)."""
    jm = JobManager(workers=1)
    started = threading.Event()
    raised: list[int] = []

    def fn(progress: Progress) -> dict[str, int]:
        best = 0
        try:
            for i in range(10_000):
                best = i
                started.set()
                progress(i, 10_000, "")
                time.sleep(0.001)
        except KeyboardInterrupt:
            raised.append(best)
        progress(10_000, 10_000, "stopped")  # the final report after the loop
        progress(10_000, 10_000, "stopped")
        return {"best": best}

    job = jm.submit("long", fn)
    assert started.wait(GUARD)
    jm.cancel(job.id)
    done = jm.wait(job.id, GUARD)
    assert done.state == "cancelled" and len(raised) == 1
    assert done.result == {"best": raised[0]} and done.message == "cancelled: best result so far kept"


def test_pending_jobs_are_bounded_and_unknown_ids_raise() -> None:
    jm = JobManager(workers=1, max_pending=2)
    gate = threading.Event()
    a = jm.submit("a", lambda p: {"ok": gate.wait(GUARD)})
    jm.submit("b", lambda p: {"ok": gate.wait(GUARD)})
    with pytest.raises(JobsBusyError, match="limit 2"):
        jm.submit("c", lambda p: {})
    gate.set()
    jm.wait(a.id, GUARD)
    with pytest.raises(UnknownJobError):
        jm.get("no-such-job")


def test_finished_jobs_are_forgotten_past_keep() -> None:
    jm = JobManager(workers=1, max_pending=1, keep=3)
    ids = []
    for _ in range(6):
        job = jm.submit("x", lambda p: {})
        jm.wait(job.id, GUARD)
        ids.append(job.id)
    kept = [j.id for j in jm.jobs()]
    assert len(kept) <= 4 and ids[-1] in kept and ids[0] not in kept
