"""Seeded randomness: one numpy ``Generator`` passed in explicitly, never a global.

Same seed, same output on any platform: we use numpy's PCG64 through ``default_rng``.
"""

from __future__ import annotations

import numpy as np

from boardeval.core.errors import ParamsError

__all__ = ["SeedLike", "make_rng", "spawn_seeds"]

SeedLike = int | np.random.Generator


def make_rng(seed: SeedLike) -> np.random.Generator:
    """A Generator from an int seed (>= 0), or the Generator itself when one is passed."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ParamsError(f"seed must be a non-negative integer, got {seed!r}")
    if seed < 0:
        raise ParamsError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.default_rng(int(seed))


def spawn_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent, reproducible int seeds derived from ``seed`` (for parallel jobs)."""
    if n < 0:
        raise ParamsError(f"number of seeds must be >= 0, got {n!r}")
    ss = np.random.SeedSequence(int(seed))
    return [int(child.generate_state(1, dtype=np.uint32)[0]) for child in ss.spawn(n)]
