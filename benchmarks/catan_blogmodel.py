"""Seed 004's marker model: time to count the layouts at T = 23 (and T = 24).

Usage: ``.venv/bin/python benchmarks/catan_blogmodel.py [--repeats R] [--t24]``

MiniZinc + Gecode counts T = 23 (11,753 solutions) in about 23 s (the blog); the target is 10x faster,
<= 2.3 s, in pure Python. Prints the best and median wall time of R runs, the best CPU time (what
the run costs on an idle core; the machine is shared), the search nodes, and the load average.
With ``--t24`` also counts T = 24 (500,170 expected) once. The tile model (96) is timed too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from boardeval.catan import count_markers, count_tiles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--t24", action="store_true")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    t = time.perf_counter()
    n = count_tiles()
    print(f"tiles: {n} solutions (expected 96) in {time.perf_counter() - t:.3f} s")
    for threshold, expected in ((22, 1), (23, 11_753)):
        runs, cpu = [], []
        for _ in range(args.repeats):
            c0 = time.process_time()
            runs.append(count_markers(threshold))
            cpu.append(time.process_time() - c0)
        secs = [r.seconds for r in runs]
        print(
            f"markers T={threshold}: {runs[0].count} solutions (expected {expected}), {runs[0].nodes} nodes, "
            f"wall best {min(secs):.3f} s / median {statistics.median(secs):.3f} s, "
            f"CPU best {min(cpu):.3f} s over {args.repeats} runs"
        )
    print("target: T = 23 in <= 2.3 s (Gecode: ~23 s)")
    if args.t24:
        r = count_markers(24)
        print(f"markers T=24: {r.count} solutions (expected 500,170), {r.nodes} nodes, {r.seconds:.2f} s")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
