"""The board drawn by the engine's own SVG renderer: units, dislodged units, centre owners, orders, our
palette, offline (nothing outside the file is referenced)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from boardeval.diplomacy import RecordFormatError, board_svg, saved_games, shipped_game_paths
from boardeval.diplomacy._colours import POWER_COLOURS
from boardeval.diplomacy.render import _tint


@pytest.fixture(scope="module")
def game1() -> dict[str, Any]:
    return saved_games(next(p for p in shipped_game_paths() if p.stem == "1"))[0]


def _units(svg: str) -> list[tuple[str, str]]:
    """(id, power) of every unit symbol the renderer placed (it writes id before class)."""
    return re.findall(r'<use[^>]*?id="((?:dislodged_)?unit_[A-Z/]+)"[^>]*?class="unit([a-z]+)"', svg)


def _order_layer(svg: str) -> str:
    """The order layer's drawing (up to the unit layer that follows it)."""
    return svg[svg.index('id="OrderLayer"') : svg.index('id="UnitLayer"')]


def test_start_of_game_units_centres_and_orders(game1: dict[str, Any]) -> None:
    svg = board_svg(game1, "S1901M")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "<!DOCTYPE" not in svg
    units = _units(svg)
    assert len(units) == 22  # 3 per power, 4 for Russia
    assert ("unit_PAR", "france") in {(i, c) for i, c in units}
    assert ("unit_STP/SC", "russia") in {(i, c) for i, c in units}
    # centre owners colour their provinces: Vienna is Austria's, in the palette's tint
    assert re.search(r'class="austria"[^>]*id="_vie"|id="_vie"[^>]*class="austria"', svg)
    assert f".austria {{fill:{_tint(POWER_COLOURS['AUSTRIA'])};" in svg
    assert f".unitgermany {{fill:{POWER_COLOURS['GERMANY']}; fill-opacity:1" in svg
    # the spring orders are drawn in the order layer, France's in its colour
    assert POWER_COLOURS["FRANCE"] in _order_layer(svg)
    assert POWER_COLOURS["FRANCE"] not in _order_layer(board_svg(game1, "S1901M", orders=False))
    # offline: no reference to anything outside the file except the XML namespaces
    urls = set(re.findall(r"https?://[^\"' )]+", svg))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def test_the_board_follows_the_phase(game1: dict[str, Any]) -> None:
    """Units and owners at a later phase are those of the record; dislodged units appear in retreats."""
    names = [p["name"] for p in game1["phases"]]
    later = names.index("F1905M")
    state = game1["phases"][later]["state"]
    svg = board_svg(game1, later)  # by index
    want = {u.lstrip("*").split()[1] for us in state["units"].values() for u in us}
    assert {
        i.split("_", 1)[1] if not i.startswith("dis") else i.split("_", 2)[2] for i, _ in _units(svg)
    } == want
    retreat = next(
        i
        for i, p in enumerate(game1["phases"])
        if any(u.startswith("*") for us in p["state"]["units"].values() for u in us)
    )
    assert "dislodged_unit_" in board_svg(game1, retreat)


def test_bad_phase_and_bad_record_raise_clear_errors(game1: dict[str, Any]) -> None:
    with pytest.raises(RecordFormatError, match="unknown phase 'X1999M'"):
        board_svg(game1, "X1999M")
    with pytest.raises(RecordFormatError, match="phase index 999"):
        board_svg(game1, 999)
    broken = json.loads(json.dumps(game1))
    broken["phases"][0]["state"]["units"]["ATLANTIS"] = ["A PAR"]
    with pytest.raises(ValueError, match="ATLANTIS"):
        board_svg(broken, 0)


def test_another_map() -> None:
    from diplomacy.utils.export import to_saved_game_format

    from boardeval.diplomacy import random_game

    saved = to_saved_game_format(random_game(5, map_name="ancmed", max_phases=3))
    svg = board_svg(saved, 1)
    assert "<svg" in svg and len(_units(svg)) > 0


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB hex colour."""

    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else float(((c + 0.055) / 1.055) ** 2.4)

    r, g, b = (lin(int(hex_colour[i : i + 2], 16)) for i in (1, 3, 5))
    x, y, z = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_every_power_stands_out_from_the_sea(game1: dict[str, Any]) -> None:
    """Issue 23 §3.4: France's sky blue tinted to nearly the sea's colour (CIE76 ΔE 10). Every power's
    territory fill on the drawn map is now at least ΔE 20 from the sea's (France 51; England, the closest,
    21)."""
    import math

    svg = board_svg(game1, "F1905M")
    sea = re.search(r"\.water\s*\{fill:(#[0-9a-fA-F]{6})", svg)
    assert sea is not None
    for power, colour in POWER_COLOURS.items():
        fill = re.search(rf"\.{power.lower()}\s*\{{fill:(#[0-9a-f]{{6}})", svg)
        assert fill is not None and fill.group(1) == _tint(colour)
        assert math.dist(_lab(fill.group(1)), _lab(sea.group(1))) >= 20, power
        assert math.dist(_lab(colour), _lab(sea.group(1))) >= 40, power
