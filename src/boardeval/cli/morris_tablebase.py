"""``boardeval morris tablebase build|stats|probe``: the endgame tablebase of the moving/flying phases.

Wiring: ``register(morris_app)`` adds the ``tablebase`` group to ``boardeval morris``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from boardeval.cli.common import PLAIN_EVERY, console, print_json, progress_bar
from boardeval.cli.options import WORKERS, int_option

if TYPE_CHECKING:
    from boardeval.morris import Tablebase

# The tablebase loads numpy and its index tables: imported inside the commands, so that registering this
# group does not slow every other `boardeval morris ...` command.

__all__ = ["register"]

_DIR_HELP = "Tablebase folder (default: the user cache dir, e.g. ~/.cache/boardeval/tablebase/standard)."


def _dir(directory: Path | None) -> Path:
    from boardeval.morris import default_tablebase_dir

    return directory if directory is not None else default_tablebase_dir()


def build_command(
    max_men: int = typer.Option(
        4,
        "--max-men",
        "-k",
        # 9 = MAX_MEN of boardeval.morris.tablebase, written out so that registering the command does not
        # import numpy (tests/morris/tablebase/test_tablebase.py holds the two equal)
        parser=int_option("--max-men", 3, 9),
        help="Largest men count per side (3..9; 6 takes ~5 CPU minutes and ~4 GB, 7 ~45 minutes more, "
        "~7 GB while building and 3.6 GB of files; 8 ~70 minutes more, ~13 GB, 9.8 GB of files in all; "
        "9, every moving position, ~95 minutes more, ~16 GB, ~19 GB of files in all).",
    ),
    directory: Path | None = typer.Option(None, "--dir", help=_DIR_HELP),
    workers: int = typer.Option(
        1, "--workers", parser=WORKERS, help="Processes for sub-databases of equal men count."
    ),
    force: bool = typer.Option(False, "--force", help="Rebuild sub-databases that are already built."),
) -> None:
    """Build every sub-database with 3..K men per side by retrograde analysis (Ctrl-C keeps finished ones)."""
    from boardeval.morris import build_tablebase

    path = _dir(directory)
    with progress_bar(f"tablebase K={max_men}", plain_every=PLAIN_EVERY) as progress:
        result = build_tablebase(max_men, path, progress=progress, workers=workers, force=force)
    built = ", ".join(result.built) or "nothing new"
    console.print(f"built {built} in {result.seconds:.1f} s into {escape(str(result.directory))}")
    if result.adopted:
        adopted = ", ".join(result.adopted)
        console.print(f"recorded from a stopped build (finished, checksums match): {adopted}")
    if result.skipped:
        console.print(f"already built: {', '.join(result.skipped)}")
    if result.interrupted:
        console.print("[yellow]interrupted: the finished sub-databases above are usable[/yellow]")
        raise typer.Exit(130)
    if result.built or result.adopted:
        _pack(path)


def _pack(path: Path) -> None:
    """Pack the folder for the compiled search now, so that the first search (a web request, a game's first
    move) does not pay it: 36 s of mostly disk writes for K <= 7, 6 s for K <= 6 (issue 25)."""
    import time

    from boardeval.morris import Tablebase

    t0 = time.perf_counter()
    try:
        Tablebase.open(path).packed()
    except KeyboardInterrupt:
        console.print("[yellow]packing interrupted: the first search will pack the tables[/yellow]")
        raise typer.Exit(130) from None
    console.print(f"packed for the search in {time.perf_counter() - t0:.1f} s")


def stats_command(
    directory: Path | None = typer.Option(None, "--dir", help=_DIR_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Per sub-database (side to move's men v the other's): positions, wins, losses, draws, longest win."""
    from boardeval.morris import Tablebase

    tb = Tablebase.open(_dir(directory))
    stats = tb.stats()
    if json_out:
        print_json(
            {"directory": str(tb.directory), "variant": tb.manifest.get("variant"), "subdatabases": stats}
        )
        return
    title = f"tablebase {escape(str(tb.directory))} ({tb.manifest.get('variant')})"
    rows = [
        {
            "sub-db": f"{s['mover_men']}v{s['opponent_men']}",
            "positions": f"{s['positions']:,}",
            "wins": f"{s['wins']:,}",
            "losses": f"{s['losses']:,}",
            "draws": f"{s['draws']:,}",
            "classes": f"{s['symmetry_classes']:,}",
            "longest win": str(s["longest_win"]),
            "size": f"{s['bytes'] / 1e6:.1f} MB",
            "build s": f"{s['build_seconds']:.1f}",
        }
        for s in stats
    ]
    columns = ("sub-db", "positions", "wins", "losses", "draws", "classes", "longest win", "size", "build s")
    table = _stats_table(title, columns, rows)
    if Measurement.get(console, console.options.update_width(10_000), table).maximum <= console.width:
        console.print(table)
    else:  # a narrow terminal or a pipe (80 columns): two tables, so no number is cut short to "1,784…"
        console.print(_stats_table(title, columns[:5], rows))
        console.print(_stats_table(None, (columns[0], *columns[5:]), rows))
    console.print("sub-db 4v3 = the side to move has 4 men, the other 3; values are for the side to move")


def _stats_table(title: str | None, columns: tuple[str, ...], rows: list[dict[str, str]]) -> Table:
    table = Table(title=title)
    for col in columns:
        table.add_column(col, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*(row[col] for col in columns))
    return table


def probe_command(
    position: str = typer.Argument(
        ..., help="Position text with no men in hand, e.g. 'WWW.....BBB...... w 0 0'."
    ),
    directory: Path | None = typer.Option(None, "--dir", help=_DIR_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Value and distance of a position, and every legal turn's value (best first: the line to the end)."""
    from boardeval.morris import Position, Tablebase

    tb = Tablebase.open(_dir(directory))
    result = tb.probe(Position.parse(position))
    if json_out:
        print_json(result.to_dict())
        return
    console.print(f"{escape(result.position)}: [bold]{escape(result.summary())}[/bold]")
    table = Table()
    for col in ("turn", "value", "turns to end"):
        table.add_column(col)
    for t in result.turns:
        table.add_row(str(t.turn), t.value, "-" if t.distance is None else str(t.distance))
    console.print(table)
    line = _line(tb, result.position)
    if line:
        console.print("best line: " + " ".join(line))


def _line(tb: Tablebase, text: str, limit: int = 60) -> list[str]:
    """The best line to the end (both sides playing the tablebase's first turn), up to ``limit`` turns."""
    from boardeval.morris import Position

    pos = Position.parse(text)
    out: list[str] = []
    while len(out) < limit:
        if not tb.covers(pos):
            break
        res = tb.probe(pos)
        if res.value == "draw" or res.best is None:
            break
        out.append(str(res.best.turn))
        pos.push(res.best.turn)
    return out


def register(morris_app: typer.Typer) -> None:
    """Add ``tablebase build|stats|probe`` to the ``boardeval morris`` group."""
    tablebase_app: Any = typer.Typer(no_args_is_help=True, help="Endgame tablebase (moving/flying phases).")
    tablebase_app.command("build")(build_command)
    tablebase_app.command("stats")(stats_command)
    tablebase_app.command("probe")(probe_command)
    morris_app.add_typer(tablebase_app, name="tablebase", help="Endgame tablebase (moving/flying phases).")
