"""Run a CLI command as a subprocess, press Ctrl-C once it is working, and collect what it did.

Ctrl-C is SIGINT to the whole process group, as a terminal sends it (pool workers get it too). "Working"
is either a regex seen on stderr (``FORCE_COLOR`` makes Rich draw its progress bar into the pipe) or an
amount of CPU time used by the command's process group (start-up takes ~1 s of CPU; under load the wall
clock says little). The exit rule checked everywhere (README, docs/reliability.md): partial result printed
and flagged, exit code 130, no traceback, and the process gone within :data:`EXIT_LIMIT` seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_LIMIT = 2.0
"""Seconds from Ctrl-C to the end of the process (issue 17)."""

INTERRUPTED_EXIT = 130

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
_CLI = "from boardeval.cli.main import main; main()"


@dataclass
class Stopped:
    """What an interrupted command left: exit code, output (ANSI codes removed), seconds to exit."""

    code: int
    out: str
    err: str
    seconds: float

    def json(self) -> Any:
        """stdout parsed as JSON (one document)."""
        return json.loads(self.out)

    def check(self) -> None:
        """The rule every interrupted command follows (not the partial result itself: each test checks
        that): exit 130 within the limit, a yellow ``interrupted`` line, no traceback."""
        assert "Traceback" not in self.err, self.err
        assert self.code == INTERRUPTED_EXIT, (self.code, self.out[-2000:], self.err[-2000:])
        assert self.seconds < EXIT_LIMIT, f"exit took {self.seconds:.2f} s after Ctrl-C"
        assert "interrupted" in self.err, self.err[-2000:]


def _group_cpu_seconds(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of process group ``pgid``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after "(comm)": state ppid pgrp ... utime(11) stime(12)
            total += int(fields[11]) + int(fields[12])
    return total / tick


def interrupt(
    args: list[str],
    *,
    cwd: Path,
    ready: str | None = None,
    cpu: float | None = None,
    then: float = 0.0,
    limit: float = 120.0,
) -> Stopped:
    """Start ``boardeval ARGS``, wait until ``ready`` (a regex) appears on its stderr and/or its process
    group has used ``cpu`` CPU seconds, wait ``then`` seconds more, press Ctrl-C, and wait for the end.
    Fails if the command ends on its own first (then it was too small to interrupt)."""
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", _CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,  # its own process group: Ctrl-C goes to the command and its workers only
        # a test run in the background (``cmd &``) inherits SIGINT ignored; the command must take Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}

    def pump(name: str, stream: Any) -> None:
        for block in iter(lambda: stream.read1(65536), b""):
            chunks[name].append(block)

    readers = [
        threading.Thread(target=pump, args=("out", proc.stdout), daemon=True),
        threading.Thread(target=pump, args=("err", proc.stderr), daemon=True),
    ]
    for r in readers:
        r.start()
    pattern = re.compile(ready) if ready is not None else None
    deadline = time.monotonic() + limit
    try:
        while True:
            assert proc.poll() is None, (
                f"the command ended before Ctrl-C (make it bigger): exit {proc.returncode}\n"
                + _text(chunks["err"])[-2000:]
            )
            assert time.monotonic() < deadline, "no start seen: " + _text(chunks["err"])[-500:]
            seen = pattern is None or pattern.search(_text(chunks["err"])) is not None
            busy = cpu is None or _group_cpu_seconds(proc.pid) >= cpu
            if seen and busy:
                break
            time.sleep(0.05)
        time.sleep(then)
        assert proc.poll() is None, "the command ended before Ctrl-C (make it bigger)"
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        seconds = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    for r in readers:
        r.join(timeout=5)
    _check_group_gone(proc.pid)
    return Stopped(proc.returncode, _text(chunks["out"]), _text(chunks["err"]), seconds)


def _check_group_gone(pgid: int) -> None:
    """No process of the command's group (pool workers) is left running after it exited."""
    for _ in range(20):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(pgid, signal.SIGKILL)
    raise AssertionError("worker processes outlived the command")


def _text(blocks: list[bytes]) -> str:
    return _ANSI.sub("", b"".join(blocks).decode("utf-8", errors="replace"))
