"""EvalBot against DumbBot (issue 14 §4): does the lookahead hold more centres than DumbBot in the same seat?

Usage: ``.venv/bin/python benchmarks/diplomacy_evalbot.py [--games N] [--seed S] [--workers K]
[--max-year Y] [--candidates C] [--opponent-samples M] [--json PATH]``

Game ``i`` (seed ``spawn_seeds(S, N)[i]``) is played twice: once with one ``eval`` bot at power ``i mod 7``
(the seats rotate across the powers) and six ``dumb`` bots, once with seven ``dumb`` bots.  EvalBot draws
from the game's Generator exactly what DumbBot would (see ``boardeval.diplomacy.evalbot``), so the two
games are identical until EvalBot first plays something else than DumbBot's choice: the per-game
difference of that seat's centres at the end of ``Y`` (default 1910) is a paired comparison of EvalBot's
choices alone.  Prints the mean centres of the seat under each bot and the mean paired difference with
95 % intervals, the Wilcoxon signed-rank test, the figures per power, and EvalBot's work (candidates,
adjudications, time per movement phase).  Target: EvalBot holds >= 1 centre more on average.

Ctrl-C stops the run and prints the figures of the finished games (flagged).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from _harness import add_common_options, load_text, print_table, run_jobs, write_json
from boardeval.core import mean_interval, spawn_seeds
from boardeval.diplomacy.bots import DumbBot
from boardeval.diplomacy.evalbot import EvalBot, EvalBotSettings
from boardeval.diplomacy.graph import load_map_graph
from boardeval.diplomacy.tournament import play_players


@dataclass(frozen=True)
class Job:
    index: int
    seed: int
    seat: int
    max_year: int
    candidates: int
    opponent_samples: int
    evaluation_weight: float = 1.0


@dataclass(frozen=True)
class Pair:
    index: int
    seed: int
    power: str
    eval_scs: int
    dumb_scs: int
    eval_solo: bool
    dumb_solo: bool
    eval_seconds: float
    dumb_seconds: float
    stats: dict[str, Any]


def play_pair(job: Job) -> Pair:
    """Both games of one seed: EvalBot at the seat, then DumbBot there (module level: picklable)."""
    graph = load_map_graph("standard")
    power = graph.powers[job.seat]
    settings = EvalBotSettings(
        candidates=job.candidates,
        opponent_samples=job.opponent_samples,
        evaluation_weight=job.evaluation_weight,
    )
    bot = EvalBot(settings)
    players: list[Any] = [bot if p == job.seat else DumbBot() for p in range(len(graph.powers))]
    start = time.perf_counter()
    game = play_players(players, job.seed, max_year=job.max_year)
    eval_seconds = time.perf_counter() - start
    eval_centres = game.get_centers()
    start = time.perf_counter()
    base = play_players([DumbBot() for _ in graph.powers], job.seed, max_year=job.max_year)
    dumb_seconds = time.perf_counter() - start
    base_centres = base.get_centers()
    return Pair(
        index=job.index,
        seed=job.seed,
        power=power,
        eval_scs=len(eval_centres.get(power, [])),
        dumb_scs=len(base_centres.get(power, [])),
        eval_solo=len(eval_centres.get(power, [])) >= graph.win,
        dumb_solo=len(base_centres.get(power, [])) >= graph.win,
        eval_seconds=eval_seconds,
        dumb_seconds=dumb_seconds,
        stats=asdict(bot.stats),
    )


def report(pairs: list[Pair], requested: int, interrupted: bool, max_year: int) -> dict[str, Any]:
    """Print the figures and return them as JSON data."""
    from scipy import stats

    n = len(pairs)
    if interrupted:
        print(f"   (interrupted: {n} of {requested} games)")
    if n == 0:
        return {"games": 0}
    ev = mean_interval([float(p.eval_scs) for p in pairs])
    du = mean_interval([float(p.dumb_scs) for p in pairs])
    diffs = [float(p.eval_scs - p.dumb_scs) for p in pairs]
    diff = mean_interval(diffs)
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    nonzero = [d for d in diffs if d != 0]
    wil = stats.wilcoxon(nonzero, alternative="greater") if len(nonzero) >= 2 else None
    print(f"   seat played by eval: mean SCs at the end of {max_year} {ev}")
    print(f"   same seat, same seed, played by dumb:         {du}")
    print(
        f"   paired difference eval - dumb: {diff}  "
        f"(better {better}, equal {n - better - worse}, worse {worse})"
    )
    if wil is not None:
        print(
            f"   Wilcoxon signed-rank (one-sided, eval > dumb): W = {wil.statistic:.0f}, p = {wil.pvalue:.3g}"
        )
    verdict = "met" if diff.value >= 1.0 else "NOT met"
    print(f"   target: eval holds >= 1 centre more on average: {verdict} (mean difference {diff.value:.2f})")
    print(
        f"   solos of the seat: eval {sum(p.eval_solo for p in pairs)}/{n}, "
        f"dumb {sum(p.dumb_solo for p in pairs)}/{n}"
    )
    print("   per power:")
    per_power = {}
    rows = []
    for power in load_map_graph("standard").powers:
        mine = [p for p in pairs if p.power == power]
        if not mine:
            continue
        d = mean_interval([float(p.eval_scs - p.dumb_scs) for p in mine])
        e = statistics.fmean(p.eval_scs for p in mine)
        b = statistics.fmean(p.dumb_scs for p in mine)
        per_power[power] = {"games": len(mine), "eval": e, "dumb": b, "difference": d.to_list()}
        rows.append((power, len(mine), e, b, d))
    print_table(("power", "games", "eval mean", "dumb mean", "mean difference"), rows, indent="     ")
    phases = sum(p.stats["phases"] for p in pairs)
    cands = sum(p.stats["candidates"] for p in pairs)
    adj = sum(p.stats["adjudications"] for p in pairs)
    changed = sum(p.stats["changed"] for p in pairs)
    timeouts = sum(p.stats["timeouts"] for p in pairs)
    seconds = sum(p.stats["seconds"] for p in pairs)
    print(
        f"   EvalBot work: {phases} movement phases with a choice, {cands / max(phases, 1):.1f} distinct "
        f"candidates and {adj / max(phases, 1):.1f} adjudications per phase, "
        f"{1000 * seconds / max(phases, 1):.0f} ms per phase; DumbBot's choice changed in {changed}/{phases} "
        f"phases; time bound hit {timeouts} times"
    )
    print(
        f"   wall time per game: eval game {statistics.fmean(p.eval_seconds for p in pairs):.2f} s, "
        f"all-dumb game {statistics.fmean(p.dumb_seconds for p in pairs):.2f} s"
    )
    return {
        "games": n,
        "requested": requested,
        "interrupted": interrupted,
        "max_year": max_year,
        "eval_mean": ev.to_list(),
        "dumb_mean": du.to_list(),
        "difference": diff.to_list(),
        "better_equal_worse": [better, n - better - worse, worse],
        "wilcoxon_p": None if wil is None else float(wil.pvalue),
        "per_power": per_power,
        "work": {
            "phases": phases,
            "candidates_per_phase": cands / max(phases, 1),
            "adjudications_per_phase": adj / max(phases, 1),
            "ms_per_phase": 1000 * seconds / max(phases, 1),
            "changed": changed,
            "timeouts": timeouts,
        },
        "pairs": [asdict(p) for p in pairs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_options(parser, games=210, seed=2026, workers=2, json_file=True)
    parser.add_argument("--max-year", type=int, default=1910)
    parser.add_argument("--candidates", type=int, default=EvalBotSettings().candidates)
    parser.add_argument("--opponent-samples", type=int, default=EvalBotSettings().opponent_samples)
    parser.add_argument(
        "--evaluation-weight",
        type=float,
        default=EvalBotSettings().evaluation_weight,
        help="weight of the fitted evaluation in the score (0: projected centres only, an ablation)",
    )
    args = parser.parse_args()
    print(
        f"EvalBot vs DumbBot: {args.games} paired games to the end of {args.max_year}, seed {args.seed}, "
        f"{args.workers} workers, {args.candidates} candidates, {args.opponent_samples} opponent sample(s), "
        f"evaluation weight {args.evaluation_weight}; "
        f"{load_text()}"
    )
    seeds = spawn_seeds(args.seed, args.games)
    jobs = [
        Job(i, s, i % 7, args.max_year, args.candidates, args.opponent_samples, args.evaluation_weight)
        for i, s in enumerate(seeds)
    ]
    done = run_jobs(play_pair, jobs, workers=args.workers, label="games")
    pairs, elapsed = done.results, done.seconds
    data = report(pairs, args.games, done.interrupted, args.max_year)
    print(f"   {elapsed:.0f} s wall for {len(pairs)} pairs; after: {load_text()}")
    if args.json:
        data["elapsed_seconds"] = elapsed
        data["settings"] = vars(args)
        write_json(args.json, data)


if __name__ == "__main__":
    main()
