"""Time the CP-SAT generators: proving rule sets infeasible, one satisfying board, the proven optimum.

Usage: ``.venv/bin/python benchmarks/catan_cp.py [--repeats R]``

Prints, per case, the median wall time over ``R`` runs (one CP-SAT worker, as the library uses):

* ``satisfy`` on four infeasible rule sets -- how fast "no board satisfies ..." comes back (these were a
  10 s wall-clock assertion in ``tests/catan/test_generate_cp.py``; timings belong here);
* ``satisfy`` on a hard feasible set (seeded, one board);
* ``optimum`` without rules and with ``no-68-neighbours`` (the proven minimum energy), for seed 001's
  energy (harbour weight 0) and for the energy with the harbour term (weight 10, harbours as CP-SAT
  variables), and with the harbour rules ``port-min-pips=5`` + ``no-port-own-resource``; the process
  cache of ``optimum`` is cleared before every run (earlier versions timed the cache after the first).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable

from _harness import add_common_options, load_text
from boardeval.catan import energy_weights, optimum
from boardeval.catan._generate.cp import _optimum_cached, satisfy
from boardeval.core import InfeasibleError

INFEASIBLE = (
    ["max-spot-pips=7"],
    ["min-spot-pips=12"],
    ["desert=centre", "desert=coast"],
    ["resource-pips-band=13..15"],
)
HARD = ["no-68-neighbours", "no-same-resource-neighbours", "max-spot-pips=11", "desert=coast"]


def _median(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _infeasible(rules: list[str]) -> None:
    try:
        satisfy(rules)
    except InfeasibleError:
        return
    raise AssertionError(f"{rules} should be infeasible")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser, repeats=3)
    args = parser.parse_args()
    print(f"repeats: {args.repeats} (median); {load_text()}")
    for rules in INFEASIBLE:
        t = _median(functools.partial(_infeasible, rules), args.repeats)
        print(f"infeasible {' '.join(rules):<40} {t:8.3f} s")
    t = _median(lambda: satisfy(HARD, seed=1), args.repeats)
    print(f"satisfy    {' '.join(HARD)[:40]:<40} {t:8.3f} s")
    cases = ([], ["no-68-neighbours"], ["port-min-pips=5", "no-port-own-resource"])
    for harbour_weight in (0.0, 10.0):
        w = energy_weights().replace(ports=harbour_weight)
        for rules in cases:
            t = _median(functools.partial(_fresh_optimum, rules, w), args.repeats)
            opt = optimum(rules, w, time_limit=600.0)
            print(
                f"optimum    {' '.join(rules) or '(no rules)':<40} {t:8.3f} s   harbour weight "
                f"{harbour_weight:g}: energy {opt.energy:.4f} proven {opt.proven}"
            )
    print(f"after: {load_text()}")


def _fresh_optimum(rules: list[str], weights: object) -> None:
    _optimum_cached.cache_clear()
    optimum(rules, weights, time_limit=600.0)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
