"""Worker processes for the web app's heavy work: bounded, time-limited, and killed for real.

The server's event loop must stay free (``/api/health`` answers in milliseconds while searches and jobs
run), and one request must not be able to start work that nothing bounds (issue 24). CPU-bound work in
the server process would hold the GIL (the compiled Morris search holds it for a whole search), so every
heavy piece of work runs in a worker process of a :class:`WorkerPool`:

* **workers** are forked by a fork server (``multiprocessing``'s ``forkserver`` context) that imported
  the game libraries once (:mod:`boardeval.web._preload`: numpy, numba's compiled Morris search, the
  generators, the diplomacy engine, pandas, matplotlib), so a new worker is ready in milliseconds and
  shares those pages with its siblings. A worker runs one task at a time, in its **own process group**
  (whatever it starts goes with it), ignores SIGINT (a terminal's Ctrl-C is the server's to handle) and
  kills its own group when the server goes away (a *lifeline* pipe only the server holds reaches EOF:
  even a server killed with SIGKILL leaves no worker behind).
* **a task** is a picklable function (``cloudpickle``: job closures too) and its arguments. Its result or
  its error comes back over a pipe: a :class:`~boardeval.core.BoardevalError` is raised again in the
  server (the API answers 422), anything else is :class:`TaskFailed` (a bug: 500 in a request, "failed"
  for a job).
* **progress** (jobs): the task's ``progress(done, total, message)`` calls reach the server (at most 20 a
  second, and the last one).
* **cancel** (``cancel`` event set, or the task's ``time_limit`` passed): the worker is asked first
  (SIGUSR1: its next progress call raises :class:`KeyboardInterrupt` once, which the library's long loops
  treat as Ctrl-C: they stop and return their best result so far); if it has not answered after
  using ``grace`` more CPU seconds (or :data:`STOP_WALL_SECONDS` later, if it does not compute), its
  process group is killed (SIGKILL) and a fresh worker takes its place. Either way the
  work stops: :class:`TaskCancelled` carries the reason when nothing was returned.
* **shutdown** kills every worker's process group at once (no waiting on running work).

:class:`TaskRunner` puts a pool behind ``async`` request handlers: at most ``size + max_waiting``
requests in flight (past that, :class:`WorkersBusy`: the API answers 503 with ``Retry-After``), a time
limit per task, and a request whose client went away or that the server cancels (shutdown) stops its
task. Figures and the rules: ``docs/reliability.md`` (Request bounds, Shutdown).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from boardeval.core import BoardevalError, Progress

__all__ = [
    "PRELOAD",
    "TaskCancelled",
    "TaskFailed",
    "TaskRunner",
    "WorkerPool",
    "WorkersBusy",
    "kill_all_workers",
    "stop_fork_server",
]

log = logging.getLogger("boardeval.web.workers")

PRELOAD = "boardeval.web._preload"
"""The module the fork server imports before it forks any worker (the libraries the tasks use)."""
PRELOAD_START = "boardeval.web._preload_start"
"""Imported first: Ctrl-C is ignored while the fork server loads the libraries (its docstring)."""

WORKER_NICENESS = 5
"""Workers run at a lower CPU priority than the server, so that on a busy machine the event loop (small,
short bursts of work) is served first and a page stays responsive while searches and jobs compute."""

STOP_WALL_SECONDS = 30.0
"""Seconds after a cancel request when a task that has not answered is killed even though it did not
compute (blocked: waiting on something). A computing task is killed sooner: after ``grace`` CPU seconds."""

PROGRESS_INTERVAL = 0.05
"""Seconds between two progress reports sent to the server (the last one of a task is always sent)."""


class TaskCancelled(Exception):
    """The task was stopped (cancelled, its time limit passed, or the pool shut down) and returned
    nothing; ``str()`` says why."""


class TaskFailed(Exception):
    """The task raised something that is not bad input (a bug), or its worker died; ``str()`` says what."""


class _StoppedCleanly(TaskCancelled):
    """The task stopped on the cancel request without a result; its worker is fine and is kept."""


class WorkersBusy(Exception):
    """Every worker is busy and the waiting line is full: try again shortly (HTTP 503, Retry-After)."""


# --------------------------------------------------------------------------------------------------------
# The worker side


_cancel_asked = threading.Event()


def _on_cancel(signum: int, frame: Any) -> None:
    _cancel_asked.set()


def _watch_lifeline(lifeline: Connection) -> None:
    """Kill this worker's process group when the server is gone (the lifeline's only writer closed)."""
    with contextlib.suppress(BaseException):
        lifeline.recv_bytes()
    os.killpg(0, signal.SIGKILL)


def _worker_main(conn: Connection, lifeline: Connection) -> None:
    """A worker's loop: receive a task, run it, send back progress and the result (module docstring)."""
    with contextlib.suppress(OSError):  # its own group: Ctrl-C at the terminal reaches the server only
        os.setpgid(0, 0)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGUSR1, _on_cancel)
    threading.Thread(target=_watch_lifeline, args=(lifeline,), daemon=True, name="lifeline").start()
    while True:
        try:
            payload = conn.recv_bytes()
        except (EOFError, OSError):
            os._exit(0)
        _cancel_asked.clear()
        try:
            message = _run_task(conn, payload)
        except BaseException as exc:
            message = ("failed", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(message)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("failed", f"the result could not be sent back: {type(exc).__name__}: {exc}"))
        except (EOFError, OSError):
            os._exit(0)


