from __future__ import annotations

from pathlib import Path

import pytest

from boardeval.core import ParamsError, WeightSet, load_data_file


def test_load_toml_and_json(tmp_path: Path) -> None:
    (tmp_path / "w.toml").write_text("a = 1\nb = 2.5\n")
    (tmp_path / "w.json").write_text('{"a": 1, "b": 2.5}')
    for name in ("w.toml", "w.json"):
        w = WeightSet.load(tmp_path / name, names=["a", "b"])
        assert dict(w) == {"a": 1.0, "b": 2.5}


def test_round_trip(tmp_path: Path) -> None:
    w = WeightSet({"a": 1.0, "b": -2.0})
    w.save(tmp_path / "x.toml")
    assert WeightSet.load(tmp_path / "x.toml") == w


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"a": 1.0}, "missing weight"),
        ({"a": 1.0, "b": 1.0, "c": 1.0}, "unknown weight"),
        ({"a": float("nan"), "b": 1.0}, "'a' must be finite"),
        ({"a": "x", "b": 1.0}, "'a' must be a number"),
        ({"a": -1.0, "b": 1.0}, "'a' must be >= 0"),
    ],
)
def test_validation(values: dict[str, object], message: str) -> None:
    with pytest.raises(ParamsError, match=message):
        WeightSet(values, names=["a", "b"], nonnegative=["a"])


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ParamsError, match="does not exist"):
        load_data_file(tmp_path / "nope.toml")
    (tmp_path / "bad.toml").write_text("a = = 1")
    with pytest.raises(ParamsError, match="not valid TOML"):
        load_data_file(tmp_path / "bad.toml")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(ParamsError, match="table/object"):
        load_data_file(tmp_path / "list.json")


def test_replace() -> None:
    w = WeightSet({"a": 1.0, "b": 2.0})
    assert w.replace(a=5.0)["a"] == 5.0
    with pytest.raises(ParamsError):
        w.replace(c=1.0)
