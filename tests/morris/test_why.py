"""The why-panel: JSON-able, raw features only (never a phase scale), candidates from the search, ranking."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boardeval.core import ParamsError
from boardeval.morris._evaluate import NORM, PHASE_SCALE, Evaluator, load_weights
from boardeval.morris._features import FEATURES, features
from boardeval.morris._search.plain import random_position
from boardeval.morris._search.searcher import top_moves
from boardeval.morris.why import why_panel
from tests.morris.helpers import make


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        out = set(obj)
        for v in obj.values():
            out |= _keys(v)
        return out
    if isinstance(obj, list):
        return set().union(*(_keys(v) for v in obj)) if obj else set()
    return set()


def test_panel_is_json_and_lists_raw_features_of_both_sides() -> None:
    pos = random_position(5, 30)
    panel = why_panel(pos, n=3, depth=2)
    json.dumps(panel)  # JSON-able
    fw, fb = features(pos)
    assert panel["features"] == {"white": fw.to_dict(), "black": fb.to_dict()}
    assert panel["position"] == pos.text()
    assert panel["phase"] == "moving"
    assert list(panel["features"]["white"]) == list(FEATURES)


def test_no_scale_or_weighted_figure_appears() -> None:
    """Phase scaling is engine-internal: no 'scale' key, no contribution, no weight, no factor value."""
    for seed, turns in ((5, 30), (8, 10), (3, 70)):
        panel = why_panel(random_position(seed, turns), n=3, depth=2)
        keys = _keys(panel)
        for banned in ("scale", "scales", "phase_scale", "contribution", "weight", "weights", "norm"):
            assert banned not in keys
        text = json.dumps(panel)
        assert "scale" not in text.lower()


def test_candidates_are_the_search_top_moves_with_changes() -> None:
    pos = random_position(8, 10)
    panel = why_panel(pos, n=3, depth=2)
    tops = top_moves(pos, 3, 2)
    assert [c["move"] for c in panel["candidates"]] == [str(m.move) for m in tops]
    assert [c["score"] for c in panel["candidates"]] == [round(m.score, 4) for m in tops]
    for cand, ms in zip(panel["candidates"], tops, strict=True):
        q = pos.copy()
        q.push(ms.move)
        aw, ab = features(q)
        assert cand["features_after"] == {"white": aw.to_dict(), "black": ab.to_dict()}
        for colour in ("white", "black"):
            for f in FEATURES:
                expected = cand["features_after"][colour][f] - panel["features"][colour][f]
                assert cand["change"][colour][f] == pytest.approx(expected)
        assert cand["pv"][0] == cand["move"]


def test_ranking_and_explanation() -> None:
    """White a7 d7, Black b6 d6, both placing with 7 in hand, White to move; hand-derived expectations.

    Before the turn every raw difference is 0 (each side: 9 men, 1 open mill, 1 threat, 1 link), so the
    ranking is the average size of each weighted term after the 3 candidates, from White's view (the seed's
    weights, ``seed``; placing scale / max: material 1.0/9, mills 0.8/4, open 1.2/8, threats 1.5/8, links
    0.7/10):

    - g7xb6 and g7xd6: material 9-8 -> 10 * 1/9 = 1.111; mills 1-0 -> 5 * 0.2 = 1.0; links 2-0 -> 0.5 * 0.07
      * 2 = 0.07; open mills and threats 0-0.
    - f6 (blocks Black's b6-d6-f6): open 1-0 -> 2 * 0.15 = 0.3; threats 1-0 -> 2 * 0.1875 = 0.375.

    Averages: material 0.741 > mills 0.667 > threats 0.125 > open mills 0.1 > connectivity 0.047; mobility,
    blocked, double and fork threats stay 0 (placing), initiative has weight 0.
    """
    pos = make("a7 d7", "b6 d6", side="w", hands=(7, 7))
    panel = why_panel(pos, n=3, depth=2, evaluator=Evaluator(load_weights("seed")))
    assert [c["move"] for c in panel["candidates"]] == ["g7xb6", "g7xd6", "f6"]
    assert panel["ranking"] == ["material", "mills", "threats", "open_mills", "connectivity"]
    assert panel["explanation"][:3] == [
        "What matters most here: material, then closed mills and threats.",
        "Material matters more than connectivity here.",
        "Not a factor in this position: double threats, fork threats, mobility, opposing men blocked.",
    ]
    assert panel["candidates"][0]["summary"] == (
        "White: closed mills +1, open mills -1, threats -1, connectivity +1; "
        "Black: material -1, open mills -1, threats -1, connectivity -1"
    )
    assert panel["candidates"][2]["summary"] == "Black: open mills -1, threats -1"


def test_initiative_profile_ranks_initiative() -> None:
    pos = make("a7 d7 b2 f2 g4 d3", "c5 e5 c3 e3", side="w")
    panel = why_panel(pos, n=2, depth=1, evaluator=Evaluator(load_weights("initiative")))
    assert "initiative" in panel["ranking"]
    assert "threats" not in panel["ranking"]  # weight 0 in that profile


def test_finished_game_panel() -> None:
    pos = make("a7 d7 g7 a4", "b6 d6", side="b")
    panel = why_panel(pos)
    assert panel["over"] is True
    assert panel["outcome"] == "white"
    assert panel["candidates"] == []
    assert panel["explanation"] == ["The game is over. White has won: Black has fewer than 3 men."]


def test_scale_tables_exist_but_stay_internal() -> None:
    """The engine does use non-trivial scales (so hiding them is meaningful)."""
    assert PHASE_SCALE["moving"]["mobility"] != PHASE_SCALE["placing"]["mobility"]
    assert NORM["placing"]["threats"] != NORM["moving"]["threats"]


def test_bad_depth() -> None:
    with pytest.raises(ParamsError, match="depth"):
        why_panel(random_position(1, 5), depth=0)
