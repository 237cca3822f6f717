"""Seed 000's spot evaluator: the walkthrough, the erratum, ports by hand, vector == loop, params files."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from boardeval.catan.board import (
    Board,
)
from boardeval.catan.params import METRIC_NAMES, SpotParams
from boardeval.catan.spots import (
    evaluate_spot,
    evaluate_spots,
    port_strengths,
    resource_strengths,
    spot_metrics_from_production,
    spot_scores_batch,
)
from boardeval.catan.topology import (
    PORT_SPOTS,
)
from boardeval.core import CatanError, ParamsError

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def test_seed_walkthrough() -> None:
    """Wood 4, brick 3, grain 5, no port -> metrics 1, 3, 4, 5 = 12, 0, 2.0, 2.4 (seed 000)."""
    b = spot_metrics_from_production({"W": 4, "B": 3, "G": 5}, [11, 10, 12, 13, 12], None)
    assert b["raw_production"].raw == 12
    assert b["port"].raw == 0
    assert b["prime_variate"].raw == 2.0
    assert b["parity"].raw == pytest.approx(2.4)
    # Metric 2 by hand, default params (base 1.0 / 1.0 / 1.1 for wood, brick, grain; dampening 0.5),
    # board totals W 11, B 10, G 13, O 12:
    #   wood  raw = 1.0 * (1/11) * (10/11) = 10/121      strength = sqrt(10) / 11
    #   brick raw = 1.0 * (1/10) * (11/10) = 11/100      strength = sqrt(11) / 10
    #   grain raw = 1.1 * (1/13) * (12/13) = 13.2/169    strength = sqrt(13.2) / 13
    #   metric 2 = 4 sqrt(10)/11 + 3 sqrt(11)/10 + 5 sqrt(13.2)/13 = 3.542283672765... (30-digit Decimal)
    assert b["scarcity_production"].raw == pytest.approx(3.5422836727652925, rel=1e-12)
    assert b["scarcity_production"].weight == 1.5
    # score = 12 * 1.0 + 3.5422836727652925 * 1.5 + 0 + 2.0 + 2.4
    assert b.total == pytest.approx(21.713425509147939, rel=1e-12)


def test_prime_variate_needs_both_conditions() -> None:
    totals = [10, 10, 10, 10, 10]
    assert spot_metrics_from_production([5, 4, 0, 0, 0], totals, None)["prime_variate"].raw == 0  # 2 kinds
    assert spot_metrics_from_production([3, 3, 3, 0, 0], totals, None)["prime_variate"].raw == 0  # 9 pips
    assert spot_metrics_from_production([4, 3, 3, 0, 0], totals, None)["prime_variate"].raw == 2.0


def test_erratum_scarcer_half_scores_higher() -> None:
    """Lots of grain, little ore -> ore's pairwise ratio is high (the bottleneck)."""
    s = resource_strengths([10, 10, 10, 20, 4])
    assert s["pairwise"][4] == pytest.approx(5.0)
    assert s["pairwise"][3] == pytest.approx(0.2)
    assert s["strength"][4] > s["strength"][3]
    # on a real board: ore on 2, 3, 12 (4 pips), grain on 6, 8, 6, 8 (20 pips)
    board = Board.parse("O2-G6-W9-O3-B4-S4-B10-G8-W11-D-W3-G6-W5-O12-G8-S5-B10-S9-S11~3S3W3B3GO")
    table = evaluate_spots(board)
    assert table.totals[4] == 4 and table.totals[3] == 20
    assert table.pairwise[4] == pytest.approx(5.0) and table.pairwise[3] == pytest.approx(0.2)
    assert table.strength[4] > table.strength[3]


def test_pairwise_special_cases_and_clip() -> None:
    s = resource_strengths([0, 5, 0, 0, 0])
    assert s["scarcity"][0] == 20 and s["pairwise"][0] == 20  # total 0 < complement
    assert s["pairwise"][1] == pytest.approx(1 / 20)  # 0/5 clipped up to 1/20
    assert s["pairwise"][3] == 1 and s["pairwise"][4] == 1  # both 0
    assert s["pairwise"][2] == 1  # sheep
    s = resource_strengths([1, 40, 1, 1, 1])
    assert s["pairwise"][0] == 20  # 40 clipped to 20


