"""``boardeval catan equity CODE``: seat equity under a strong draft (issue 26).

Prints the four seats' predicted win rates if everyone opens with the advisor, their spread, the draft
(each seat's two settlements and the rule's value of each pick) and why (the terms that separate the
leading and trailing seats). On a 5-6 player board there is no play-fitted model (catanatron has no such
map): the draft and each seat's opening value are shown, and the note says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from boardeval.cli.catan import BoardArg, JsonOpt, read_board
from boardeval.cli.common import console, print_json

if TYPE_CHECKING:
    from boardeval.catan import SeatEquity


def _pct(p: float | None) -> str:
    return "n/a" if p is None else f"{100 * p:.1f} %"


def equity_table(eq: SeatEquity) -> Table:
    """One row per seat: its two settlements, the rule's values, the predicted win rate, the top terms."""
    t = Table(title="seats if everyone opens with the advisor", box=box.SIMPLE_HEAVY)
    for col in ("seat", "settlements", "opening value", "win rate", "biggest terms (logit)"):
        t.add_column(col, justify="right" if col in ("seat", "opening value", "win rate") else "left")
    probs = eq.win_probabilities
    for i, b in enumerate(eq.seats):
        a, c = eq.draft.seats[i]
        if probs is None:
            terms = "-"
        else:
            top = list(b.ranked())[:3]
            terms = ", ".join(f"{x.name} {x.contribution:+.2f}" for x in top)
        t.add_row(
            str(i + 1),
            f"{a}, {c}",
            f"{eq.opening_values[i]:.1f}",
            _pct(None if probs is None else probs[i]),
            terms,
        )
    return t


def equity_cmd(board: BoardArg, json_out: JsonOpt = False) -> None:
    """Seat equity: each seat's predicted win rate when all four open with the advisor (snake draft
    1-2-3-4-4-3-2-1), the spread, the draft and why. 5-6 player boards: the draft only."""
    from boardeval.catan import seat_equity  # loaded when the command runs, not when the group registers

    eq = seat_equity(read_board(board))
    if json_out:
        print_json(eq.to_json())
        return
    console.print(equity_table(eq))
    if eq.spread is not None:
        assert eq.win_probabilities is not None
        order = sorted(range(len(eq.win_probabilities)), key=lambda i: -eq.win_probabilities[i])  # type: ignore[index]
        console.print(
            f"spread (best minus worst seat): [bold]{100 * eq.spread:.1f} points[/bold]; "
            + ", ".join(f"seat {i + 1} {_pct(eq.win_probabilities[i])}" for i in order)
        )
    else:
        console.print(f"opening-value spread: {eq.opening_spread:.1f}")
    console.print(
        "draft order: " + " ".join(f"{s + 1}:{p}" for s, p in zip(_order(eq), eq.draft.picks, strict=True))
    )
    for line in eq.why:
        console.print(f"  {escape(line)}", soft_wrap=True)
    if eq.model:
        console.print(f"[dim]model: {escape(str(eq.model.get('fitted_on', '')))}[/dim]", soft_wrap=True)


def _order(eq: SeatEquity) -> list[int]:
    n = len(eq.draft.seats)
    return list(range(n)) + list(reversed(range(n)))


def register(app: typer.Typer) -> None:
    """Add ``equity`` to the ``catan`` group."""
    app.command("equity")(equity_cmd)
