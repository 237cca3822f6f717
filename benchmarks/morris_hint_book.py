"""How often the web's Hint, before it read the opening book, named another move than the book's (issue 25).

The page's Hint is the analysis search (the evaluation graph's: depth 6 with White to move, 7 with Black,
every root turn from a fresh table). Until issue 25's twenty-ninth session it named the analysis' best turn
even where the opening book holds the position, i.e. where the AI itself plays the book's move, searched
to depth 15-20 or proven with the K <= 9 tables. This script takes book positions (all, or a seeded
sample), runs the hint's why-panel there and sorts each into: the analysis' first turn *is* the book's
move; it is another turn that scores exactly the same (a tie, e.g. the symmetric first placements); or
the analysis scores the book's move strictly lower, so the old hint named a turn the book had searched
deeper and rejected. Per ply of the book, with Wilson intervals; where the book's entry holds a proven
value, the value is counted too; and where the book also holds the value of every position a turn leads to
(e.g. Black's replies at ply 3 on White's book lines), whether the analysis' first turn keeps the proven
value or gives it away.

    python benchmarks/morris_hint_book.py [--sample 200] [--seed 1] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict

from _harness import add_common_options, load_text, print_table, run_jobs
from boardeval.core import wilson_interval
from boardeval.morris import Position, Turn, default_book, why_panel
from boardeval.morris._search.opening import OUTCOMES, turn_outcomes
from boardeval.morris.book import book_positions
from boardeval.web.morris import analysis_depth


def classify(text: str) -> tuple[int, str, str, str]:
    """(ply, kind, proven value or "", kept) of one book position: kind is "same", "tie" or "lower"; kept
    says whether the analysis' first turn keeps the position's proven value ("kept" / "lost"), where the
    book holds the value of every position a turn leads to (else "")."""
    book = default_book()
    assert book is not None
    pos = Position.parse(text)
    panel = why_panel(pos, 1, analysis_depth(pos), book=book)
    first = panel["candidates"][0]
    (mine,) = [c for c in panel["candidates"] if c["book"]]
    kind = "same" if mine is first else "tie" if mine["score"] == first["score"] else "lower"
    ply = 18 - sum(pos.hand)
    value = str(panel["book"]["value"] or "")
    kept = ""
    outcomes = turn_outcomes(pos, book)
    if value and outcomes is not None:
        kept = "kept" if outcomes[Turn.parse(first["move"])] == OUTCOMES[value] else "lost"
    return ply, kind, value, kept


def off_book(text: str) -> tuple[int, str, str]:
    """(ply, the position's proven value, "kept"/"lost") of a position the book does not hold but whose
    every turn leads into it: does the analysis' first turn keep the value (what the hint named before)?"""
    book = default_book()
    assert book is not None
    pos = Position.parse(text)
    value = book.proven_value(pos)
    assert value is not None and book.probe(pos) is None
    first = why_panel(pos, 1, analysis_depth(pos))["candidates"][0]["move"]  # no book: the old hint
    pos.play(first)
    after = book.proven_value(pos)
    assert after is not None
    return 18 - sum(pos.hand) - 1, value, "kept" if -OUTCOMES[after] == OUTCOMES[value] else "lost"


def off_book_positions(plies: tuple[int, ...]) -> list[str]:
    """The symmetry classes of these plies that the book does not hold but whose every turn leads into it
    (a player who left the book, against the book's moves)."""
    book = default_book()
    assert book is not None
    levels = book_positions(max(plies) + 1)
    out = []
    for ply in plies:
        for text in levels[ply]:
            pos = Position.parse(text)
            if book.probe(pos) is None and book.proven_value(pos) is not None:
                out.append(text)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200, help="book positions to take (0: every one)")
    parser.add_argument(
        "--off-book",
        default="",
        help="also these plies' positions off the book whose every turn leads into it (e.g. 4,5): does the "
        "analysis' first turn keep the proven value",
    )
    add_common_options(parser, seed=1, workers=2)
    args = parser.parse_args()
    book = default_book()
    assert book is not None
    texts = sorted(book.entries)
    if args.sample and args.sample < len(texts):
        texts = sorted(random.Random(args.seed).sample(texts, args.sample))
    print(f"{len(texts)} of the shipped book's {len(book)} positions (seed {args.seed}); {load_text()}")
    done = run_jobs(classify, texts, workers=args.workers, label="positions", every=20, show_load=True)
    by_ply: dict[int, Counter[str]] = defaultdict(Counter)
    values: Counter[tuple[str, str]] = Counter()
    kept: dict[int, Counter[str]] = defaultdict(Counter)
    for ply, kind, value, keeps in done.results:
        by_ply[ply][kind] += 1
        if value:
            values[(value, kind)] += 1
        if keeps:
            kept[ply][keeps] += 1
    rows = []
    for ply in sorted(by_ply):
        c = by_ply[ply]
        n = sum(c.values())
        iv = wilson_interval(c["lower"], n)
        rows.append([ply, n, c["same"], c["tie"], c["lower"], f"{iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]"])
    total = Counter[str]()
    for c in by_ply.values():
        total.update(c)
    n = sum(total.values())
    iv = wilson_interval(total["lower"], n)
    rows.append(
        ["all", n, total["same"], total["tie"], total["lower"], f"{iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]"]
    )
    print(f"\nThe analysis' first turn against the book's move{done.note} ({done.seconds:.0f} s):")
    print_table(["ply", "positions", "same", "tie", "book's scored lower", "share lower [95%]"], rows)
    if values:
        print("\nBy the book's proven value of the position (side to move):")
        print_table(
            ["value", "same", "tie", "lower"],
            [
                [v, values[(v, "same")], values[(v, "tie")], values[(v, "lower")]]
                for v in ("win", "draw", "loss")
            ],
        )
    if kept:
        print(
            "\nWhere the book holds the value of every position a turn leads to: does the analysis'"
            "\nfirst turn (the old hint) keep the position's proven value?"
        )
        rows = []
        for ply in sorted(kept):
            c = kept[ply]
            n = c["kept"] + c["lost"]
            iv = wilson_interval(c["lost"], n)
            rows.append([ply, n, c["kept"], c["lost"], f"{iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]"])
        print_table(["ply", "positions", "kept", "lost", "share lost [95%]"], rows)
    if args.off_book:
        plies = tuple(int(p) for p in args.off_book.split(","))
        texts = off_book_positions(plies)
        if args.sample and args.sample < len(texts):
            texts = sorted(random.Random(args.seed).sample(texts, args.sample))
        print(f"\nOff the book, plies {args.off_book}: {len(texts)} positions whose every turn leads into it")
        more = run_jobs(off_book, texts, workers=args.workers, label="off the book", every=20, show_load=True)
        table: dict[int, Counter[str]] = defaultdict(Counter)
        for ply, value, keeps in more.results:
            table[ply][keeps] += 1
            table[ply][f"{value}:{keeps}"] += 1
        rows = []
        for ply in sorted(table):
            c = table[ply]
            n = c["kept"] + c["lost"]
            iv = wilson_interval(c["lost"], n)
            split = ", ".join(f"{v} {c[v + ':lost']}/{c[v + ':kept'] + c[v + ':lost']}" for v in OUTCOMES)
            rows.append([ply, n, c["kept"], c["lost"], f"{iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]", split])
        print(f"The analysis' first turn (the old hint){more.note} ({more.seconds:.0f} s):")
        print_table(["ply", "positions", "kept", "lost", "share lost [95%]", "lost of won / drawn"], rows)
    print(f"\n{load_text()}")


if __name__ == "__main__":
    main()