def test_port_strength_by_hand() -> None:
    """totals W10 B8 S12 G14 O6, default params. D[r] = total*sqrt(base*scarcity*pairwise)
    = sqrt(base[r] * total[comp(r)]) (sheep: sqrt(0.9 * 12)); second highest D = sqrt(10.8) (sheep)."""
    totals = [10, 8, 12, 14, 6]
    ps = port_strengths(totals, resource_strengths(totals)["strength"])
    assert ps["3"] == 1.0
    assert ps["W"] == pytest.approx(math.sqrt(8 / 10.8))
    assert ps["O"] == pytest.approx(math.sqrt(15.4 / 10.8))
    assert ps["S"] == pytest.approx(1.0)
    b = spot_metrics_from_production([3, 0, 0, 0, 0], totals, "W")
    assert b["port"].raw == pytest.approx(1.5 * math.sqrt(8 / 10.8))
    b3 = spot_metrics_from_production([3, 0, 0, 0, 0], totals, "3")
    assert b3["port"].raw == pytest.approx(1.5)


def test_port_metric_on_a_board() -> None:
    board = Board.parse(SPEC_CODE)  # ports 3S3W3B3GO: slot 1 is a 2:1 sheep port
    table = evaluate_spots(board)
    a, b = PORT_SPOTS[1]
    ps = port_strengths(table.totals.tolist(), table.strength.tolist())["S"]
    assert table.metrics[a, 2] == pytest.approx(1.5 * ps) and table.metrics[b, 2] == pytest.approx(1.5 * ps)
    assert table.breakdown(a).extras["port"] == "S"
    a0, _ = PORT_SPOTS[0]
    assert table.metrics[a0, 2] == pytest.approx(1.5)
    inland = [s for s in range(54) if all(s not in p for p in PORT_SPOTS)]
    assert bool(np.all(table.metrics[inland, 2] == 0))


@pytest.mark.parametrize("seed", range(60))
def test_vectorised_equals_loop(seed: int) -> None:
    board = Board.random(seed)
    rng = np.random.default_rng(seed)
    params = (
        SpotParams(
            base_resource_strength=tuple(rng.uniform(0.2, 2.0, 5).tolist()),
            dampening_factor=float(rng.uniform(0.2, 1.5)),
            port_bonus=float(rng.uniform(0, 3)),
            prime_variate_bonus=float(rng.uniform(0, 3)),
            parity_preference=float(rng.uniform(0, 2)),
            eval_weights=tuple(rng.uniform(0, 2, 5).tolist()),
        )
        if seed % 2
        else None
    )
    table = evaluate_spots(board, params)
    for s in range(54):
        ref = evaluate_spot(board, s, params)
        assert [t.raw for t in ref] == pytest.approx(table.metrics[s].tolist(), rel=1e-12, abs=1e-12)
        assert ref.total == pytest.approx(float(table.scores[s]), rel=1e-12, abs=1e-12)
        vb = table.breakdown(s)
        assert vb.total == pytest.approx(ref.total)
        assert vb.extras["production"] == pytest.approx(ref.extras["production"])


def test_production_totals_match_board() -> None:
    board = Board.parse(SPEC_CODE)
    t = evaluate_spots(board)
    assert t.totals.sum() == 58
    assert t.production.sum() == 6 * 58  # every hex has 6 corner spots
    # spot 20 touches hexes 4 (B6), 8 (W11), 9 (desert)
    assert t.production[20].tolist() == [2, 5, 0, 0, 0]
    assert t.metrics[20, 0] == 7


def test_table_api_and_json_shape() -> None:
    t = evaluate_spots(Board.parse(SPEC_CODE))
    ranked = t.ranked()
    assert sorted(ranked) == list(range(54))
    assert all(t.scores[a] >= t.scores[b] for a, b in itertools.pairwise(ranked))
    assert t.top(3) == ranked[:3]
    d = t.to_json()
    assert d["board"] == SPEC_CODE and len(d["spots"]) == 54
    e = d["spots"][26]
    assert set(e) == {"spot", "hexes", "port", "metrics", "score"}
    assert e["port"] == "3" and list(e["metrics"]) == list(METRIC_NAMES)
    assert d["spots"][20]["port"] is None
    json.dumps(d)
    json.dumps(t.breakdown(5).to_dict())
    with pytest.raises(CatanError, match="spot must be"):
        t.breakdown(54)
    with pytest.raises(CatanError, match="spot must be"):
        evaluate_spot(Board.parse(SPEC_CODE), -1)


def test_params_defaults_file_matches_spec() -> None:
    p = SpotParams.default()
    assert p == SpotParams()
    assert p.base_resource_strength == (1.0, 1.0, 0.9, 1.1, 1.1)
    assert p.eval_weights == (1.0, 1.5, 1.0, 1.0, 1.0)
    assert (p.dampening_factor, p.port_bonus, p.prime_variate_bonus, p.parity_preference) == (
        0.5,
        1.5,
        2.0,
        0.8,
    )


