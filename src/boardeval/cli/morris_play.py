"""``boardeval morris eval|best|play|match``: evaluation, AI and why-panel commands.

The commands are plain functions; :func:`register` adds them to the ``morris`` group. Output is drawn by
:mod:`.morris_render`, the terminal game lives in :mod:`.morris_game`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from boardeval.cli.common import PLAIN_EVERY, console, note_interrupted, print_json, progress_bar
from boardeval.cli.morris import position_from
from boardeval.cli.morris_game import COLOURS, TerminalSession
from boardeval.cli.morris_render import print_board, print_evaluation, print_why
from boardeval.cli.options import SEED, WORKERS, float_option, int_option
from boardeval.core import ParamsError, pick_name
from boardeval.morris import (
    MAX_DEPTH,
    STRENGTHS,
    AlphaBetaPlayer,
    Evaluator,
    MatchResult,
    PlayerSpec,
    Position,
    SearchResult,
    Variant,
    evaluate,
    game_verdict,
    load_weights,
    play_match,
    turn_verdict,
    white_view,
)

if TYPE_CHECKING:
    from boardeval.morris import MatchResult, Tablebase

__all__ = ["register"]

_POSITION_HELP = "Position text, e.g. '........................ w 9 9'."
_VARIANT_HELP = "Rules variant: standard | openspiel."
_PROFILE_HELP = "Weight profile (base | initiative | tuned) or a weight file."
_TB_HELP = (
    "Endgame tablebase folder for perfect endgames; 'none' = without. Default: the default folder if built."
)


def _tablebase_dir(option: str | None) -> str | None:
    """The tablebase folder an option names: the default folder when it holds a build, None for 'none'."""
    from boardeval.morris import default_tablebase_dir  # numpy on first use, not at CLI start-up

    if option is None:
        default = default_tablebase_dir()
        return str(default) if (default / "manifest.json").is_file() else None
    if option == "none":
        return None
    if option != "none" and option.strip().lower() == "none" and not Path(option).exists():
        raise ParamsError(f"--tablebase {option!r}: did you mean 'none'? (written exactly so, lower case)")
    return option


def _tablebase(option: str | None) -> Tablebase | None:
    """The open tablebase of an option (a missing one is an error that names the build command)."""
    folder = _tablebase_dir(option)
    if folder is None:
        return None
    from boardeval.morris import Tablebase

    return Tablebase.open(folder)


_STRENGTH_HELP = (
    "AI strength: "
    + ", ".join(
        f"{k} ({f'{v[1]:g} s a move' if v[1] is not None else f'depth {v[0]}'})" for k, v in STRENGTHS.items()
    )
    + "."
)


def _strength(text: str) -> str:
    """A strength name of :data:`STRENGTHS`, exactly (``Expert`` is refused, naming ``expert``)."""
    return pick_name(text, STRENGTHS, "--strength")


_DEPTH = int_option("--depth", 1, MAX_DEPTH)
_BOOK_HELP = (
    "Play the shipped opening book's move where it holds the position (the first placements, standard rules, "
    "base weights; default); --no-book searches instead."
)
_TIME = float_option("--time", 0.0, 1e6, lo_open=True)


def _one_blas_thread() -> None:
    """Keep numpy's OpenBLAS from starting its thread pool in a command that does no linear algebra
    (``best``, ``play``): numpy starts it at import, ~0.06 s of CPU on this 2-core machine, an eighth of the
    first answer's start-up (issue 25 section 3). Only before numpy is imported; a value already set (the
    user's) is kept."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _position(position: str | None, moves: str | None, variant: str) -> Position:
    """The position from its text or from a move list (exactly one of them)."""
    return position_from(position, moves, variant, text_flag="a position text", start_if_none=False)


def _candidates(pos: Position, asked: int | None) -> int:
    """The why-panel's candidate count: ``--candidates`` if the position has that many legal turns (more
    is refused: it used to be capped silently), else the default 3 (fewer when fewer turns exist)."""
    if asked is None or pos.outcome() is not None:
        return asked or 3
    legal = len(pos.legal_turns())
    if asked > legal:
        raise ParamsError(
            f"--candidates {asked}: the position has {legal} legal turn{'s' if legal != 1 else ''}; "
            f"give at most {legal}"
        )
    return asked


