"""The fault test of issue 24: heavy work cannot take the server down.

A real ``boardeval web`` (its own session) gets, all at once: uploads of a game on every Diplomacy map,
Catan generator and play-test jobs, and Morris AI turns at the expert level (1 s of search each). Meanwhile
``/api/health`` must stay quick (p95 under :data:`HEALTH_P95`: the searches and jobs run in worker
processes, not on the event loop; with the search on the loop it was p50 0.42 s, p95 1.0 s) and the
server's processes must stay under :data:`MEMORY_MB` (PSS). Then the server is stopped in the middle of
its work (a job running and a search in flight, as the server itself reports them), once by SIGINT
(Ctrl-C) and once by SIGTERM: it exits, having spent under 2 CPU seconds after
the signal, and leaves no process behind (``/proc``). The scenario and its figures: ``tests/web/fault.py``
(``benchmarks/web_load.py --heavy`` prints the same figures).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from boardeval.web.catan_play import PlaytestIn
from tests.web.fault import (
    LISTENING,
    LONG_PLAYTEST,
    Server,
    ctrl_c_to_the_group,
    heavy_load,
    kill_session,
    start_server,
    stop,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("fault")]
# one after the other on one pytest worker: each test keeps both cores busy (its server's work and the
# health client); run at once they starved each other's server (the first test took 99 s
# instead of ~40 s)

HEALTH_P95 = 0.100
"""Seconds: the issue's bound, plus :data:`MACHINE_FACTOR` times the p95 of the same server at rest just
before (on a crowded machine every answer waits for a core, whatever the server does: 8 engineers' jobs
on 2 cores give ~10-25 ms at rest). A server whose loop a search blocks answers in ~1 s (p95 1.0 s before
issue 24); measured figures: docs/reliability.md."""
MACHINE_FACTOR = 5
MEMORY_MB = 2500
"""The bound on the PSS of the server, its fork server and its 4 workers under the full load (measured
~950 MB: docs/reliability.md); the bug this guards against (a map's convoy table built per request) took
three processes of 0.8-1.6 GB each per request."""
EXIT_CPU = 2.0
"""CPU seconds the server's processes may spend after the signal (the wall-clock seconds to exit are
reported; CPU seconds do not depend on how busy the machine is)."""


def _check_stopped(server: Server, signum: int) -> str:
    stopped = stop(server, signum)
    name = signal.Signals(signum).name
    err = server.stderr()
    assert stopped.code is not None, f"{name}: the server did not exit\n{err[-3000:]}"
    assert stopped.code in (0, -signum, 128 + signum), (name, stopped.code, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    assert stopped.cpu_after < EXIT_CPU, f"{name}: {stopped.cpu_after:.2f} CPU-s after the signal"
    assert not stopped.left, f"{name}: processes left behind: {stopped.left_after_guard}"
    cpu = f"{stopped.cpu_after:.2f} CPU-s"
    work = stopped.at_signal
    return (
        f"{name} with {work['heavy_requests']} search(es) and {work['jobs_running']} job(s) at work: "
        f"exit {stopped.code} after {stopped.seconds:.2f} s ({cpu}), 0 processes left"
    )


def test_heavy_requests_leave_health_quick_memory_bounded_and_no_process_after_ctrl_c(
    tmp_path: Path,
) -> None:
    server = start_server(tmp_path)
    try:
        figures = heavy_load(server)
        assert not figures.problems, figures.problems
        assert all(s == 200 for s in figures.statuses["morris"]), figures.statuses
        assert len(figures.statuses["upload"]) >= 14  # every map the engine ships
        assert all(s == 202 for s in figures.statuses["job"]), figures.statuses
        summary = figures.summary()
        print(summary)
        idle_p95 = sorted(figures.idle)[int(0.95 * len(figures.idle))]
        assert figures.quantile(0.95) < HEALTH_P95 + MACHINE_FACTOR * idle_p95, summary
        assert figures.peak_pss_mb < MEMORY_MB, summary
        assert figures.peak_processes >= 6  # server, fork server, 2 search + 2 job workers at work
        print(_check_stopped(server, signal.SIGINT), figures.jobs)
    finally:
        kill_session(server.sid)


def test_sigterm_in_the_middle_of_jobs_and_searches_leaves_no_process(tmp_path: Path) -> None:
    """The load's jobs only (the searches and uploads of the load above are answered before any signal,
    so they do not change what SIGTERM meets): :func:`stop` sends it once the server says a job is running
    and an expert search is in flight, as it does for SIGINT."""
    server = start_server(tmp_path)
    try:
        figures = heavy_load(server, morris_clients=0, maps=[])
        assert not figures.problems, figures.problems
        print(_check_stopped(server, signal.SIGTERM), figures.jobs)
    finally:
        kill_session(server.sid)


def test_ctrl_c_while_the_workers_start_prints_no_traceback(tmp_path: Path) -> None:
    """A Ctrl-C at the terminal (SIGINT to the whole process group) while the fork server still loads the
    libraries (~2 s here, ~20 s on a machine's first start): it broke the fork server's import with a
    KeyboardInterrupt traceback, and the server logged "could not start the worker processes" with an
    EOFError traceback (found in a `make run` check, issue 22). Sent once uvicorn listens, when the workers
    start in the background; whenever it lands, the server stops with no traceback and leaves nothing."""
    server = start_server(tmp_path, until=LISTENING)
    try:
        code, left = ctrl_c_to_the_group(server)
        err = server.stderr()
        assert code in (0, -signal.SIGINT, 128 + signal.SIGINT), (code, err[-3000:])
        assert "Traceback" not in err, err[-3000:]
        assert left == [], left
    finally:
        kill_session(server.sid)


def test_the_long_playtest_is_a_request_the_server_takes() -> None:
    """The job the shutdown tests submit when the load's jobs have all ended is within the server's
    bounds (it asked for 5,000 games, a 422, and the tests failed on a loaded machine)."""
    PlaytestIn.model_validate(LONG_PLAYTEST)
