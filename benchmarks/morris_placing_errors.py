"""How often the AI's search loses the game's value at an early placement, measured against exact values.

With tables of every moving position (K <= 9, ``boardeval morris tablebase build --max-men 9``), a search
of a placing position that reaches the last placement ends every line in the tables' exact value, so it
proves the position's value for the side to move (win, draw or loss with best play; the tables know no
turn limit). This script samples positions of one ply from the start (one per symmetry class, the opening
book's positions), lets the shipped search choose a move at each given time (and/or node) budget, with the
same tables and without the opening book, and proves the value of the position after the move: the move is
an *error* when that value is worse for the mover than the position's own. The position's value comes
from the book when the book given holds it as proven (``--book``, default the shipped one), else from the
same exact search.

    python benchmarks/morris_placing_errors.py --tablebase DIR --ply 3 --sample 60 --time 0.1,1 [--nodes N]
    python benchmarks/morris_placing_errors.py --tablebase DIR --ply 6 --lines --sample 100 --nodes ...

``--lines`` samples instead the ply's positions on the book's own lines (the side to move has played the
book's moves, the other side anything: the positions a player that follows the book meets), and may go
past ply 5 as far as the book's moves reach.

What it answers: which plies an exact book pays at (issue 25 §1, "knowledge past the horizon"), and how
far the search at a budget is from exact there. Each exact search of a ply-4 position takes ~10 s of one
core (ply 3: ~22 s), so the sample's cost is about ``sample x (budgets x 10 s + the budgets' time)``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from typing import Any

from _harness import load_text, run_jobs, write_json
from boardeval.core import make_rng
from boardeval.core.stats import wilson_interval
from boardeval.morris import Evaluator, Position, Searcher, load_weights
from boardeval.morris.book import Book, book_positions, default_book
from boardeval.morris.book.build import VALUES, book_line, full_tables, proven_value

_SEARCHERS: dict[tuple[str, str, str], Searcher] = {}


@dataclass(frozen=True)
class Job:
    text: str
    budgets: tuple[tuple[str, float], ...]  # ("time", 0.1) or ("nodes", 1e6)
    tablebase: str
    profile: str
    known: str  # the position's proven value from the book, or "" to search it
    seed: int


def _searcher(job: Job, role: str) -> Searcher:
    """The worker's searcher for ``role``: "play" (the budgeted searches) or "prove" (the exact ones). Two
    searchers, so that no exact search's table entries reach a budgeted search (the shipped engine reuses
    its table from one search to the next, and a proof's entries let a 350,000-node search read depth 14's
    exact values: the first run of this script measured that, not the search)."""
    key = (job.tablebase, job.profile, role)
    if key not in _SEARCHERS:
        tables = full_tables(job.tablebase)
        _SEARCHERS[key] = Searcher(Evaluator(load_weights(job.profile)), tablebase=tables)
    return _SEARCHERS[key]


def proven(searcher: Searcher, pos: Position) -> int:
    """The exact value of a placing position for the side to move (1 win, 0 draw, -1 loss)."""
    res = searcher.compiled().search(pos, depth=max(1, sum(pos.hand)))
    value = proven_value(res.score)
    if value is None:
        raise ValueError(
            f"{pos.text()!r}: the search to the last placement scored {res.score:+.2f}, not exact"
        )
    return VALUES[value]


def check(job: Job) -> dict[str, Any]:
    prover, player = _searcher(job, "prove"), _searcher(job, "play")
    pos = Position.parse(job.text)
    value = VALUES[job.known] if job.known else proven(prover, pos)
    out: dict[str, Any] = {"position": job.text, "value": value, "budgets": {}}
    children: dict[str, int] = {}
    for kind, amount in job.budgets:
        player.clear()  # every budgeted search starts from an empty table, like a game's first search
        if kind == "time":
            res = player.search(pos, None, amount, rng=make_rng(job.seed))
        else:
            res = player.search(pos, None, None, rng=make_rng(job.seed), node_limit=int(amount))
        move = str(res.move)
        if move not in children:
            child = pos.copy()
            child.play(move)
            children[move] = -proven(prover, child)
        out["budgets"][f"{kind}={amount:g}"] = {
            "move": move,
            "depth": res.depth,
            "score": round(res.score, 2),
            "keeps": children[move] >= value,
        }
    return out


def _budgets(times: str, nodes: str) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    for kind, text in (("time", times), ("nodes", nodes)):
        for part in filter(None, text.split(",")):
            try:
                amount = float(part)
            except ValueError:
                raise SystemExit(f"error: --{kind} {text!r}: {part!r} is not a number") from None
            if not amount > 0:
                raise SystemExit(f"error: --{kind} {text!r}: {part!r} must be positive")
            out.append((kind, amount))
    if not out:
        raise SystemExit("error: give --time and/or --nodes budgets")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tablebase", required=True, help="tables of every moving position (K <= 9)")
    ap.add_argument("--ply", type=int, default=3, help="plies from the start (3: Black's second placement)")
    ap.add_argument("--sample", type=int, default=60, help="positions sampled from the ply's classes")
    ap.add_argument("--time", default="0.1,1", help="time budgets in seconds, comma-separated")
    ap.add_argument("--nodes", default="", help="node budgets, comma-separated")
    ap.add_argument("--seed", type=int, default=1, help="the sample's and the searches' seed")
    ap.add_argument("--book", help="a book whose proven values to use (default: the shipped one)")
    ap.add_argument(
        "--lines",
        action="store_true",
        help="sample the ply's positions on the book's own lines (boardeval.morris.book.build.book_line: "
        "the side to move has played the book's moves), the ones a player that follows the book meets",
    )
    ap.add_argument("--profile", default="base")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the rows there")
    args = ap.parse_args(argv)
    if not 0 <= args.ply <= (17 if args.lines else 5):
        raise SystemExit(
            f"error: --ply must be 0..5 (placing positions whose classes are listed; 0..17 with --lines), "
            f"got {args.ply}"
        )
    budgets = tuple(_budgets(args.time, args.nodes))
    book: Book | None = Book.read(args.book) if args.book else default_book()
    if args.lines:
        if book is None:
            raise SystemExit("error: --lines follows a book's moves: give one with --book")
        moves = {t: {"move": str(e.move)} for t, e in book.entries.items()}
        try:
            level = sorted(book_line(args.ply, moves)[1])
        except KeyError as exc:
            raise SystemExit(
                f"error: --lines --ply {args.ply}: the book has no move for {exc.args[0]!r} (its side's "
                "earlier plies must be in the book)"
            ) from None
    else:
        level = book_positions(args.ply + 1)[args.ply]
    sample = sorted(random.Random(args.seed).sample(level, min(args.sample, len(level))))
    jobs = []
    for text in sample:
        entry = None if book is None else book.entries.get(text)
        known = entry.value if entry is not None else ""
        jobs.append(Job(text, budgets, args.tablebase, args.profile, known, args.seed))
    try:
        done = run_jobs(check, jobs, workers=args.workers, label="positions", every=5, show_load=True)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    rows = done.results
    values = {v: sum(r["value"] == v for r in rows) for v in (1, 0, -1)}
    print(
        f"ply {args.ply}{' (the book lines)' if args.lines else ''}: {len(rows)} of {len(level)} "
        f"positions{done.note} (seed {args.seed}; proven values: "
        f"{values[1]} won, {values[0]} drawn, {values[-1]} lost for the side to move; {done.seconds:.0f} s, "
        f"{load_text()})"
    )
    for kind, amount in budgets:
        name = f"{kind}={amount:g}"
        errors = [r for r in rows if not r["budgets"][name]["keeps"]]
        ci = wilson_interval(len(errors), len(rows))
        depth = sum(r["budgets"][name]["depth"] for r in rows) / max(1, len(rows))
        print(
            f"  {name:>12}: {len(errors)} of {len(rows)} moves lose the value ({ci.value:.3f} "
            f"[{ci.lo:.3f}, {ci.hi:.3f}]), depth {depth:.1f}"
        )
        for r in errors:
            b = r["budgets"][name]
            print(
                f"      {r['position']} (value {r['value']:+d}): {b['move']} at depth {b['depth']}, "
                f"{b['score']:+.2f}"
            )
    if args.json:
        write_json(args.json, rows)
    if done.interrupted:
        raise SystemExit(130)


if __name__ == "__main__":
    main()
