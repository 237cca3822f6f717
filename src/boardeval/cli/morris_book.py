"""``boardeval morris book build|probe``: the placing-phase opening book (issue 25).

Wiring: ``register(morris_app)`` adds the ``book`` group to ``boardeval morris``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from boardeval.cli.common import PLAIN_EVERY, console, note_interrupted, print_json, progress_bar
from boardeval.cli.options import WORKERS, int_option
from boardeval.core import parse_int, quote

__all__ = ["register"]

MAX_LINE_PLIES = 4
"""``--line-plies`` at most (``boardeval.morris.book.build.MAX_LINE_PLIES``; the CLI does not import the
build before a command runs)."""

_BOOK_HELP = "Book file (default: the shipped book, boardeval/morris/data/opening_book.json)."


def _depths(text: str) -> list[int]:
    """``--depths 20,20,18``: one search depth per ply from the start, each through the shared reader."""
    from boardeval.morris import BOOK_MAX_DEPTH

    return [
        parse_int(part, f"--depths {quote(text)}: entry {k}", lo=1, hi=BOOK_MAX_DEPTH)
        for k, part in enumerate(text.split(","), start=1)
    ]


def build_command(
    depths: str = typer.Option(
        ...,
        "--depths",
        help="Search depth of each ply from the start, comma-separated (e.g. 20,20,20: the start, its 4 "
        "replies and the 46 positions after two placements, each to depth 20; ~100 s of one core each).",
    ),
    out: Path | None = typer.Option(None, "--out", help="Book file to write (default: the shipped one)."),
    checkpoint: Path | None = typer.Option(
        None,
        "--checkpoint",
        help="Folder of finished positions (default: the user cache dir); a rerun resumes from it.",
    ),
    profile: str = typer.Option("base", "--profile", help="Weight profile the positions are searched with."),
    workers: int = typer.Option(1, "--workers", parser=WORKERS, help="Parallel searches (process pool)."),
    address: str | None = typer.Option(None, "--address", help="Dask scheduler address."),
    tablebase: Path | None = typer.Option(
        None,
        "--tablebase",
        help="Tables of every moving position (K <= 9, `boardeval morris tablebase build --max-men 9`): the "
        "last ply is searched with them to the last placement, so its values are proven, and every earlier "
        "book move is checked to keep its position's proven value (e.g. --depths 20,20,16,15).",
    ),
    line_plies: int = typer.Option(
        0,
        "--line-plies",
        parser=int_option("--line-plies", 0, MAX_LINE_PLIES),
        help="With --tablebase: this many plies more, proven the same way, along the book's own lines only "
        "(the side to move has played the book's moves, the other side anything): --line-plies 3 adds "
        "ply 4's 93 positions for White, ply 5's 619 for Black and ply 6's 666 for White.",
    ),
    from_book: Path | None = typer.Option(
        None,
        "--from-book",
        help="A book made by this same search with the same --depths and --tablebase use (e.g. the shipped "
        "one): the positions it holds are taken from it instead of searched, so one more line ply costs "
        "only its own positions (the entries are the same as a build from scratch).",
    ),
) -> None:
    """Search the first plies' positions to fixed depths and write the opening book (resumable)."""
    import platformdirs

    from boardeval.morris import DEFAULT_BOOK, Book, build_book

    plan = _depths(depths)
    seed = None if from_book is None else Book.read(from_book)
    target = out if out is not None else DEFAULT_BOOK
    folder = checkpoint
    if folder is None:
        tag = f"{profile}-" + "-".join(map(str, plan)) + ("-exact" if tablebase is not None else "")
        folder = Path(platformdirs.user_cache_dir("boardeval")) / "book-build" / tag
    command = f"boardeval morris book build --depths {','.join(map(str, plan))}"
    if profile != "base":
        command += f" --profile {profile}"
    if tablebase is not None:
        command += " --tablebase DIR"  # the tables' folder is the machine's; the book says which tables
    if line_plies:
        command += f" --line-plies {line_plies}"
    with progress_bar("book positions", plain_every=PLAIN_EVERY) as progress:
        result = build_book(
            plan,
            profile=profile,
            checkpoint=folder,
            workers=workers,
            address=address,
            progress=progress,
            command=command,
            tablebase=tablebase,
            line_plies=line_plies,
            from_book=seed,
        )
    if result.interrupted:
        note_interrupted(
            f"{result.resumed + result.searched} of {result.total} positions are searched and kept in "
            f"{folder}; run the same command again to go on (the book is not written until all are done)"
        )
        raise typer.Exit(130)
    if result.stale:
        console.print(
            f"{result.stale} checkpoint{'s' if result.stale != 1 else ''} in {escape(str(folder))} came from "
            "another search (other weights, engine options or code) and were searched again"
        )
    for text in result.searched_again:
        row = result.book.entries[text]
        console.print(
            f"{escape(text)}: the book move did not keep the proven value; searched again: {row.move}"
        )
    if result.lines:
        console.print(
            "line plies: "
            + ", ".join(f"ply {p}: {n} positions" for p, n in enumerate(result.lines, start=len(plan)))
            + " (each checked against the values before it)"
        )
    result.book.write(target)
    console.print(
        f"book of {len(result.book)} positions written to {escape(str(target))}: {result.searched} searched "
        f"now, {result.resumed - result.from_book} from checkpoints"
        + (f", {result.from_book} from {escape(str(from_book))}" if result.from_book else "")
        + f"; {result.cpu_seconds:.0f} s of CPU in all, "
        f"{result.seconds:.0f} s this run"
    )


def probe_command(
    position: str = typer.Argument(..., help="A placing-phase position, e.g. 'W...(24 points) b 8 9'."),
    book: Path | None = typer.Option(None, "--book", help=_BOOK_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The book move of a position: the turn, the depth and score it was searched to, and its line."""
    from boardeval.core import ParamsError
    from boardeval.morris import Book, Position, default_book

    pos = Position.parse(position)
    source = Book.read(book) if book is not None else default_book()
    if source is None:
        raise ParamsError("no opening book is shipped with this installation: give one with --book FILE")
    entry = source.probe(pos)
    if json_out:
        data: dict[str, Any] = {"position": pos.text(), "book": None if entry is None else entry.to_dict()}
        print_json(data)
        return
    if entry is None:
        console.print(f"{escape(pos.text())}: not in the book")
        return
    console.print(f"{escape(pos.text())}: [bold]{entry.move}[/bold]  {escape(entry.text())}")
    console.print("line: " + " ".join(str(t) for t in entry.pv))


def register(morris_app: typer.Typer) -> None:
    """Add ``book build|probe`` to the ``boardeval morris`` group."""
    book_app: Any = typer.Typer(no_args_is_help=True, help="Placing-phase opening book.")
    book_app.command("build")(build_command)
    book_app.command("probe")(probe_command)
    morris_app.add_typer(book_app, name="book", help="Placing-phase opening book.")
