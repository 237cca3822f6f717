"""Catan page and API: boards as SVG with the spot heatmap, spot and energy breakdowns, edits, generators.

The server keeps no board: a board travels as its share code (``/catan?board=CODE``), and every answer is
recomputed from it; the code carries the layout (19 hexes: the base board, 30: the 5-6 player board), and
``layout`` picks it where a board is drawn (``/api/catan/random``, the generator). Generation runs as a
background job (``POST /api/jobs/catan/generate``) because the
CP-SAT optimum and long annealing runs can take seconds; fast methods finish in milliseconds all the same.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from boardeval import __version__
from boardeval.catan import (
    DEFAULT_TOURNAMENT_RULES,
    DISPLAY_DIGITS,
    METHODS,
    PORTS_MODES,
    RESOURCE_NAMES,
    RULES,
    Board,
    SpotTable,
    board_energy,
    board_svg,
    equity_summary,
    evaluate_spots,
    parse_rule,
)
from boardeval.core import BoardevalError
from boardeval.web.common import StrictModel, api_router, templates, text_bool, text_int
from boardeval.web.glossary import page_glossary

__all__ = ["RULE_PRESETS", "board_view", "describe_swap", "router"]

router = api_router(tags=["catan"])

MAX_SEED = 2**32 - 1
CodeQuery = Query(..., min_length=1, max_length=200, description="board share code")
Layout = Literal["base", "extended"]


RULE_PRESETS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "none": ("no rules", "any board: the method alone decides", ()),
    "tournament": (
        "tournament style",
        "no 6-8-5 spot (at most 12 pips), no cluster of 3 hexes of one resource: the tournament defaults",
        DEFAULT_TOURNAMENT_RULES,
    ),
    "no-hot-spots": (
        "no hot spots",
        "no 6/8 side by side, no spot over 12 pips, the 2 and 12 apart",
        ("no-68-neighbours", "max-spot-pips=12", "2-12-apart"),
    ),
    "blog": (
        "fully balanced (the CP blog)",
        "the constraint-programming blog's rules: no same resource side by side, wood and brick apart, "
        "6/8 apart and on four resources",
        ("no-same-resource-neighbours", "wood-brick-apart", "no-68-neighbours", "68-different-resources"),
    ),
    "harbours": (
        "fair harbours",
        "no 2:1 harbour on its own resource, each reached by 3 pips of it within two roads",
        ("no-port-own-resource", "port-min-pips=3"),
    ),
}
"""Rule sets a player can pick without typing rule names: key -> (label, what it does, rules). The page's
preset menu fills the Rules box with them (still editable); a test parses every rule."""
for _label, _what, _rules in RULE_PRESETS.values():
    for _rule in _rules:
        parse_rule(_rule)  # a preset with a mistyped rule fails at import, not on a player's click


class SpotView(BaseModel):
    spot: int
    name: str = Field(description='what the spot touches: "sheep 6 · ore 5 · wood 8 · 3:1 harbour"')
    score: float
    rank: int = Field(description="1 = best spot on the board")
    breakdown: dict[str, Any] = Field(description="the five metrics, weights and contributions")


class BoardView(BaseModel):
    """A board with everything the page shows: SVG with heatmap, energy and every spot's breakdown."""

    code: str
    layout: str = Field(description="base (19 hexes) or extended (the 5-6 player board, 30 hexes)")
    share_url: str
    svg: str
    energy: dict[str, Any] = Field(description="energy breakdown (lower is fairer)")
    spots: list[SpotView]
    resources: dict[str, Any] = Field(
        description="per resource: totals (pips on the board) and strength (the evaluator's scarcity "
        "weighting), the same for every spot (so not repeated in the spots' breakdowns)"
    )
    board: dict[str, Any] = Field(description="the board as named JSON (hexes, ports)")
    seat_equity: dict[str, Any] = Field(
        description="seats if everyone opens well (issue 26): win_probabilities per seat (null on a 5-6 "
        "player board), spread, seats (each seat's two draft spots), opening_values, note; the why and "
        "the breakdowns: POST /api/catan/equity"
    )


