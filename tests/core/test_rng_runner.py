from __future__ import annotations

import numpy as np
import pytest

from boardeval.core import ParamsError, make_rng, map_jobs, spawn_seeds


def _square(x: int) -> int:
    return x * x


def test_same_seed_same_stream() -> None:
    assert make_rng(7).integers(0, 1000, 10).tolist() == make_rng(7).integers(0, 1000, 10).tolist()
    assert make_rng(7).integers(0, 1000, 10).tolist() != make_rng(8).integers(0, 1000, 10).tolist()
    g = np.random.default_rng(1)
    assert make_rng(g) is g


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_bad_seed(bad: object) -> None:
    with pytest.raises(ParamsError, match="seed"):
        make_rng(bad)  # type: ignore[arg-type]


def test_spawn_seeds_reproducible_and_distinct() -> None:
    a = spawn_seeds(3, 5)
    assert a == spawn_seeds(3, 5)
    assert len(set(a)) == 5


def test_serial_and_pool_agree() -> None:
    items = list(range(20))
    seen: list[int] = []
    serial = map_jobs(_square, items, progress=lambda d, t, m: seen.append(d))
    pooled = map_jobs(_square, items, workers=2)
    assert serial == pooled == [i * i for i in items]
    assert seen[-1] == 20


def test_dask_same_call() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        assert map_jobs(_square, [1, 2, 3], address=c.scheduler_address) == [1, 4, 9]


def test_bad_workers() -> None:
    with pytest.raises(ParamsError, match="workers"):
        map_jobs(_square, [1], workers=0)
