"""Map many independent jobs: in-process, on a local process pool, or on a Dask cluster.

One call, three back ends, chosen by arguments rather than by different APIs::

    results = map_jobs(play_one_game, seeds)                      # serial, in this process
    results = map_jobs(play_one_game, seeds, workers=2)           # local process pool
    results = map_jobs(play_one_game, seeds, address="tcp://...")  # Dask distributed cluster

Results come back in input order. ``fn`` must be picklable (a module-level function) for the pool and
Dask. On Ctrl-C the pending jobs are cancelled and :class:`JobsInterrupted` carries the finished ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from boardeval.core.errors import ParamsError
from boardeval.core.progress import Progress, report

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["JobsInterrupted", "map_jobs"]

T = TypeVar("T")
R = TypeVar("R")


class JobsInterrupted(KeyboardInterrupt):
    """Raised on Ctrl-C; ``done`` maps input index to result for the jobs that finished."""

    def __init__(self, done: dict[int, Any], total: int) -> None:
        super().__init__(f"interrupted after {len(done)} of {total} jobs")
        self.done = done
        self.total = total


def map_jobs(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    label: str = "jobs",
) -> list[R]:
    """Apply ``fn`` to every item and return the results in input order."""
    if workers < 1:
        raise ParamsError(f"workers must be >= 1, got {workers!r}")
    total = len(items)
    if address is not None:
        return _map_dask(fn, items, address, progress, label)
    if workers == 1 or total <= 1:
        return _map_serial(fn, items, progress, label)
    return _map_pool(fn, items, workers, progress, label)


def _map_serial(fn: Callable[[T], R], items: Sequence[T], progress: Progress | None, label: str) -> list[R]:
    out: list[R] = []
    total = len(items)
    try:
        for i, item in enumerate(items):
            out.append(fn(item))
            report(progress, i + 1, total, label)
    except KeyboardInterrupt:
        raise JobsInterrupted(dict(enumerate(out)), total) from None
    return out


def _map_pool(
    fn: Callable[[T], R], items: Sequence[T], workers: int, progress: Progress | None, label: str
) -> list[R]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait  # multiprocessing: ~15 ms

    total = len(items)
    done: dict[int, R] = {}
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures: dict[Future[R], int] = {pool.submit(fn, item): i for i, item in enumerate(items)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                done[futures[f]] = f.result()
            report(progress, len(done), total, label)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise JobsInterrupted(done, total) from None
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [done[i] for i in range(total)]


def _map_dask(
    fn: Callable[[T], R], items: Sequence[T], address: str, progress: Progress | None, label: str
) -> list[R]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - distributed is a pinned dependency
        raise ParamsError(f"a Dask address was given ({address!r}) but distributed is missing") from exc
    total = len(items)
    done: dict[int, R] = {}
    try:
        client = Client(address, timeout="10s")
    except OSError as exc:
        raise ParamsError(f"cannot reach Dask scheduler at {address!r}: {exc}") from None
    try:
        futures = client.map(fn, list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for f in as_completed(futures):
                done[index[f.key]] = f.result()
                report(progress, len(done), total, label)
        except KeyboardInterrupt:
            client.cancel(futures)
            raise JobsInterrupted(done, total) from None
    finally:
        client.close()
    return [done[i] for i in range(total)]
