"""Worker processes of the web app (issue 24): results and errors come back, progress arrives, cancel and
the time limit stop a task for real (its own child processes too), shutdown and the server's death leave no
worker behind. Every wait is for a signal (a progress report, a pipe, a process's end in /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from boardeval.core import ParamsError
from boardeval.diplomacy import RecordStateError
from boardeval.web.workers import TaskCancelled, TaskFailed, WorkerPool

GUARD = 120.0
"""Seconds before a wait that should end fails (a guard, not part of any verdict)."""


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    p = WorkerPool("test", 1)
    yield p
    p.shutdown()


def _gone(pid: int) -> bool:
    """True once ``pid`` is no longer a running process (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _wait_gone(pids: list[int]) -> list[int]:
    deadline = time.monotonic() + GUARD
    left = [p for p in pids if not _gone(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.02)  # polling /proc: the process's end is the signal
        left = [p for p in left if not _gone(p)]
    return left


def add(a: int, b: int) -> dict[str, int]:
    return {"sum": a + b, "pid": os.getpid()}


def test_results_and_errors_come_back_and_the_worker_is_kept(pool: WorkerPool) -> None:
    first = pool.run(add, (2, 3))
    assert first["sum"] == 5 and first["pid"] != os.getpid()
    with pytest.raises(RecordStateError, match="game 'g', phase 'S1901M', units: two units") as info:
        pool.run(_bad_record)
    assert info.value.phase == "S1901M"  # the library's error, whole, as the API's handlers expect it
    with pytest.raises(ParamsError, match="bad seed"):
        pool.run(_raise, (ParamsError("bad seed"),))
    assert pool.run(add, (1, 1))["pid"] == first["pid"]  # bad input does not cost the worker
    with pytest.raises(TaskFailed, match="ZeroDivisionError"):
        pool.run(_raise, (ZeroDivisionError("boom"),))
    assert pool.run(lambda: "a closure travels too") == "a closure travels too"


def _bad_record() -> None:
    raise RecordStateError("two units", game="g", phase="S1901M", field="units")


def _raise(exc: BaseException) -> None:
    raise exc


def test_progress_arrives_and_cancel_keeps_the_best_result(pool: WorkerPool) -> None:
    seen: list[tuple[int, int, str]] = []
    started = threading.Event()
    cancel = threading.Event()

    def record(done: int, total: int, message: str = "") -> None:
        seen.append((done, total, message))
        started.set()

    out: dict[str, Any] = {}
    runner = threading.Thread(
        target=lambda: out.update(r=pool.run(_count, progress=record, cancel=cancel, time_limit=GUARD))
    )
    runner.start()
    assert started.wait(GUARD)
    cancel.set()
    runner.join(GUARD)
    assert out["r"]["interrupted"] is True and 1 <= out["r"]["best"] < 10**9
    assert seen[0][1] == 10**9 and seen[0][2] == "counting"


def _count(progress: Any) -> dict[str, Any]:
    best = 0
    try:
        for i in range(10**9):
            best = i
            progress(i + 1, 10**9, "counting")
    except KeyboardInterrupt:
        return {"best": best, "interrupted": True}
    return {"best": best, "interrupted": False}


def test_a_task_that_ignores_cancel_is_killed_with_its_children() -> None:
    pool = WorkerPool("test-kill", 1)
    try:
        pids: list[int] = []
        started = threading.Event()

        def record(done: int, total: int, message: str = "") -> None:
            pids.extend([done, total])
            started.set()

        cancel = threading.Event()
        outcome: list[BaseException] = []

        def run() -> None:
            try:
                pool.run(_stubborn, progress=record, cancel=cancel, time_limit=GUARD, grace=0.2)
            except BaseException as exc:
                outcome.append(exc)

        runner = threading.Thread(target=run)
        runner.start()
        assert started.wait(GUARD)
        worker, child = pids
        assert not _gone(worker) and not _gone(child)
        cancel.set()
        runner.join(GUARD)
        assert isinstance(outcome[0], TaskCancelled) and "its process killed" in str(outcome[0])
        assert _wait_gone([worker, child]) == []  # the worker and the process it started
        assert pool.run(add, (1, 2))["sum"] == 3  # a fresh worker took its place
    finally:
        pool.shutdown()


def _stubborn(progress: Any) -> None:
    child = subprocess.Popen(["sleep", "1000"])
    progress(os.getpid(), child.pid, "started")
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # deaf to the polite request
    while True:
        pass


def test_the_time_limit_stops_a_task() -> None:
    pool = WorkerPool("test-limit", 1)
    try:
        with pytest.raises(TaskCancelled, match=r"time limit of 0\.5 s reached"):
            pool.run(_spin, time_limit=0.5, grace=0)
    finally:
        pool.shutdown()


def _spin() -> None:
    while True:
        pass


def test_shutdown_kills_busy_workers_at_once() -> None:
    pool = WorkerPool("test-shutdown", 2)
    pool.start()
    pids = pool.pids()
    assert len(pids) == 2
    errors: list[BaseException] = []
    started = threading.Event()

    def run() -> None:
        try:
            pool.run(_count, progress=lambda *a: started.set(), time_limit=GUARD)
        except BaseException as exc:
            errors.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    assert started.wait(GUARD)
    pool.shutdown()
    runner.join(GUARD)
    assert isinstance(errors[0], TaskCancelled)
    assert _wait_gone(pids) == []


def test_workers_die_with_the_server_even_on_sigkill() -> None:
    """The lifeline: a server killed with SIGKILL (no clean-up at all) leaves no worker behind."""
    code = (
        "import sys\n"
        "import boardeval.web.workers as w\n"
        "w.PRELOAD = 'boardeval.core'  # a light fork server: this test needs no game library\n"
        "from boardeval.web.workers import WorkerPool\n"
        "def main():\n"
        "    p = WorkerPool('orphan', 2)\n"
        "    p.start()\n"
        "    print(' '.join(map(str, p.pids())), flush=True)\n"
        "    sys.stdin.read()\n"
        "if __name__ == '__main__':\n"
        "    main()\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    pids = [int(p) for p in server.stdout.readline().split()]
    assert len(pids) == 2 and not any(_gone(p) for p in pids)
    server.kill()
    server.wait()
    assert _wait_gone(pids) == []


class _ClosedMidRead:
    """A worker's pipe that the shutdown closes (from the main thread, on Ctrl-C) while a job's thread reads
    it: multiprocessing's ``Connection`` then reads from the handle ``close()`` set to None."""

    def __init__(self, pool: WorkerPool, closing: bool) -> None:
        self.pool, self.closing = pool, closing

    def send_bytes(self, data: bytes) -> None:
        pass

    def poll(self, timeout: float) -> bool:
        return True

    def recv(self) -> Any:
        if self.closing:
            self.pool._closed = True  # shutdown() sets it before it kills the workers and closes the pipes
        return os.read(None, 4)  # type: ignore[arg-type]  # what Connection._recv does with that handle


def test_a_pipe_closed_by_the_shutdown_mid_read_cancels_the_task() -> None:
    """A Ctrl-C while a job read its worker's pipe: the job "crashed" with a TypeError traceback (one
    clean-clone CI run's fault test, issue 22). After the shutdown it is a cancelled task; without one, the
    same TypeError is a bug and is raised, not hidden."""
    from types import SimpleNamespace

    for closing in (True, False):
        pool = WorkerPool("mid-read", 1)  # never started: no process
        worker = SimpleNamespace(conn=_ClosedMidRead(pool, closing), pid=0, process=None)
        if closing:
            with pytest.raises(TaskCancelled, match="shutting down"):
                pool._drive(worker, b"", None, None, 60.0, 0.0, None)  # type: ignore[arg-type]
        else:
            with pytest.raises(TypeError):
                pool._drive(worker, b"", None, None, 60.0, 0.0, None)  # type: ignore[arg-type]


def test_a_client_gone_mid_task_leaves_nothing_logged() -> None:
    """A client that goes away stops its task (:class:`TaskCancelled` to the request), and the task's own
    end, which nobody awaits any more, is not logged by asyncio with a traceback ("Future exception was
    never retrieved": printed in the server's log each time a page was left mid-request)."""
    import asyncio
    import gc

    from boardeval.web.workers import TaskRunner

    pool = WorkerPool("test-gone", 1)
    runner = TaskRunner(pool, max_waiting=1)
    logged: list[str] = []

    async def gone() -> bool:
        return True

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: logged.append(str(ctx)))
        with pytest.raises(TaskCancelled, match="client went away"):
            await runner.run(_spin, time_limit=GUARD, disconnected=gone)
        runner._threads.shutdown(wait=True)  # the task's thread has ended: its outcome is set
        await asyncio.sleep(0)  # ... and handed to the event loop
        gc.collect()  # an unretrieved exception is logged when its future is collected

    failed: list[BaseException] = []

    def in_own_thread() -> None:  # a browser test's event loop may be running in this one
        try:
            asyncio.run(main())
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=in_own_thread)
    try:
        thread.start()
        thread.join(GUARD)
    finally:
        pool.shutdown()
    assert not thread.is_alive() and failed == [] and logged == []


def _spin() -> None:
    while True:
        pass
