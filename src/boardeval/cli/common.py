"""Helpers shared by the CLI commands: consoles, JSON output, Rich progress bars."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console

if TYPE_CHECKING:
    from boardeval.core import Progress as ProgressCallback

__all__ = ["console", "err_console", "json_documents", "note_interrupted", "print_json", "progress_bar"]

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


@contextmanager
def progress_bar(description: str, *, enabled: bool = True) -> Iterator[ProgressCallback | None]:
    """A Rich progress bar on stderr, exposed as a library progress callback ``(done, total, msg)``
    (``total`` 0: not known, shown as ``done/?``).

    Drawn with ``--json`` too: the bar goes to stderr, never into the JSON on stdout, and Rich draws it
    only when stderr is a terminal (or ``FORCE_COLOR`` is set). It is the command's "I am working"
    signal: the interrupt tests press Ctrl-C when it shows the first finished unit of work
    (tests/interrupts). ``enabled=False`` (a command too short for a bar) yields ``None``, and so does a
    stderr Rich would not draw on (not a terminal, no ``FORCE_COLOR``): no bar, no refresh thread, and
    no ``rich.progress`` import (issue 25 section 3: the first answer's start-up).
    """
    if not enabled or not err_console.is_terminal:
        yield None
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
