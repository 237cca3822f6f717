"""Seconds from Ctrl-C to the end of the process, for every long command (issue 17).

Each command is started as a subprocess, left to work until its progress bar on stderr shows the first
finished unit of work (a game, a board, a first turn, a layout), then sent SIGINT to its whole process
group as a terminal's Ctrl-C is; the script prints the exit code, the wall-clock seconds to exit and the
first line of what it kept. The same harness as ``tests/interrupts`` (which asserts less than 2 CPU
seconds of work after the Ctrl-C); here ``--runs`` repetitions per command give the median and the
maximum wall-clock seconds, with the load average, for docs/reliability.md.

    .venv/bin/python benchmarks/interrupt_exit.py [--runs 3] [--only match]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from _harness import load_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.interrupts.helpers

from tests.interrupts.helpers import interrupt

CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
MATCH = ["morris", "match", "--white", "ai:depth=4", "--black", "random", "--seed", "1", "--games", "300"]

CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    (
        "anneal",
        ["catan", "generate", "--method", "anneal", "--rule", "max-spot-pips=8", "--json"],
        {"ready": r"energy \d"},
    ),
    (
        "tournament (proof)",
        ["catan", "generate", "--method", "tournament", "--seed", "3", "--rule", "max-spot-pips=10"],
        {"ready": "proving the fewest swaps"},
    ),
    (
        "cp",
        ["catan", "generate", "--method", "cp", "--fairness", "1", "--rule", "resource-pips-band=10..14"],
        {"ready": "minimising the energy"},
    ),
    (
        "blog-model",
        ["catan", "blog-model", "markers", "--threshold", "24", "--count", "--json"],
        {"ready": r"\b[1-9][\d,]* layouts so far"},
    ),
    (
        "playtest (2 workers)",
        ["catan", "playtest", CODE, "--games", "1000", "--workers", "2", "--json"],
        {"ready": r"\b[1-9]\d*/1000\b"},
    ),
    (
        "study (2 workers)",
        [
            "catan",
            "study",
            "--fairness",
            "0,1",
            "--boards",
            "10",
            "--games",
            "50",
            "--workers",
            "2",
            "--out",
            "s",
        ],
        {"ready": r"\bstudy\b.*\b[1-9]\d*/\d+"},
    ),
    ("match (1 worker)", MATCH, {"ready": r"\b[1-9]\d*/300\b"}),
    ("match (2 workers)", [*MATCH, "--workers", "2", "--json"], {"ready": r"\b[1-9]\d*/300\b"}),
    ("perft", ["morris", "perft", "--depth", "8", "--json"], {"ready": r"\b[1-9]\d*/24\b"}),
    (
        "random-game",
        ["diplomacy", "random-game", "--seed", "1", "--games", "60", "--out", "g.jsonl"],
        {"ready": r"\b[1-9]\d*/60\b"},
    ),
    (
        "diplomacy tournament (2 workers)",
        [
            "diplomacy",
            "tournament",
            "--bots",
            "dumb,random*6",
            "--games",
            "400",
            "--seed",
            "1",
            "--workers",
            "2",
            "--out",
            "t",
        ],
        {"ready": r"\b[1-9]\d*/400\b"},
    ),
    (
        "diplomacy corpus (2 workers)",
        ["diplomacy", "corpus", "--games", "400", "--seed", "1", "--workers", "2", "--out", "c"],
        {"ready": r"\b[1-9]\d*/400\b"},
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=None, help="Only the commands whose name contains this.")
    args = parser.parse_args()
    print(f"before: {load_text()}")
    for name, argv, wait in CASES:
        if args.only and args.only not in name:
            continue
        times, codes, kept = [], set(), ""
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                r = interrupt(argv, cwd=Path(tmp), **wait)
            times.append(r.seconds)
            codes.add(r.code)
            kept = next((ln for ln in r.err.splitlines() if ln.startswith("interrupted")), "")
        print(
            f"{name:34s} exit {sorted(codes)}  median {statistics.median(times):.2f} s  "
            f"max {max(times):.2f} s   {kept[:90]}"
        )
    print(f"after: {load_text()}")


if __name__ == "__main__":
    main()
