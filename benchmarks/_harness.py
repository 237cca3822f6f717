"""What every benchmark repeats, written once (not a benchmark itself).

- :func:`load_text`: the machine's load, printed beside every figure (the machine is shared);
  :func:`cpu_seconds`: CPU time of this process and its finished workers;
- :func:`add_common_options`: ``--games``, ``--seed``, ``--workers``, ``--repeats``, ``--json`` with each
  benchmark's own defaults, so the same option means the same thing in every script;
- :func:`run_jobs`: ``boardeval.core.map_jobs`` with a progress line on stderr; Ctrl-C keeps the finished
  jobs (flagged), as the library's own long commands do;
- :func:`score_line` and :func:`print_endings`: a match table (W / D / L, the score with its 95 % interval,
  how the games ended); :func:`print_table`: rows of figures and intervals in aligned columns;
- :func:`app_server`: the web app started from this checkout (or ``--src DIR``) on a free loopback port,
  or an app already running (``--url``), stopped again afterwards;
- :func:`write_json`: the figures as a JSON file.

The scripts run as ``python benchmarks/NAME.py``: their folder is on ``sys.path``, so ``from _harness
import ...`` works without packaging.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium (never a downloaded browser), for the benchmarks that drive pages."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

J = TypeVar("J")
R = TypeVar("R")


# ---- the machine ------------------------------------------------------------------------------------


def load_text(short: bool = False) -> str:
    """``load average 1.23 (1 min) / 1.10 (5 min) on 2 CPUs`` (``short``: ``load 1.23``, for a figure on a
    line of its own): printed beside every figure."""
    one, five, _ = os.getloadavg()
    if short:
        return f"load {one:.2f}"
    return f"load average {one:.2f} (1 min) / {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def cpu_seconds() -> float:
    """CPU time of this process plus its finished child processes (a pool's workers, once joined)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


# ---- options ------------------------------------------------------------------------------------------


def add_common_options(
    parser: argparse.ArgumentParser,
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    repeats: int | None = None,
    json_file: bool = False,
    games_help: str = "games to play",
    seed_help: str = "seed of everything random",
) -> argparse.ArgumentParser:
    """Add the options most benchmarks share, each only when given a default (``json_file``: ``--json
    PATH``, also write the figures to that file)."""
    if games is not None:
        parser.add_argument("--games", type=int, default=games, help=games_help)
    if seed is not None:
        parser.add_argument("--seed", type=int, default=seed, help=seed_help)
    if workers is not None:
        parser.add_argument("--workers", type=int, default=workers, help="worker processes")
    if repeats is not None:
        parser.add_argument("--repeats", type=int, default=repeats, help="timed repeats (the median counts)")
    if json_file:
        parser.add_argument("--json", default="", help="also write the figures to this JSON file")
    return parser


def write_json(path: str | Path, data: Any) -> None:
    """The figures as an indented JSON file."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)


# ---- many jobs ----------------------------------------------------------------------------------------


@dataclass
class Finished(Generic[R]):
    """The results of :func:`run_jobs` in job order (only the finished ones when ``interrupted``)."""

    results: list[R]
    interrupted: bool
    seconds: float

    @property
    def note(self) -> str:
        """``" (interrupted)"`` after a Ctrl-C, else ``""``: for the figures' heading."""
        return " (interrupted)" if self.interrupted else ""


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int,
    label: str,
    every: int = 10,
    show_load: bool = False,
) -> Finished[R]:
    """``map_jobs(fn, jobs)`` with ``[label] done/total, seconds`` on stderr every ``every`` jobs (and the
    load with ``show_load``); Ctrl-C returns the jobs finished so far, flagged ``interrupted``."""
    from boardeval.core import JobsInterrupted, map_jobs

    start = time.perf_counter()

    def progress(done: int, total: int, _message: str = "") -> None:
        if done % every == 0 or done == total:
            load = f", {load_text()}" if show_load else ""
            el = time.perf_counter() - start
            print(f"  [{label}] {done}/{total}, {el:.0f} s{load}", file=sys.stderr, flush=True)

    try:
        results = map_jobs(fn, list(jobs), workers=workers, progress=progress, label=label)
        interrupted = False
    except JobsInterrupted as exc:
        results = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    return Finished(results, interrupted, time.perf_counter() - start)


# ---- tables -------------------------------------------------------------------------------------------


def score_line(results: Sequence[Sequence[Any]]) -> str:
    """``W w / D d / L l, score s [lo, hi] (95%); mean turns t`` of ``(result, reason, turns, ...)`` rows,
    ``result`` being ``"win"`` / ``"draw"`` / ``"loss"`` for the side measured."""
    from boardeval.core import score_interval

    w = sum(r[0] == "win" for r in results)
    d = sum(r[0] == "draw" for r in results)
    lo = sum(r[0] == "loss" for r in results)
    iv = score_interval(w, d, lo)
    turns = sum(r[2] for r in results) / len(results) if results else 0.0
    return (
        f"W {w} / D {d} / L {lo}, score {iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}] (95%); "
        f"mean turns {turns:.1f}"
    )


def print_endings(results: Sequence[Sequence[Any]], indent: str = "    ") -> None:
    """How the games ended: one line per ``result: reason`` of ``(result, reason, ...)`` rows, counted."""
    endings: dict[str, int] = {}
    for r in results:
        key = f"{r[0]}: {r[1]}"
        endings[key] = endings.get(key, 0) + 1
    for key, count in sorted(endings.items()):
        print(f"{indent}{count:3d} x {key}")


def print_table(header: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "   ") -> None:
    """Rows of figures in aligned columns: the first column left-aligned, the others right-aligned; floats
    with two decimals, anything else (an ``Interval``: ``value [lo, hi]``) as its text."""

    def cell(v: Any) -> str:
        return f"{v:.2f}" if isinstance(v, float) else str(v)

    text = [[str(h) for h in header], *([cell(v) for v in row] for row in rows)]
    widths = [max(len(r[i]) for r in text) for i in range(len(header))]
    for r in text:
        first = r[0].ljust(widths[0])
        rest = "  ".join(c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True))
        print(f"{indent}{first}  {rest}".rstrip())


# ---- the web app --------------------------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(src: str | None = None, *, timeout: float = 60.0) -> tuple[subprocess.Popen[bytes], str]:
    """uvicorn serving the app on a free loopback port, from this checkout or ``src``/src (``PYTHONPATH``:
    how a baseline is measured from an older commit's ``git archive``); waits for ``/api/health``."""
    import httpx

    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if src:
        env["PYTHONPATH"] = str(Path(src) / "src")
    code = (
        "import uvicorn\nfrom boardeval.web.app import create_app\n"
        f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning', access_log=False)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=str(ROOT))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    stop_server(proc)
    raise SystemExit(f"the app did not start within {timeout:.0f} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server (kill it if it does not stop within 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def app_server(src: str | None = None, url: str | None = None) -> Iterator[str]:
    """The app's base URL: ``url`` when given (an app already running, left alone), else a server started
    by :func:`start_server` and stopped when the block ends."""
    if url:
        yield url.rstrip("/")
        return
    proc, base = start_server(src)
    try:
        yield base
    finally:
        stop_server(proc)


def add_server_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``--src DIR`` (serve the app from that source tree) and ``--url URL`` (use a running app)."""
    parser.add_argument("--src", default=None, help="serve the app from this source tree (DIR/src)")
    parser.add_argument("--url", default=None, help="use an app already running at this base URL")
    return parser
