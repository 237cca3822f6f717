"""Progress reporting for long jobs (annealing, simulation, tuning, tournaments).

Long-running functions take an optional ``progress`` callback ``(done, total, message)``; the CLI turns
it into a Rich progress bar, the web app into a progress endpoint. Ctrl-C (``KeyboardInterrupt``) is
caught by the job itself, which returns its best result so far flagged ``interrupted=True``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "report"]

Progress = Callable[[int, int, str], None]


def report(progress: Progress | None, done: int, total: int, message: str = "") -> None:
    """Call ``progress`` if one was given."""
    if progress is not None:
        progress(done, total, message)