def eval_cmd(
    position: str | None = typer.Argument(None, help=_POSITION_HELP),
    moves: str | None = typer.Option(None, "--moves", help="Turns from the start instead of a position."),
    variant: str = typer.Option("standard", help=_VARIANT_HELP),
    profile: str = typer.Option("base", "--profile", "--weights", help=_PROFILE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Evaluate a position: phase, raw features of both sides, weighted breakdown, score."""
    pos = _position(position, moves, variant)
    bd = evaluate(pos, load_weights(profile))
    if as_json:
        print_json(
            {
                "phase": bd.extras["phase"],
                "side": bd.extras["side"],
                "features": bd.extras["features"],
                "breakdown": bd.to_dict(include_scale=False),
                "score": bd.total,
                "verdict": game_verdict(pos),
            }
        )
        return
    print_evaluation(pos, bd)


def best_cmd(
    position: str | None = typer.Argument(None, help=_POSITION_HELP),
    moves: str | None = typer.Option(None, "--moves", help="Turns from the start instead of a position."),
    depth: int | None = typer.Option(
        None, "--depth", parser=_DEPTH, help=f"Search depth in turns, 1..{MAX_DEPTH} (default 4)."
    ),
    time_limit: float | None = typer.Option(
        None,
        "--time",
        parser=_TIME,
        help="Seconds for the answer: the search and the why-panel together (the search stops at 4/5 of "
        "the time, at most 0.25 s early; the panel's searches run in the rest).",
    ),
    strength: str | None = typer.Option(
        None, "--strength", help=_STRENGTH_HELP + " Instead of --depth/--time."
    ),
    candidates: int | None = typer.Option(
        None,
        "--candidates",
        parser=int_option("--candidates", 1, 10**6),
        help="Candidate turns in the why-panel, at most the position's legal turns (default: 3, or all "
        "when fewer).",
    ),
    variant: str = typer.Option("standard", help=_VARIANT_HELP),
    profile: str = typer.Option("base", "--profile", "--weights", help=_PROFILE_HELP),
    tablebase: str | None = typer.Option(None, "--tablebase", help=_TB_HELP),
    use_book: bool = typer.Option(True, "--book/--no-book", help=_BOOK_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Search the best turn, with its principal variation and the why-panel."""
    _one_blas_thread()
    if strength is not None and (depth is not None or time_limit is not None):
        raise ParamsError(f"--strength {strength!r} sets the budget: give it without --depth/--time")
    pos = _position(position, moves, variant)
    shown = _candidates(pos, candidates)
    ev = Evaluator(load_weights(profile))
    if strength is not None:
        ai = AlphaBetaPlayer.at_strength(
            _strength(strength),
            ev,
            shuffle_ties=False,
            tablebase=_tablebase(tablebase),
            manage_time=False,
            book="default" if use_book else None,
        )
    else:
        # one answer, not a game: the time asked is the time spent (no game clock to save or borrow from)
        ai = AlphaBetaPlayer(
            ev,
            depth=depth,
            time=time_limit,
            shuffle_ties=False,
            tablebase=_tablebase(tablebase),
            manage_time=False,
            book="default" if use_book else None,
        )
    # one budget for the search and the why-panel (a time budget leaves the panel its share, issue 25);
    # Ctrl-C: the best turn of the last completed depth, flagged, without the why-panel's searches
    with progress_bar("searching") as cb:
        result, panel = ai.answer(pos, shown, progress=cb)
    # a finished game has no best turn: its verdict says who won and why, as `morris eval` does
    verdict = (
        game_verdict(pos)
        if result.move is None
        else turn_verdict(pos, result.move, result.score, ai.tablebase)
    )
    if as_json:
        white = None if result.move is None else round(white_view(result.score, pos.side), 4)
        print_json({**result.to_dict(), "white_score": white, "verdict": verdict, "why": panel})
    else:
        _print_best(pos, result, panel, verdict)
    if result.interrupted:
        note_interrupted(f"the best turn of the last completed depth ({result.depth}), no why-panel")


def _print_best(
    pos: Position, result: SearchResult, panel: dict[str, Any] | None, verdict: dict[str, Any] | None
) -> None:
    print_board(pos)
    if result.move is None:
        ended = f": [bold]{escape(verdict['headline'])}[/bold]" if verdict is not None else ""
        console.print(f"the game is over{ended}")
    else:
        value = (
            f"[bold]{escape(verdict['headline'])}[/bold]"
            if verdict is not None
            else f"evaluation {white_view(result.score, pos.side):+.3f} (White's view)"
        )
        # a move straight from the opening book ran no search: no "nodes 0  0.00s" (the book's line says
        # how deep it was searched offline, or that it is proven)
        searched = (
            "from the opening book"
            if result.book is not None and result.nodes == 0
            else f"depth {result.depth}  nodes {result.nodes}  {result.seconds:.2f}s"
        )
        console.print(f"best: [bold]{result.move}[/bold]  {value}  {searched}")
        console.print(f"line: {' '.join(str(t) for t in result.pv)}")
        if result.tablebase is not None:
            console.print(f"tablebase: {result.tablebase}")
        if result.book is not None:
            console.print(result.book)
    if panel is not None:
        print_why(panel)


def play_cmd(
    colour: str = typer.Option("white", "--colour", "--color", help="Your colour: white | black."),
    strength: str = typer.Option("medium", "--strength", help=_STRENGTH_HELP),
    depth: int | None = typer.Option(
        None, "--depth", parser=_DEPTH, help=f"AI search depth instead of --strength (1..{MAX_DEPTH})."
    ),
    variant: str = typer.Option("standard", help=_VARIANT_HELP),
    profile: str = typer.Option("base", "--profile", "--weights", help=_PROFILE_HELP),
    tablebase: str | None = typer.Option(None, "--tablebase", help=_TB_HELP),
    use_book: bool = typer.Option(True, "--book/--no-book", help=_BOOK_HELP),
) -> None:
    """Play against the AI in the terminal. Type a turn (d2, a1-a4, d2xg7), 'why', 'undo' or 'quit'."""
    _one_blas_thread()
    colour = pick_name(colour, COLOURS, "--colour")
    ev = Evaluator(load_weights(profile))
    tb = _tablebase(tablebase)
    if tb is not None:
        from boardeval.morris import prefetch_tablebase

        # on a cold page cache the tables' pages come from disk inside the AI's searches (a 0.5 s search:
        # depth 8-9 instead of 15-16); the game's first turns (the book, early placing) probe none, so the
        # kernel reads them ahead meanwhile (~4 s for K <= 7)
        prefetch_tablebase(tb.directory)
    book = "default" if use_book else None
    if depth is not None:
        ai = AlphaBetaPlayer(ev, depth=depth, shuffle_ties=False, tablebase=tb, book=book)
    else:
        ai = AlphaBetaPlayer.at_strength(_strength(strength), ev, shuffle_ties=False, tablebase=tb, book=book)
    TerminalSession(Position.start(Variant.parse(variant)), ai, COLOURS.index(colour)).run()


def match_cmd(
    white: str = typer.Option("ai", "--white", help="Player A: random | ai:depth=N | ai:time=S[,profile=P]."),
    black: str = typer.Option("random", "--black", help="Player B (same forms)."),
    games: int = typer.Option(
        10, "--games", parser=int_option("--games", 1, 1_000_000), help="Number of games."
    ),
    seed: int = typer.Option(0, "--seed", parser=SEED, help="Match seed (every game derives its own)."),
    alternate: bool = typer.Option(False, "--alternate", help="Swap colours every second game."),
    workers: int = typer.Option(1, "--workers", parser=WORKERS, help="Parallel games (process pool)."),
    address: str | None = typer.Option(None, "--address", help="Dask scheduler address."),
    variant: str = typer.Option("standard", help=_VARIANT_HELP),
    tablebase: str | None = typer.Option(
        None, "--tablebase", help=_TB_HELP + " Used by every AI player without its own tablebase=DIR."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    with_games: bool = typer.Option(False, "--games-json", help="Include every game record in the JSON."),
) -> None:
    """Play a match; prints wins/draws/losses of the --white player (player A)."""
    var = Variant.parse(variant)
    folder = _tablebase_dir(tablebase)
    specs = [PlayerSpec.parse(white), PlayerSpec.parse(black)]
    if folder is not None:
        _tablebase(folder)  # fail before any game on a folder without a tablebase
        specs = [replace(p, tablebase=folder) if p.kind == "ai" and p.tablebase is None else p for p in specs]
    with progress_bar("games", plain_every=PLAIN_EVERY) as cb:
        result = play_match(
            specs[0], specs[1], games, seed, alternate=alternate, variant=var, workers=workers,
            address=address, progress=cb,
        )  # fmt: skip
    if as_json:
        print_json(result.to_dict(with_games=with_games))
    else:
        _print_match(result)
    if result.interrupted:
        note_interrupted(f"kept the {result.played} finished game(s) of {games}")


def _print_match(result: MatchResult) -> None:
    note = " (interrupted)" if result.interrupted else ""
    console.print(
        f"{escape(result.player_a)} vs {escape(result.player_b)}: {result.played} games{note}: "
        f"[bold]{result.wins} wins, {result.draws} draws, {result.losses} losses[/bold] "
        f"(score {result.score:.3f})"
    )


def register(app: typer.Typer) -> None:
    """Add the evaluation and AI commands to the ``morris`` group."""
    app.command("eval")(eval_cmd)
    app.command("best")(best_cmd)
    app.command("play")(play_cmd)
    app.command("match")(match_cmd)
