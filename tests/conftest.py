"""Shared pytest fixtures."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
_BUILDER = pytest.StashKey[subprocess.Popen]()  # type: ignore[type-arg]

# -- the user's caches stay out of the verdict --------------------------------------------------------------
# A tablebase built in the user's cache folder (``boardeval morris tablebase build``) is found by the CLI and
# the web app on their own, which changes their answers (``ai:depth=1`` becomes ``ai:depth=1,tablebase=...``).
# The suite must give the same verdict on a fresh machine and on a developer's: every test process, and every
# command a test starts (they inherit the environment), sees an empty cache folder of its own. Tests that need
# a tablebase build a small one in a temporary folder and name it.
if "BOARDEVAL_TEST_CACHE" not in os.environ:
    _real_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ.setdefault("MPLCONFIGDIR", str(_real_cache / "matplotlib"))  # matplotlib's font list: keep it
    _test_cache = tempfile.mkdtemp(prefix="boardeval-cache-")
    os.environ["BOARDEVAL_TEST_CACHE"] = os.environ["XDG_CACHE_HOME"] = _test_cache
    atexit.register(shutil.rmtree, _test_cache, ignore_errors=True)
    # ... except the compiled Morris search (boardeval.morris._search.compiled.aot: ~1 min of CPU to build,
    # in <cache>/boardeval/engine). It cannot change a verdict (its name is a digest of its sources, the
    # Python and the machine), and building it in every run cost each run that minute while the tests that
    # search waited for it (at load 20: ~5 min of two stalled workers). It lives in this checkout's
    # .pytest_cache (not the user's cache: a checkout with other sources would delete it as stale).
    # ``make test`` builds it beside ruff and mypy (tests/engine_cache.py).
    from tests.engine_cache import link

    link(Path(_test_cache))


def pytest_configure(config: pytest.Config) -> None:
    """The run's first process starts building the compiled Morris search in the background (when this
    checkout has none for its sources), so the tests that search find it built, or wait less, instead of
    one of them building it while every other worker's searching test waits on the build lock."""
    if hasattr(config, "workerinput") or os.environ.get("BOARDEVAL_MORRIS_KERNELS") == "jit":
        return
    from boardeval.morris._search.compiled import aot

    if aot.module_path().is_file():
        return
    from tests.engine_cache import ROOT

    config.stash[_BUILDER] = subprocess.Popen(
        [sys.executable, "-m", "tests.engine_cache"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group: stopped below with whatever it started
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Two things for pytest-xdist, which hands tests out in this order:

    - The tests marked ``slow`` run first (otherwise in collection order): a long test handed out last ran
      alone while the other worker sat idle. Long ones first, the many short ones fill in.
    - ``--dist loadgroup`` (``make test``) keeps the tests of one ``xdist_group`` on one worker, one after
      the other. pytest-xdist 3.8 marks them by appending ``@group`` to the test's id, but under pytest 9
      the id is no longer the attribute it sets, so every group was silently ignored (and the tests of a
      group ran on both workers at once). This does what it meant to, where it did not."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # a stable sort
    if not getattr(config.option, "loadgroup", False):  # set on xdist's workers under --dist loadgroup
        return
    from _pytest.nodeid import NodeId

    for item in items:
        groups = {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
        if groups and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(sorted(groups))}")  # type: ignore[attr-defined]


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """pytest keeps each test module, its asserts rewritten, as a .pyc in the module's __pycache__ (ignored
    by git) and reads it back next time, unless the interpreter is told not to write bytecode: this
    environment sets PYTHONDONTWRITEBYTECODE=1, so every worker of every run rewrote all ~230 test modules
    (collection 8.7 CPU-s per worker; 3.9 with the cache). Writing is allowed while the tests are collected
    (imported); the setting is restored for the run itself."""
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        yield
    finally:
        sys.dont_write_bytecode = saved


def pytest_unconfigure(config: pytest.Config) -> None:
    """A build still running when the run ends (a run without Morris tests) is stopped."""
    proc = config.stash.get(_BUILDER, None)
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)  # a hang guard: the build folder's clean-up is the signal
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


QUICK_DASK_CONNECT = 0.1
"""The Dask connect timeout (s) in the tests of an unreachable scheduler (``quick_dask_connect``)."""


@pytest.fixture
def quick_dask_connect(monkeypatch: pytest.MonkeyPatch) -> float:
    """The runner's Dask connect timeout cut from 3 s to 0.1 s for this test. Dask retries a refused
    connection until that timeout, so a test of an unreachable address waited 3 s on the clock; the verdict
    (the clear error naming the address) is the same after 0.1 s."""
    from boardeval.core import runner

    monkeypatch.setattr(runner, "DASK_CONNECT_SECONDS", QUICK_DASK_CONNECT)
    return QUICK_DASK_CONNECT


@pytest.fixture(scope="session")
def tablebase_3v3() -> Path:
    """A 3v3 Morris tablebase, built once per test run for the tests that read one (none writes into it):
    five modules each built their own, ~1 CPU-s apiece, then each worker (tests/run_cache.py). The tests
    of the build itself build theirs."""
    from boardeval.morris.tablebase import build_tablebase
    from tests.run_cache import made_once

    folder, built = made_once("tablebase-3v3", lambda folder: build_tablebase(3, folder).built)
    assert built == ["3v3"]
    return folder


@pytest.fixture
def data_dir() -> Path:
    """tests/data: golden data (perft counts, seed examples, published tables)."""
    return DATA


# -- hypothesis profiles (tests/fuzz) -----------------------------------------------------------------------
# ``default``: fast and reproducible (derandomized), for every test run; ``deep``: chosen with
# ``pytest tests/fuzz --hypothesis-profile=deep``: >= 100,000 inputs in all (docs/reliability.md).
# Registered here, not in tests/fuzz/conftest.py, so that the option works whichever test paths are given.
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

_FUZZ_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "default", max_examples=100, deadline=None, derandomize=True, suppress_health_check=_FUZZ_HEALTH
)
settings.register_profile(
    "deep",
    max_examples=10_000,
    deadline=None,
    derandomize=False,  # explore: not the default profile's fixed sequence; failures are kept and replayed
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    suppress_health_check=_FUZZ_HEALTH,
    print_blob=True,
)
settings.load_profile("default")
