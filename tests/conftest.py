"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


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