def _run_task(conn: Connection, payload: bytes) -> tuple[Any, ...]:
    import cloudpickle

    fn, args, with_progress = cloudpickle.loads(payload)
    last = [0.0]
    raised = [False]

    def progress(done: int, total: int, message: str = "") -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_INTERVAL or (total > 0 and done >= total):
            last[0] = now
            conn.send(("progress", int(done), int(total), str(message)))
        if _cancel_asked.is_set() and not raised[0]:
            # once: the library's loops then stop and keep their best result, and their last progress
            # report (after the loop) must not raise again and throw that result away
            raised[0] = True
            raise KeyboardInterrupt

    try:
        result = fn(progress, *args) if with_progress else fn(*args)
    except KeyboardInterrupt:
        return ("cancelled",)
    except BoardevalError as exc:
        try:
            return ("bad-input", pickle.dumps(exc))
        except Exception:
            return ("bad-input", pickle.dumps(BoardevalError(str(exc))))
    return ("done", result, _cancel_asked.is_set())


# --------------------------------------------------------------------------------------------------------
# The server side


def _cpu_seconds(pid: int) -> float:
    """CPU seconds process ``pid`` has used (all its threads, and the children it reaped); infinite once it
    is gone (a gone worker is past any grace)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("inf")
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([PRELOAD_START, PRELOAD])
    return ctx


class _Worker:
    """One worker process, its task pipe and the lifeline the server holds."""

    def __init__(self, name: str) -> None:
        ctx = _context()
        self.conn, child = ctx.Pipe()
        life_r, self.lifeline = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_worker_main, args=(child, life_r), name=name, daemon=False)
        self.process.start()
        child.close()
        life_r.close()

    @property
    def pid(self) -> int:
        pid = self.process.pid
        assert pid is not None
        return pid

    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        """SIGKILL the worker's process group (the worker and whatever it started) and close its pipes.

        Not waited for: the fork server (its parent) reaps it; SIGKILL cannot be ignored."""
        pid = self.process.pid
        if pid is not None:
            for kill in (os.killpg, os.kill):  # before its setpgid the group does not exist yet
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    kill(pid, signal.SIGKILL)
        for end in (self.conn, self.lifeline):
            with contextlib.suppress(OSError):
                end.close()


_POOLS: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


def kill_all_workers() -> None:
    """Shut every pool of this process down and stop the fork server (the server's exit, ``atexit``).

    The fork server goes first: a pool still starting holds its lock while the fork server loads the
    libraries (seconds; ~20 s on a machine's first start), and a Ctrl-C then waited for all of that; with
    the fork server gone the start fails at once. And once more at the end, in case a start began anew."""
    pools = list(_POOLS)
    for pool in pools:
        pool._stopping = True  # read by ``closed`` before shutdown() gets the lock a start may hold
    stop_fork_server()
    for pool in pools:
        pool.shutdown()
    stop_fork_server()


def stop_fork_server() -> None:
    """Kill this process's fork server, if it runs, and reap it (a later worker starts a new one).

    Killed, not asked: left to exit by itself it would tear down its interpreter (numpy, numba, pandas,
    matplotlib...), 2 CPU seconds under load, after the server itself had gone."""
    from multiprocessing import forkserver

    server: Any = getattr(forkserver, "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(Exception):  # multiprocessing's own reset: closes its pipe, reaps the pid
        server._stop()


atexit.register(kill_all_workers)


class WorkerPool:
    """``size`` worker processes, each running one task at a time (module docstring).

    Workers start on :meth:`start` (or the first :meth:`run`) and are replaced when one is killed. The
    caller bounds how many :meth:`run` calls wait for a worker (the job manager's threads, the task
    runner's line)."""

    def __init__(self, name: str, size: int) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.name = name
        self.size = size
        self._idle: queue.SimpleQueue[_Worker | None] = queue.SimpleQueue()
        self._workers: set[_Worker] = set()
        self._lock = threading.Lock()
        self._started = False
        self._closed = False
        self._stopping = False  # set by kill_all_workers() first (see ``closed``)
        _POOLS.add(self)

    def start(self) -> None:
        """Start the workers (the first start also starts the fork server: imports, compiled code)."""
        with self._lock:
            if self._started or self._closed:
                return
            self._started = True
            for _ in range(self.size):
                self._idle.put(self._spawn())

    @property
    def closed(self) -> bool:
        """True once the server is stopping (:func:`kill_all_workers` began, or :meth:`shutdown` ran)."""
        return self._closed or self._stopping

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        with self._lock:
            return [w.pid for w in self._workers if w.alive()]

    def _spawn(self) -> _Worker:
        worker = _Worker(f"boardeval-{self.name}")
        self._workers.add(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        """Kill ``worker`` and put a fresh one in its place (unless the pool is shut down)."""
        worker.kill()
        with self._lock:
            self._workers.discard(worker)
            if self._closed:
                self._idle.put(None)
                return
            self._idle.put(self._spawn())

    def run(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...] = (),
        *,
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        time_limit: float = 60.0,
        grace: float = 1.0,
        on_stop: Callable[[str], None] | None = None,
    ) -> Any:
        """Run ``fn(*args)`` (or ``fn(progress, *args)`` when ``progress`` is given) in a worker; block
        until it returns. Returns ``fn``'s result; raises its :class:`BoardevalError`, or
        :class:`TaskCancelled` / :class:`TaskFailed`. A result returned after a cancel request is
        returned; ``on_stop`` is told why the worker was asked to stop ("cancelled" or the time limit).
        ``grace``: CPU seconds the task may use after that request before it is killed (0: at once)."""
        import cloudpickle

        payload = cloudpickle.dumps((fn, args, progress is not None))
        self.start()
        worker = self._idle.get()
        if worker is None or self._closed:  # shut down (before or while waiting): its workers are killed
            self._idle.put(None)
            raise TaskCancelled("the server is shutting down")
        keep = False
        try:
            outcome = self._drive(worker, payload, progress, cancel, time_limit, grace, on_stop)
            keep = True
            return outcome
        except (_StoppedCleanly, BoardevalError):
            keep = True
            raise
        finally:
            if keep and worker.alive() and not self._closed:
                self._idle.put(worker)
            else:
                self._retire(worker)

    def _drive(
        self,
        worker: _Worker,
        payload: bytes,
        progress: Progress | None,
        cancel: threading.Event | None,
        time_limit: float,
        grace: float,
        on_stop: Callable[[str], None] | None,
    ) -> Any:
        deadline = time.monotonic() + time_limit
        asked: float | None = None  # when the worker was asked to stop
        asked_cpu = 0.0  # the worker's CPU seconds then
        reason = "cancelled"
        try:
            worker.conn.send_bytes(payload)
        except Exception as exc:
            self._pipe_failed(exc, (OSError,))
            raise TaskFailed(f"the worker process is gone ({exc})") from None
        while True:
            now = time.monotonic()
            if self._closed:
                raise TaskCancelled("the server is shutting down")
            if asked is None and ((cancel is not None and cancel.is_set()) or now >= deadline):
                reason = "cancelled" if now < deadline else f"time limit of {time_limit:g} s reached"
                if on_stop is not None:
                    on_stop(reason)
                if grace <= 0:
                    raise TaskCancelled(reason)
                asked, asked_cpu = now, _cpu_seconds(worker.pid)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGUSR1)
            if asked is not None and (
                _cpu_seconds(worker.pid) - asked_cpu >= grace or now - asked >= STOP_WALL_SECONDS
            ):
                raise TaskCancelled(f"{reason}: stopped (its process killed)")
            wait = 0.1 if asked is None else min(0.1, grace / 4)
            try:
                ready = worker.conn.poll(wait)
                message = worker.conn.recv() if ready else None
            except Exception as exc:
                self._pipe_failed(exc, (EOFError, OSError))
                code = worker.process.exitcode
                raise TaskFailed(f"the worker process died (exit code {code})") from None
            if message is None:
                continue
            kind = message[0]
            if kind == "progress":
                if progress is not None:
                    progress(message[1], message[2], message[3])
            elif kind == "done":
                return message[1]
            elif kind == "bad-input":
                raise pickle.loads(message[1])
            elif kind == "cancelled":
                raise _StoppedCleanly(reason)
            else:
                raise TaskFailed(str(message[1]))

    def _pipe_failed(self, exc: Exception, worker_gone: tuple[type[Exception], ...]) -> None:
        """A send to or read from a worker's pipe failed with ``exc``: after :meth:`shutdown`, the shutdown's
        doing (raises :class:`TaskCancelled`); before it, one of ``worker_gone`` means a dead worker (returns:
        the caller says how) and anything else is a bug (raised as it is).

        A Ctrl-C's shutdown() closes the pipes from the main thread, and multiprocessing's ``Connection`` is
        not thread-safe: closed in the middle of a recv(), its handle is None and the read raises TypeError
        (a job "crashed" with that traceback in one clean-clone CI run's fault test, issue 22)."""
        if self._closed:
            raise TaskCancelled("the server is shutting down") from None
        if not isinstance(exc, worker_gone):
            raise exc

    def shutdown(self) -> None:
        """Kill every worker now (running tasks end as :class:`TaskCancelled`). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
        for worker in workers:
            worker.kill()
        self._idle.put(None)


class TaskRunner:
    """A :class:`WorkerPool` behind ``async`` request handlers, with a bounded line (module docstring)."""

    def __init__(self, pool: WorkerPool, *, max_waiting: int) -> None:
        self.pool = pool
        self.capacity = pool.size + max_waiting
        self._in_flight = 0
        self._threads = ThreadPoolExecutor(max_workers=self.capacity, thread_name_prefix=f"{pool.name}-wait")

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        time_limit: float,
        disconnected: Callable[[], Any] | None = None,
    ) -> Any:
        """``fn(*args)`` in a worker, awaited without blocking the event loop. :class:`WorkersBusy` at once
        when the line is full; ``disconnected`` (e.g. ``request.is_disconnected``) is polled, and a gone
        client stops the task."""
        if self._in_flight >= self.capacity:
            waiting = self.capacity - self.pool.size
            raise WorkersBusy(
                f"all {self.pool.size} {self.pool.name} workers are busy and {waiting} requests wait; "
                "try again in a moment"
            )
        self._in_flight += 1
        cancel = threading.Event()
        loop = asyncio.get_running_loop()
        call = functools.partial(self.pool.run, fn, args, cancel=cancel, time_limit=time_limit, grace=0)
        future = loop.run_in_executor(self._threads, call)
        watcher = asyncio.ensure_future(_watch(disconnected)) if disconnected is not None else None
        try:
            if watcher is not None:
                await asyncio.wait({future, watcher}, return_when=asyncio.FIRST_COMPLETED)
                if not future.done():
                    cancel.set()
                    raise TaskCancelled("the client went away")
            return await future
        except asyncio.CancelledError:
            cancel.set()
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
            if not future.done():  # left early (client gone, request cancelled): the task's end is not news
                future.add_done_callback(_retrieve)
            self._in_flight -= 1

    def shutdown(self) -> None:
        self.pool.shutdown()
        self._threads.shutdown(wait=False, cancel_futures=True)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Take the outcome of a task nobody awaits any more (its client went away), so that asyncio does not
    log it with a traceback ("Future exception was never retrieved": ``TaskCancelled``, which is expected)."""
    if not future.cancelled():
        future.exception()


async def _watch(disconnected: Callable[[], Any]) -> None:
    """Return when ``disconnected()`` says the client is gone (polled 4 times a second)."""
    while not await disconnected():
        await asyncio.sleep(0.25)
