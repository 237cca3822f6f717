"""A stand-in command module for the dead-worker CLI tests (test_worker_death.py): a batch of jobs on
two pool workers in which job 5 kills its worker, as a crash in native code or the OOM killer would."""

from __future__ import annotations

import os
import time

import typer

from boardeval.core import JobsInterrupted, map_jobs

app = typer.Typer(no_args_is_help=True)


def _job(x: int) -> int:
    if x == 5:
        time.sleep(0.3)  # let the other worker finish its job first
        os._exit(3)
    return x * x


@app.command("keep")
def keep() -> None:
    """Keep and print the finished jobs, as the tournaments and play-tests do."""
    try:
        map_jobs(_job, list(range(8)), workers=2)
    except JobsInterrupted as exc:
        typer.echo(f"finished {sorted(exc.done)}")


@app.command("drop")
def drop() -> None:
    """Let the failure reach the root group."""
    map_jobs(_job, list(range(8)), workers=2)
