"""Seed 001's board energy: the seed's example, region means (erratum), pair counts, batch form."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardeval.catan.board import (
    Board,
)
from boardeval.catan.energy import (
    ENERGY_TERMS,
    board_energy,
    energy_from_terms,
    energy_terms_arrays,
    energy_weights,
)
from boardeval.catan.topology import (
    CORNER_HEXES,
    EDGE_HEXES,
    HEX_EDGES,
)
from boardeval.core import ParamsError, WeightSet

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def test_seed_example_is_400() -> None:
    b = energy_from_terms(2, 1, 5.0)
    assert b.total == 400
    assert b.contributions() == {
        "same_resource_pairs": 200,
        "high_number_pairs": 150,
        "pip_variance": 50,
        "ports": 0,
    }


def _brute(board: Board) -> tuple[int, int, float]:
    same = high = 0
    for a, b in HEX_EDGES.tolist():
        ra, rb = board.resources[a], board.resources[b]
        if ra == rb and ra != "D":
            same += 1
        if board.numbers[a] in (6, 8) and board.numbers[b] in (6, 8):
            high += 1
    pips = board.pips.tolist()
    means = [
        sum(pips[h] for h in CORNER_HEXES) / 6,
        pips[9] / 1,
        sum(pips[h] for h in EDGE_HEXES) / 12,
    ]
    mu = sum(means) / 3
    return same, high, sum((m - mu) ** 2 for m in means) / 3


def test_spec_board_by_hand() -> None:
    board = Board.parse(SPEC_CODE)
    e = board_energy(board)
    # by hand: corners 0 O10, 2 W9, 7 G9, 11 O8, 16 B5, 18 S11 -> 3+4+4+5+4+2 = 22 pips, mean 22/6;
    # the centre is the desert (0 pips); the 12 edges hold 58 - 22 = 36 pips, mean 3.
    means = [22 / 6, 0.0, 3.0]
    mu = sum(means) / 3
    assert e.extras["region_mean_pips"] == pytest.approx(
        dict(zip(("corners", "centre", "edges"), means, strict=True))
    )
    assert e["pip_variance"].raw == pytest.approx(sum((m - mu) ** 2 for m in means) / 3)
    assert (e["same_resource_pairs"].raw, e["high_number_pairs"].raw) == _brute(board)[:2]
    ports = e["ports"].raw * energy_weights()["ports"]
    assert e.total == pytest.approx(
        100 * _brute(board)[0] + 150 * _brute(board)[1] + 10 * _brute(board)[2] + ports
    )


def test_built_board_two_same_one_high() -> None:
    """A board built to have exactly 2 same-resource pairs and 1 adjacent 6/8 pair."""
    board = Board.parse("G12-S6-D-O11-W6-G3-S4-S8-G9-B10-G9-W2-B5-O11-O4-B8-W3-S10-W5~3O3B3GW3S")
    e = board_energy(board)
    # grain 5-10 and ore 13-14 touch; sheep 1-7 and 5-... do not; 6 (hex 1) touches 6 (hex 4);
    # 8 (hex 7) and 8 (hex 15) are far apart
    assert e["same_resource_pairs"].raw == 2
    assert e["high_number_pairs"].raw == 1
    assert e.extras["same_resource_pair_hexes"] == [[5, 10], [13, 14]]
    assert e.extras["high_number_pair_hexes"] == [[1, 4]]


@pytest.mark.parametrize("seed", range(100))
def test_arrays_match_brute_force(seed: int) -> None:
    board = Board.random(seed)
    same, high, var = energy_terms_arrays(board.resource_index, board.pips, board.number_array)
    bs, bh, bv = _brute(board)
    assert (int(same), int(high)) == (bs, bh)
    assert float(var) == pytest.approx(bv)


def test_batch_form() -> None:
    boards = [Board.random(s) for s in range(20)]
    res = np.stack([b.resource_index for b in boards])
    pips = np.stack([b.pips for b in boards])
    nums = np.stack([b.number_array for b in boards])
    same, high, var = energy_terms_arrays(res, pips, nums)
    assert high.shape == (20,)
    assert same.shape == (20,)
    for k, b in enumerate(boards):
        e = board_energy(b)
        assert e["same_resource_pairs"].raw == same[k] and e["pip_variance"].raw == pytest.approx(var[k])


def test_desert_counts_as_zero_pips() -> None:
    # moving the desert from the centre to a corner changes the region means
    a = board_energy(Board.parse(SPEC_CODE))
    b = board_energy(Board.parse(SPEC_CODE).with_swapped_hexes(9, 0))
    assert b.extras["region_mean_pips"]["centre"] == 3 and a.extras["region_mean_pips"]["centre"] == 0
    assert b.extras["region_mean_pips"]["corners"] == pytest.approx(19 / 6)


def test_weights_configurable(tmp_path: Path) -> None:
    w = energy_weights().replace(pip_variance=0.0)
    e = board_energy(Board.parse(SPEC_CODE), w)
    assert e["pip_variance"].contribution == 0
    f = tmp_path / "w.toml"
    f.write_text("same_resource_pairs = 1\nhigh_number_pairs = 2\npip_variance = 3\n")
    # a file from before the harbour term: ports = 0 (seed 001's energy)
    assert dict(energy_weights(f)) == {
        "same_resource_pairs": 1,
        "high_number_pairs": 2,
        "pip_variance": 3,
        "ports": 0,
    }
    f.write_text("same_resource_pairs = 1\nhigh_number_pairs = 2\npip_variance = 3\nports = 4\n")
    assert energy_weights(f)["ports"] == 4
    f.write_text("same_resource_pairs = 1\nhigh_number_pairs = 2\npip_variance = 3\nports = -4\n")
    with pytest.raises(ParamsError, match="ports"):
        energy_weights(f)
    f.write_text("same_resource_pairs = 1\nhigh_number_pairs = 2\npip_variance = 3\nharbours = 4\n")
    with pytest.raises(ParamsError, match="harbours"):
        energy_weights(f)
    f.write_text("same_resource_pairs = -1\nhigh_number_pairs = 2\npip_variance = 3\n")
    with pytest.raises(ParamsError, match="same_resource_pairs"):
        energy_weights(f)
    assert dict(energy_weights()) == {
        "same_resource_pairs": 100,
        "high_number_pairs": 150,
        "pip_variance": 10,
        "ports": 10,
    }
    assert isinstance(energy_weights(), WeightSet) and tuple(energy_weights()) == ENERGY_TERMS


def test_seed_weight_set_is_seed_001_formula() -> None:
    """``energy_weights("seed")`` is seed 001's formula exactly (100 / 150 / 10, no harbour term); the
    default adds the harbour term at weight 10. The spec board: 525.4 under the seed's formula, 635.4 by
    default (its harbour term is 11 units)."""
    seed = energy_weights("seed")
    assert dict(seed) == {
        "same_resource_pairs": 100,
        "high_number_pairs": 150,
        "pip_variance": 10,
        "ports": 0,
    }
    assert energy_weights("default") == energy_weights()
    spec = Board.parse(SPEC_CODE)
    assert round(board_energy(spec, seed).total, 1) == 525.4
    assert round(board_energy(spec).total, 1) == 635.4
    for s in range(40):
        board = Board.random(s)
        same, high, var = _brute(board)
        e = board_energy(board, seed)
        assert e.total == pytest.approx(100 * same + 150 * high + 10 * var)
        assert board_energy(board).total == pytest.approx(e.total + 10 * e["ports"].raw)


def test_unknown_weight_set_names_the_sets() -> None:
    with pytest.raises(ParamsError, match=r"unknown energy weight set 'seeds'.*\['default', 'seed'\]"):
        energy_weights("seeds")
