"""Seed 004's models, counted by MiniZinc + Gecode (the seed's own tool) and by our counter in the same run.

Usage: ``.venv/bin/python benchmarks/catan_blogmodel.py [--repeats R] [--mzn-repeats M] [--t24]``

The MiniZinc models are ours, written out from the seed and spec section 4:
``benchmarks/catan_blog_tiles.mzn`` (the tile model: 96 solutions) and ``benchmarks/catan_blog_markers.mzn``
(the marker model on the blog's board, threshold ``T`` passed as data: 0 / 1 / 11,753 solutions for
T = 21 / 22 / 23). Gecode enumerates every solution (``-a``) and reports its count in its statistics;
at T = 22 the one solution it prints is compared with ours. Our counts are
:func:`boardeval.catan.count_tiles` and :func:`boardeval.catan.count_markers`.

Printed per model: both counts, our wall time (best and median of R runs, and the best CPU time),
MiniZinc's wall time (the whole ``minizinc`` process: compile + solve; best of M runs), its CPU seconds
(``minizinc`` and its solver child) and Gecode's own solve time, and the ratios MiniZinc / ours of the
best wall and the best CPU times (CPU is the steadier figure on a loaded machine). The machine is
shared: the load average is printed before and after. MiniZinc is not a dependency of boardeval
(``apt-get install minizinc`` on Debian: 2.6.4 with Gecode 6.2.0); without it the script says so and
prints our figures only. ``--t24`` also counts T = 24 (500,170 expected; ours only).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from boardeval.catan import count_markers, iter_tiles
from boardeval.catan.blogmodel import BLOG_T22_MARKERS

HERE = Path(__file__).parent
TILES_MZN = HERE / "catan_blog_tiles.mzn"
MARKERS_MZN = HERE / "catan_blog_markers.mzn"
EXPECTED = {"tiles": 96, 21: 0, 22: 1, 23: 11_753}


@dataclass(frozen=True)
class MznRun:
    """One ``minizinc`` run: the solution count Gecode reports, wall, CPU (the process and its children)
    and Gecode's solve seconds, the solutions."""

    count: int
    wall: float
    cpu: float
    solve: float
    solutions: list[list[int]]


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_minizinc(model: Path, data: dict[str, int]) -> MznRun:
    """Enumerate every solution of ``model`` with Gecode; the count and solve time from its statistics."""
    args = ["minizinc", "--solver", "gecode", "-a", "-s", str(model)]
    for k, v in data.items():
        args += ["-D", f"{k}={v}"]
    t, c = time.perf_counter(), _children_cpu()
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - t, _children_cpu() - c
    if proc.returncode != 0:
        raise SystemExit(f"minizinc failed on {model.name}: {proc.stderr.strip().splitlines()[-1:]}")
    counts = re.findall(r"%%%mzn-stat: solutions=(\d+)", proc.stdout)
    solves = re.findall(r"%%%mzn-stat: solveTime=([0-9.eE+-]+)", proc.stdout)
    if not counts:
        raise SystemExit(f"minizinc printed no solution count for {model.name}:\n{proc.stdout[-500:]}")
    lines = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    solutions = [[int(x) for x in re.findall(r"-?\d+", line)] for line in lines]
    solve = float(solves[-1]) if solves else float("nan")
    return MznRun(int(counts[-1]), wall, cpu, solve, solutions)


def ours(fn: Callable[[], int], repeats: int) -> tuple[int, list[float], list[float]]:
    """Our count with its wall and CPU seconds over ``repeats`` runs."""
    walls, cpus, n = [], [], 0
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        n = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return n, walls, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs of our counter per model (best and median)")
    ap.add_argument("--mzn-repeats", type=int, default=1, help="runs of minizinc per model (best)")
    ap.add_argument("--t24", action="store_true", help="also count T = 24 (ours only)")
    args = ap.parse_args()
    have_mzn = shutil.which("minizinc") is not None
    print(f"load average before: {os.getloadavg()}")
    if have_mzn:
        out = subprocess.run(["minizinc", "--version"], capture_output=True, text=True, check=False).stdout
        print(f"minizinc: {(out.splitlines() or ['?'])[0]} (solver gecode)")
    else:
        print("minizinc is NOT installed: only our counts below (Debian: apt-get install -y minizinc)")
    jobs: list[tuple[str, Callable[[], int], Path, dict[str, int]]] = [
        ("tiles", lambda: sum(1 for _ in iter_tiles()), TILES_MZN, {}),  # count_tiles() is cached
        *(
            (f"markers T={t}", (lambda t=t: count_markers(t).count), MARKERS_MZN, {"T": t})
            for t in (21, 22, 23)
        ),
    ]
    header = f"{'model':<14} {'expected':>8} {'ours':>7} {'ours wall best/median':>22} {'ours CPU':>9}"
    if have_mzn:
        header += f" {'gecode':>7} {'mzn wall':>9} {'mzn CPU':>9} {'solve':>8}"
        header += f" {'wall ratio':>10} {'CPU ratio':>9}"
    print(header)
    for (name, fn, model, data), expected in zip(jobs, EXPECTED.values(), strict=True):
        n, walls, cpus = ours(fn, args.repeats)
        line = (
            f"{name:<14} {expected:>8,} {n:>7,} {min(walls):>10.3f} / {statistics.median(walls):.3f} s"
            f" {min(cpus):>7.3f} s"
        )
        if have_mzn:
            runs = [run_minizinc(model, data) for _ in range(args.mzn_repeats)]
            best = min(runs, key=lambda r: r.wall)
            cpu = min(r.cpu for r in runs)
            line += (
                f" {best.count:>7,} {best.wall:>7.3f} s {cpu:>7.3f} s {best.solve:>6.3f} s"
                f" {best.wall / min(walls):>9.1f}x {cpu / min(cpus):>8.1f}x"
            )
            if data.get("T") == 22 and best.solutions:
                same = best.solutions[0] == [v for row in BLOG_T22_MARKERS for v in row]
                line += "  (T=22 solution: " + ("the same as ours" if same else "DIFFERS from ours") + ")"
            if best.count != n:
                line += "  COUNTS DIFFER"
        print(line)
    if args.t24:
        r = count_markers(24)
        print(f"markers T=24: {r.count:,} solutions (expected 500,170), {r.nodes} nodes, {r.seconds:.2f} s")
    print("blog: Gecode counted T = 23 in 'about half a minute' (another machine)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
