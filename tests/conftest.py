"""Shared pytest fixtures."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

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
