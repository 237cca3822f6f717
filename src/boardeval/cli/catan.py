"""``boardeval catan ...``: board codes, spots, energy, rendering (generators: catan_generate.py).

Every command takes a board as a share code (``O10-S2-...~3S3W3B3GO``) or the path of a JSON board file;
the board's layout (base or the 5-6 player ``extended`` board) comes from the board itself. Commands that
make a board (``random``; ``generate`` and ``optimum`` in catan_generate.py) take ``--layout`` or
``--players``. Bad input raises a library error; the root group prints one red line and exits 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from boardeval.catan import (
    METRIC_NAMES,
    RESOURCE_NAMES,
    RESOURCES,
    Board,
    SpotParams,
    SpotTable,
    board_energy,
    energy_json,
    energy_weights,
    evaluate_spots,
)
from boardeval.cli.catan_render import board_renderable
from boardeval.cli.common import console, print_json
from boardeval.cli.options import SEED, int_option
from boardeval.core import Breakdown, ParamsError

app = typer.Typer(no_args_is_help=True)

BoardArg = Annotated[
    str, typer.Argument(help="Board share code (e.g. O10-S2-...~3S3W3B3GO) or a JSON board file.")
]
ParamsOpt = Annotated[
    Path | None, typer.Option("--params", help="Spot-evaluator parameter file (TOML or JSON).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
LayoutOpt = Annotated[
    str | None,
    typer.Option(
        "--layout", help="Board layout: base (3-4 players, 19 hexes) or extended (5-6 players, 30 hexes)."
    ),
]
PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        parser=int_option("--players", 2, 6),
        help="Players: 2-4 use the base board, 5-6 the extended board (instead of --layout).",
    ),
]


def resolve_layout(layout: str | None, players: int | None) -> str:
    """The layout from ``--layout`` and/or ``--players`` (default base); a contradiction is an error."""
    if layout is not None and layout not in ("base", "extended"):
        raise ParamsError(f"--layout must be base or extended, got {layout!r}")
    from_players = None if players is None else ("extended" if players >= 5 else "base")
    if layout is not None and from_players is not None and layout != from_players:
        raise ParamsError(
            f"--players {players} needs the {from_players} layout, but --layout {layout} was given"
        )
    return layout or from_players or "base"


_SHORT = {
    "raw_production": "raw",
    "scarcity_production": "scarc",
    "port": "port+",
    "prime_variate": "prime",
    "parity": "parity",
}


def read_board(text: str) -> Board:
    """The board argument: a ``.json`` path is a board file, anything else a share code or board JSON."""
    if "~" not in text and text.lower().endswith(".json"):
        return Board.load(text)
    return Board.from_text(text)


def _params(path: Path | None) -> SpotParams | None:
    return None if path is None else SpotParams.load(path)


_TOP = int_option("--top", 0, 1_000_000)


@app.command("random")
def random_board(
    seed: Annotated[int, typer.Option("--seed", parser=SEED, help="Random seed (same seed, same board).")],
    json_out: JsonOpt = False,
    layout: LayoutOpt = None,
    players: PlayersOpt = None,
) -> None:
    """Print the share code of a uniformly shuffled board (``--layout extended``: the 5-6 player board)."""
    board = Board.random(seed, layout=resolve_layout(layout, players))
    if json_out:
        print_json({"code": board.code(), **board.to_json()})
    else:
        typer.echo(board.code())


@app.command()
def spots(
    board: BoardArg,
    params: ParamsOpt = None,
    json_out: JsonOpt = False,
    top: Annotated[int, typer.Option("--top", parser=_TOP, help="Rows in the table (0 = all spots).")] = 0,
) -> None:
    """Evaluate every settlement spot (seed 000's five metrics); a table sorted by score, or JSON."""
    table = evaluate_spots(read_board(board), _params(params))
    if json_out:
        print_json(table.to_json())
        return
    console.print(_spots_table(table, top or len(table)))


@app.command()
def energy(
    board: BoardArg,
    weights: Annotated[
        str,
        typer.Option(
            "--weights",
            help="Weight set: default (seed 001's three tile terms plus the harbour term), seed (seed "
            "001's formula exactly, no harbour term), or a weight file (TOML or JSON).",
        ),
    ] = "default",
    json_out: JsonOpt = False,
) -> None:
    """The board's fairness energy, lower is fairer: 100 x same-resource pairs + 150 x 6/8 pairs + 10 x
    pip variance (seed 001's formula) + 10 x the harbour term (ours); --weights seed drops the harbour
    term and gives seed 001's energy exactly."""
    b = board_energy(read_board(board), energy_weights(weights))
    if json_out:
        print_json(energy_json(b))
        return
    console.print(_energy_table(b, weights))


@app.command()
def show(
    board: BoardArg,
    params: ParamsOpt = None,
    top: Annotated[int, typer.Option("--top", parser=_TOP, help="Best spots to list.")] = 8,
) -> None:
    """Draw the board in the terminal with its energy breakdown and best spots."""
    b = read_board(board)
    console.print(f"[bold]{b.code()}[/bold]")
    console.print(board_renderable(b))
    console.print(_energy_table(board_energy(b)))
    console.print(_spots_table(evaluate_spots(b, _params(params)), top))


@app.command()
def svg(
    board: BoardArg,
    out: Annotated[Path, typer.Option("--out", help="SVG file to write.")],
    heatmap: Annotated[bool, typer.Option("--heatmap", help="Colour spots by score.")] = False,
    params: ParamsOpt = None,
    top: Annotated[int, typer.Option("--top", parser=_TOP, help="Best spots labelled on the heatmap.")] = 5,
) -> None:
    """Write the board as a self-contained SVG (optionally with the spot heatmap)."""
    from boardeval.catan import board_svg

    b = read_board(board)
    table = evaluate_spots(b, _params(params)) if heatmap else None
    text = board_svg(b, table, top)
    if not out.parent.exists():
        raise ParamsError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    if out.is_dir():
        raise ParamsError(f"--out {str(out)!r} is a folder; give a file name")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ParamsError(f"cannot write --out {str(out)!r}: {exc.strerror}") from None
    console.print(f"wrote {out}")


def _spots_table(table: SpotTable, n: int) -> Table:
    t = Table(
        title=f"best spots (of {len(table)})",
        title_justify="left",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    t.add_column("#", justify="right")
    t.add_column("spot", justify="right")
    t.add_column("hexes", no_wrap=True)
    t.add_column("port")
    for name in METRIC_NAMES:
        t.add_column(_SHORT[name], justify="right", min_width=len(_SHORT[name]))  # "pari…" in 80 columns
    t.add_column("score", justify="right", style="bold")
    board = table.board
    for rank, s in enumerate(table.ranked()[:n], start=1):
        bd = table.breakdown(s)
        hexes = " ".join(
            board.resources[h] + ("" if board.numbers[h] is None else str(board.numbers[h]))
            for h in bd.extras["hexes"]
        )
        port = bd.extras["port"]
        port_text = "" if port is None else ("3:1" if port == "3" else f"2:1 {RESOURCE_NAMES[port]}")
        t.add_row(
            str(rank),
            str(s),
            hexes,
            port_text,
            *(f"{v:.2f}" for v in table.metrics[s].tolist()),
            f"{table.scores[s]:.2f}",
        )
    strengths = ", ".join(
        f"{RESOURCE_NAMES[r]} {v:.3f}" for r, v in zip(RESOURCES, table.strength.tolist(), strict=True)
    )
    t.caption = f"resource strengths: {strengths}"
    return t


def _energy_title(weights: str) -> str:
    """What the energy table computes, by weight set (a file: its name)."""
    if weights == "default":
        return "energy (seed 001 + harbour term)"
    if weights == "seed":
        return "energy (seed 001's formula)"
    return f"energy (weights: {weights})"


def _energy_table(b: Breakdown, weights: str = "default") -> Table:
    t = Table(
        title=_energy_title(weights),
        title_justify="left",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    t.add_column("term")
    t.add_column("value", justify="right")
    t.add_column("weight", justify="right")
    t.add_column("contribution", justify="right")
    for term in b:
        raw = f"{term.raw:.3f}" if term.name == "pip_variance" else f"{int(term.raw)}"
        t.add_row(term.name, raw, f"{term.weight:g}", f"{term.contribution:.1f}")
    t.add_row("[bold]energy[/bold]", "", "", f"[bold]{b.total:.1f}[/bold]")
    means = b.extras.get("region_mean_pips", {})
    t.caption = "lower is fairer"
    if means:
        t.caption += "; region mean pips: " + ", ".join(f"{k} {v:.2f}" for k, v in means.items())
    return t
