"""Charts: SVG and PNG files for series and heatmaps, with the powers' names and colours."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardeval.core import ParamsError
from boardeval.diplomacy import GameRecord, chart_measure, measures_table, power_colour
from boardeval.diplomacy._colours import POWER_COLOURS


@pytest.fixture(scope="module")
def table(human_games: list[GameRecord]) -> object:
    return measures_table(human_games[1])


def test_series_svg(table: object, tmp_path: Path) -> None:
    out = chart_measure(table, "personal_progress", tmp_path / "pp.svg")  # type: ignore[arg-type]
    svg = out.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for name in ("Austria", "Turkey"):
        assert name in svg
    assert POWER_COLOURS["AUSTRIA"] in svg  # the line colour is written into the SVG


def test_heatmap_png(table: object, tmp_path: Path) -> None:
    out = chart_measure(table, "fear_dynamic", tmp_path / "fear.png", phase="F1905M")  # type: ignore[arg-type]
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_pair_series_and_position_series(table: object, tmp_path: Path) -> None:
    assert chart_measure(table, "fear_mutual_change", tmp_path / "m.png").stat().st_size > 0  # type: ignore[arg-type]
    assert chart_measure(table, "progress", tmp_path / "p.svg").stat().st_size > 0  # type: ignore[arg-type]


def test_chart_errors(table: object, tmp_path: Path) -> None:
    with pytest.raises(ParamsError, match=r"\.svg or \.png"):
        chart_measure(table, "tempi", tmp_path / "t.gif")  # type: ignore[arg-type]
    with pytest.raises(ParamsError, match="unknown phase 'X1999M'"):
        chart_measure(table, "stab_potential", tmp_path / "s.png", phase="X1999M")  # type: ignore[arg-type]


def test_colours_for_other_maps() -> None:
    assert power_colour("ITALY") == POWER_COLOURS["ITALY"]
    assert power_colour("CARTHAGE", 0) != power_colour("EGYPT", 1)
