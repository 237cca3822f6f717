"""Alliance detection (issue 14 §3) on bot games with seeded allied pairs: the two rules side by side.

Usage: ``.venv/bin/python benchmarks/diplomacy_alliances.py [--games N] [--seed S] [--workers K]``

Plays ``N`` games (default 70) of each of the corpus's allied mixes (``dumb*7`` with 2 allied pairs,
``dumb*5,random*2`` with 1), seats rotated, to the end of 1910 (the games of ``boardeval diplomacy corpus``,
on a fresh seed), then detects alliances in every game with rule ``peace`` (mutual fear > 0 and never
attacked each other, the default) and rule ``calm`` (mutual fear alone), without the seeding, and prints
precision and recall against the seeded pairs per rule, for all years and by period, with Wilson
intervals (the (pair, year) rows of one game are not independent: read the intervals as optimistic).
Also checks that no seeded pair ever "attacked" (the rule's premise), and prints the peace rule's
detections on the three human games.
"""

from __future__ import annotations

import argparse
import sys
import time

from _harness import add_common_options, load_text
from boardeval.core import wilson_interval
from boardeval.diplomacy import load_records, record_from_saved, shipped_game_paths
from boardeval.diplomacy.alliances import RULES, detect_alliances, score_detection
from boardeval.diplomacy.measures import compute_measures
from boardeval.diplomacy.tournament import run_tournament

MIXES = (("dumb*7", 2), ("dumb*5,random*2", 1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_options(parser, games=70, seed=2027, workers=1, games_help="games per allied mix")
    args = parser.parse_args()
    print(f"alliance detection: {args.games} games per mix, seed {args.seed}; {load_text()}")
    start = time.perf_counter()
    results: dict[str, list] = {rule: [] for rule in RULES}
    broken = 0
    for k, (mix, pairs) in enumerate(MIXES):
        tour = run_tournament(mix, args.games, args.seed + k, allies=pairs, workers=args.workers)
        for game in tour.games:
            record = record_from_saved(game.saved)
            gm = compute_measures(record)
            for rule in RULES:
                found = detect_alliances(record, rule=rule, measures=gm)
                results[rule].append((found, game.allies))
                if rule == "peace":
                    truth = {tuple(p) for p in game.allies}
                    broken += sum(
                        1 for y in found.years for s in y.signals if (s.a, s.b) in truth and s.attacked
                    )
        print(f"  {mix} (allies {pairs}): {len(tour.games)} games", file=sys.stderr, flush=True)
    print(f"   seeded pairs seen attacking each other (must be 0): {broken}")
    for rule in RULES:
        for label, years in (
            ("all years", None),
            ("1901-1904", range(1901, 1905)),
            ("1905-1910", range(1905, 1911)),
        ):
            s = score_detection(results[rule], years=years)
            p = wilson_interval(s.true_positives, max(s.detected, 1))
            r = wilson_interval(s.true_positives, max(s.known, 1))
            print(
                f"   rule {rule:5s} {label:9s}: detected {s.detected:5d}, known {s.known:5d}, "
                f"candidates {s.candidates:6d}; precision {p}, recall {r} (guessing: {s.base_rate:.3f})"
            )
    print("   peace rule on the human games:")
    for path in shipped_game_paths():
        record = load_records(path)[0]
        found = detect_alliances(record)
        years = "; ".join(
            f"{y.year}: " + (", ".join(f"{a[:3].title()}-{b[:3].title()}" for a, b in y.pairs) or "-")
            for y in found.years
        )
        print(f"     {record.game_id}: {years}")
    print(f"   {time.perf_counter() - start:.0f} s; after: {load_text()}")


if __name__ == "__main__":
    main()
