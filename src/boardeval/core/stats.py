"""Intervals for measured figures: win rates, match scores and means, each with a 95 % interval.

Every strength or play-test figure this project prints comes with an interval from here, so two figures
can be compared honestly:

- a win rate (wins out of n games): the Wilson score interval, which stays inside [0, 1] and behaves at
  0 % and 100 % where the normal approximation does not;
- a match score (a win 1, a draw 1/2, a loss 0): the mean per game with a normal interval from the
  per-game variance, i.e. the trinomial standard error;
- a mean of any per-game number (final VPs, supply centres, game length): a t-free normal interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardeval.core.errors import ParamsError

__all__ = ["Interval", "mean_interval", "score_interval", "wilson_interval"]

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with its lower and upper bound (inclusive), e.g. a win rate 0.31 in [0.29, 0.33]."""

    value: float
    lo: float
    hi: float

    def to_list(self) -> list[float]:
        """``[lo, hi]``, the shape the JSON outputs use for ``ci95``."""
        return [self.lo, self.hi]

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.lo:.3f}, {self.hi:.3f}]"


def wilson_interval(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``n`` trials (n = 0 gives the vacuous [0, 1])."""
    if n < 0 or successes < 0 or successes > n:
        raise ParamsError(f"need 0 <= successes <= n, got successes={successes!r}, n={n!r}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 and n successes the bound is exactly 0 or 1; rounding would leave 1e-16 off.
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, lo, hi)


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """Match score (W + D/2) / n with a normal interval from the per-game variance, clipped to [0, 1]."""
    if min(wins, draws, losses) < 0:
        raise ParamsError(f"counts must be >= 0, got W={wins!r} D={draws!r} L={losses!r}")
    n = wins + draws + losses
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    half = z * math.sqrt(var / n)
    return Interval(mean, max(0.0, mean - half), min(1.0, mean + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of ``values`` with a normal 95 % interval (sample standard deviation; one value: width 0)."""
    n = len(values)
    if n == 0:
        raise ParamsError("mean_interval needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)
