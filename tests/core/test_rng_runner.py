from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from boardeval.core import (
    JobsFailed,
    JobsInterrupted,
    ParamsError,
    make_rng,
    map_jobs,
    spawn_seeds,
    worker_failures,
)
from boardeval.core.runner import DASK_CONNECT_SECONDS


def _square(x: int) -> int:
    return x * x


def test_same_seed_same_stream() -> None:
    assert make_rng(7).integers(0, 1000, 10).tolist() == make_rng(7).integers(0, 1000, 10).tolist()
    assert make_rng(7).integers(0, 1000, 10).tolist() != make_rng(8).integers(0, 1000, 10).tolist()
    g = np.random.default_rng(1)
    assert make_rng(g) is g


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_bad_seed(bad: object) -> None:
    with pytest.raises(ParamsError, match="seed"):
        make_rng(bad)  # type: ignore[arg-type]


def test_spawn_seeds_reproducible_and_distinct() -> None:
    a = spawn_seeds(3, 5)
    assert a == spawn_seeds(3, 5)
    assert len(set(a)) == 5


def test_serial_and_pool_agree() -> None:
    items = list(range(20))
    seen: list[int] = []
    serial = map_jobs(_square, items, progress=lambda d, t, m: seen.append(d))
    pooled = map_jobs(_square, items, workers=2)
    assert serial == pooled == [i * i for i in items]
    assert seen[-1] == 20


def test_dask_same_call() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        assert map_jobs(_square, [1, 2, 3], address=c.scheduler_address) == [1, 4, 9]


def test_bad_workers() -> None:
    with pytest.raises(ParamsError, match="workers"):
        map_jobs(_square, [1], workers=0)


def _die_on_nine(item: tuple[int, str]) -> int:
    """Job 9 kills its worker process (as a segfault or the OOM killer would) once the gate file exists:
    the parent has nine results in (jobs 0-8, handed out before it); the others finish."""
    x, gate = item
    if x == 9:
        deadline = time.monotonic() + 60  # a failure guard: the test then fails, it does not hang
        while not os.path.exists(gate) and time.monotonic() < deadline:
            time.sleep(0.01)  # polling for the gate file; the file decides, not this pause
        os._exit(3)
    return x * x


def test_dead_worker_keeps_the_finished_jobs(tmp_path: Path) -> None:
    gate = tmp_path / "nine-done"

    def progress(done: int, total: int, message: str) -> None:
        if done >= 9:
            gate.touch()

    with pytest.raises(JobsFailed) as info:
        map_jobs(_die_on_nine, [(x, str(gate)) for x in range(12)], workers=2, progress=progress)
    exc = info.value
    assert isinstance(exc, JobsInterrupted)  # callers that keep partial results on Ctrl-C keep them here
    assert exc.total == 12
    assert set(range(9)) <= set(exc.done) <= set(range(12)) - {9}
    assert all(exc.done[i] == i * i for i in exc.done)
    assert "a worker died" in str(exc) and f"kept {len(exc.done)} of 12 jobs" in str(exc)
    assert worker_failures()[-1] == str(exc)


def test_a_failing_job_is_not_a_dead_worker() -> None:
    """An ordinary exception in a job is a bug to show, not a dead worker: it passes through."""
    with pytest.raises(ZeroDivisionError):
        map_jobs(_reciprocal, [1, 0, 2], workers=2)


def _reciprocal(x: int) -> float:
    return 1 / x


_SIGINT_SCRIPT = """
import sys, threading, time
from boardeval.core import JobsInterrupted, map_jobs

def job(x):
    if x:
        time.sleep(600)  # work that would outlast the test: the pool must not wait for it
    return x

def progress(done, total, message):
    print("done", done, flush=True)

try:
    map_jobs(job, list(range(40)), workers=2, progress=progress)
except JobsInterrupted as exc:
    print("kept", sorted(exc.done), flush=True)
    print("threads", [t.name for t in threading.enumerate() if t is not threading.main_thread()], flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c-to-group", "sigint-to-parent"])
def test_sigint_stops_the_pool_at_once(whole_group: bool) -> None:
    """A real SIGINT: to the whole process group (a terminal's Ctrl-C, the workers get it too) or to the
    parent only, once job 0 is in and both workers are busy with jobs that would run for 10 minutes. The
    call returns the finished job at once: the process is gone long before the running jobs could end
    (the 30 s wait is a failure guard; the seconds to exit are benchmarks/interrupt_exit.py's)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _SIGINT_SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # a test run in the background (``cmd &``) inherits SIGINT ignored; the child must take Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the first job finished: the pool is busy
    assert line.startswith("done"), line + proc.stderr.read() if proc.stderr else line
    if whole_group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=120)  # a hang guard: the exit itself is the signal
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # read through the same text streams as readline above (communicate() would skip what they buffered)
    assert proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    assert proc.returncode == 0, err
    kept = [ln for ln in out.splitlines() if ln.startswith("kept")]
    assert kept and "finished" not in out, out + err
    assert "Traceback" not in err, err
    assert kept[0] == "kept [0]", out  # the running jobs were cancelled, not waited for
    # the pool's threads are gone when the call returns: a manager thread still closing its wake-up pipe
    # raced Python 3.11's exit hook ("Exception ignored in: <module 'threading'> ... Bad file descriptor",
    # about 1 exit in 60 under load)
    assert "threads []" in out.splitlines(), out
    _gone(proc.pid)


_FORK_SCRIPT = """
import os, signal
from boardeval.core import map_jobs
from boardeval.core import sigint_held

def state(_):
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.SIGINT in signal.pthread_sigmask(
        signal.SIG_BLOCK, [])

print("worker", map_jobs(state, [0, 1], workers=2), flush=True)
try:
    with sigint_held():
        os.kill(os.getpid(), signal.SIGINT)
        print("held", flush=True)
except KeyboardInterrupt:
    print("delivered", flush=True)
"""


def test_workers_are_forked_deaf_to_ctrl_c() -> None:
    """The pool forks its workers with SIGINT blocked, so a Ctrl-C between the fork and the initializer
    cannot raise inside a fresh worker; the worker then ignores SIGINT with the mask restored, and in the
    parent a Ctrl-C sent meanwhile is delivered when the block ends."""
    proc = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["worker [(True, False), (True, False)]", "held", "delivered"], (
        proc.stdout + proc.stderr
    )


def _gone(pgid: int) -> None:
    """No worker of the process group outlived the parent (a terminated worker may take a moment to go
    on a busy machine: the 30 s are a failure guard)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(pgid, signal.SIGKILL)
    raise AssertionError("pool workers outlived the interrupted call")


def test_unreachable_dask_scheduler_is_quick_and_clear(quick_dask_connect: float) -> None:
    import distributed  # noqa: F401  -- its import (~1 s of CPU) is not the connection attempt

    # our DASK_CONNECT_SECONDS (3 s), not Dask's own default of 30 s, bounds the attempt: the test sets it to
    # 0.1 s (Dask retries a refused port until then) and the error names the address and that bound
    assert DASK_CONNECT_SECONDS == 3.0
    t0 = time.monotonic()
    with pytest.raises(
        ParamsError, match=r"cannot reach the Dask scheduler at 'tcp://127.0.0.1:9' within 0\.1 s"
    ):
        map_jobs(_square, [1, 2], address="tcp://127.0.0.1:9")
    assert time.monotonic() - t0 < 30  # a bound no machine load blurs
