from __future__ import annotations

import json

import numpy as np
import pytest

from boardeval.core import Breakdown, Term


def test_total_is_sum_of_contributions() -> None:
    b = Breakdown.from_values({"a": 2.0, "b": -1.0}, {"a": 3.0, "b": 0.5}, scales={"a": 2.0})
    assert b["a"].contribution == 12.0
    assert b["b"].contribution == -0.5
    assert b.total == pytest.approx(11.5)
    assert b.names() == ["a", "b"]
    assert [t.name for t in b.ranked()] == ["a", "b"]


def test_missing_weight_is_an_error() -> None:
    with pytest.raises(ValueError, match="no weight"):
        Breakdown.from_values({"a": 1.0}, {})


def test_duplicate_terms_rejected() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        Breakdown((Term("a", 1, 1), Term("a", 2, 1)))


def test_json_round_trip_and_numpy_extras() -> None:
    b = Breakdown.from_values({"x": 1.5}, {"x": 2.0}, label="t", extras={"s": np.array([1.0, 2.0])})
    d = json.loads(json.dumps(b.to_dict()))
    assert d["extras"]["s"] == [1.0, 2.0]
    again = Breakdown.from_dict(d)
    assert again.total == b.total and again.label == "t"


def test_hidden_scale() -> None:
    b = Breakdown.from_values({"x": 1.0}, {"x": 2.0}, scales={"x": 3.0})
    assert "scale" not in b.to_dict(include_scale=False)["terms"][0]
    assert b.to_dict(include_scale=False)["terms"][0]["contribution"] == 6.0
