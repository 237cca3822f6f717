"""``boardeval diplomacy ...``: position measures, fear tables, charts, random games.

The library (and numpy/pandas/matplotlib, even Rich's tables) is imported inside the commands, so that
``boardeval diplomacy --help`` starts at once.  Bad input raises library errors; the root group prints
them as one red line (exit code 2).  Measures are shown in the units of the library's measure catalogue
(``MEASURE_INFO``), as on the web page and the charts.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from boardeval.cli.common import console, err_console, note_interrupted, print_json, progress_bar
from boardeval.cli.options import GAME_INDEX, SEED, int_option
from boardeval.core import ParamsError

if TYPE_CHECKING:
    from boardeval.diplomacy import GameRecord

app = typer.Typer(no_args_is_help=True)


def pick_game(path: Path, game_index: int | None) -> GameRecord:
    """Load GAME and choose one game from it (JSONL files may hold many)."""
    from boardeval.diplomacy import load_records

    games = load_records(path)
    if game_index is None:
        if len(games) > 1:
            raise ParamsError(
                f"{path} holds {len(games)} games: choose one with --game-index 0..{len(games) - 1}"
            )
        return games[0]
    if not 0 <= game_index < len(games):
        raise ParamsError(f"--game-index {game_index} is out of range: {path} holds {len(games)} game(s)")
    return games[game_index]


def phase_option(phase: str | None) -> str | None:
    """A ``--phase`` value as typed: None (the option left out: the last phase) or a phase name.

    An empty or padded value is refused (``--phase ''`` used to mean "the last phase"), quoting it; the
    name itself is then looked up in the game, exactly (the engine writes ``F1901M``).
    """
    if phase is None:
        return None
    if not phase.strip():
        raise ParamsError(
            f"--phase {phase!r} is empty: give a phase name such as F1901M, or leave the option out for "
            "the last phase"
        )
    if phase != phase.strip():
        raise ParamsError(f"--phase {phase!r} has spaces around the name: write {phase.strip()!r}")
    return phase


def _fmt(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


@app.command("measures")
def measures_cmd(
    game: Path | None = typer.Argument(None, help="Saved-game .json or .jsonl file (the engine's format)."),
    start: bool = typer.Option(False, "--start", help="Measure the map's starting position."),
    map_name: str = typer.Option("standard", "--map", help="Map for --start (any map the engine ships)."),
    measure: list[str] | None = typer.Option(
        None, "--measure", "-m", help="Only these measures (repeat the option); default: all."
    ),
    power: list[str] | None = typer.Option(
        None, "--power", "-p", help="Only these powers' rows (repeat); board-wide rows are kept."
    ),
    game_index: int | None = typer.Option(
        None, "--game-index", parser=GAME_INDEX, help="Which game of a JSONL file (from 0)."
    ),
    all_games: bool = typer.Option(
        False, "--all-games", help="Every game of the file; rows gain a leading 'game' (the game id)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list of rows."),
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV with a header."),
) -> None:
    """Every measure for every power at every phase, as rows (phase, power, measure, other, value).

    Example: boardeval diplomacy measures game.json --measure battle_tiedness --json
    """
    from boardeval.diplomacy import measures_table, start_position, validate_measures

    if as_json and as_csv:
        raise ParamsError("give at most one of --json and --csv")
    chosen = validate_measures(measure or None)
    if start and game is not None:
        raise ParamsError("give either a GAME file or --start, not both")
    if all_games:
        if game is None or start or game_index is not None:
            raise ParamsError("--all-games needs a GAME file, without --start or --game-index")
        _all_games(game, chosen, power, as_json, as_csv)
        return
    if start:
        table = measures_table([start_position(map_name)], chosen, map_name=map_name)
        label = f"start of {map_name}"
        used_map = map_name
    elif game is not None:
        record = pick_game(game, game_index)
        table = measures_table(record, chosen)
        label = f"game {record.game_id} ({record.map_name}, {len(record.phases)} phases)"
        used_map = record.map_name
    else:
        raise ParamsError("give a GAME file (saved-game .json/.jsonl) or --start")
    table = _only_powers(table, used_map, power)
    if not _print_rows(table, as_json, as_csv):
        _summary(table, label)


def _only_powers(table: Any, map_name: str, power: list[str] | None) -> Any:
    """The rows of the given powers (``--power``) plus the board-wide rows; an unknown power is an error."""
    if not power:
        return table
    from boardeval.diplomacy import load_map_graph

    graph = load_map_graph(map_name)
    wanted = [graph.powers[graph.power(p)] for p in power]  # unknown power -> DiplomacyError
    return table[table["power"].isin(wanted) | table["power"].isna()].reset_index(drop=True)


def _print_rows(table: Any, as_json: bool, as_csv: bool) -> bool:
    """Print the tidy table as JSON rows (``--json``) or CSV (``--csv``); False when neither was asked."""
    if as_json:
        from boardeval.diplomacy import table_rows

        print_json(table_rows(table))
    elif as_csv:
        import sys

        table.to_csv(sys.stdout, index=False, lineterminator="\n")
    return as_json or as_csv


def _all_games(
    path: Path, chosen: tuple[str, ...], power: list[str] | None, as_json: bool, as_csv: bool
) -> None:
    """``measures FILE --all-games``: every game of a JSONL file, with a progress bar on stderr."""
    from rich.table import Table

    from boardeval.diplomacy import games_table, load_records

    records = load_records(path)
    with progress_bar("measuring games", enabled=len(records) > 1) as progress:
        table = games_table(records, chosen, progress=progress)
    table = _only_powers(table, records[0].map_name, power)
    if table.attrs.get("interrupted"):
        err_console.print("[yellow]interrupted: rows of the finished games only[/yellow]")
    if _print_rows(table, as_json, as_csv):
        return
    out = Table(title=f"{path}: {len(records)} games", title_justify="left")
    for column in ("game", "map", "phases", "last phase", "rows"):
        out.add_column(column, justify="right" if column in ("phases", "rows") else "left")
    for record in records:
        rows = int((table["game"] == record.game_id).sum())
        out.add_row(
            record.game_id, record.map_name, str(len(record.phases)), record.phases[-1].phase, str(rows)
        )
    console.print(out)


def _summary(table: Any, label: str) -> None:
    """A Rich table of the last phase: one column per power, one row per measure (in display units)."""
    from rich.table import Table

    from boardeval.diplomacy import MEASURE_INFO

    phases = list(dict.fromkeys(table["phase"].tolist()))
    last = phases[-1]
    rows = table[table["phase"] == last]
    powers = list(dict.fromkeys(p for p in rows["power"].tolist() if isinstance(p, str)))
    out = Table(title=f"{label} — measures at {last}", title_justify="left")
    out.add_column("measure", no_wrap=True)
    for p in powers:
        out.add_column(p[:3].title(), justify="right")
    skipped: list[str] = []
    position: list[str] = []
    for name in dict.fromkeys(rows["measure"].tolist()):
        sel = rows[rows["measure"] == name]
        info = MEASURE_INFO[name]
        if info.kind == "position":
            value = float(sel["value"].iloc[0])
            shown = f"{value * info.scale:.1f}{info.unit}" if math.isfinite(value) else "—"
            position.append(f"{name} {shown}")
        elif info.kind == "power":
            by_power = dict(zip(sel["power"], sel["value"] * info.scale, strict=True))
            out.add_row(name, *[_fmt(by_power.get(p)) for p in powers])
        else:
            skipped.append(name)
    if position:
        console.print(f"{label} at {last}: " + " · ".join(position))
    if out.row_count:
        console.print(out)
    if skipped:
        err_console.print(
            f"[dim]{', '.join(skipped)}: power x power tables; see --json/--csv, `boardeval diplomacy fear`, "
            "or `boardeval diplomacy chart`[/dim]"
        )


@app.command("fear")
def fear_cmd(
    game: Path | None = typer.Argument(None, help="Saved-game file (dynamic table)."),
    static: bool = typer.Option(False, "--static", help="Windsor's static table from the map's homes."),
    map_name: str = typer.Option("standard", "--map", help="Map for --static."),
    phase: str | None = typer.Option(None, "--phase", help="Phase of GAME (default: the last)."),
    game_index: int | None = typer.Option(
        None, "--game-index", parser=GAME_INDEX, help="Which game of a JSONL file (from 0)."
    ),
    as_json: bool = typer.Option(False, "--json", help='Print {"AUSTRIA": {"ENGLAND": 0, ...}, ...}.'),
) -> None:
    """The fear table, read "row fears column": static (--static, from the map) or dynamic at a phase.

    Example: boardeval diplomacy fear --static --json
    """
    from rich.table import Table

    from boardeval.diplomacy import compute_measures, load_map_graph, static_fear

    if static:
        if game is not None:
            raise ParamsError("give either --static or a GAME file, not both")
        graph = load_map_graph(map_name)
        powers = list(graph.powers)
        grid = static_fear(map_name)
        title = f"static fear on {map_name} (row fears column)"
    elif game is not None:
        record = pick_game(game, game_index)
        gm = compute_measures(record)
        powers = list(gm.powers)
        chosen = phase_option(phase) or gm.phases[-1]
        if chosen not in gm.phases:
            raise ParamsError(
                f"unknown phase {chosen!r}: {record.game_id} has {gm.phases[0]} .. {gm.phases[-1]}"
            )
        grid = gm.fear_dynamic[gm.phases.index(chosen)]
        title = f"dynamic fear in {record.game_id} at {chosen} (row fears column)"
    else:
        raise ParamsError("give --static, or a GAME file for the dynamic fear table")
    data = {a: {b: int(grid[i, j]) for j, b in enumerate(powers) if i != j} for i, a in enumerate(powers)}
    if as_json:
        print_json(data)
        return
    out = Table(title=title, title_justify="left")
    out.add_column("fears →")
    for p in powers:
        out.add_column(p[:3].title(), justify="right")
    for a in powers:
        out.add_row(a.title(), *["·" if a == b else str(data[a][b]) for b in powers])
    console.print(out)


@app.command("chart")
def chart_cmd(
    game: Path = typer.Argument(..., help="Saved-game .json or .jsonl file."),
    measure: str = typer.Option(..., "--measure", "-m", help="The measure to draw."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .svg or .png."),
    phase: str | None = typer.Option(None, "--phase", help="Phase of a heatmap (default: last)."),
    game_index: int | None = typer.Option(
        None, "--game-index", parser=GAME_INDEX, help="Which game of a JSONL file (from 0)."
    ),
) -> None:
    """Draw a measure: one line per power over the phases, or a heatmap for fear/stab tables.

    Example: boardeval diplomacy chart game.json --measure personal_progress --out progress.svg
    """
    from boardeval.diplomacy import chart_measure, measures_table, validate_measures

    name = validate_measures([measure])[0]
    phase = phase_option(phase)
    if out.suffix.lower() not in (".svg", ".png"):
        raise ParamsError(f"--out {str(out)!r} must end in .svg or .png")
    record = pick_game(game, game_index)
    table = measures_table(record, [name])
    path = chart_measure(table, name, out, phase=phase)
    console.print(f"wrote {path}")


@app.command("random-game")
def random_game_cmd(
    seed: int = typer.Option(..., "--seed", parser=SEED, help="Seed (int >= 0): same seed, same game."),
    out: Path = typer.Option(..., "--out", "-o", help="Output JSONL file (one saved game a line)."),
    map_name: str = typer.Option("standard", "--map", help="Map (any map the engine ships)."),
    max_phases: int = typer.Option(
        40,
        "--max-phases",
        parser=int_option("--max-phases", 1, 100_000),
        help="At most this many phases in the record.",
    ),
    games: int = typer.Option(
        1,
        "--games",
        parser=int_option("--games", 1, 1_000_000),
        help="Number of games; game i uses seed + i.",
    ),
) -> None:
    """Play seeded games of uniformly random legal orders with the engine and save them as JSONL.

    Example: boardeval diplomacy random-game --seed 7 --max-phases 30 --out random.jsonl
    """
    from boardeval.diplomacy import convoy_table_ready, prepare_map, random_game, save_records

    if not out.parent.exists():
        raise ParamsError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    played = []
    interrupted = False
    if not convoy_table_ready(map_name):  # the engine's table of a map's first use: minutes for world
        err_console.print(
            f"map {map_name!r} is used for the first time: building the engine's convoy-path table "
            "(once per machine; `world` takes tens of minutes)"
        )
        with progress_bar("convoy paths") as progress:
            try:
                prepare_map(map_name, progress=progress, workers=max(1, min(2, os.cpu_count() or 1)))
            except KeyboardInterrupt:
                interrupted = True
    with progress_bar("random games", enabled=games > 1 and not interrupted) as progress:
        try:
            for i in range(games if not interrupted else 0):
                played.append(random_game(seed + i, map_name=map_name, max_phases=max_phases))
                if progress is not None:
                    progress(i + 1, games, f"seed {seed + i}")
        except KeyboardInterrupt:
            interrupted = True
    count = save_records(played, out)
    console.print(
        f"wrote {count} game(s) to {out}" + (" (interrupted: the finished games)" if interrupted else "")
    )
    if interrupted:
        note_interrupted(f"saved the {count} finished game(s) of {games}")
