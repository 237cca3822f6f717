"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    """tests/data: golden data (perft counts, seed examples, published tables)."""
    return DATA
