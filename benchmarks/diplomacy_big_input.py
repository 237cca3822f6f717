"""Seconds to load a big JSONL of valid Diplomacy games (issue 24: 3,000 games, 11.4 MB, took 10 s).

Builds the file once with the engine's game generator (``boardeval diplomacy random-game --games 3000
--max-phases 2``: 3,000 seeded random-order games of 2 phases, ~14 MB; kept in the temporary folder
between runs), then times, best of ``--repeats``:

* ``load_records(path)``: the whole reader (JSON limits, strict models, checks against the map);
* its parts: the nesting-depth check of every line (``check_depth``: the vectorised scan, and the
  character loop it replaced, ``_scan_depth``, once), ``json.loads`` with the shared reader's hooks, and
  the record checks (``record_from_saved``).

    .venv/bin/python benchmarks/diplomacy_big_input.py [--games 3000] [--max-phases 2] [--repeats 3]

Target: <= 1 s for the whole load (the issue's file). Note the machine's load average next to the figures.
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

from _harness import add_common_options, load_text


def _best(fn: Callable[[], object], repeats: int) -> str:
    """'wall s (CPU s)': the best of ``repeats`` runs. On a busy shared machine the CPU seconds are the
    steadier figure (wall time there includes waiting for a core)."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best = min(best, (time.perf_counter() - t0, time.process_time() - c0))
    return f"{best[0]:6.2f} s ({best[1]:5.2f} s CPU)"


def build(path: Path, games: int, max_phases: int) -> None:
    exe = Path(sys.executable).with_name("boardeval")
    cmd = [str(exe), "diplomacy", "random-game", "--seed", "0", "--games", str(games)]
    cmd += ["--max-phases", str(max_phases), "--out", str(path)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(ap, games=3000, repeats=3)
    ap.add_argument("--max-phases", type=int, default=2)
    args = ap.parse_args()

    from boardeval.core.inputs import MAX_DEPTH, _scan_depth, check_depth, loads_json
    from boardeval.diplomacy import load_records
    from boardeval.diplomacy.records import MAX_RECORD_CHARS, RecordFormatError, record_from_saved

    path = Path(tempfile.gettempdir()) / f"boardeval-big-input-{args.games}x{args.max_phases}.jsonl"
    if not path.exists():
        print(f"building {path} ({args.games} games) ...", flush=True)
        build(path, args.games, args.max_phases)
    text = path.read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    docs = [json.loads(line) for line in lines]
    print(f"{path.name}: {len(lines)} games, {path.stat().st_size / 1e6:.1f} MB ({load_text()})")
    games = load_records(path)
    assert len(games) == len(lines)

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
    print(f"(depth limit {MAX_DEPTH} levels)")
    print(f"at the end: {load_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
