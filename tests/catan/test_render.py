"""SVG rendering: well-formed, self-contained, hooks for the web app, tokens/pips/ports/heatmap right."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from boardeval.catan import Board, evaluate_spots
from boardeval.catan.board import (
    PIPS,
)
from boardeval.catan.render import board_svg
from boardeval.catan.topology import (
    PORT_SPOTS,
)
from boardeval.cli.catan_render import board_renderable
from boardeval.core import CatanError

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
NS = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _all(root: ET.Element, tag: str, cls: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls is None or e.get("class") == cls]


@pytest.mark.parametrize("seed", range(5))
def test_structure(seed: int) -> None:
    board = Board.random(seed)
    root = _parse(board_svg(board))
    hexes = [g for g in _all(root, "g", "hex")]
    assert sorted(int(g.get("data-hex", -1)) for g in hexes) == list(range(19))
    spots = _all(root, "g", "spot")
    assert sorted(int(g.get("data-spot", -1)) for g in spots) == list(range(54))
    assert all(len(_all(g, "circle", "spot-hit")) == len(_all(g, "circle", "spot-dot")) == 1 for g in spots)
    assert len(_all(root, "g", "port")) == 9
    assert len(_all(root, "circle", "token")) == 18
    assert len(_all(root, "circle", "pip")) == 58
    numbers = _all(root, "text", "number")
    assert sorted(int(t.text or 0) for t in numbers) == sorted(n for n in board.numbers if n is not None)
    for t in numbers:
        red = t.get("fill") == "#c62828"
        assert red == (int(t.text or 0) in (6, 8))
    labels = [t.text for g in _all(root, "g", "port") for t in g.iter(NS + "text")]
    assert labels.count("3:1") == 4 and labels.count("2:1") == 5


def test_self_contained() -> None:
    svg = board_svg(Board.parse(SPEC_CODE), evaluate_spots(Board.parse(SPEC_CODE)))
    for bad in ("http://", "https://", "@import", "<image", "@font-face", "<script"):
        assert bad not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_port_and_spot_geometry_agree() -> None:
    """Port piers end on the two spot circles of their slot; spot circles sit on hex corners."""
    board = Board.parse(SPEC_CODE)
    root = _parse(board_svg(board))
    spot_xy = {
        int(g.get("data-spot", -1)): (float(c.get("cx", 0)), float(c.get("cy", 0)))
        for g in _all(root, "g", "spot")
        for c in _all(g, "circle", "spot-dot")
    }
    for g in _all(root, "g", "port"):
        slot = int(g.get("data-port", -1))
        ends = sorted((float(ln.get("x2", 0)), float(ln.get("y2", 0))) for ln in g.iter(NS + "line"))
        want = sorted(spot_xy[s] for s in PORT_SPOTS[slot])
        for (x1, y1), (x2, y2) in zip(ends, want, strict=True):
            assert math.hypot(x1 - x2, y1 - y2) < 0.2
    # touch targets: neighbouring spots' hit circles never overlap (spots are one circumradius apart)
    hit = {
        int(g.get("data-spot", -1)): float(c.get("r", 0))
        for g in _all(root, "g", "spot")
        for c in _all(g, "circle", "spot-hit")
    }
    for s, (x, y) in spot_xy.items():
        for t, (u, v) in spot_xy.items():
            if s < t:
                assert math.hypot(x - u, y - v) >= hit[s] + hit[t] - 0.2
    # spot 9 touches hexes 0, 3, 4: it is a vertex of each of their polygons (within rounding)
    polys = {int(g.get("data-hex", -1)): g.find(NS + "polygon") for g in _all(root, "g", "hex")}
    x9, y9 = spot_xy[9]
    for h in (0, 3, 4):
        poly = polys[h]
        assert poly is not None
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        assert min(math.hypot(px - x9, py - y9) for px, py in pts) < 56 * 0.05  # polygons are inset 3%


def test_heatmap_colours_and_labels() -> None:
    board = Board.parse(SPEC_CODE)
    table = evaluate_spots(board)
    root = _parse(board_svg(board, table, label_top=4))
    groups = {int(g.get("data-spot", -1)): g for g in _all(root, "g", "spot")}
    circles = {s: _all(g, "circle", "spot-dot")[0] for s, g in groups.items()}
    best, worst = table.ranked()[0], table.ranked()[-1]
    assert circles[best].get("fill") == "#fde725"  # top of the gradient
    assert circles[worst].get("fill") == "#313695"  # bottom
    assert float(groups[best].get("data-score", 0)) == pytest.approx(float(table.scores[best]), abs=1e-3)
    ranks = {int(t.get("data-spot", -1)): t.text for t in _all(root, "text", "spot-rank")}
    assert ranks == {s: str(k + 1) for k, s in enumerate(table.top(4))}
    assert len(_all(root, "g", "legend")) == 1


def test_heatmap_of_another_board_rejected() -> None:
    with pytest.raises(CatanError, match="different board"):
        board_svg(Board.random(1), evaluate_spots(Board.random(2)))


def test_tooltips_name_what_a_player_sees() -> None:
    """Issue 23: a hex, a spot and a harbour are named by what they hold or touch, the id after it."""
    board = Board.parse(SPEC_CODE)
    table = evaluate_spots(board)
    root = _parse(board_svg(board, table))

    def title(tag: str, cls: str, key: str, value: int) -> str:
        g = next(g for g in _all(root, tag, cls) if g.get(key) == str(value))
        t = g.find(NS + "title")
        assert t is not None and t.text is not None
        return t.text

    assert title("g", "hex", "data-hex", 0) == f"ore 10 ({PIPS[10]} pips) · hex 0"
    score = f"{table.scores[9]:.2f}"
    assert title("g", "spot", "data-spot", 9) == f"ore 10 · grain 12 · brick 6: score {score} · spot 9"
    assert title("g", "port", "data-port", 0) == "3:1 harbour (harbour 0; spots 26, 37)"
    # no id is drawn on the board itself (the web page draws them on demand)
    assert not [t.text for t in root.iter(NS + "text") if (t.text or "").startswith("hex ")]


def test_terminal_renderable() -> None:
    console = Console(width=100, record=True, color_system=None)
    console.print(board_renderable(Board.parse(SPEC_CODE)))
    text = console.export_text()
    lines = [ln for ln in text.splitlines() if "O10" in ln]
    assert lines and all(tok in lines[0] for tok in ("O10", "S2", "W9"))
    assert "2:1 sheep" in text and "(26,37)" in text
