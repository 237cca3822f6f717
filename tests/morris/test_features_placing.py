"""Placing-phase features (issue 12 section 2): future_mobility, cramped, junctions; their compiled port."""

from __future__ import annotations

import numpy as np
import pytest

from boardeval.morris._evaluate import NORM, PHASE_SCALE, Evaluator, load_weights
from boardeval.morris._features import (
    FEATURES,
    JUNCTIONS,
    PLACING_FEATURES,
    cramped_men,
    features,
    groups,
    side_features,
)
from boardeval.morris._search.compiled.evaluate import N_FEATURES, evaluate, evaluate_fast
from boardeval.morris._search.compiled.state import state_of
from boardeval.morris.board import mask_of, point_index, points_of
from boardeval.morris.rules import BLACK, WHITE, Position
from boardeval.morris.why import placing_sentences, why_panel
from tests.morris.helpers import make, random_positions


def _mask(names: str) -> int:
    return mask_of([point_index(n) for n in names.split()])


def test_junctions_are_the_four_way_points() -> None:
    assert points_of(JUNCTIONS) == ["d6", "b4", "f4", "d2"]
    pos = make("b4 d2 a7", "d6 g1", side="b", hands=(6, 7))
    w, b = features(pos)
    assert (w.junctions, b.junctions) == (2, 1)


def test_future_mobility_is_the_mobility_when_placing_ends() -> None:
    """While placing, future_mobility equals the sliding moves the same men would have with empty hands."""
    checked = 0
    for pos in random_positions(80, seed=21, max_turns=17):
        if not (pos.hand[WHITE] or pos.hand[BLACK]) or pos.outcome() is not None:
            continue
        frozen = Position(list(pos.men), (0, 0), pos.side, validate=False)
        for side in (WHITE, BLACK):
            if pos.men[side].bit_count() > 3:  # a 3-man side would fly in the frozen position
                assert side_features(pos, side).future_mobility == side_features(frozen, side).mobility
                checked += 1
    assert checked > 30


def test_cramped_counts_men_in_groups_with_at_most_one_free_neighbour() -> None:
    # White's a7-d7-g7 group: neighbours a4 (Black), d6 (Black), g4 (free) -> one free neighbour: cramped
    pos = make("a7 d7 g7", "a4 d6", side="b", hands=(6, 7))
    w, b = features(pos)
    assert b.cramped == 3 and w.cramped == 0
    empty = ((1 << 24) - 1) & ~(pos.men[WHITE] | pos.men[BLACK])
    assert cramped_men(pos.men[WHITE], empty) == _mask("a7 d7 g7")
    # with g4 taken too the group has no free neighbour; a lone man with two free neighbours is not cramped
    pos2 = make("a7 d7 g7 c5", "a4 d6 g4", side="b", hands=(5, 6))
    w2, b2 = features(pos2)
    assert b2.cramped == 3 and w2.cramped == 0


def test_groups_are_the_connected_men() -> None:
    assert groups(_mask("a7 d7 g1 d1 c5")) == [_mask("a7 d7"), _mask("c5"), _mask("d1 g1")]
    assert groups(0) == []


def test_placing_features_are_zero_once_no_man_is_in_hand() -> None:
    seen = 0
    for pos in random_positions(60, seed=22, max_turns=120):
        if pos.hand[WHITE] or pos.hand[BLACK]:
            continue
        seen += 1
        for side in features(pos):
            assert (side.future_mobility, side.cramped, side.junctions) == (0, 0, 0)
    assert seen > 10


def test_placing_features_count_only_in_the_placing_phase_and_the_seed_ignores_them() -> None:
    for f in PLACING_FEATURES:
        assert PHASE_SCALE["placing"][f] == 1.0
        assert PHASE_SCALE["moving"][f] == PHASE_SCALE["flying"][f] == 0.0
    seed = load_weights("seed")
    assert all(seed[f] == 0.0 for f in PLACING_FEATURES)
    assert all(load_weights(name)[f] == 0.0 for name in ("initiative", "tuned") for f in PLACING_FEATURES)


def _flat(weights: dict[str, float]) -> np.ndarray:
    coef = np.array(
        [
            [weights[f] * PHASE_SCALE[ph][f] / NORM[ph][f] for f in FEATURES]
            for ph in ("placing", "moving", "flying")
        ]
    )
    assert coef.shape == (3, N_FEATURES)
    return coef


def test_compiled_evaluation_equals_python_with_placing_weights() -> None:
    """evaluate_fast (the search's leaf) and the plain compiled evaluate equal Evaluator.score to 1e-9."""
    rng = np.random.default_rng(23)
    seed = dict(load_weights("seed"))
    positions = [p for p in random_positions(150, seed=24, max_turns=30) if p.outcome() is None]
    assert sum(bool(p.hand[0] or p.hand[1]) for p in positions) > 60
    for trial in range(3):
        w = dict(seed) | {f: float(rng.uniform(0.5, 6.0)) for f in PLACING_FEATURES}
        if trial == 2:
            w["future_mobility"] = 0.0  # the skipped-term path
        ev = Evaluator(w)
        coef = _flat(w)
        flat = np.concatenate([np.zeros(5), coef.reshape(-1)])
        for pos in positions:
            st = state_of(pos, 1)
            me, opp, hme, hopp, _s = st.args()
            want = ev.score(pos)
            assert evaluate_fast(me, opp, hme, hopp, st.flying, flat, 5) == pytest.approx(want, abs=1e-9)
            assert evaluate(me, opp, hme, hopp, st.flying, coef) == pytest.approx(want, abs=1e-9)


def test_placing_weights_change_the_score() -> None:
    pos = make("a7 d7 g7", "a4 d6", side="b", hands=(6, 7))
    seed = load_weights("seed")
    for f in PLACING_FEATURES:
        assert Evaluator(seed.replace(**{f: 1.0})).score(pos) != Evaluator(seed).score(pos), f


def test_why_panel_explains_blockade_danger_in_words() -> None:
    pos = make("a7 d7 g7", "a4 d6", side="b", hands=(6, 7))
    text = placing_sentences(pos)
    assert "After placing, White's men on a7, d7, g7 have one free neighbour between them (g4)." in text
    assert "If placing ended now, White would have 1 sliding move and Black 5." in text
    assert "Junction points (four neighbours each) held: Black d6." in text
    lone = make("a1 b6 c5", "a4 d1 d6", side="w", hands=(6, 6))
    assert "After placing, White's man on a1 has no free neighbour." in placing_sentences(lone)
    # weight 0: no sentence for that feature; no man in hand: no sentence at all
    assert not any("sliding" in s for s in placing_sentences(pos, load_weights("seed")))
    assert placing_sentences(make("a7 d7 g7 a1", "a4 d6 g4 d1", side="w")) == []


def test_why_panel_of_the_default_weights_carries_the_placing_sentences() -> None:
    pos = make("a7 d7 g7", "a4 d6", side="b", hands=(6, 7))
    panel = why_panel(pos, n=1, depth=1)
    assert (
        "After placing, White's men on a7, d7, g7 have one free neighbour between them (g4)."
        in panel["explanation"]
    )
    assert panel["features"]["black"]["cramped"] == 3
