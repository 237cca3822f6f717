"""Diplomacy bots: is the DumbBot-style bot stronger than random orders, how often does it solo, how fast?

Usage: ``.venv/bin/python benchmarks/diplomacy_bots.py [--games N] [--solo-games N] [--speed-games N]
[--workers K] [--seed S] [--mix BOTS] [--max-year Y] [--solo-year Y]``

Prints, in one run (every game seeded; the seats rotate across the powers game by game):

1. **Strength** in a mixed game (default ``dumb*3,random*4`` to the end of 1910, 210 games): mean final
   supply centres per bot kind with 95 % intervals, and three tests of "dumb > random" (one-sided):
   Mann-Whitney U and Welch's t on the per-seat centres (seats of one game are not independent: the
   centres sum to at most 34), and the Wilcoxon signed-rank test on the per-game difference
   (mean dumb seat - mean random seat), which only assumes independent games.  Target: p < 0.01.
2. **Solo**: one DumbBot among six random bots, to the end of 1920 (default 210 games): how often it
   reaches the centres needed to win (18), with a Wilson interval, and in which year.
3. **Throughput**: the same games (``dumb,random*6`` to 1910) on 1 worker and on ``--workers`` workers,
   games/s and the speed-up, with the load average and the CPU time used beside it (the machine is
   shared: "cores busy" = CPU seconds / wall seconds shows how much of 2 cores the run actually got).
   Target: >= 1.8x.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from scipy import stats

from _harness import add_common_options, cpu_seconds, load_text, print_table
from boardeval.core import Progress, mean_interval, wilson_interval
from boardeval.diplomacy.tournament import TournamentResult, run_tournament


def _progress(label: str) -> Progress:
    def report(done: int, total: int, message: str = "") -> None:
        if done == total or done % 10 == 0:
            print(f"  {label}: {done}/{total}", file=sys.stderr, flush=True)

    return report


def strength(games: int, seed: int, mix: str, max_year: int, workers: int) -> None:
    print(f"\n1. Strength: {mix}, {games} games to the end of {max_year} (seed {seed}, {workers} workers)")
    result = run_tournament(
        mix, games, seed, max_year=max_year, workers=workers, progress=_progress("strength")
    )
    _summary(result)
    dumb = [n for g in result.games for s, n in zip(g.seats, g.final_scs, strict=True) if s == "dumb"]
    rand = [n for g in result.games for s, n in zip(g.seats, g.final_scs, strict=True) if s == "random"]
    diffs = []
    for g in result.games:
        d = [n for s, n in zip(g.seats, g.final_scs, strict=True) if s == "dumb"]
        r = [n for s, n in zip(g.seats, g.final_scs, strict=True) if s == "random"]
        diffs.append(statistics.fmean(d) - statistics.fmean(r))
    mw = stats.mannwhitneyu(dumb, rand, alternative="greater")
    welch = stats.ttest_ind(dumb, rand, equal_var=False, alternative="greater")
    wil = stats.wilcoxon(diffs, alternative="greater")
    diff = mean_interval(diffs)
    print(f"   per-game difference (mean dumb seat - mean random seat): {diff}")
    print(f"   Mann-Whitney U (per seat, one-sided): U = {mw.statistic:.0f}, p = {mw.pvalue:.3g}")
    print(f"   Welch t (per seat, one-sided):        t = {welch.statistic:.2f}, p = {welch.pvalue:.3g}")
    print(f"   Wilcoxon signed-rank (per game):      W = {wil.statistic:.0f}, p = {wil.pvalue:.3g}")
    worst = max(mw.pvalue, welch.pvalue, wil.pvalue)
    print(f"   target p < 0.01: {'met' if worst < 0.01 else 'NOT met'} (largest p {worst:.3g})")


def solo(games: int, seed: int, max_year: int, workers: int) -> None:
    print(
        f"\n2. Solo: dumb,random*6, {games} games to the end of {max_year} (seed {seed}, {workers} workers)"
    )
    result = run_tournament(
        "dumb,random*6",
        games,
        seed,
        max_year=max_year,
        workers=workers,
        progress=_progress("solo"),
    )
    _summary(result)
    n = len(result.games)
    dumb_solos = [g for g in result.games if g.solo is not None and g.seats[g.powers.index(g.solo)] == "dumb"]
    other = sum(1 for g in result.games if g.solo is not None) - len(dumb_solos)
    rate = wilson_interval(len(dumb_solos), n)
    print(f"   DumbBot solos by {max_year}: {len(dumb_solos)}/{n} = {rate} (random-bot solos: {other})")
    years = sorted(g.solo_year for g in dumb_solos if g.solo_year is not None)
    if years:
        first = int(result.games[0].saved["phases"][0]["name"][1:-1])
        spans = [y - first + 1 for y in years]
        print(
            f"   year of the solo: median {statistics.median(years):.0f}, quartiles "
            f"{statistics.quantiles(years, n=4)[0]:.0f}-{statistics.quantiles(years, n=4)[2]:.0f}, "
            f"range {years[0]}-{years[-1]}; game years needed: {mean_interval([float(s) for s in spans])}"
        )
        by_power: dict[str, int] = {}
        seats: dict[str, int] = {}
        for g in result.games:
            p = g.powers[g.seats.index("dumb")]
            seats[p] = seats.get(p, 0) + 1
            if g in dumb_solos:
                by_power[p] = by_power.get(p, 0) + 1
        print(
            "   solos by the DumbBot's power: "
            + ", ".join(f"{p} {by_power.get(p, 0)}/{seats[p]}" for p in seats)
        )


def throughput(games: int, seed: int, max_year: int, workers: int) -> None:
    print(f"\n3. Throughput: dumb,random*6, {games} games to the end of {max_year}")
    rates = {}
    for k in (1, workers):
        before = load_text()
        cpu0 = cpu_seconds()
        start = time.perf_counter()
        result = run_tournament("dumb,random*6", games, seed, max_year=max_year, workers=k)
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds() - cpu0
        phases = sum(len(g.saved["phases"]) - 1 for g in result.games)
        rates[k] = games / elapsed
        print(
            f"   {k} worker(s): {games / elapsed:.2f} games/s, {phases / elapsed:.0f} phases/s "
            f"({elapsed:.1f} s wall; {cpu:.1f} s CPU in this process and its workers = {cpu / games:.3f} "
            f"CPU s/game, {cpu / elapsed:.2f} cores busy); before: {before}; after: {load_text()}"
        )
    if workers > 1:
        speedup = rates[workers] / rates[1]
        verdict = "met" if speedup >= 1.8 else "NOT met"
        print(f"   speed-up {workers} workers vs 1: {speedup:.2f}x (target >= 1.8x: {verdict})")


def _summary(result: TournamentResult) -> None:
    if result.interrupted:
        print(f"   (interrupted: {len(result.games)} of {result.requested} games)")
    print_table(
        ("bot", "seats", "mean final SCs", "solos", "survivals"),
        [(r.name, r.seats, r.mean_final_scs, r.solos, f"{r.survivals}/{r.seats}") for r in result.summary()],
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_options(parser, games=210, seed=2026, workers=2, games_help="games for the strength test")
    parser.add_argument("--solo-games", type=int, default=210, help="games for the solo figure")
    parser.add_argument("--speed-games", type=int, default=40, help="games for each throughput run")
    parser.add_argument("--mix", default="dumb*3,random*4", help="bots of the strength test")
    parser.add_argument("--max-year", type=int, default=1910)
    parser.add_argument("--solo-year", type=int, default=1920)
    parser.add_argument("--skip", action="append", default=[], choices=["strength", "solo", "throughput"])
    args = parser.parse_args()
    print(f"diplomacy bots benchmark; {load_text()}")
    if "strength" not in args.skip:
        strength(args.games, args.seed, args.mix, args.max_year, args.workers)
    if "solo" not in args.skip:
        solo(args.solo_games, args.seed + 1, args.solo_year, args.workers)
    if "throughput" not in args.skip:
        throughput(args.speed_games, args.seed + 2, args.max_year, args.workers)


if __name__ == "__main__":
    main()
