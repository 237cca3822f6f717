"""A stand-in command module for the dead-worker CLI tests (test_worker_death.py): a batch of jobs on
two pool workers in which job 5 kills its worker, as a crash in native code or the OOM killer would.

Job 5 dies once the parent has received five results (a gate file the parent's progress callback
writes), not after a pause: jobs 0-4 were handed out before it, so they are all kept, however busy the
machine is.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import typer

from boardeval.core import JobsInterrupted, map_jobs

app = typer.Typer(no_args_is_help=True)

GATE_GUARD = 60.0
"""Seconds job 5 waits for its gate at most (a failure guard: the test then fails, it does not hang)."""


def _job(item: tuple[int, str]) -> int:
    x, gate = item
    if x == 5:
        deadline = time.monotonic() + GATE_GUARD
        while not os.path.exists(gate) and time.monotonic() < deadline:
            time.sleep(0.01)  # polling for the gate file; the file decides, not this pause
        os._exit(3)
    return x * x


def _run() -> list[int]:
    """Map the eight jobs; the progress callback opens job 5's gate once five results are in."""
    with tempfile.TemporaryDirectory(prefix="fake-jobs-") as folder:
        gate = str(Path(folder) / "five-done")

        def progress(done: int, total: int, message: str) -> None:
            if done >= 5:
                Path(gate).touch()

        return map_jobs(_job, [(x, gate) for x in range(8)], workers=2, progress=progress)


@app.command("keep")
def keep() -> None:
    """Keep and print the finished jobs, as the tournaments and play-tests do."""
    try:
        _run()
    except JobsInterrupted as exc:
        typer.echo(f"finished {sorted(exc.done)}")


@app.command("drop")
def drop() -> None:
    """Let the failure reach the root group."""
    _run()
