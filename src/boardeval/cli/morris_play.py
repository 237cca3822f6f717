"""``boardeval morris eval|best|play|match``: evaluation, AI and why-panel commands."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from boardeval.cli.common import console, err_console, print_json, progress_bar
from boardeval.core import BoardevalError, ParamsError
from boardeval.morris import Position, Variant, evaluate, load_weights, play_match, search, why_panel

_COLOURS = ("white", "black")


def _weights(profile: str) -> Any:
    return load_weights(profile)


def _position(position: str | None, moves: str | None, variant: str) -> Position:
    """The position from its text or from a move list (exactly one of them)."""
    var = Variant.parse(variant)
    if position is not None and moves is not None:
        raise ParamsError("give either a position text or --moves, not both")
    if moves is not None:
        return Position.from_moves(moves, var)
    if position is None:
        raise ParamsError("give a position text (e.g. '........................ w 9 9') or --moves '...'")
    return Position.parse(position, var)


def _board_lines(pos: Position) -> list[str]:
    """The board as ASCII art from the position text (W = white, B = black, . = empty)."""
    c = [ch if ch != "." else "+" for ch in pos.text().split()[0]]
    return [
        f"7 {c[0]}-----------{c[1]}-----------{c[2]}",
        "  |           |           |",
        f"6 |   {c[3]}-------{c[4]}-------{c[5]}   |",
        "  |   |       |       |   |",
        f"5 |   |   {c[6]}---{c[7]}---{c[8]}   |   |",
        "  |   |   |       |   |   |",
        f"4 {c[9]}---{c[10]}---{c[11]}       {c[12]}---{c[13]}---{c[14]}",
        "  |   |   |       |   |   |",
        f"3 |   |   {c[15]}---{c[16]}---{c[17]}   |   |",
        "  |   |       |       |   |",
        f"2 |   {c[18]}-------{c[19]}-------{c[20]}   |",
        "  |           |           |",
        f"1 {c[21]}-----------{c[22]}-----------{c[23]}",
        "  a   b   c   d   e   f   g",
    ]


def _print_board(pos: Position) -> None:
    for line in _board_lines(pos):
        console.print(escape(line))
    side, wh, bh = pos.text().split()[1:4]
    console.print(f"to move: {'white' if side == 'w' else 'black'}   in hand: white {wh}, black {bh}")


def _render_why(panel: dict[str, Any]) -> None:
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
        cand = Table(title="Top candidate turns")
        cand.add_column("turn")
        cand.add_column("score", justify="right")
        cand.add_column("line")
        cand.add_column("raw changes (own / opponent)")
        for c in panel["candidates"]:
            cand.add_row(c["move"], f"{c['score']:+.2f}", " ".join(c["pv"]), escape(c["summary"]))
        console.print(cand)
    # the per-candidate sentences repeat the table above; print the general ones only
    general = panel["explanation"][: len(panel["explanation"]) - len(panel["candidates"])]
    for sentence in general:
        console.print(f"- {escape(sentence)}")


def register(app: typer.Typer) -> None:
    """Add the evaluation and AI commands to the ``morris`` group."""

    @app.command("eval")
    def eval_cmd(
        position: str | None = typer.Argument(
            None, help="Position text, e.g. '........................ w 9 9'."
        ),
        moves: str | None = typer.Option(None, "--moves", help="Turns from the start instead of a position."),
        variant: str = typer.Option("standard", help="Rules variant: standard | openspiel."),
        profile: str = typer.Option("base", help="Weight profile (base | initiative) or a weight file."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """Evaluate a position: phase, raw features of both sides, weighted breakdown, score."""
        pos = _position(position, moves, variant)
        bd = evaluate(pos, _weights(profile))
        data = {
            "phase": bd.extras["phase"],
            "side": bd.extras["side"],
            "features": bd.extras["features"],
            "breakdown": bd.to_dict(include_scale=False),
            "score": bd.total,
        }
        if as_json:
            print_json(data)
            return
        _print_board(pos)
        table = Table(title=f"Evaluation ({data['phase']} phase, {data['side']} to move)")
        for col in ("feature", "white", "black", "own - opp", "weight", "contribution"):
            table.add_column(col, justify="left" if col == "feature" else "right")
        for term in bd.terms:
            w = data["features"]["white"].get(term.name, "")
            b = data["features"]["black"].get(term.name, "")
            table.add_row(
                term.name,
                f"{w:g}" if w != "" else "",
                f"{b:g}" if b != "" else "",
                f"{term.raw:+g}",
                f"{term.weight:g}",
                f"{term.contribution:+.3f}",
            )
        console.print(table)
        console.print(f"score (side to move): [bold]{bd.total:+.3f}[/bold]")

    @app.command("best")
    def best_cmd(
        position: str | None = typer.Argument(
            None, help="Position text, e.g. '........................ w 9 9'."
        ),
        moves: str | None = typer.Option(None, "--moves", help="Turns from the start instead of a position."),
        depth: int | None = typer.Option(None, "--depth", help="Search depth in turns (default 4)."),
        time_limit: float | None = typer.Option(None, "--time", help="Time limit in seconds."),
        candidates: int = typer.Option(3, "--candidates", help="Candidate turns in the why-panel."),
        variant: str = typer.Option("standard", help="Rules variant: standard | openspiel."),
        profile: str = typer.Option("base", help="Weight profile (base | initiative) or a weight file."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """Search the best turn, with its principal variation and the why-panel."""
        pos = _position(position, moves, variant)
        weights = _weights(profile)
        with progress_bar("searching", enabled=not as_json) as cb:
            result = search(pos, depth, time_limit, weights, progress=cb)
        why_depth = max(1, min(result.depth, 3))
        panel = why_panel(pos, candidates, why_depth, weights)
        data = {
            "move": None if result.move is None else str(result.move),
            "score": result.score,
            "pv": [str(t) for t in result.pv],
            "nodes": result.nodes,
            "depth": result.depth,
            "seconds": round(result.seconds, 3),
            "why": panel,
        }
        if as_json:
            print_json(data)
            return
        _print_board(pos)
        if result.move is None:
            console.print("the game is over")
        else:
            console.print(
                f"best: [bold]{result.move}[/bold]  score {result.score:+.3f}  depth {result.depth}  "
                f"nodes {result.nodes}  {result.seconds:.2f}s"
            )
            console.print(f"line: {' '.join(str(t) for t in result.pv)}")
        _render_why(panel)

    @app.command("play")
    def play_cmd(
        colour: str = typer.Option("white", "--colour", "--color", help="Your colour: white | black."),
        depth: int = typer.Option(3, "--depth", help="AI search depth."),
        variant: str = typer.Option("standard", help="Rules variant: standard | openspiel."),
        profile: str = typer.Option("base", help="AI weight profile (base | initiative) or a weight file."),
    ) -> None:
        """Play against the AI in the terminal. Type a turn (d2, a1-a4, d2xg7), 'why', 'undo' or 'quit'."""
        if colour.lower() not in _COLOURS:
            raise ParamsError(f"--colour must be white or black, got {colour!r}")
        if depth < 1 or depth > 12:
            raise ParamsError(f"--depth must be in 1..12, got {depth}")
        human = _COLOURS.index(colour.lower())
        weights = _weights(profile)
        pos = Position.start(Variant.parse(variant))
        history: list[int] = []  # turn counter before each of the human's turns, for undo
        console.print(f"You play {_COLOURS[human]}. Commands: a turn (d2, a1-a4, d2xg7), why, undo, quit.")
        while True:
            if pos.is_over():
                _print_board(pos)
                status = pos.status()
                console.print(f"game over: {status.outcome} ({escape(status.reason)})")
                return
            if pos.side != human:
                result = search(pos, depth, None, weights)
                assert result.move is not None
                pos.play(result.move)
                console.print(f"AI plays [bold]{result.move}[/bold] (score {result.score:+.2f})")
                continue
            _print_board(pos)
            console.print(f"your turn ({_COLOURS[human]}): ", end="")
            line = sys.stdin.readline()
            if not line:
                console.print("\nend of input: game abandoned")
                return
            cmd = line.strip()
            if not sys.stdin.isatty():
                console.print(escape(cmd))  # echo piped input so the transcript reads like a session
            if not cmd:
                continue
            low = cmd.lower()
            if low in ("quit", "exit", "q"):
                console.print("bye")
                return
            if low == "why":
                _render_why(why_panel(pos, 3, min(depth, 3), weights))
                continue
            if low == "undo":
                if not history:
                    err_console.print("[red]error: nothing to undo[/red]")
                    continue
                target = history.pop()
                while pos.turns > target:
                    pos.pop()
                console.print("undone")
                continue
            before = pos.turns
            try:
                pos.play(cmd)
            except BoardevalError as exc:
                err_console.print(f"[red]error: {escape(str(exc))}[/red]")
                continue
            history.append(before)

    @app.command("match")
    def match_cmd(
        white: str = typer.Option(
            "ai", "--white", help="Player A: random | ai:depth=N | ai:time=S[,profile=P]."
        ),
        black: str = typer.Option("random", "--black", help="Player B (same forms)."),
        games: int = typer.Option(10, "--games", help="Number of games."),
        seed: int = typer.Option(0, "--seed", help="Match seed (every game derives its own)."),
        alternate: bool = typer.Option(False, "--alternate", help="Swap colours every second game."),
        workers: int = typer.Option(1, "--workers", help="Parallel games (process pool)."),
        address: str | None = typer.Option(None, "--address", help="Dask scheduler address."),
        variant: str = typer.Option("standard", help="Rules variant: standard | openspiel."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        with_games: bool = typer.Option(False, "--games-json", help="Include every game record in the JSON."),
    ) -> None:
        """Play a match; prints wins/draws/losses of the --white player (player A)."""
        if seed < 0:
            raise ParamsError(f"--seed must be >= 0, got {seed}")
        var = Variant.parse(variant)
        with progress_bar("games", enabled=not as_json) as cb:
            result = play_match(
                white,
                black,
                games,
                seed,
                alternate=alternate,
                variant=var,
                workers=workers,
                address=address,
                progress=cb,
            )
        if as_json:
            print_json(result.to_dict(with_games=with_games))
            return
        note = " (interrupted)" if result.interrupted else ""
        console.print(
            f"{escape(result.player_a)} vs {escape(result.player_b)}: {result.played} games{note}: "
            f"[bold]{result.wins} wins, {result.draws} draws, {result.losses} losses[/bold] "
            f"(score {result.score:.3f})"
        )
