"""``boardeval diplomacy bot-game`` and ``boardeval diplomacy tournament``: games played by bots.

:func:`register` adds both commands to the ``diplomacy`` Typer app.  The library (and the ``diplomacy``
engine) is imported inside the commands so that ``boardeval --help`` stays fast.  Bad input raises
library errors (``DiplomacyError`` subclasses); the root group prints them as one red line (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from boardeval.cli.common import PLAIN_EVERY, console, err_console, print_json, progress_bar
from boardeval.cli.options import MAX_YEAR, SEED, WORKERS, int_option

__all__ = ["register"]


def bot_game_cmd(
    bots: str = typer.Option(
        ...,
        "--bots",
        help="One bot per power in map order, e.g. 'dumb,random*6' (names: random, dumb, eval).",
    ),
    seed: int = typer.Option(..., "--seed", parser=SEED, help="Seed (int >= 0): same seed, same game."),
    out: Path = typer.Option(..., "--out", "-o", help="Output saved-game .json file (the engine's format)."),
    max_year: int | None = typer.Option(
        None,
        "--max-year",
        parser=MAX_YEAR,
        help="Play through the winter of this year (default: the first ten years).",
    ),
    map_name: str = typer.Option("standard", "--map", help="Map: standard, pure, modern or ancmed."),
    allies: str = typer.Option(
        "", "--allies", help="Allied pairs of dumb bots that never attack each other, e.g. ENGLAND:FRANCE."
    ),
) -> None:
    """Play one seeded game between bots and save it in the engine's saved-game format.

    Example: boardeval diplomacy bot-game --bots dumb,random*6 --seed 7 --max-year 1910 --out game.json
    """
    from boardeval.diplomacy import TournamentError, bot_game

    if not out.parent.exists():
        raise TournamentError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    result = bot_game(bots, seed, map_name=map_name, max_year=max_year, allies=allies)
    try:
        out.write_text(json.dumps(result.saved) + "\n", encoding="utf-8")
    except OSError as exc:
        raise TournamentError(f"cannot write {str(out)!r}: {exc}") from None
    table = Table(title=f"{result.saved['id']}: {result.last_phase}")
    for col in ("power", "bot", "centres", "survived"):
        table.add_column(col, justify="left" if col in ("power", "bot") else "right")
    for power, bot, scs, alive in zip(
        result.powers, result.labels, result.final_scs, result.survived, strict=True
    ):
        table.add_row(power, bot, str(scs), "yes" if alive else "no")
    console.print(table)
    if result.solo is not None:
        console.print(
            f"{result.solo} ({result.seats[result.powers.index(result.solo)]}) won in {result.solo_year}"
        )
    console.print(f"wrote {out} ({len(result.saved['phases'])} phases)")


def tournament_cmd(
    bots: str = typer.Option(
        ..., "--bots", help="Bots of the seats, rotated across powers game by game, e.g. 'dumb,random*6'."
    ),
    games: int = typer.Option(
        ..., "--games", parser=int_option("--games", 1, 10**7), help="Number of games (> 0)."
    ),
    seed: int = typer.Option(..., "--seed", parser=SEED, help="Seed (int >= 0): same seed, same games."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for games.jsonl and results.json."),
    workers: int = typer.Option(
        1, "--workers", parser=WORKERS, help="Local worker processes (1 = in this process)."
    ),
    dask: str | None = typer.Option(None, "--dask", help="Dask scheduler address, e.g. tcp://host:8786."),
    max_year: int | None = typer.Option(
        None,
        "--max-year",
        parser=MAX_YEAR,
        help="Play each game through the winter of this year (default: ten years).",
    ),
    map_name: str = typer.Option("standard", "--map", help="Map: standard, pure, modern or ancmed."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    allies: int = typer.Option(
        0,
        "--allies",
        parser=int_option("--allies", 0, 100),
        help="Pairs of dumb seats per game (drawn at random) that never attack each other.",
    ),
) -> None:
    """Play many seeded bot games (powers rotated across bot kinds) and summarise each bot kind.

    Ctrl-C stops early and keeps (writes and summarises) the finished games.

    Example: boardeval diplomacy tournament --bots dumb,random*6 --games 70 --seed 1 --workers 2 --out t/
    """
    from boardeval.diplomacy import TournamentError, run_tournament

    if out.exists() and not out.is_dir():
        raise TournamentError(f"--out {str(out)!r} is a file, not a folder")
    with progress_bar("bot games", plain_every=PLAIN_EVERY) as progress:
        result = run_tournament(
            bots,
            games,
            seed,
            map_name=map_name,
            max_year=max_year,
            workers=workers,
            address=dask,
            progress=progress,
            allies=allies,
        )
    folder = result.save(out)
    if as_json:
        print_json(result.to_json())
    else:
        table = Table(title=f"{len(result.games)} game(s), {result.map_name}, to {result.max_year}")
        for col in ("bot", "seats", "mean final SCs", "95% interval", "solos", "survivals"):
            table.add_column(col, justify="left" if col == "bot" else "right")
        for row in result.summary():
            interval = row.mean_final_scs
            table.add_row(
                row.name,
                str(row.seats),
                f"{interval.value:.2f}",
                f"[{interval.lo:.2f}, {interval.hi:.2f}]",
                str(row.solos),
                f"{row.survivals} ({row.survivals / row.seats:.0%})" if row.seats else "0",
            )
        console.print(table)
        console.print(f"wrote {folder / 'games.jsonl'} and {folder / 'results.json'}")
    if result.interrupted:
        kept = f"kept the {len(result.games)} finished game(s) of {result.requested}"
        err_console.print(f"[yellow]interrupted: {kept}[/yellow]")
        raise typer.Exit(130)


def register(diplomacy_app: typer.Typer) -> None:
    """Add ``bot-game`` and ``tournament`` to the ``boardeval diplomacy`` Typer app."""
    diplomacy_app.command("bot-game")(bot_game_cmd)
    diplomacy_app.command("tournament")(tournament_cmd)
