"""Progress reporting for long jobs (annealing, simulation, tuning, tournaments).

Long-running functions take an optional ``progress`` callback ``(done, total, message)``; the CLI turns
it into a Rich progress bar, the web app into a progress endpoint. Ctrl-C (``KeyboardInterrupt``) is
caught by the job itself, which returns its best result so far flagged ``interrupted=True``; the web's
Cancel arrives the same way, raised by the ``progress`` callback. A job must therefore not let its own
last report after the work throw the kept result away (catch it there too), and must not go on with
more work after one: the CLI prints the flagged result and exits 130 (docs/reliability.md, Interrupts).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "report"]

Progress = Callable[[int, int, str], None]


def report(progress: Progress | None, done: int, total: int, message: str = "") -> None:
    """Call ``progress`` if one was given."""
    if progress is not None:
        progress(done, total, message)