def test_params_round_trip_and_effect(tmp_path: Path) -> None:
    d = SpotParams().to_dict()
    d["port_bonus"] = 0.0
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    p = SpotParams.load(f)
    assert p.port_bonus == 0.0
    t = evaluate_spots(Board.parse(SPEC_CODE), p)
    assert float(np.abs(t.metrics[:, 2]).sum()) == 0.0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"eval_weights": [1, 2, 3]}, "eval_weights must have 5 entries, got 3"),
        ({"base_resource_strength": [1, 1, 1, 1, -1]}, r"base_resource_strength\[4\] must be >= 0"),
        ({"dampening_factor": "x"}, "dampening_factor must be a number"),
        ({"port_bonus": float("inf")}, "port_bonus must be finite"),
        ({"eval_weights": 3}, "eval_weights must be a list of 5 numbers"),
        ({"colour": 1}, r"unknown field\(s\) \['colour'\]"),
    ],
)
def test_params_rejections_name_file_and_field(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    d = {**SpotParams().to_dict(), **change}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(d).replace("Infinity", "1e999"))
    with pytest.raises(ParamsError, match=message) as info:
        SpotParams.load(f)
    assert "bad.json" in str(info.value)


def test_params_missing_field_and_bad_toml(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text("dampening_factor = 0.5\n")
    with pytest.raises(ParamsError, match="missing field"):
        SpotParams.load(f)
    f.write_text("dampening_factor = \n")
    with pytest.raises(ParamsError, match="not valid TOML"):
        SpotParams.load(f)
    with pytest.raises(ParamsError, match="does not exist"):
        SpotParams.load(tmp_path / "nope.toml")


@pytest.mark.parametrize("with_params", [False, True])
def test_batch_equals_single(with_params: bool) -> None:
    boards = [Board.random(s) for s in range(200)]
    params = (
        SpotParams(
            base_resource_strength=(0.5, 1.5, 1.0, 2.0, 0.3),
            dampening_factor=0.8,
            port_bonus=2.5,
            prime_variate_bonus=1.0,
            parity_preference=1.2,
            eval_weights=(0.5, 2.0, 1.5, 1.0, 0.7),
        )
        if with_params
        else None
    )
    res = np.stack([b.resource_index for b in boards])
    pips = np.stack([b.pips for b in boards])
    ports = np.stack([b.port_index for b in boards])
    batch = spot_scores_batch(res, pips, ports, params)
    single = np.stack([evaluate_spots(b, params).scores for b in boards])
    assert batch.shape == (200, 54)
    assert np.allclose(batch, single, rtol=1e-12, atol=1e-12)
    with pytest.raises(CatanError, match="batch arrays"):
        spot_scores_batch(res[0], pips[0], ports[0])


def test_equal_spots_tie_exactly_and_rank_by_id() -> None:
    """Spots with identical metrics get bit-identical scores, so ``ranked`` breaks the tie by id."""
    ties = 0
    for seed in range(300):
        t = evaluate_spots(Board.random(seed))
        first: dict[tuple[float, ...], int] = {}
        for s, row in enumerate(t.metrics.tolist()):
            k = first.setdefault(tuple(row), s)
            if k != s:
                ties += 1
                assert t.scores[k] == t.scores[s], (seed, k, s)
                order = t.ranked()
                assert order.index(k) < order.index(s)
    assert ties > 100  # the check bites: equal coastal spots are common


def test_table_is_frozen() -> None:
    t = evaluate_spots(Board.parse(SPEC_CODE))
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.scores = t.scores  # type: ignore[misc]
    assert t.production.shape == (54, 5) and t.production.flags.c_contiguous


def test_vectorised_metrics_and_scores_are_the_formulas_floats() -> None:
    """Not just close: the vector path's metrics are the reference's floats, and each score is
    ``w0*m1 + w1*m2 + w2*m3 + w3*m4 + w4*m5`` added left to right (what a per-spot loop computes)."""
    rng = np.random.default_rng(7)
    for seed in range(40):
        params = SpotParams(
            base_resource_strength=tuple(rng.uniform(0.2, 2.0, 5).tolist()),
            dampening_factor=float(rng.uniform(0.2, 1.5)),
            port_bonus=float(rng.uniform(0, 3)),
            prime_variate_bonus=float(rng.uniform(0, 3)),
            parity_preference=float(rng.uniform(0, 2)),
            eval_weights=tuple(rng.uniform(0, 2, 5).tolist()),
        )
        board = Board.random(1000 + seed)
        table = evaluate_spots(board, params)
        w = params.eval_weights
        for s in range(54):
            m = [t.raw for t in evaluate_spot(board, s, params)]
            assert table.metrics[s].tolist() == m, (seed, s)
            assert (
                float(table.scores[s]) == w[0] * m[0] + w[1] * m[1] + w[2] * m[2] + w[3] * m[3] + w[4] * m[4]
            )
