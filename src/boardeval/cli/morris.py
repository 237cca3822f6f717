"""``boardeval morris ...``: engine commands (perft). Evaluation/AI commands: morris_play.py."""

from __future__ import annotations

import typer

from boardeval.cli.common import console, note_interrupted, print_json, progress_bar
from boardeval.cli.options import int_option
from boardeval.core import JobsInterrupted, ParamsError
from boardeval.morris import Position, Variant, perft_divide

app = typer.Typer(no_args_is_help=True)


def position_from(
    position: str | None, moves: str | None, variant: str, *, text_flag: str, start_if_none: bool
) -> Position:
    """The position of a command: its text, or the turns played from the start (not both), under
    ``variant``; with neither, the start (``start_if_none``) or an error."""
    rules = Variant.parse(variant)
    if position is not None and moves is not None:
        raise ParamsError(f"give either {text_flag} or --moves, not both")
    if moves is not None:
        return Position.from_moves(moves, rules)
    if position is not None:
        return Position.parse(position, rules)
    if start_if_none:
        return Position.start(rules)
    raise ParamsError("give a position text (e.g. '........................ w 9 9') or --moves '...'")


@app.command("perft")
def perft_command(
    depth: int = typer.Option(
        ...,
        "--depth",
        "-d",
        parser=int_option("--depth", 0, 20),
        help="Plies to count, 0..20 (1..6 run in under a second).",
    ),
    removal_plies: bool = typer.Option(
        False, "--removal-plies", help="Count a removal as its own ply (OpenSpiel's actions), not turn-plies."
    ),
    position: str | None = typer.Option(
        None,
        "--position",
        "-p",
        help="Position text, e.g. '........................ w 9 9' (default: start).",
    ),
    moves: str | None = typer.Option(
        None, "--moves", "-m", help="Turns played from the start, e.g. 'd2 f4'."
    ),
    variant: str = typer.Option(
        "standard", "--variant", help="Rules: standard | openspiel [,flying=no,max_turns=N,no_mill_turns=N]."
    ),
    divide: bool = typer.Option(False, "--divide", help="Also print the count below each first turn."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of the bare count."),
) -> None:
    """Count the leaf nodes of the game tree DEPTH plies deep (the move-generator check).

    Prints just the count, so scripts can compare it with a table (start position, turn-plies:
    24, 552, 12144, 255024, 5140800, 99274176). From depth 6 on a progress bar runs on stderr; Ctrl-C stops.
    """
    n = depth
    pos = position_from(position, moves, variant, text_flag="--position", start_if_none=True)
    # depth >= 6 takes seconds to minutes: show a progress bar over the first turns. Counting by first
    # turn (same cost as one count) lets Ctrl-C print the finished first turns' sum, flagged.
    done = total = 0
    try:
        with progress_bar(f"perft {n}", enabled=n >= 6) as progress:
            split = perft_divide(pos, n, removal_plies, progress=progress)
    except JobsInterrupted as exc:
        split = dict(exc.done.values())
        done, total = len(exc.done), exc.total
    count = sum(split.values()) if n else 1
    parts = split if divide else None
    if json_out:
        data: dict[str, object] = {
            "position": pos.text(),
            "variant": pos.variant.text(),
            "depth": n,
            "convention": "removal-plies" if removal_plies else "turn-plies",
            "count": count,
        }
        if parts is not None:
            data["divide"] = parts
        if total:
            data.update(interrupted=True, first_turns_done=done, first_turns=total)
        print_json(data)
    else:
        if parts is not None:
            for turn, sub in parts.items():
                console.print(f"{turn}: {sub}")
        console.print(str(count))
    if total:
        note_interrupted(f"the count below {done} of {total} first turns only (a lower bound)")
