"""First-load cost of each Diplomacy map: the engine's convoy-path table, wall time, CPU time and memory.

The ``diplomacy`` engine builds a table of every convoy path the first time a map is loaded
(``diplomacy.utils.convoy_paths.add_to_cache``) unless the table is in its cache: the package ships the
tables of 11 maps (``diplomacy/maps/convoy_paths_cache.pkl``); the others are built on a pool of
``cpu_count()`` processes plus a manager process and written to ``~/.cache/diplomacy`` (found through
``HOME``). This script measures, per map, in a fresh process with ``HOME`` pointed at an empty temporary
folder (a cold cache; your own cache is never touched):

* **engine first load**: ``diplomacy.Map(name)`` as the engine does it on a cold cache (for a map whose
  table is shipped: the warm load). Wall seconds, CPU seconds of the whole process tree, the peak of the
  tree's summed resident memory (sampled every 0.2 s through ``/proc``) and the most processes seen.
* **graph load**: boardeval's ``load_map_graph(name)`` (the graph the measures use, no convoy table),
  wall seconds.

    .venv/bin/python benchmarks/diplomacy_map_load.py [--maps world,empire] [--limit 1800]

``--limit`` stops a build after that many seconds (reported as ``> limit``): the largest maps take tens of
minutes on two cores. Prints one line per map; run it on a quiet machine and note the load average.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _harness import load_text

ENGINE_LOAD = """
import sys, time
t0 = time.perf_counter()
import diplomacy
from diplomacy import Map
t1 = time.perf_counter()
Map(sys.argv[1])
print("LOADED", time.perf_counter() - t1, flush=True)
"""

GRAPH_LOAD = """
import sys, time
from boardeval.diplomacy import load_map_graph
import diplomacy.engine.map
t0 = time.perf_counter()
g = load_map_graph(sys.argv[1])
print("GRAPH", time.perf_counter() - t0, len(g.provinces), flush=True)
"""


def _children() -> dict[int, list[int]]:
    """ppid -> pids, from /proc."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def _tree(root: int) -> list[int]:
    kids = _children()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    return total


def engine_first_load(name: str, limit: float) -> str:
    with tempfile.TemporaryDirectory(prefix="convoy-home-") as home:
        env = dict(os.environ, HOME=home, PYTHONUNBUFFERED="1")
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", ENGINE_LOAD, name],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        peak_kb, most, cpu = 0, 0, 0.0
        while proc.poll() is None:
            pids = _tree(proc.pid)
            peak_kb = max(peak_kb, sum(_rss_kb(p) for p in pids))
            most = max(most, len(pids))
            # children's CPU is only added to the parent's cutime once they are reaped: track the maximum
            # of (live tree CPU) as a lower bound, then take the parent's total at the end
            cpu = max(cpu, _cpu_seconds(pids))
            if time.perf_counter() - t0 > limit:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                return (
                    f"{name:24s} engine first load > {limit:.0f} s (stopped), CPU >= {cpu:.0f} s, "
                    f"peak RSS of the tree {peak_kb / 1024:.0f} MB, {most} processes"
                )
            time.sleep(0.2)
        wall = time.perf_counter() - t0
        out = proc.stdout.read() if proc.stdout else ""
        ok = "LOADED" in out
        cache = Path(home, ".cache", "diplomacy", "convoy_paths_cache.pkl")
        size = f", table {cache.stat().st_size / 1e6:.1f} MB on disk" if cache.exists() else ", table shipped"
        return (
            f"{name:24s} engine first load {wall:8.1f} s wall, CPU >= {cpu:7.1f} s, peak RSS of the tree "
            f"{peak_kb / 1024:6.0f} MB, {most} processes{size}{'' if ok else ' (FAILED)'}"
        )


def graph_load(name: str) -> str:
    with tempfile.TemporaryDirectory(prefix="convoy-home-") as home:
        env = dict(os.environ, HOME=home)
        out = subprocess.run(
            [sys.executable, "-c", GRAPH_LOAD, name], env=env, capture_output=True, text=True, timeout=120
        )
        words = out.stdout.split()
        if not words or words[0] != "GRAPH":
            return f"{name:24s} graph load FAILED: {out.stderr.strip()[-200:]}"
        return f"{name:24s} graph load (no convoy table) {float(words[1]):.2f} s, {words[2]} provinces"


def main() -> int:
    from boardeval.diplomacy import available_maps

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", default=",".join(available_maps()), help="comma-separated map names")
    ap.add_argument("--limit", type=float, default=1800.0, help="stop a build after this many seconds")
    ap.add_argument("--no-engine", action="store_true", help="only the graph loads")
    args = ap.parse_args()
    print(load_text(), flush=True)
    for name in args.maps.split(","):
        print(graph_load(name), flush=True)
        if not args.no_engine:
            print(engine_first_load(name, args.limit), flush=True)
    print(f"at the end: {load_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
