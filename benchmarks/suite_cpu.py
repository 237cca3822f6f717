"""CPU seconds per test of the pytest suite: which tests cost the most, read without the machine's load.

pytest's ``--durations`` gives wall-clock seconds, which on the shared 2-core machine (load 15-50 while
8 engineers work) say more about the neighbours than about the test. This is a pytest plugin that records,
for every test, the CPU seconds of the test process (all its threads: a web server thread included) and of
the subprocesses it started and waited for, plus the wall seconds; and a report over what it recorded.

    PYTHONPATH=. .venv/bin/pytest -n 2 --dist loadgroup -p benchmarks.suite_cpu   # records
    .venv/bin/python benchmarks/suite_cpu.py [--top 40] [--by file]               # prints the figures

The records go to ``.pytest_cache/suite_cpu/<worker>.jsonl`` (``SUITE_CPU_DIR`` to move them; each run
starts them afresh). Not counted: a browser (chromium runs as a child of Playwright's driver for the whole
session), and the pool workers' CPU only when the test process reaped them (``map_jobs`` does).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FOLDER = Path(os.environ.get("SUITE_CPU_DIR", ".pytest_cache/suite_cpu"))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _worker(config: pytest.Config) -> str:
    worker: Any = getattr(config, "workerinput", None)
    return str(worker["workerid"]) if worker else "main"


def pytest_configure(config: pytest.Config) -> None:
    """The controlling process (before xdist starts its workers) clears the previous run's records."""
    if _worker(config) == "main":
        FOLDER.mkdir(parents=True, exist_ok=True)
        for old in FOLDER.glob("*.jsonl"):
            old.unlink()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    cpu0, wall0, start = _cpu(), time.monotonic(), time.time()
    yield
    record = {"test": item.nodeid, "cpu": _cpu() - cpu0, "wall": time.monotonic() - wall0, "start": start}
    with (FOLDER / f"{_worker(item.config)}.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--top", type=int, default=40, help="How many rows to print.")
    parser.add_argument("--by", choices=("test", "file"), default="test", help="Per test or per test file.")
    args = parser.parse_args()
    rows = [json.loads(line) for path in FOLDER.glob("*.jsonl") for line in path.read_text().splitlines()]
    if not rows:
        raise SystemExit(f"no records in {FOLDER}: run pytest with -p benchmarks.suite_cpu first")
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for row in rows:
        key = row["test"].split("::")[0] if args.by == "file" else row["test"]
        totals[key][0] += row["cpu"]
        totals[key][1] += row["wall"]
        totals[key][2] += 1
    cpu = sum(r["cpu"] for r in rows)
    print(f"{len(rows)} tests: {cpu:.1f} CPU-s in all (setup, call and teardown; browsers not counted)")
    print(f"{'CPU-s':>8} {'wall-s':>8} {'tests':>5}  {args.by}")
    for key, (c, w, n) in sorted(totals.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{c:8.1f} {w:8.1f} {int(n):5d}  {key}")


if __name__ == "__main__":
    main()
