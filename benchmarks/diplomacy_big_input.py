"""Seconds to load a big JSONL of valid Diplomacy games (issue 24: 3,000 games, 11.4 MB, took 10 s).

Builds the file once with the engine's game generator, the size of the issue's (``boardeval diplomacy
random-game``: 2,000 seeded random-order games of 2 phases and 1,000 of 1 phase, ~11.4 MB; kept in the
temporary folder between runs), then times, best of ``--repeats`` (wall seconds, and CPU seconds: on the
shared machine the steadier figure):

* ``load_records(path)``: the whole reader (JSON limits, strict models, checks against the map);
* its parts: the nesting-depth check of every line (``check_depth``: the vectorised scan, and the
  character loop it replaced, ``_scan_depth``), ``loads_json`` (the depth check included) and the
  record checks (``record_from_saved``).

    .venv/bin/python benchmarks/diplomacy_big_input.py [--repeats 3]

Target: <= 1 s for the whole load. The load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _harness import load_text

PARTS = ((0, 2000, 2), (2000, 1000, 1))
"""(first seed, games, phases): 2,000 games of 2 phases and 1,000 of 1, the size of the issue's file."""


def _best(fn: Callable[[], object], repeats: int) -> str:
    """'wall s (CPU s)': the best of ``repeats`` runs."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best = min(best, (time.perf_counter() - t0, time.process_time() - c0))
    return f"{best[0]:6.2f} s ({best[1]:5.2f} s CPU)"


def build(path: Path) -> None:
    exe = Path(sys.executable).with_name("boardeval")
    with path.open("w", encoding="utf-8") as out:
        for seed, games, phases in PARTS:
            part = path.with_suffix(f".{seed}.part")
            cmd = [str(exe), "diplomacy", "random-game", "--seed", str(seed), "--games", str(games)]
            cmd += ["--max-phases", str(phases), "--out", str(part)]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            out.write(part.read_text(encoding="utf-8"))
            part.unlink()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    from boardeval.core.inputs import _scan_depth, check_depth, loads_json
    from boardeval.diplomacy import load_records
    from boardeval.diplomacy.records import MAX_RECORD_CHARS, RecordFormatError, record_from_saved

    path = Path(tempfile.gettempdir()) / "boardeval-big-input-3000.jsonl"
    if not path.exists():
        print(f"building {path} (3,000 games) ...", flush=True)
        build(path)
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    docs = [json.loads(line) for line in lines]
    print(f"{path.name}: {len(lines)} games, {path.stat().st_size / 1e6:.1f} MB ({load_text()})")
    assert len(load_records(path)) == len(lines)

    def depth_fast() -> None:
        for line in lines:
            check_depth(line, "x", error=RecordFormatError, max_chars=MAX_RECORD_CHARS)

    def depth_loop() -> None:
        for line in lines:
            assert _scan_depth(line) is None

    def parse() -> None:
        for line in lines:
            loads_json(line, "x", error=RecordFormatError, max_chars=MAX_RECORD_CHARS)

    def records() -> None:
        for doc in docs:
            record_from_saved(doc, source="x")

    whole = _best(lambda: load_records(path), args.repeats)
    print(f"load_records (whole file)          : {whole}  (target <= 1 s)")
    print(f"  depth check, vectorised          : {_best(depth_fast, args.repeats)}")
    print(f"  depth check, character loop (old): {_best(depth_loop, 1)}")
    print(f"  loads_json (depth check included): {_best(parse, args.repeats)}")
    print(f"  record_from_saved                : {_best(records, args.repeats)}")
    print(f"at the end: {load_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
