"""What reading the opening book costs a process, and what a bigger book would cost (issue 25 section 3).

Every ``boardeval morris`` process that searches reads the shipped book once (``default_book``: trusted,
``Book.read(..., check=False)``); ``boardeval morris book probe POS --book FILE`` and the test suite read a
book checked (each position parsed, its canonical form and its move's legality checked). This script times
both reads of the shipped book and of a made-up bigger one: ``--entries N`` real placing positions (the
symmetry classes of plies 0-5 in order, as many as asked) each with a legal move and a line as long as the
shipped book's mean, the size a book with another line ply would have (ply 7 of Black's lines: 6,944
entries). Median and minimum of ``--repeats`` reads, each in this process after one untimed read (the file
in the page cache); the machine's load is printed beside them.

    python benchmarks/morris_book_read.py [--entries 6944] [--repeats 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _harness import load_text
from boardeval.morris import Position
from boardeval.morris.book import DEFAULT_BOOK, Book, BookEntry, book_positions


def _timed(path: Path, check: bool, repeats: int) -> tuple[float, float, int]:
    """(median s, min s, entries) of ``repeats`` reads of ``path``."""
    size = len(Book.read(path, check=check))  # untimed: the page cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        Book.read(path, check=check)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), size


def made_up_book(entries: int, line: int) -> Book:
    """A book of ``entries`` real placing positions (plies 0-5 in order), each with its first legal turn
    and a line of ``line`` turns played on from there (first legal turns; shorter where the game ends)."""
    book: dict[str, BookEntry] = {}
    for level in book_positions(6):
        for text in level:
            if len(book) == entries:
                break
            pos = Position.parse(text)
            move = pos.legal_turns()[0]
            pv = []
            walk = pos.copy()
            for _ in range(line):
                turns = walk.legal_turns()
                if not turns:
                    break
                pv.append(turns[0])
                walk.push(turns[0])
            book[text] = BookEntry(move, 12, 0.0, 1000, tuple(pv))
    if len(book) < entries:
        raise SystemExit(f"--entries: plies 0-5 hold {len(book)} positions, fewer than {entries}")
    return Book(book, {"weights": "base", "command": "made up by benchmarks/morris_book_read.py"})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=6944, help="entries of the made-up book")
    parser.add_argument("--repeats", type=int, default=7, help="timed reads of each file and mode")
    args = parser.parse_args(argv)
    shipped = Book.read(DEFAULT_BOOK)
    line = round(statistics.mean(len(e.pv) for e in shipped.entries.values()))
    print(f"{load_text()}; {args.repeats} reads each, after one untimed read")
    print(f"{'book':<34}{'entries':>8}{'KB':>7}{'checked s (median/min)':>26}{'trusted s (median/min)':>26}")
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "made_up.json"
        made_up_book(args.entries, line).write(big)
        for name, path in (("shipped", DEFAULT_BOOK), (f"made up (lines of {line} turns)", big)):
            checked = _timed(path, True, args.repeats)
            trusted = _timed(path, False, args.repeats)
            kb = path.stat().st_size / 1024
            print(
                f"{name:<34}{checked[2]:>8}{kb:>7.0f}{checked[0]:>16.3f} / {checked[1]:.3f}"
                f"{trusted[0]:>16.3f} / {trusted[1]:.3f}"
            )


if __name__ == "__main__":
    main()
