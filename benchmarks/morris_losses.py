"""Where each lost game of a saved Morris match was decided: dealt lost, or the AI's own move.

``benchmarks/morris_strength.py --versus-old --save RUN`` writes every game's moves (``game-N.moves.json``)
from random openings; a random opening can be lost for one colour before either engine has moved, and then
a perfect player loses it too. For "a strong engine cannot beat it" (issue 25) what counts is a loss from a
position that was not lost. This script replays each game the new AI lost and, at each of the new AI's moves
in turn, searches the position after the move deeply (``--nodes``, no forward pruning: late-move
reductions and null moves off, so a score beyond the mate bound is a proof given the tables' values); the
first move after which the opponent is proven to win is searched from before it too:

    dealt       the position before the new AI's first move was proven lost (the opening decided the game);
    earlier     the position before that move was proven lost, but not its earlier moves' results (the
                loss was decided earlier than the search can show);
    error       the deep search prefers another move there: "held" when that move is proven not to lose
                (searched past the last placement into tables of every moving position, or a tablebase
                answer in moving), "unproven" when it is only the deeper search's choice;
    same        the deep search plays the same move and another move is not proven to lose (the position
                was probably lost already, unproven); when every other move is proven to lose too, the
                verdict is dealt or earlier;
    open        no move of the new AI is proven to lose within the budget.

    python benchmarks/morris_losses.py RUN --seed 2542 --tablebase DIR [--nodes 30000000] [--workers 2]

``--seed`` and ``--openings-plies`` must be the match's (the openings are drawn again from them); the
tables should be the match's or larger. Prints one line per lost game and the tally; the colour-swapped
pairs (what the same opening gave with the colours swapped) beside it.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from _harness import load_text, run_jobs, write_json
from boardeval.core import make_rng, spawn_seeds
from boardeval.morris import Evaluator, Position, Searcher, Tablebase, load_weights, random_position
from boardeval.morris._evaluate import MATE_BOUND
from boardeval.morris._search.compiled.options import EngineOptions
from boardeval.morris._search.endgame import holds_every_moving_position

VERDICTS = ("dealt", "earlier", "error", "same", "open")


@dataclass(frozen=True)
class LossJob:
    game: int
    opening_seed: int
    plies: int
    moves: tuple[tuple[int, str, str], ...]  # (turn, side, move) of every move of the game
    tablebase: str
    nodes: int
    profile: str


def _exact(pos: Position, res: Any) -> bool:
    """A search result whose score is the position's value: a tablebase answer, a score beyond the mate
    bound, or a placing search that reached past the last placement (every line there ends in a table's
    exact value when the tables hold every moving position)."""
    if res.tablebase is not None or abs(res.score) > MATE_BOUND:
        return True
    left = int(pos.hand[0]) + int(pos.hand[1])
    return left > 0 and res.depth >= left


def classify(job: LossJob) -> dict[str, Any]:
    """The verdict on one lost game (see the module's docstring) with the turn, the move, the deep search's
    choice there and its score (the side to move's view)."""
    tb = Tablebase.open(job.tablebase)
    full = holds_every_moving_position(tb)
    options = replace(EngineOptions(), lmr=False, null_move=False)
    searcher = Searcher(Evaluator(load_weights(job.profile)), tablebase=tb, options=options)

    def deep(p: Position) -> Any:
        return searcher.search(p, None, None, rng=make_rng(1), node_limit=job.nodes)

    pos = random_position(job.opening_seed, 2 * job.plies)  # the match's opening (its random placements)
    if job.moves and job.moves[0][0] != pos.turns:
        raise ValueError(
            f"game {job.game}: its moves start at turn {job.moves[0][0]}, the opening drawn again ends at "
            f"turn {pos.turns}: give the match's --openings-plies"
        )
    first = True
    for turn, side, move in job.moves:
        if move not in {str(t) for t in pos.legal_turns()}:
            raise ValueError(
                f"game {job.game}: {move!r} at turn {turn} is not legal in {pos.text()!r}: the openings "
                "drawn again are not the match's (give its --seed and --openings-plies)"
            )
        if side != "new":
            pos.play(move)
            continue
        child = pos.copy()
        child.play(move)
        if child.outcome() is None:
            after = deep(child)
            if after.score > MATE_BOUND:  # the opponent, to move, is proven to win
                before = deep(pos)
                row = {
                    "game": job.game,
                    "turn": turn,
                    "position": pos.text(),
                    "played": move,
                    "after": -after.score,
                    "best": str(before.move),
                    "best_score": before.score,
                    "best_depth": before.depth,
                }
                if before.score < -MATE_BOUND:
                    return {**row, "verdict": "dealt" if first else "earlier"}
                if str(before.move) == move:
                    # every other move searched too: all proven to lose makes the loss older than this move
                    for other in pos.legal_turns():
                        if str(other) == move:
                            continue
                        c = pos.copy()
                        c.push(other)
                        if c.outcome() is not None or deep(c).score <= MATE_BOUND:
                            return {**row, "verdict": "same", "unproven": str(other)}
                    return {**row, "verdict": "dealt" if first else "earlier", "every_move": True}
                # not proven lost here (returned above): a proven win, or an exact draw, holds
                held = before.score > MATE_BOUND or (full and _exact(pos, before))
                return {**row, "verdict": "error", "held": bool(held)}
        first = False
        pos.play(move)
    return {"game": job.game, "verdict": "open"}


def _results(folder: Path) -> dict[int, str]:
    """Each saved game's result for the new AI ("win", "draw", "loss") by its number."""
    return {
        int(Path(f).name[5:10]): json.loads(Path(f).read_text())[0]
        for f in glob.glob(f"{folder}/game-?????.json")
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="a --save folder of benchmarks/morris_strength.py --versus-old")
    ap.add_argument("--seed", type=int, required=True, help="the match's --seed (its openings)")
    ap.add_argument("--openings-plies", type=int, default=2, help="the match's --openings-plies")
    ap.add_argument("--tablebase", required=True, help="a tablebase folder (K <= 9 proves placing draws)")
    ap.add_argument("--nodes", type=int, default=30_000_000, help="nodes of each deep search")
    ap.add_argument("--profile", default="base", help="weights of the deep search's static scores")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the rows there")
    args = ap.parse_args(argv)
    folder = Path(args.run)
    results = _results(folder)
    if not results:
        raise SystemExit(f"error: no game-NNNNN.json in {str(folder)!r}")
    if args.nodes < 1:
        raise SystemExit(f"error: --nodes must be >= 1, got {args.nodes!r}")
    seeds = spawn_seeds(args.seed, max(results) // 2 + 1)
    jobs = []
    for game, result in sorted(results.items()):
        if result != "loss":
            continue
        moves = json.loads((folder / f"game-{game:05d}.moves.json").read_text())
        jobs.append(
            LossJob(
                game,
                seeds[game // 2],
                args.openings_plies,
                tuple((m["turn"], m["side"], m["move"]) for m in moves),
                args.tablebase,
                args.nodes,
                args.profile,
            )
        )
    try:
        done = run_jobs(classify, jobs, workers=args.workers, label="losses", every=5, show_load=True)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    rows = done.results
    for r in rows:
        partner = results.get(r["game"] ^ 1, "?")
        where = "" if r["verdict"] == "open" else f" turn {r['turn']} {r['position']} played {r['played']}"
        alt = ""
        if r["verdict"] == "error":
            alt = f", deep search: {r['best']} {r['best_score']:+.2f} ({'held' if r['held'] else 'unproven'})"
        elif r["verdict"] == "same":
            alt = f", not proven to lose: {r['unproven']}"
        elif r.get("every_move"):
            alt = ", every move proven to lose"
        print(f"  game {r['game']:5d} ({partner} with colours swapped): {r['verdict']}{where}{alt}")
    tally = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    held = sum(r["verdict"] == "error" and r["held"] for r in rows)
    counts = ", ".join(f"{verdict} {count}" for verdict, count in tally.items())
    print(
        f"{folder}: {len(rows)} lost games{done.note} ({args.nodes:,} nodes a deep search, "
        f"{done.seconds:.0f} s, {load_text()}): {counts} (errors held: {held})"
    )
    if args.json:
        write_json(args.json, rows)
    if done.interrupted:
        raise SystemExit(130)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
