"""Evaluation: phase table, normalisation, weights as data, sign (defect 2), colour symmetry, terminals."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from boardeval.core import ParamsError
from boardeval.morris._evaluate import (
    BASE_WEIGHTS,
    CLUSTER,
    NORM,
    PHASE_SCALE,
    WIN_SCORE,
    Evaluator,
    evaluate,
    load_weights,
    make_weights,
)
from boardeval.morris._features import FEATURES, features, position_phase
from boardeval.morris.rules import WHITE, Outcome, Position, Termination
from tests.morris.helpers import make, random_positions, swapped

# The seed's table (002_942f05b2f86508cd.txt, section 4), copied independently of the source file.
SEED_PHASE_SCALE = {
    "placing": {"material": 1.0, "mills": 0.8, "open_mills": 1.2, "threats": 1.5, "double_threats": 1.5,
                "fork_threats": 1.5, "mobility": 0.0, "blocked": 0.0, "connectivity": 0.7},
    "moving": {"material": 1.0, "mills": 1.0, "open_mills": 0.8, "threats": 1.2, "double_threats": 1.2,
               "fork_threats": 1.2, "mobility": 1.3, "blocked": 1.2, "connectivity": 0.6},
    "flying": {"material": 1.5, "mills": 1.0, "open_mills": 0.4, "threats": 1.6, "double_threats": 1.6,
               "fork_threats": 1.6, "mobility": 0.0, "blocked": 0.0, "connectivity": 0.0},
}  # fmt: skip

SPEC_START_WEIGHTS = {
    "material": 10, "mills": 5, "open_mills": 2, "threats": 2, "double_threats": 1,
    "fork_threats": 1, "mobility": 1, "blocked": 0.5, "connectivity": 0.5, "initiative": 0,
}  # fmt: skip


def white_view(pos: Position, weights: Evaluator | None = None) -> float:
    ev = weights or Evaluator()
    s = ev.score(pos)
    return s if pos.side == WHITE else -s


def test_phase_scale_is_the_seed_table() -> None:
    for phase, row in SEED_PHASE_SCALE.items():
        for f, v in row.items():
            assert PHASE_SCALE[phase][f] == v, (phase, f)


def test_seed_weights_come_from_the_data_file_with_the_spec_values() -> None:
    """The ``seed`` profile is the spec's starting set exactly, the placing-phase features (not in the seed)
    at 0; ``base`` (the default) is the seed's set plus the placing-phase weights, with ``blocked`` raised
    by play (issue 25: 0.5 -> 3)."""
    seed = load_weights("seed")
    assert dict(seed) == {k: float(v) for k, v in SPEC_START_WEIGHTS.items()} | {
        "future_mobility": 0.0,
        "cramped": 0.0,
        "junctions": 0.0,
        "liberties": 0.0,
    }
    assert load_weights("base") == BASE_WEIGHTS
    assert {k for k in SPEC_START_WEIGHTS if BASE_WEIGHTS[k] != seed[k]} == {"blocked"}
    assert (seed["blocked"], BASE_WEIGHTS["blocked"]) == (0.5, 3.0)


def test_initiative_profile_zeroes_the_cluster() -> None:
    ws = load_weights("initiative")
    for f in CLUSTER:
        assert ws[f] == 0.0, f
    assert ws["initiative"] > 0
    assert ws["material"] == BASE_WEIGHTS["material"]


def test_double_counting_is_rejected() -> None:
    bad = dict(BASE_WEIGHTS) | {"initiative": 1.0}
    with pytest.raises(ParamsError, match="initiative replaces"):
        make_weights(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("material = 10.0\n", "missing weight"),
        ("[base]\n" + "\n".join(f"{f} = 1.0" for f in FEATURES) + "\nspeed = 2.0\n", "unknown weight"),
        ("\n".join(f"{f} = {-1.0 if f == 'mills' else 1.0}" for f in FEATURES), "'mills' must be >= 0"),
        ("\n".join(f"{f} = {'true' if f == 'blocked' else 1.0}" for f in FEATURES), "must be a number"),
    ],
)
def test_bad_weight_files_raise_params_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "w.toml"
    path.write_text(text)
    with pytest.raises(ParamsError, match=message):
        load_weights(path)


def test_weight_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    BASE_WEIGHTS.replace(mobility=2.5).save(path)
    assert load_weights(path)["mobility"] == 2.5
    with pytest.raises(ParamsError, match="unknown weight profile"):
        load_weights("aggressive")


def test_normalisation_bounds_every_feature_in_every_phase() -> None:
    """NORM is each feature's maximum for one side in that phase: normalised values never exceed 1.

    Checked on random positions of all phases and on hand-built extremes that reach the maxima.
    """
    positions = random_positions(120, seed=11, max_turns=120)
    phases_seen = {position_phase(p) for p in positions}
    assert phases_seen >= {"placing", "moving"}
    for pos in positions:
        phase = position_phase(pos)
        for side in features(pos):
            for f, v in side.to_dict().items():
                assert 0 <= v <= NORM[phase][f], (pos.text(), f, v)
    # outer ring full (8 men) = 4 mills, the maximum; 8 placing threats, the maximum
    ring = make("a7 d7 g7 a4 g4 a1 d1 g1", "b6 d6 f6", side="w")
    assert features(ring)[WHITE].mills == NORM["moving"]["mills"] == 4


def test_normalisation_makes_terms_comparable() -> None:
    """Scale = phase factor / the feature's maximum, so every term is on [-1, 1] times its factor.

    Moving phase, White a7 d7 g7 a4 vs Black b6 d6 f6 b4, White to move, counted on the diagram:
    mobility White 2 (g7-g4, a4-a1), Black 4 (d6-d5, f6-f4, b4-c4, b4-b2): raw -2, scale 1.3/26 = 0.05,
    weight 1 -> -0.1. Blocked: White blocks b6 (1), Black blocks a7 and d7 (2): raw -1, scale 1.2/9,
    weight 3 -> -0.4 (0.5 in the seed's set: -1/15). A full mobility advantage (26 * 0.05 = 1.3) and a full
    material one (9 * 1/9 = 1) are then of the size of their phase factors, not of their raw ranges.
    """
    pos = make("a7 d7 g7 a4", "b6 d6 f6 b4", side="w")
    bd = evaluate(pos)
    assert bd.extras["phase"] == "moving"
    expected_scale = {
        "material": 1.0 / 9, "mills": 1.0 / 4, "open_mills": 0.8 / 8, "threats": 1.2 / 6,
        "double_threats": 1.2 / 1, "fork_threats": 1.2 / 7, "mobility": 0.05, "blocked": 1.2 / 9,
        "connectivity": 0.06, "initiative": 1.2 / 11,
        "future_mobility": 0.0, "cramped": 0.0, "junctions": 0.0, "liberties": 1.0 / 4,
    }  # fmt: skip
    assert {t.name: t.scale for t in bd} == pytest.approx(expected_scale)
    assert (bd["mobility"].raw, bd["mobility"].contribution) == (-2, pytest.approx(-0.1))
    assert (bd["blocked"].raw, bd["blocked"].contribution) == (-1, pytest.approx(-0.4))
    assert bd["material"].raw == 0 and bd["mills"].raw == 0


def test_breakdown_total_equals_fast_score() -> None:
    ev = Evaluator()
    for pos in random_positions(40, seed=12):
        assert evaluate(pos).total == pytest.approx(ev.score(pos), abs=1e-9)


def test_breakdown_terms_are_own_minus_opponent_defect_2() -> None:
    """Seed defect 2 (threat sign inverted): every term is own - opponent, more is better for its owner."""
    pos = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3", side="w")  # white threatens g7
    bd = evaluate(pos)
    fw, fb = features(pos)
    for f in FEATURES:
        assert bd[f].raw == pytest.approx(fw.to_dict()[f] - fb.to_dict()[f])
    assert bd["threats"].raw == 1
    assert bd["threats"].contribution > 0
    # the same threat owned by the side NOT to move counts against the side to move
    pos_b = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3 a1", side="b")
    assert evaluate(pos_b)["threats"].raw == -1
    assert evaluate(pos_b)["threats"].contribution < 0
    # raising the threat weight raises the score of the side with the threat
    more = Evaluator(BASE_WEIGHTS.replace(threats=4.0))
    assert more.score(pos) > Evaluator().score(pos)
    assert more.score(pos_b) < Evaluator().score(pos_b)


def test_colour_symmetry_on_many_random_positions() -> None:
    """Swapping colours and the side to move keeps the mover's score and negates White's score."""
    positions = random_positions(150, seed=13, max_turns=120)
    assert len({position_phase(p) for p in positions}) >= 2
    evs = [Evaluator(), Evaluator(load_weights("initiative"))]
    for pos in positions:
        mirror = swapped(pos)
        for ev in evs:
            assert ev.score(mirror) == pytest.approx(ev.score(pos), abs=1e-9), pos.text()
            assert white_view(mirror, ev) == pytest.approx(-white_view(pos, ev), abs=1e-9)


@pytest.mark.parametrize("feature", FEATURES)
def test_each_weight_changes_the_score_somewhere(feature: str) -> None:
    base = load_weights("initiative") if feature == "initiative" else BASE_WEIGHTS
    ev0 = Evaluator(base)
    ev1 = Evaluator(base.replace(**{feature: base[feature] + 1.0}))
    curated = [
        make("a7 d7 g4 g1", "c5 e5 c3 e3", side="w", hands=(5, 5)),  # a double threat at g7
        make("a7 g7 a1 g1", "a4 g4 d6 d2", side="w"),  # moving: White's men share two free points
    ]
    positions = curated + random_positions(150, seed=14, max_turns=120)
    assert any(abs(ev1.score(p) - ev0.score(p)) > 1e-9 for p in positions), feature


def test_terminal_scores() -> None:
    # black to move with 2 men (none in hand): black has lost
    pos = make("a7 d7 g7 a4", "b6 d6", side="b")
    bd = evaluate(pos)
    assert bd.total == -WIN_SCORE
    assert bd.extras["outcome"] == "white"
    assert bd.names() == ["result"]
    # black to move with no legal move (all men blocked, 4 men so no flying): black lost
    blocked = make("a4 d6 g4 b4 f4 d1", "a7 d7 g7 a1", side="b")
    assert blocked.outcome() == Outcome(Termination.NO_LEGAL_MOVE, WHITE)
    assert evaluate(blocked).total == -WIN_SCORE
    # an ongoing position is never scored near the terminal value
    for p in random_positions(40, seed=15):
        assert abs(evaluate(p).total) < WIN_SCORE / 10


def test_bad_weight_values_in_memory() -> None:
    with pytest.raises(ParamsError, match="finite"):
        make_weights(dict(BASE_WEIGHTS) | {"mills": math.inf})
