"""Charts: SVG and PNG files for series and heatmaps, with the powers' names and colours."""

from __future__ import annotations

import itertools
import math
import re
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


def test_chart_svg_text_and_png_bytes(table: object) -> None:
    from boardeval.diplomacy import chart_svg
    from boardeval.diplomacy.charts import chart_png

    svg = chart_svg(table, "tempi")  # type: ignore[arg-type]
    assert isinstance(svg, str) and svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert POWER_COLOURS["TURKEY"] in svg
    heat = chart_svg(table, "stab_potential", phase="F1905M")  # type: ignore[arg-type]
    assert "<svg" in heat and "stab potential at F1905M" in heat
    png = chart_png(table, "fear_dynamic", phase="F1905M")  # type: ignore[arg-type]
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_axis_label_and_unit_from_the_catalogue(table: object) -> None:
    """The chart shows a measure in the catalogue's unit: personal progress as SCs / R (a fraction, as on
    the web page and the CLI), game progress in per cent."""
    from boardeval.diplomacy import MEASURE_INFO, chart_svg

    svg = chart_svg(table, "personal_progress")  # type: ignore[arg-type]
    assert f"<!-- {MEASURE_INFO['personal_progress'].caption} -->" in svg
    assert "<!-- Personal progress (SCs / R) -->" in svg
    ticks = [float(t) for t in re.findall(r"<!-- (-?[0-9.]+) -->", svg)]
    assert ticks and max(ticks) <= 1.0  # y ticks of a fraction, not of a percentage (x ticks are phases)
    svg = chart_svg(table, "progress")  # type: ignore[arg-type]
    assert "<!-- Game progress (sum of squared SCs / R², %) -->" in svg
    assert max(float(t) for t in re.findall(r"<!-- (-?[0-9.]+) -->", svg)) > 20  # per cent


def test_tab10_written_out_equals_matplotlib() -> None:
    import matplotlib

    from boardeval.diplomacy._colours import TAB10

    cmap = matplotlib.colormaps["tab10"]
    for i, hex_colour in enumerate(TAB10):
        r, g, b, _ = cmap(i)
        assert hex_colour == f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
    assert power_colour("CARTHAGE", 12) == TAB10[2]


def test_value_axes_are_readable(table: object) -> None:
    """Issue 15 defect 11: round tick steps, never-negative measures start at 0 (not -0.06), and a
    per-cent axis that passes 100 says why (the progress index is not capped at 100%)."""
    import matplotlib.pyplot as plt

    from boardeval.diplomacy.charts import PAST_100_NOTE, series_figure

    for measure in ("battle_tiedness", "personal_progress", "tempi", "cohesion_1"):
        fig = series_figure(table, measure)  # type: ignore[arg-type]
        ax = fig.axes[0]
        assert ax.get_ylim()[0] == 0, measure
        ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
        steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1, (measure, ticks)  # evenly spaced
        step = steps.pop()
        mantissa = step / 10 ** math.floor(math.log10(step))
        assert round(mantissa, 6) in (1, 2, 2.5, 5), (measure, step)
        plt.close(fig)
    fig = series_figure(table, "neighbour_effect")  # type: ignore[arg-type]
    assert fig.axes[0].get_ylim()[0] < 0  # a measure with negative values keeps them
    plt.close(fig)
    from boardeval.diplomacy import chart_svg

    svg = chart_svg(table, "progress")  # type: ignore[arg-type]
    assert PAST_100_NOTE["progress"] in svg  # the shipped game passes 100%
