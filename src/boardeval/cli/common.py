"""Helpers shared by the CLI commands: consoles, JSON output, Rich progress bars."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console

if TYPE_CHECKING:
    from boardeval.core import Progress as ProgressCallback

__all__ = [
    "PLAIN_EVERY",
    "PlainProgress",
    "console",
    "err_console",
    "json_documents",
    "note_interrupted",
    "print_json",
    "progress_bar",
]

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


_documents = [0]  # JSON documents printed on stdout by this process (a list: no ``global``)


def print_json(data: Any) -> None:
    """Print machine-readable JSON on stdout (no Rich markup, no wrapping). A non-finite number is a
    :class:`~boardeval.core.ParamsError` naming where it is, never the non-JSON ``Infinity``/``NaN``.

    The document is written whole: a Ctrl-C arriving during the write is held until it is out (then it
    raises as usual), so stdout never ends in half a document, and the root group knows one was printed
    (:func:`json_documents`) and does not add the empty one (``cli/empty_json.py``)."""
    from boardeval.core import dumps_json, sigint_held

    text = dumps_json(data, indent=None, separators=(", ", ": ")) + "\n"
    with sigint_held():
        sys.stdout.write(text)
        sys.stdout.flush()
        _documents[0] += 1


def json_documents() -> int:
    """How many JSON documents :func:`print_json` has printed in this process (the root group compares
    the count before and after a command)."""
    return _documents[0]


def note_interrupted(kept: str) -> None:
    """The yellow ``interrupted: <what was kept>`` line on stderr that every command stopped by Ctrl-C
    prints next to its partial result (``--json`` carries ``"interrupted": true`` as well); the root
    group then exits 130 (docs/reliability.md, Interrupts)."""
    from rich.markup import escape

    err_console.print(f"[yellow]interrupted: {escape(kept)}[/yellow]", soft_wrap=True)


PLAIN_EVERY = 60.0
"""Seconds between :class:`PlainProgress` lines of the long jobs (builds, matches, tuning, play-tests)."""


class PlainProgress:
    """Progress as plain lines on stderr for a long job whose stderr is not a terminal (a build run in the
    background, ``cmd > log 2>&1 &``), where no bar is drawn: one line ``<description>: 12/49 after
    0:14:02 <message>`` at most every ``every`` seconds of ``clock`` (injectable for tests), the first
    once ``every`` seconds have passed, so a short run prints none."""

    def __init__(self, description: str, every: float, clock: Any = None, stream: Any = None) -> None:
        import time

        self.description = description
        self.every = every
        self.clock = clock if clock is not None else time.monotonic
        self.stream = stream
        self.start = self.last = self.clock()

    def __call__(self, done: int, total: int, message: str = "") -> None:
        now = self.clock()
        if now - self.last < self.every:
            return
        self.last = now
        seconds = int(now - self.start)
        elapsed = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        of = f"{done}/{total}" if total > 0 else f"{done}/?"
        stream = self.stream if self.stream is not None else sys.stderr
        said = f" {message}" if message and message != self.description else ""  # a job's label repeats it
        stream.write(f"{self.description}: {of} after {elapsed}{said}\n")
        stream.flush()


def _is_os_file(stream: Any) -> bool:
    """True when ``stream`` is backed by a file descriptor (a file or a pipe a process writes to), not a
    buffer in memory (a test runner's captured stderr, where a line would mix into the captured output)."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and a ValueError
        return False
    return True


@contextmanager
def progress_bar(
    description: str, *, enabled: bool = True, plain_every: float | None = None
) -> Iterator[ProgressCallback | None]:
    """A Rich progress bar on stderr, exposed as a library progress callback ``(done, total, msg)``
    (``total`` 0: not known, shown as ``done/?``).

    Drawn with ``--json`` too: the bar goes to stderr, never into the JSON on stdout, and Rich draws it
    only when stderr is a terminal (or ``FORCE_COLOR`` is set). It is the command's "I am working"
    signal: the interrupt tests press Ctrl-C when it shows the first finished unit of work
    (tests/interrupts). ``enabled=False`` (a command too short for a bar) yields ``None``, and so does a
    stderr Rich would not draw on (not a terminal, no ``FORCE_COLOR``): no bar, no refresh thread, and
    no ``rich.progress`` import (issue 25 section 3: the first answer's start-up). ``plain_every``
    (the jobs that run for minutes or hours, often in the background): on such a stderr, when it is a
    file or a pipe, :class:`PlainProgress` lines instead, at most one every that many seconds.
    """
    if not enabled:
        yield None
        return
    if not err_console.is_terminal:
        yield PlainProgress(description, plain_every) if plain_every and _is_os_file(sys.stderr) else None
        return
    # imported here: rich.progress costs ~15 ms, and most commands (and ``--help``) never draw a bar
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[msg]}"),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None, msg="")

        def callback(done: int, total: int, message: str = "") -> None:
            bar.update(task, completed=done, total=total if total > 0 else None, msg=message)

        yield callback
