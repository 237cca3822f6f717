"""The why-panel: JSON-able, raw features only (never a phase scale), candidates from the search, ranking."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boardeval.core import ParamsError
from boardeval.morris._evaluate import NORM, PHASE_SCALE, Evaluator, load_weights
from boardeval.morris._features import FEATURES, features
from boardeval.morris._search import random_position, top_moves
from boardeval.morris.why import FEATURE_LABELS, why_panel
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
    # White to move can close a7-d7-g7 (placing): threats and material drive the choice
    pos = make("a7 d7", "b6 d6", side="w", hands=(7, 7))
    panel = why_panel(pos, n=3, depth=2)
    ranking = panel["ranking"]
    assert ranking and set(ranking) <= set(FEATURES)
    assert "mobility" not in ranking  # mobility is not a factor while placing
    assert "initiative" not in ranking  # weight 0 in the base profile
    text = " ".join(panel["explanation"])
    assert f"What matters most here: {FEATURE_LABELS[ranking[0]]}" in text
    assert "more than" in text
    assert panel["candidates"][0]["move"].startswith("g7x")
    assert "closed mills +1" in panel["candidates"][0]["summary"]


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
    assert "over" in panel["explanation"][0]


def test_scale_tables_exist_but_stay_internal() -> None:
    """The engine does use non-trivial scales (so hiding them is meaningful)."""
    assert PHASE_SCALE["moving"]["mobility"] != PHASE_SCALE["placing"]["mobility"]
    assert NORM["placing"]["threats"] != NORM["moving"]["threats"]


def test_bad_depth() -> None:
    with pytest.raises(ParamsError, match="depth"):
        why_panel(random_position(1, 5), depth=0)
