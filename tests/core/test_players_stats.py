"""The Player protocol and the interval statistics every measured figure uses."""

from __future__ import annotations

import numpy as np
import pytest

from boardeval.core import (
    ParamsError,
    Player,
    make_rng,
    mean_interval,
    score_interval,
    wilson_interval,
)


class _Counter:
    """A toy player over integer states: adds a random 1 or 2."""

    name = "counter"

    def choose(self, state: int, rng: np.random.Generator) -> int:
        return state + int(rng.integers(1, 3))

    def new_game(self) -> None:
        return None


def test_protocol_is_structural() -> None:
    assert isinstance(_Counter(), Player)
    assert not isinstance(object(), Player)


def test_player_reproducible_through_rng() -> None:
    def play(seed: int) -> list[int]:
        p, rng, s, out = _Counter(), make_rng(seed), 0, []
        for _ in range(20):
            s = p.choose(s, rng)
            out.append(s)
        return out

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 -> 0.2553..0.3662 (Wilson, no CC)
    iv = wilson_interval(81, 263)
    assert iv.value == pytest.approx(81 / 263)
    assert iv.lo == pytest.approx(0.2553, abs=5e-5)
    assert iv.hi == pytest.approx(0.3662, abs=5e-5)
    # 0/10 -> upper 0.2775 (Newcombe table I, 0/10 row)
    zero = wilson_interval(0, 10)
    assert zero.lo == 0.0
    assert zero.hi == pytest.approx(0.2775, abs=5e-5)
    assert wilson_interval(10, 10).hi == 1.0
    # further rows of the same table
    assert wilson_interval(15, 148).to_list() == pytest.approx([0.0624, 0.1605], abs=5e-5)
    assert wilson_interval(1, 29).to_list() == pytest.approx([0.0061, 0.1718], abs=5e-5)


def test_score_interval() -> None:
    all_draws = score_interval(0, 10, 0)
    assert all_draws.value == 0.5 and all_draws.lo == all_draws.hi == 0.5
    iv = score_interval(60, 20, 20)
    assert iv.value == pytest.approx(0.7)
    # variance per game: 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16 -> half-width 1.96*sqrt(0.16/100)
    assert iv.hi - iv.value == pytest.approx(1.959964 * 0.04, abs=1e-6)
    with pytest.raises(ParamsError, match="-1"):
        score_interval(-1, 0, 0)


def test_mean_interval() -> None:
    iv = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert iv.value == 2.5
    assert iv.hi - iv.value == pytest.approx(1.959964 * (5 / 3) ** 0.5 / 2, abs=1e-6)
    assert mean_interval([7.0]).to_list() == [7.0, 7.0]
    with pytest.raises(ParamsError):
        mean_interval([])
    with pytest.raises(ParamsError, match="successes"):
        wilson_interval(5, 3)