class SwapIn(StrictModel):
    """Swap two hexes (resource and number move together), two resources, two numbers, or two ports
    (the board's swap vocabulary; ``Board`` checks the indices)."""

    board: str = Field(..., min_length=1, max_length=200)
    kind: Literal["hexes", "resources", "numbers", "ports"] = "hexes"
    a: int = Field(..., ge=0, le=29, description="hex 0..18 (0..29 extended) or port slot 0..8 (0..10)")
    b: int = Field(..., ge=0, le=29)


class ParseIn(StrictModel):
    """A pasted board: a share code or the board JSON."""

    text: str = Field(..., min_length=1, max_length=100_000)


SIGNIFICANT_DIGITS = 10
"""Floats in a board view carry 10 significant digits: far beyond what any page shows (3 decimals at
most), and a fifth of the view's bytes less than the 17 digits of a full double."""


def _sig(obj: Any) -> Any:
    """``obj`` with every float rounded to :data:`SIGNIFICANT_DIGITS` significant digits."""
    if isinstance(obj, float):
        return float(f"{obj:.{SIGNIFICANT_DIGITS}g}")
    if isinstance(obj, dict):
        return {k: _sig(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_sig(v) for v in obj]
    return obj


def _spot_breakdown(table: SpotTable, s: int) -> dict[str, Any]:
    """A spot's breakdown without what would repeat in every answer: the board-wide extras (``totals``,
    ``strength``: the view's ``resources``) and the spot's id (``label``, ``extras.spot``: its ``spot``)."""
    bd = table.breakdown(s).to_dict()
    del bd["label"]  # "spot N": the view's spot
    bd["extras"] = {k: v for k, v in bd["extras"].items() if k not in ("spot", "totals", "strength")}
    return dict(_sig(bd))


def board_view(board: Board) -> BoardView:
    """Evaluate a board: spots (one vectorised call), energy, the seats' predicted win rates under the
    advisor draft (a few ms; the page shows them beside the energy), and the SVG with the heatmap (spots
    named by the page itself: no per-spot tooltips in the SVG); floats to :data:`SIGNIFICANT_DIGITS`."""
    table = evaluate_spots(board)
    scores = table.scores.tolist()
    rank = {s: r + 1 for r, s in enumerate(table.ranked())}
    code = board.code()
    extras = table.breakdown(0).extras
    return BoardView(
        code=code,
        layout=board.layout,
        share_url="/catan?board=" + quote(code, safe=""),
        svg=board_svg(board, heatmap=table, spot_titles=False),
        energy=_sig(board_energy(board).to_dict()),
        spots=[
            SpotView(
                spot=s,
                name=board.spot_name(s),
                score=_sig(scores[s]),
                rank=rank[s],
                breakdown=_spot_breakdown(table, s),
            )
            for s in range(len(scores))
        ],
        resources=_sig({"totals": extras["totals"], "strength": extras["strength"]}),
        board=board.to_json(),
        seat_equity=_sig(equity_summary(board)),
    )


def describe_swap(board: Board, kind: str, a: int, b: int) -> str:
    """A swap in the board's own language, read on ``board`` (the board after it): ``"wood 8 ↔ brick 5"``
    (whole tiles), ``"8 ↔ 5 (numbers, on wood and brick)"``, ``"wood ↔ brick (resources, under the 8 and
    the 5)"``, ``"harbours 1 ↔ 8"`` (harbour slots: the page numbers them on the board)."""
    res, num = board.resources, board.numbers
    if kind == "ports":
        return f"harbours {a} ↔ {b}"
    if kind == "numbers":
        return f"{num[a]} ↔ {num[b]} (numbers, on {RESOURCE_NAMES[res[a]]} and {RESOURCE_NAMES[res[b]]})"
    if kind == "resources":
        under = " and ".join("the desert" if num[h] is None else f"the {num[h]}" for h in (a, b))
        return f"{RESOURCE_NAMES[res[a]]} ↔ {RESOURCE_NAMES[res[b]]} (resources, under {under})"
    return f"{board.hex_name(a)} ↔ {board.hex_name(b)}"


def rule_hints() -> list[dict[str, str]]:
    """The generator's rule families, as the form shows them: ``max-spot-pips=N`` and a summary."""
    return [
        {"rule": name + (f"={fam.param_help}" if fam.param_help else ""), "summary": fam.summary}
        for name, fam in RULES.items()
    ]


@router.get("/catan", response_class=HTMLResponse, include_in_schema=False)
def catan_page(request: Request, board: str | None = Query(None, max_length=200)) -> Response:
    error = None
    initial: BoardView | None = None
    if board:
        try:
            initial = board_view(Board.parse(board))
        except BoardevalError as exc:
            error = str(exc)
    status = 422 if error else 200
    return templates.TemplateResponse(
        request,
        "catan.html",
        {
            "page": "catan",
            "version": __version__,
            "initial": initial.model_dump() if initial else None,
            "error": error,
            "methods": METHODS,
            "rules": rule_hints(),
            "presets": RULE_PRESETS,
            "ports_modes": PORTS_MODES,
            "tournament_rules": DEFAULT_TOURNAMENT_RULES,
            "digits": DISPLAY_DIGITS,
            "glossary": page_glossary("catan"),
        },
        status_code=status,
    )


@router.get("/api/catan/board", response_model=BoardView, summary="Evaluate a board from its share code")
def api_board(board: str = CodeQuery) -> BoardView:
    return board_view(Board.parse(board))


@router.get("/api/catan/random", response_model=BoardView, summary="A uniformly random board")
def api_random(
    seed: Annotated[int, Query(ge=0, le=MAX_SEED), text_int("seed", 0, MAX_SEED)] = 0,
    layout: Layout = Query("base", description="base, or extended: the 5-6 player board"),
) -> BoardView:
    """Same seed (and layout), same board."""
    return board_view(Board.random(seed, layout=layout))


@router.post(
    "/api/catan/parse", response_model=BoardView, summary="Evaluate a pasted share code or board JSON"
)
def api_parse(body: ParseIn) -> BoardView:
    return board_view(Board.from_text(body.text))


@router.post(
    "/api/catan/swap", response_model=BoardView, summary="Swap two hexes, resources, numbers or ports"
)
def api_swap(body: SwapIn) -> BoardView:
    """Hexes: resource and number move together. Resources: only the resources move (with the desert,
    the whole tiles). Numbers: only the tokens move (never onto the desert). Ports: two of the 9 port
    slots (0..8; 11 slots, 0..10, on the 5-6 player board) exchange their kinds."""
    board = Board.parse(body.board)
    if body.a == body.b:
        raise BoardevalError(f"pick two different {body.kind} to swap (both are {body.a})")
    return board_view(board.with_swapped(body.kind, body.a, body.b))


@router.get("/api/catan/board.svg", summary="Download the board as SVG")
def api_svg(
    board: str = CodeQuery, heatmap: Annotated[bool, Query(), text_bool("heatmap")] = True
) -> Response:
    b = Board.parse(board)
    svg = board_svg(b, heatmap=evaluate_spots(b) if heatmap else None)
    return Response(
        svg,
        media_type="image/svg+xml",
        headers={"Content-Disposition": 'attachment; filename="catan-board.svg"'},
    )


@router.get("/api/catan/board.json", summary="Download the board, its spots and energy as JSON")
def api_json(board: str = CodeQuery) -> Response:
    b = Board.parse(board)
    data = {
        "code": b.code(),
        "board": b.to_json(),
        "energy": board_energy(b).to_dict(),
        "spots": evaluate_spots(b).to_json()["spots"],
    }
    return Response(
        json.dumps(data, indent=2),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="catan-board.json"'},
    )
