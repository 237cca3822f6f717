"""Background jobs for the web app: long work (CP optimisation, big annealing runs, play-tests) off the
request thread, bounded in number, in time, and stoppable for real.

A job is a function ``fn(progress) -> dict``. It reports progress through the library's ``(done, total,
message)`` callback, which the manager stores so that ``GET /api/jobs/{id}`` can show it.

**Where it runs.** With ``processes=True`` (the app's choice) each job runs in a worker process of a
:class:`~boardeval.web.workers.WorkerPool` of ``workers`` processes: at most ``workers`` heavy jobs run at
once (the others wait, queued), none of them holds the server's GIL, and each has a **time limit**
(``time_limit`` seconds). With ``processes=False`` jobs run on ``workers`` threads of this process (the
light mode the unit tests of this module use: no fork server to start).

**Cancel** sets a flag; the job's next progress call raises :class:`KeyboardInterrupt` inside the job
(once: later reports pass, so the job can return what it kept), which the library's long loops already
treat as Ctrl-C: they stop and return their best result so far flagged ``interrupted``. In a worker
process the flag reaches the job by a signal; a job that has not returned after using ``grace`` more CPU
seconds (CPU, not wall time: on a crowded machine a job wrapping up its result is not killed for waiting
for a core; one that does not compute at all, 30 s later) is stopped for real: its process group is
killed (its own child processes with it) and it ends ``cancelled`` without a result. The time limit
works the same way.

The number of unfinished jobs (queued + running) is bounded: past ``max_pending`` a new submission is
refused with :class:`JobsBusyError` (the API answers 429) instead of queueing without limit. Finished jobs
are kept for ``keep`` submissions and then forgotten, so memory stays bounded on a long-running server.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from boardeval.core import BoardevalError, Progress
from boardeval.web.workers import TaskCancelled, TaskFailed, WorkerPool

__all__ = ["Job", "JobFn", "JobManager", "JobState", "JobsBusyError", "UnknownJobError"]

log = logging.getLogger("boardeval.web.jobs")

JobState = Literal["queued", "running", "done", "failed", "cancelled"]
JobFn = Callable[[Progress], dict[str, Any]]


class JobsBusyError(Exception):
    """Too many unfinished jobs: the caller should retry later (HTTP 429)."""


class UnknownJobError(KeyError):
    """No job with this id (never existed, or finished long ago and was forgotten) (HTTP 404)."""


@dataclass
class Job:
    """One background job and what it has reported so far (read by the API, written by the worker)."""

    id: str
    kind: str
    state: JobState = "queued"
    done: int = 0
    total: int = 0
    message: str = ""
    result: dict[str, Any] | None = None
    error: str | None = None
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    cancel_requested: threading.Event = field(default_factory=threading.Event)

    @property
    def finished_state(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def view(self) -> dict[str, Any]:
        """JSON-able snapshot for the API."""
        now = time.time()
        end = self.finished if self.finished is not None else now
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "message": self.message,
            "result": self.result,
            "error": self.error,
            "seconds": round(end - self.started, 3) if self.started is not None else 0.0,
            "cancel_requested": self.cancel_requested.is_set(),
        }


class JobManager:
    """A bounded pool of background jobs with progress, results and cancellation."""

    def __init__(
        self,
        *,
        workers: int = 2,
        max_pending: int = 8,
        keep: int = 200,
        processes: bool = False,
        time_limit: float = 600.0,
        grace: float = 2.0,
    ) -> None:
        if workers < 1 or max_pending < 1 or keep < max_pending:
            raise ValueError("need workers >= 1, max_pending >= 1 and keep >= max_pending")
        if not time_limit > 0 or grace < 0:
            raise ValueError("need time_limit > 0 and grace >= 0")
        self.max_pending = max_pending
        self.workers = workers
        self.time_limit = time_limit
        self.grace = grace
        self._keep = keep
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="boardeval-job")
        self.processes: WorkerPool | None = WorkerPool("jobs", workers) if processes else None
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._counter = itertools.count(1)

    def submit(self, kind: str, fn: JobFn) -> Job:
        """Queue ``fn``; raises :class:`JobsBusyError` if ``max_pending`` jobs are still unfinished."""
        with self._lock:
            pending = sum(1 for j in self._jobs.values() if not j.finished_state)
            if pending >= self.max_pending:
                raise JobsBusyError(
                    f"{pending} jobs are already queued or running (limit {self.max_pending}); "
                    "wait for one to finish or cancel one, then try again"
                )
            job = Job(id=f"{next(self._counter)}-{uuid.uuid4().hex[:8]}", kind=kind)
            self._jobs[job.id] = job
            self._forget_old()
        self._pool.submit(self._run, job, fn)
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise UnknownJobError(job_id)
        return job

    def cancel(self, job_id: str) -> Job:
        """Ask a job to stop. A queued job never starts; a running one stops at its next progress call."""
        job = self.get(job_id)
        job.cancel_requested.set()
        return job

    def jobs(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def wait(self, job_id: str, timeout: float = 30.0) -> Job:
        """Block until the job has finished (for tests and scripts)."""
        deadline = time.monotonic() + timeout
        job = self.get(job_id)
        while not job.finished_state and time.monotonic() < deadline:
            time.sleep(0.01)
        return job

    def start(self) -> None:
        """Start the worker processes now (else on the first job): the app does it at start-up."""
        if self.processes is not None:
            self.processes.start()

    def shutdown(self) -> None:
        """Cancel everything, kill the worker processes, stop the threads (app shutdown; immediate)."""
        for job in self.jobs():
            job.cancel_requested.set()
        if self.processes is not None:
            self.processes.shutdown()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _forget_old(self) -> None:
        while len(self._jobs) > self._keep:
            oldest = next((k for k, j in self._jobs.items() if j.finished_state), None)
            if oldest is None:
                break
            del self._jobs[oldest]

    def _run(self, job: Job, fn: JobFn) -> None:
        if job.cancel_requested.is_set():
            job.state, job.finished, job.message = "cancelled", time.time(), "cancelled before it started"
            return
        job.state, job.started = "running", time.time()
        stopped_by = [""]  # why the job was asked to stop: "" (not asked), "cancelled" or the time limit

        def record(done: int, total: int, message: str = "") -> None:
            job.done, job.total, job.message = int(done), int(total), str(message)

        try:
            if self.processes is None:
                result = self._run_here(job, fn, record)
            else:
                result = self.processes.run(
                    fn,
                    progress=record,
                    cancel=job.cancel_requested,
                    time_limit=self.time_limit,
                    grace=self.grace,
                    on_stop=lambda why: stopped_by.__setitem__(0, why),
                )
        except (KeyboardInterrupt, TaskCancelled) as exc:
            job.state = "cancelled"
            job.message = str(exc) if isinstance(exc, TaskCancelled) else "cancelled"
        except BoardevalError as exc:
            job.state, job.error = "failed", str(exc)
        except TaskFailed as exc:
            log.error("job %s (%s) crashed in its worker: %s", job.id, job.kind, exc)
            job.state, job.error = "failed", f"internal error: {exc}"
        except Exception as exc:  # a bug, not bad input: keep the server up and say so
            log.exception("job %s (%s) crashed", job.id, job.kind)
            job.state, job.error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        else:
            job.result = result
            why = stopped_by[0] or ("cancelled" if job.cancel_requested.is_set() else "")
            job.state = "cancelled" if why else "done"
            if why:
                job.message = f"{why}: best result so far kept"
        finally:
            job.finished = time.time()

    def _run_here(self, job: Job, fn: JobFn, record: Callable[[int, int, str], None]) -> dict[str, Any]:
        """Run ``fn`` on this thread (``processes=False``); cancel raises at its next progress call."""
        interrupts = [0]

        def progress(done: int, total: int, message: str = "") -> None:
            record(done, total, message)
            # Raise once: the library's long loops then stop and keep their best result, and their last
            # progress report (after the loop) must not raise again and throw that result away.
            if job.cancel_requested.is_set() and not interrupts[0]:
                interrupts[0] += 1
                raise KeyboardInterrupt

        return fn(progress)
