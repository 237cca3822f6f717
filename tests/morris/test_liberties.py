"""The ``liberties`` feature (issue 25 section 1: blockade judgement at the placing/moving boundary): its
values on hand-made positions, its term in the breakdown, the compiled port and the why-panel's words."""

from __future__ import annotations

import numpy as np
import pytest

from boardeval.morris._evaluate import NORM, PHASE_SCALE, Evaluator, evaluate, load_weights
from boardeval.morris._features import FEATURES, LIBERTY_CAP, features
from boardeval.morris._search.compiled.evaluate import evaluate as compiled_evaluate
from boardeval.morris._search.compiled.evaluate import evaluate_fast
from boardeval.morris._search.compiled.state import state_of
from boardeval.morris.rules import BLACK, WHITE
from boardeval.morris.why import liberty_sentences, why_panel
from tests.morris.helpers import make

# White a7 g7 a1 g1 around Black's a4 g4: White's four men share two free points (d7, d1) -- four sliding
# moves, two liberties; Black (a4 g4 d6 d2) has ten free points, capped at LIBERTY_CAP.
SHARED = make("a7 g7 a1 g1", "a4 g4 d6 d2", side="w")
# White's only free point is d1; Black's seven free points less White's men in hand
NEAR_END = "a7 d7 g7 a1", "a4 d6 g4 b2"


def test_liberties_count_shared_free_points_once_and_are_capped() -> None:
    w, b = features(SHARED)
    assert (w.mobility, w.liberties) == (4, 2)
    assert b.liberties == LIBERTY_CAP == 4


@pytest.mark.parametrize(
    ("side", "hands", "want"),
    [
        ("w", (0, 0), (1, 4)),  # moving: White has d1 only, Black seven points (capped)
        ("b", (1, 2), (0, 4)),  # placing: Black's two men in hand can fill White's one point
        ("b", (4, 5), (0, 3)),  # White's four men in hand leave Black 7 - 4 = 3
    ],
)
def test_liberties_less_the_opponents_men_in_hand(
    side: str, hands: tuple[int, int], want: tuple[int, int]
) -> None:
    pos = make(*NEAR_END, side=side, hands=hands)
    both = features(pos)
    assert (both[WHITE].liberties, both[BLACK].liberties) == want


def test_a_flying_side_has_the_cap_even_when_shut_in() -> None:
    pos = make("a7 d7 g7", "a4 d6 g4 b2", side="w")  # no free point next to White's three men
    assert features(pos)[WHITE].liberties == LIBERTY_CAP


def test_the_breakdown_carries_the_term_and_the_compiled_evaluation_agrees() -> None:
    """Raw own - opponent, the weight, contribution = weight x scale x raw; the compiled leaf equal to it."""
    weights = dict(load_weights("base")) | {"liberties": 3.0}
    bd = evaluate(SHARED, weights)
    term = next(t for t in bd.terms if t.name == "liberties")
    assert (term.raw, term.weight) == (-2.0, 3.0)
    assert bd.contributions()["liberties"] == pytest.approx(3.0 * -2.0 / 4.0)
    ev = Evaluator(weights)
    coef = np.array(
        [[ev.weights[f] * PHASE_SCALE[ph][f] / NORM[ph][f] for f in FEATURES] for ph in PHASE_SCALE]
    )
    flat = np.concatenate([np.zeros(3), coef.reshape(-1)])
    placing = make(*NEAR_END, side="b", hands=(4, 5))
    for pos in (SHARED, placing, make(*NEAR_END, side="w")):
        me, opp, hme, hopp, _s = state_of(pos, 1).args()
        flying = state_of(pos, 1).flying
        want = ev.score(pos)
        without = Evaluator(weights | {"liberties": 0.0}).score(pos)
        # counted in the moving phase only: while the side to move places, the term is 0
        assert (want == pytest.approx(without)) == (pos is placing), pos.text()
        assert evaluate_fast(me, opp, hme, hopp, flying, flat, 3) == pytest.approx(want, abs=1e-9)
        assert compiled_evaluate(me, opp, hme, hopp, flying, coef) == pytest.approx(want, abs=1e-9)


def test_why_panel_says_the_shut_in_danger() -> None:
    assert liberty_sentences(SHARED) == [
        "White's men have two free points next to them (d7, d1): shut-in danger."
    ]
    text = liberty_sentences(make(*NEAR_END, side="b", hands=(4, 5)))
    assert text == [
        "White's men have one free point next to them (d1), and Black has 5 men in hand to place: "
        "shut-in danger.",
        "Black's men have 7 free points next to them (b6, f6, d5, b4, f4, d2, g1), and White has 4 men in "
        "hand to place: shut-in danger.",
    ]
    assert liberty_sentences(SHARED, load_weights("seed")) == []  # weight 0: not a factor, no words
    weights = dict(load_weights("base")) | {"liberties": 3.0}
    panel = why_panel(SHARED, n=1, depth=1, evaluator=Evaluator(weights))
    assert (panel["features"]["white"]["liberties"], panel["features"]["black"]["liberties"]) == (2, 4)
    assert "White's men have two free points next to them (d7, d1): shut-in danger." in panel["explanation"]
