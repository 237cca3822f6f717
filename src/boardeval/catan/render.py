"""Self-contained SVG drawing of a board, optionally with a spot-score heatmap.

Both layouts (the base board and the 5-6 player board: the topology comes from ``board.topology``).
Pointy-top hexes in terrain colours, number tokens with pip dots (6 and 8 in red), the 9 ports on their
slots (coloured by resource, labelled ``3:1`` / ``2:1``, with lines to the two spots they serve), and a
dot on every spot. Hooks for the web app: each hex is a ``<g class="hex" data-hex="N">``, each harbour a
``<g class="port" data-port="K">`` and each spot a ``<g class="spot" data-spot="N">`` holding its visible
``circle.spot-dot`` and a transparent ``circle.spot-hit`` of radius :data:`SPOT_HIT_RADIUS` hexes, the
touch target (24 CSS px on a 390 px phone; issue 23; a harbour has its ``circle.port-hit``). Each has a
``<title>`` naming it the way a player reads it (``"sheep 6 · ore 5 · wood 8"``) with its id. No ids are
drawn: the web page draws them on demand. Numbers are printed with :data:`DISPLAY_DIGITS`, the
precision the web page uses for the same quantities. No external fonts, CSS or images.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from html import escape

import numpy as np

from boardeval.catan.board import (
    DESERT,
    PIPS,
    RESOURCE_NAMES,
    Board,
)
from boardeval.catan.spots import SpotTable
from boardeval.catan.topology import Topology
from boardeval.core import CatanError

__all__ = ["DISPLAY_DIGITS", "PORT_COLOURS", "SPOT_HIT_RADIUS", "TERRAIN_COLOURS", "board_svg"]

DISPLAY_DIGITS: dict[str, int] = {
    "energy": 2,
    "pip_variance": 3,
    "region_pips": 2,
    "spot_score": 2,
    "metric": 2,
    "pips": 0,
}
"""Decimals per quantity wherever a number is shown (the SVG here, the web page through
``/catan``'s ``CATAN_DIGITS``): one precision per quantity, so a header and a table never disagree.
``energy``: the energy and its terms' contributions (2: a proven optimum of 0.02 must not read 0.0);
``pip_variance``: its raw value; ``spot_score``: a spot's score and its metrics' contributions;
``metric``: a spot metric's raw value; ``region_pips``: mean pips per hex of a region."""

SPOT_HIT_RADIUS = 0.48
"""Radius of a spot's touch target in hex circumradii: neighbouring spots are one circumradius apart, so
the targets never overlap; 0.96 x 56 px = 53.8 SVG px, 25 CSS px when the base board is 340 px wide."""

TERRAIN_COLOURS: dict[str, str] = {
    "W": "#3a7d44",  # forest
    "B": "#c2603a",  # hills (brick)
    "S": "#a6d16f",  # pasture
    "G": "#f1c845",  # fields
    "O": "#8f98a8",  # mountains
    "D": "#e8d5a6",  # desert
}
PORT_COLOURS: dict[str, str] = {**{k: v for k, v in TERRAIN_COLOURS.items() if k != "D"}, "3": "#ffffff"}
_SEA = "#4a90c2"
_SEA_DEEP = "#3b7bab"
_TOKEN = "#fbf3dc"
_RED = "#c62828"
_INK = "#222222"

# A perceptually ordered gradient (low -> high) for the heatmap: dark blue, teal, green, yellow.
_HEAT_STOPS: tuple[tuple[float, tuple[int, int, int]], ...] = (
    (0.0, (49, 54, 149)),
    (0.35, (38, 150, 160)),
    (0.65, (120, 198, 80)),
    (1.0, (253, 231, 37)),
)


def _heat(t: float) -> str:
    t = min(1.0, max(0.0, t))
    for (a, ca), (b, cb) in itertools.pairwise(_HEAT_STOPS):
        if t <= b:
            u = (t - a) / (b - a)
            rgb = tuple(round(x + (y - x) * u) for x, y in zip(ca, cb, strict=True))
            return "#{:02x}{:02x}{:02x}".format(*rgb)
    return "#{:02x}{:02x}{:02x}".format(*_HEAT_STOPS[-1][1])


def _cube_xy(cube: tuple[int, int, int]) -> tuple[float, float]:
    """Pixel centre of any hex (land or water) for circumradius 1, same frame as ``HEX_CENTRES``."""
    x, _, z = cube
    return (math.sqrt(3.0) * (x + z / 2.0), 1.5 * z)


def _f(v: float) -> str:
    return f"{v:.1f}"


@dataclass(frozen=True)
class _Frame:
    """Pixel frame of one drawing: hex circumradius ``r`` and the offset that puts the board in view."""

    r: float
    ox: float
    oy: float
    topo: Topology

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position of a point given for circumradius 1 (``hex_centres`` / ``spot_xy`` units)."""
        return (x * self.r + self.ox, y * self.r + self.oy)

    def spot(self, s: int) -> tuple[float, float]:
        xy = self.topo.spot_xy
        return self.px(float(xy[s, 0]), float(xy[s, 1]))

    def hex(self, h: int) -> tuple[float, float]:
        xy = self.topo.hex_centres
        return self.px(float(xy[h, 0]), float(xy[h, 1]))


def board_svg(
    board: Board,
    heatmap: SpotTable | None = None,
    label_top: int = 5,
    *,
    size: float = 56.0,
    title: str | None = None,
    spot_titles: bool = True,
) -> str:
    """The board as an SVG document (a string).

    ``heatmap``: colour every spot by its score (the board's :func:`evaluate_spots` table) and label the
    ``label_top`` best spots with their rank. ``size``: hex circumradius in px. ``spot_titles=False``
    leaves out the spots' ``<title>`` tooltips and ``data-score`` attributes (a page that names and scores
    spots itself saves their bytes).
    """
    if heatmap is not None and heatmap.board != board:
        raise CatanError("the heatmap was computed for a different board")
    r = size
    margin = 2.2 * r
    topo = board.topology
    xs = topo.hex_centres[:, 0] * r
    ys = topo.hex_centres[:, 1] * r
    min_x, max_x = float(xs.min()) - margin, float(xs.max()) + margin
    min_y, max_y = float(ys.min()) - margin, float(ys.max()) + margin
    legend_h = 46.0 if heatmap is not None else 0.0
    width, height = max_x - min_x, max_y - min_y + legend_h
    frame = _Frame(r, -min_x, -min_y, topo)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" '
        f'class="catan-board" data-layout="{board.layout}" data-code="{escape(board.code())}">',
        f"<title>{escape(title or 'Catan board ' + board.code())}</title>",
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" rx="{_f(r * 0.3)}" fill="{_SEA}"/>',
        _coast_svg(board, frame),
        *_ports_svg(board, frame),
        *_hexes_svg(board, frame),
        *_spots_svg(board, heatmap, label_top, frame, spot_titles),
    ]
    if heatmap is not None:
        lo, hi = _score_range(heatmap)
        out.append(_legend(lo, hi, width, max_y - min_y, r))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _coast_svg(board: Board, frame: _Frame) -> str:
    """A sandy coastline: the land hexes drawn slightly enlarged underneath."""
    r = frame.r
    coast = [
        f'<polygon points="{_hex_points(*frame.hex(h), r * 1.12)}"/>' for h in range(len(board.resources))
    ]
    return f'<g fill="#d9c38f" stroke="#d9c38f" stroke-width="{_f(r * 0.12)}">{"".join(coast)}</g>'


def _ports_svg(board: Board, frame: _Frame) -> list[str]:
    """Each port: a pier from each of its two spots to a marker on its water hex."""
    r = frame.r
    out = ['<g class="ports">']
    for slot, (cube, _direction) in enumerate(frame.topo.port_frame):
        kind = board.ports[slot]
        a, b = frame.topo.port_spots[slot]
        (ax, ay), (bx, by) = frame.spot(a), frame.spot(b)
        # marker between the water hex centre and the coast edge
        mx0, my0 = frame.px(*_cube_xy(cube))
        ex, ey = (ax + bx) / 2, (ay + by) / 2
        mx, my = mx0 + (ex - mx0) * 0.25, my0 + (ey - my0) * 0.25
        label = "3:1" if kind == "3" else "2:1"
        name = "any" if kind == "3" else RESOURCE_NAMES[kind]
        tip = f"{board.port_name(slot)} (harbour {slot}; spots {a}, {b})"
        out.append(f'<g class="port" data-port="{slot}"><title>{escape(tip)}</title>')
        for sx, sy in ((ax, ay), (bx, by)):
            out.append(
                f'<line x1="{_f(mx)}" y1="{_f(my)}" x2="{_f(sx)}" y2="{_f(sy)}" stroke="#6b4f2a" '
                f'stroke-width="{_f(r * 0.09)}" stroke-linecap="round"/>'
            )
        pr = r * 0.36
        out.append(
            f'<circle class="port-hit" cx="{_f(mx)}" cy="{_f(my)}" r="{_f(r * SPOT_HIT_RADIUS)}" fill="none" '
            'pointer-events="all"/>'
            f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="{_f(pr)}" fill="{PORT_COLOURS[kind]}" '
            f'stroke="{_INK}" stroke-width="1.5"/>'
        )
        text_fill = "#ffffff" if kind in ("W", "B") else _INK
        out.append(
            f'<text x="{_f(mx)}" y="{_f(my - pr * 0.08)}" text-anchor="middle" font-size="{_f(r * 0.24)}" '
            f'font-weight="bold" fill="{text_fill}">{label}</text>'
        )
        out.append(
            f'<text x="{_f(mx)}" y="{_f(my + pr * 0.55)}" text-anchor="middle" font-size="{_f(r * 0.16)}" '
            f'fill="{text_fill}">{escape(name)}</text></g>'
        )
    out.append("</g>")
    return out


def _hexes_svg(board: Board, frame: _Frame) -> list[str]:
    """The hexes: terrain, resource name, and the number token with its pips (or the desert's id)."""
    out = ['<g class="hexes">']
    for h, (res, num) in enumerate(zip(board.resources, board.numbers, strict=True)):
        out.extend(_hex_svg(h, res, num, frame))
    out.append("</g>")
    return out


def _hex_svg(h: int, res: str, num: int | None, frame: _Frame) -> list[str]:
    r = frame.r
    cx, cy = frame.hex(h)
    tip = (RESOURCE_NAMES[res] + ("" if num is None else f" {num} ({PIPS[num]} pips)")) + f" · hex {h}"
    label_fill = "#ffffff" if res in ("W", "B", "O") else "#4a3b1c"
    out = [
        f'<g class="hex" data-hex="{h}"><title>{escape(tip)}</title>',
        f'<polygon points="{_hex_points(cx, cy, r * 0.97)}" fill="{TERRAIN_COLOURS[res]}" '
        f'stroke="#5b4a2f" stroke-width="{_f(r * 0.05)}" stroke-linejoin="round"/>',
        f'<text x="{_f(cx)}" y="{_f(cy - r * 0.52)}" text-anchor="middle" font-size="{_f(r * 0.2)}" '
        f'fill="{label_fill}" opacity="0.9">{RESOURCE_NAMES[res]}</text>',
    ]
    if num is not None:
        out.extend(_token_svg(num, cx, cy, r))
    out.append("</g>")
    return out


def _token_svg(num: int, cx: float, cy: float, r: float) -> list[str]:
    """A number token: disc, number (6 and 8 in red) and a row of pips."""
    colour = _RED if num in (6, 8) else _INK
    out = [
        f'<circle class="token" cx="{_f(cx)}" cy="{_f(cy + r * 0.05)}" r="{_f(r * 0.34)}" fill="{_TOKEN}" '
        f'stroke="#9c8a5c" stroke-width="1.2"/>',
        f'<text class="number" x="{_f(cx)}" y="{_f(cy + r * 0.11)}" text-anchor="middle" '
        f'font-size="{_f(r * (0.3 if num < 10 else 0.27))}" font-weight="bold" fill="{colour}">'
        f"{num}</text>",
    ]
    pips = PIPS[num]
    gap = r * 0.075
    for k in range(pips):
        dx = (k - (pips - 1) / 2) * gap
        out.append(
            f'<circle class="pip" cx="{_f(cx + dx)}" cy="{_f(cy + r * 0.24)}" r="{_f(r * 0.026)}" '
            f'fill="{colour}"/>'
        )
    return out


def _score_range(heatmap: SpotTable) -> tuple[float, float]:
    return float(np.min(heatmap.scores)), float(np.max(heatmap.scores))


def _spots_svg(
    board: Board, heatmap: SpotTable | None, label_top: int, frame: _Frame, titles: bool = True
) -> list[str]:
    """The spots (54, or 80 on the 5-6 player board): plain dots (port spots in white), or coloured by
    score with the best ranked; each in a ``g.spot`` with its touch target ``circle.spot-hit``."""
    r = frame.r
    digits = DISPLAY_DIGITS["spot_score"]
    hit = f'r="{_f(r * SPOT_HIT_RADIUS)}" fill="none" pointer-events="all"'
    out = ['<g class="spots">']
    ranks: dict[int, int] = {}
    lo = hi = 0.0
    if heatmap is not None:
        lo, hi = _score_range(heatmap)
        ranks = {s: k + 1 for k, s in enumerate(heatmap.top(label_top))}
    port_spots = {s for pair in frame.topo.port_spots for s in pair}
    for s in range(frame.topo.n_spots):
        x, y = frame.spot(s)
        at = f'cx="{_f(x)}" cy="{_f(y)}"'
        name = board.spot_name(s) if titles else ""
        if heatmap is not None:
            score = float(heatmap.scores[s])
            t = (score - lo) / (hi - lo) if hi > lo else 0.5
            rad = r * (0.13 + 0.07 * t)
            tip = f"{name}: score {score:.{digits}f} · spot {s}"
            stroke, sw = ("#ffffff", 2.2) if s in ranks else (_INK, 1.0)
            head = f'<g class="spot" data-spot="{s}"' + (f' data-score="{score:.4f}">' if titles else ">")
            dot = f'r="{_f(rad)}" fill="{_heat(t)}" stroke="{stroke}" stroke-width="{sw}"'
        else:
            tip = f"{name} · spot {s}"
            fill = "#ffffff" if s in port_spots else "#f5f0e0"
            stroke = "#6b4f2a" if s in port_spots else "#7a6a48"
            head = f'<g class="spot" data-spot="{s}">'
            dot = f'r="{_f(r * 0.085)}" fill="{fill}" fill-opacity="0.85" stroke="{stroke}" stroke-width="1"'
        title = f"<title>{escape(tip)}</title>" if titles else ""
        out.append(
            f'{head}{title}<circle class="spot-hit" {at} {hit}/><circle class="spot-dot" {at} {dot}/></g>'
        )
    for s, k in ranks.items():
        x, y = frame.spot(s)
        out.append(
            f'<text class="spot-rank" data-spot="{s}" x="{_f(x)}" y="{_f(y + r * 0.07)}" '
            f'text-anchor="middle" font-size="{_f(r * 0.2)}" font-weight="bold" fill="{_INK}" '
            f'pointer-events="none">{k}</text>'
        )
    out.append("</g>")
    return out


def _hex_points(cx: float, cy: float, radius: float) -> str:
    pts = []
    for k in range(6):
        a = math.radians(60 * k - 90)
        pts.append(f"{cx + radius * math.cos(a):.1f},{cy + radius * math.sin(a):.1f}")
    return " ".join(pts)


def _legend(lo: float, hi: float, width: float, top: float, r: float) -> str:
    bar_w = min(width * 0.6, 360.0)
    x0 = (width - bar_w) / 2
    y0 = top + 4
    stops = "".join(
        f'<stop offset="{int(t * 100)}%" stop-color="{_heat(t)}"/>' for t in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    fs = _f(r * 0.2)
    d = DISPLAY_DIGITS["spot_score"]
    return (
        '<g class="legend">'
        f'<defs><linearGradient id="heat" x1="0" x2="1" y1="0" y2="0">{stops}</linearGradient></defs>'
        f'<text x="{_f(width / 2)}" y="{_f(y0 + 2)}" text-anchor="middle" font-size="{fs}" fill="#ffffff">'
        "spot score (numbers: best spots)</text>"
        f'<rect x="{_f(x0)}" y="{_f(y0 + 8)}" width="{_f(bar_w)}" height="12" rx="3" fill="url(#heat)" '
        'stroke="#ffffff" stroke-width="1"/>'
        f'<text x="{_f(x0 - 6)}" y="{_f(y0 + 19)}" text-anchor="end" font-size="{fs}" fill="#ffffff">'
        f"{lo:.{d}f}</text>"
        f'<text x="{_f(x0 + bar_w + 6)}" y="{_f(y0 + 19)}" font-size="{fs}" fill="#ffffff">{hi:.{d}f}</text>'
        "</g>"
    )


assert DESERT in TERRAIN_COLOURS
