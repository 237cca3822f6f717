"""Phases per second for all Diplomacy measures: the vectorised implementation vs a plain per-phase BFS.

Usage: ``.venv/bin/python benchmarks/diplomacy_measures.py [--random-games N] [--max-phases M] [--repeats R]``

Workload: the three real human games shipped inside the installed ``diplomacy`` package (read in place) plus
``--random-games`` seeded random-order games played by the engine (seeds 0..N-1, standard map).  Records
are parsed once, before timing (JSON parsing is not a measure).

Prints, in one run:

* the engine's own phase processing while generating the random games (for scale);
* ``compute_measures``: every measure for every power at every phase, as numpy arrays (encoding the
  record's units and centres into arrays included);
* ``measures_table``: the same plus the tidy pandas table (phase, power, measure, other, value);
* ``plain_measures``: the straightforward implementation that runs a BFS per unit/power every phase;

checks that the fast and plain values agree on every row, and compares with the targets:
>= 5,000 phases/s and >= 10x the plain implementation.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from _harness import add_common_options, load_text
from boardeval.diplomacy import (
    GameRecord,
    compute_measures,
    load_map_graph,
    load_records,
    measures_table,
    random_game,
    record_from_game,
    shipped_game_paths,
    static_fear,
    table_rows,
)
from boardeval.diplomacy._plain import plain_measures  # the reference implementation (not public)


def _best_rate(fn: Callable[[], object], phases: int, repeats: int) -> tuple[float, float]:
    """(median, best) phases per second over ``repeats`` timed runs of ``fn``."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        rates.append(phases / (time.perf_counter() - start))
    return statistics.median(rates), max(rates)


def _agree(games: list[GameRecord]) -> int:
    checked = 0
    for game in games:
        fast = {
            (r["phase"], r["power"], r["measure"], r["other"]): r["value"]
            for r in table_rows(measures_table(game))
        }
        slow = plain_measures(game)
        assert fast.keys() == slow.keys(), game.game_id
        for key, want in slow.items():
            got = fast[key]
            ok = (got is None and want is None) or (
                isinstance(got, float) and want is not None and math.isclose(got, want, abs_tol=1e-12)
            )
            assert ok, (game.game_id, key, got, want)
            checked += 1
    return checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=20)
    parser.add_argument("--max-phases", type=int, default=40)
    add_common_options(parser, repeats=5)
    args = parser.parse_args()

    load_map_graph("standard")
    static_fear("standard")  # warm the per-map caches, as a long-running process would have them
    games = [load_records(p)[0] for p in shipped_game_paths()]
    human_phases = sum(len(g.phases) for g in games)

    start = time.perf_counter()
    played = [random_game(seed, max_phases=args.max_phases) for seed in range(args.random_games)]
    engine_seconds = time.perf_counter() - start
    engine_phases = sum(len(g.get_phase_history()) for g in played)
    games += [record_from_game(g) for g in played]
    phases = sum(len(g.phases) for g in games)

    def fast_arrays() -> None:
        for g in games:
            compute_measures(g)

    def fast_table() -> None:
        for g in games:
            measures_table(g)

    def plain() -> None:
        for g in games:
            plain_measures(g)

    fast_arrays()  # warm-up
    arrays = _best_rate(fast_arrays, phases, args.repeats)
    table = _best_rate(fast_table, phases, args.repeats)
    slow = _best_rate(plain, phases, max(1, args.repeats // 2))
    rows = _agree(games)

    print(f"machine: {load_text()}")
    print(
        f"workload: 3 human games ({human_phases} phases) + {args.random_games} random games "
        f"= {len(games)} games, {phases} phases"
    )
    print(f"engine (random orders, process()): {engine_phases / engine_seconds:8.0f} phases/s")
    print(f"compute_measures (numpy arrays):   {arrays[0]:8.0f} phases/s median, {arrays[1]:8.0f} best")
    print(f"measures_table (tidy DataFrame):   {table[0]:8.0f} phases/s median, {table[1]:8.0f} best")
    print(f"plain per-phase BFS:               {slow[0]:8.0f} phases/s median, {slow[1]:8.0f} best")
    print(f"speed-up vs plain: arrays {arrays[0] / slow[0]:.1f}x, table {table[0] / slow[0]:.1f}x (medians)")
    print(f"agreement: {rows} rows identical between the fast and plain implementations")
    target = "MET" if table[0] >= 5000 and table[0] >= 10 * slow[0] else "NOT MET"
    print(f"target >= 5,000 phases/s and >= 10x plain (table, median): {target}")


if __name__ == "__main__":
    main()
