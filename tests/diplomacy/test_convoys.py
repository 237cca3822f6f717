"""The engine's convoy-path table, built under our control (issue 24): the same table as the engine's,
nothing on stdout, refused where builds are forbidden, never started by a drawing of a map without one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardeval.core import DiplomacyError
from boardeval.diplomacy import (
    MapNotPreparedError,
    board_svg,
    convoy_table_ready,
    forbid_convoy_builds,
    load_records,
    prepare_map,
)
from boardeval.diplomacy.convoys import _build_table, _disk_table
from tests.diplomacy.helpers import start_saved_game


@pytest.fixture
def cold_standard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The engine as on a machine where 'standard' has no table: no shipped cache, an empty home cache."""
    import diplomacy.engine.map as engine_map
    import diplomacy.utils.convoy_paths as convoy_paths

    shipped = engine_map.CONVOYS_PATH_CACHE["standard"]
    monkeypatch.setattr(convoy_paths, "INTERNAL_CACHE_PATH", str(tmp_path / "none.pkl"))
    monkeypatch.setattr(convoy_paths, "EXTERNAL_CACHE_PATH", str(tmp_path / "home" / "cache.pkl"))
    monkeypatch.delitem(engine_map.CONVOYS_PATH_CACHE, "standard")
    yield shipped
    forbid_convoy_builds(False)


def test_the_table_is_the_engines() -> None:
    import diplomacy.engine.map as engine_map

    for name in ("standard", "pure"):
        assert _build_table(name, None, 1) == engine_map.CONVOYS_PATH_CACHE[name]


def test_prepare_builds_silently_stores_and_can_be_forbidden(
    cold_standard: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert not convoy_table_ready("standard")
    forbid_convoy_builds()
    with pytest.raises(MapNotPreparedError, match="map 'standard' needs the diplomacy engine's convoy-path"):
        prepare_map("standard")
    forbid_convoy_builds(False)
    seen: list[tuple[int, int]] = []
    assert prepare_map("standard", progress=lambda done, total, msg="": seen.append((done, total))) is True
    out, _ = capfd.readouterr()
    assert out == ""  # the engine's builder printed "Generating convoy paths ..." here
    assert seen and seen[-1][0] == seen[-1][1] > 0
    assert (tmp_path / "home" / "cache.pkl").exists() and _disk_table("standard") == cold_standard
    assert convoy_table_ready("standard") and prepare_map("standard") is False


def test_a_map_without_a_drawing_is_refused_before_any_table_is_built() -> None:
    saved = start_saved_game("colonial")
    assert len(load_records(json.dumps(saved))[0].phases) == 1  # measurable: no table needed
    had = convoy_table_ready("colonial")
    drawn = "no drawing of map 'colonial'; it draws ancmed, modern, pure, standard and their variants"
    with pytest.raises(DiplomacyError, match=drawn):
        board_svg(saved, 0)
    assert convoy_table_ready("colonial") == had
