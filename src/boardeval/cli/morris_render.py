"""Rich output of the Morris commands: the board, the evaluation table, the why-panel."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from boardeval.cli.common import console
from boardeval.core import Breakdown
from boardeval.morris import Position, game_verdict, white_view

__all__ = ["print_board", "print_evaluation", "print_why"]


def print_board(pos: Position) -> None:
    """The position's ASCII diagram, with the side to move and the men in hand."""
    console.print(escape(pos.diagram()))


def print_evaluation(pos: Position, bd: Breakdown) -> None:
    """The board and the evaluation: raw features of both sides, own - opponent, weight, contribution; a
    finished game says who won, in words (its breakdown is the win score alone)."""
    print_board(pos)
    over = game_verdict(pos)
    if over is not None:
        console.print(f"[bold]{escape(over['headline'])}[/bold]")
        return
    features: dict[str, dict[str, float]] = bd.extras["features"]
    table = Table(title=f"Evaluation ({bd.extras['phase']} phase, {bd.extras['side']} to move)")
    for col in ("feature", "white", "black", "own - opp", "weight", "contribution"):
        table.add_column(col, justify="left" if col == "feature" else "right")
    for term in bd.terms:
        w = features["white"].get(term.name)
        b = features["black"].get(term.name)
        table.add_row(
            term.name,
            "" if w is None else f"{w:g}",
            "" if b is None else f"{b:g}",
            f"{term.raw:+g}",
            f"{term.weight:g}",
            f"{term.contribution:+.3f}",
        )
    console.print(table)
    console.print(
        f"score (side to move, {bd.extras['side']}): [bold]{bd.total:+.3f}[/bold]  "
        f"(White's view: {white_view(bd.total, pos.side):+.3f})"
    )


def print_why(panel: dict[str, Any]) -> None:
    """The why-panel as Rich tables (raw features only; no scales)."""
    feats = panel["features"]
    console.print(f"[bold]Why[/bold] ({panel['phase']} phase, {panel['side']} to move)")
    table = Table(title="Raw features")
    table.add_column("feature")
    table.add_column("white", justify="right")
    table.add_column("black", justify="right")
    for name in feats["white"]:
        table.add_row(name, f"{feats['white'][name]:g}", f"{feats['black'][name]:g}")
    console.print(table)
    if panel["candidates"]:
        cand = Table(title="Top candidate turns (scores from White's view)")
        cand.add_column("turn")
        cand.add_column("score", justify="right")
        cand.add_column("line")
        cand.add_column("raw changes (own / opponent)")
        for c in panel["candidates"]:
            # a decided line in words, never its win score (issue 23 section 2)
            score = escape(c["verdict"]["text"]) if c["verdict"] else f"{c['white_score']:+.2f}"
            line = " ".join(c["pv"]) + (f" ({c['outlook']})" if c["outlook"] and not c["verdict"] else "")
            if c.get("proven"):  # the opening book proves the position after it: a fact, not a line
                line += f"; {c['proven']['text']}"
            move = c["move"] + (" (book)" if c.get("book") else "")
            cand.add_row(move, score, escape(line), escape(c["summary"]))
        console.print(cand)
    # the per-candidate sentences repeat the table above; print the general ones only
    general = panel["explanation"][: len(panel["explanation"]) - len(panel["candidates"])]
    for sentence in general:
        console.print(f"- {escape(sentence)}")
