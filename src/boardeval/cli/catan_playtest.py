"""``boardeval catan playtest`` and ``boardeval catan advise``: play-testing on catanatron, opening advice.

:func:`register` adds the commands to the ``catan`` group. Bad input raises a library error; the root
group prints one red line and exits 2. Ctrl-C during a play-test prints the finished games and exits 130.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from boardeval.catan import Board, SpotParams
from boardeval.catan.advisor import PLAYER_NAMES, Advice, advise, parse_taken
from boardeval.catan.playtest import PlaytestResult, RateStats, run_playtest
from boardeval.cli.common import console, err_console, print_json, progress_bar
from boardeval.core import CatanError

__all__ = ["register"]

BoardArg = Annotated[
    str, typer.Argument(help="Board share code (e.g. O10-S2-...~3S3W3B3GO) or a JSON board file.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]


def _board(text: str) -> Board:
    """A share code, or a JSON board file when the text is not a code and names an existing file."""
    if "~" not in text and text.lower().endswith(".json"):
        path = Path(text)
        if not path.is_file():
            raise CatanError(f"board file {text!r} does not exist")
        try:
            return Board.from_json(path.read_text(encoding="utf-8"))
        except CatanError as exc:
            raise CatanError(f"board file {text!r}: {exc}") from None
    return Board.parse(text)


def _rate_table(title: str, rows: tuple[RateStats, ...]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    for col in ("", "games", "wins", "win rate", "95% interval", "mean VP"):
        table.add_column(col, justify="left" if col == "" else "right")
    for r in rows:
        table.add_row(
            r.name,
            str(r.games),
            str(r.wins),
            f"{100 * r.rate.value:.1f}%",
            f"{100 * r.rate.lo:.1f}-{100 * r.rate.hi:.1f}%",
            f"{r.mean_vp:.2f}",
        )
    return table


def _show_playtest(result: PlaytestResult) -> None:
    console.print(f"[bold]board[/bold] {result.board}")
    console.print(_rate_table("per player (as listed)", result.players))
    console.print(_rate_table("per seat (seat 1 places first)", result.seats))
    t = result.turns
    mean = result.turns_interval
    ci = f" (95% {mean.lo:.1f}-{mean.hi:.1f})" if mean is not None else ""
    console.print(
        f"game length (turns): mean {t['mean']:.1f}{ci}, median {t['median']:.1f}, p90 {t['p90']:.1f}"
    )
    console.print(
        f"{result.games} games, {result.unfinished} unfinished (turn limit), "
        f"{result.seconds:.1f} s, {result.games_per_second:.1f} games/s"
    )


def _playtest_command(
    board: BoardArg,
    games: Annotated[
        int, typer.Option("--games", help="Number of game seeds (x seats with --rotate).")
    ] = 100,
    players: Annotated[
        str,
        typer.Option("--players", help=f"Comma-separated, in seat order; names: {', '.join(PLAYER_NAMES)}."),
    ] = "weighted,weighted,weighted,weighted",
    rotate: Annotated[bool, typer.Option("--rotate", help="Play every game in every seating.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the game seeds (same seed, same games).")] = 0,
    workers: Annotated[int, typer.Option("--workers", help="Local worker processes.")] = 1,
    dask: Annotated[
        str | None, typer.Option("--dask", help="Dask scheduler address (tcp://host:port).")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Play seeded catanatron games on a board: win rates per player and seat with 95% intervals."""
    b = _board(board)
    with progress_bar("playtest", enabled=not json_out) as progress:
        result = run_playtest(
            b,
            players.split(","),
            games=games,
            seed=seed,
            rotate=rotate,
            workers=workers,
            address=dask,
            progress=progress,
        )
    if json_out:
        print_json(result.to_json())
    else:
        _show_playtest(result)
    if result.interrupted:
        err_console.print(f"[yellow]interrupted: kept {result.games} of {result.planned} games[/yellow]")
        raise typer.Exit(130)


def _show_advice(advice: Advice) -> None:
    pick = "first" if advice.first is None else f"second (first at spot {advice.first})"
    console.print(f"seat {advice.seat + 1} to move, {pick} settlement: [bold]spot {advice.spot}[/bold]")
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("term", "raw", "weight", "contribution"):
        table.add_column(col, justify="left" if col == "term" else "right")
    for term in advice.why:
        table.add_row(term.name, f"{term.raw:.3f}", f"{term.weight:g}", f"{term.contribution + 0.0:.3f}")
    table.add_row("[bold]total[/bold]", "", "", f"[bold]{advice.score:.3f}[/bold]")
    console.print(table)
    console.print(str(advice.why.extras.get("rule", "")))
    if advice.first is not None:
        lacks = advice.why.extras.get("first_lacks") or ["nothing"]
        console.print(f"the first settlement (spot {advice.first}) lacks: {', '.join(lacks)}")
    alts = ", ".join(f"{s} ({v:.2f})" for s, v in advice.ranking[1:6])
    console.print(f"next best: {alts}")


def _advise_command(
    board: BoardArg,
    taken: Annotated[
        str, typer.Option("--taken", help="Spots settled so far, in placement order (snake 1-2-3-4-4-3-2-1).")
    ] = "",
    params: Annotated[Path | None, typer.Option("--params", help="Spot-evaluator parameter file.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The best next opening settlement for the seat to move, and why."""
    b = _board(board)
    advice = advise(b, parse_taken(taken), None if params is None else SpotParams.load(params))
    if json_out:
        print_json(advice.to_json())
    else:
        _show_advice(advice)


def register(catan_app: typer.Typer) -> None:
    """Add ``playtest`` and ``advise`` to the ``catan`` command group."""
    catan_app.command("playtest")(_playtest_command)
    catan_app.command("advise")(_advise_command)
