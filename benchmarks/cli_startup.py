"""Start-up time of the ``boardeval`` command: wall time of whole processes, as a user sees it.

Runs each command ``--runs`` times in a fresh subprocess (after one untimed warm-up run that fills the
page cache; ``PYTHONDONTWRITEBYTECODE=1`` in every run, so no run writes bytecode for the next) and
prints the median and the minimum wall time against the issue-10 targets, and the median CPU time (user +
system) of the process: on a busy machine the wall time mostly measures the other processes, while the
CPU time stays close to what the command costs on an idle one. With ``--importtime`` it also runs each
command once under ``python -X importtime`` and prints the imports
with the largest cumulative time: the evidence of what a start-up pays for.

    .venv/bin/python benchmarks/cli_startup.py [--runs 10] [--importtime] [--top 12] [--bytecode MODE]

``--bytecode both`` (the default for an editable install, as ``make setup`` makes) times every command
WITHOUT compiled bytecode for boardeval's own sources (their ``__pycache__`` folders removed,
``PYTHONDONTWRITEBYTECODE=1`` so no run writes them back: every process compiles the package from
source, as in an environment that sets the variable) and WITH it (``python -m compileall src``, what
``make setup`` runs; Python reads ``.pyc`` files under that variable, it only never writes them),
alternating the two states run by run so that a change of machine load hits both alike. Besides wall and
CPU time it prints the time boardeval's own modules take to import (the sum of their self times under
``python -X importtime``): what the bytecode saves. The installed libraries keep their bytecode in both
(pip compiles them at install). It leaves the sources compiled, as ``make setup`` does.
``--bytecode asis`` times the tree as it is.

The machine is shared: the minimum is the figure least disturbed by other processes; compare medians only
between runs made under the same load. Exit status 1 if a command fails (non-zero exit code).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SEED_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
MORRIS_POSITION = "WW.BB................... w 7 7"
PACKAGE_DIR = Path(__file__).resolve().parent.parent / "src" / "boardeval"
"""boardeval's sources in this checkout (an editable install reads them from here)."""


@dataclass(frozen=True)
class Case:
    """One command line to time, and the issue's target for its wall time (seconds)."""

    args: tuple[str, ...]
    target: float
    stdin: str | None = None
    """Typed into the command (``play``: ``quit`` after the AI's first move)."""


MORRIS_FIRST_ANSWER = "W.......B............... w 8 8"
"""Issue 25 section 3: the position of ``best --time 1`` (reported seconds <= 1.05, the command <= 1.5 s)."""

CASES = (
    Case(("--help",), 0.25),
    Case(("catan", "spots", SEED_CODE, "--json"), 0.5),
    Case(("morris", "eval", MORRIS_POSITION, "--json"), 0.5),
    Case(("diplomacy", "fear", "--static", "--json"), 1.0),
    Case(("morris", "best", MORRIS_FIRST_ANSWER, "--time", "1", "--json"), 1.5),
    # the same without the opening book (which holds the position): the search's own first answer
    Case(("morris", "best", MORRIS_FIRST_ANSWER, "--time", "1", "--no-book", "--json"), 1.5),
    # the AI plays White: its first move, then the prompt reads `quit`
    Case(("morris", "play", "--colour", "black", "--strength", "expert"), 1.5, stdin="quit\n"),
    # the same without the book: the expert's first move is a search from the start (its game clock may
    # give the first move more or less than the 1 s setting)
    Case(("morris", "play", "--colour", "black", "--strength", "expert", "--no-book"), 1.5, stdin="quit\n"),
)


def command_prefix() -> list[str]:
    """The installed console script next to this interpreter (what users run), else the same via ``-c``."""
    script = Path(sys.executable).with_name("boardeval")
    if script.exists():
        return [sys.executable, str(script)]
    return [sys.executable, "-c", "from boardeval.cli.main import main; main()"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(
    prefix: list[str], args: tuple[str, ...], *, python_flags: tuple[str, ...] = (), stdin: str | None = None
) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall time and CPU time of one process, and the finished process (exit code, stderr)."""
    cmd = [prefix[0], *python_flags, *prefix[1:], *args]
    env = {**os.environ, "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
    cpu0, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, input=stdin)
    return time.perf_counter() - start, _children_cpu() - cpu0, proc


def failure(args: tuple[str, ...], proc: subprocess.CompletedProcess[str]) -> str:
    last = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
    return f"  FAILED (exit {proc.returncode}): {last}"


def top_imports(stderr: str, top: int) -> list[tuple[int, int, str]]:
    """(cumulative µs, self µs, module) of the ``top`` heaviest imports, outermost-first among ties.

    Only imports at nesting depth 0-1 are listed, so a package is not repeated by each of its children.
    """
    rows: list[tuple[int, int, str]] = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, name = line.removeprefix("import time:").split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        if depth <= 1:
            rows.append((int(cumulative), int(self_us), name.strip()))
    rows.sort(reverse=True)
    return rows[:top]


def display(args: tuple[str, ...]) -> str:
    shown = [f'"{a}"' if " " in a else a for a in args]
    text = "boardeval " + " ".join(shown)
    return text if len(text) <= 60 else text[:57] + "..."


def editable() -> bool:
    """Whether the ``boardeval`` this interpreter imports is this checkout's ``src/`` (editable install)."""
    proc = subprocess.run(
        [sys.executable, "-c", "import boardeval; print(boardeval.__file__)"], capture_output=True, text=True
    )
    return proc.returncode == 0 and Path(proc.stdout.strip()).parent == PACKAGE_DIR


def drop_bytecode() -> int:
    """Remove the ``__pycache__`` folders of boardeval's sources; the number removed."""
    caches = [p for p in PACKAGE_DIR.rglob("__pycache__") if p.is_dir()]
    for p in caches:
        shutil.rmtree(p)
    return len(caches)


def compile_bytecode() -> None:
    """Byte-compile boardeval's sources (what ``make setup`` runs)."""
    compileall.compile_dir(PACKAGE_DIR, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed runs per command (default 10)")
    parser.add_argument("--importtime", action="store_true", help="also print the heaviest imports")
    parser.add_argument("--top", type=int, default=12, help="imports listed per command (default 12)")
    parser.add_argument(
        "--bytecode",
        choices=("both", "asis"),
        default="both",
        help="both: time without, then with boardeval's bytecode (editable install); asis: the tree as it is",
    )
    parser.add_argument(
        "--only", default="", help="time only the commands whose text holds this (e.g. 'morris best')"
    )
    opts = parser.parse_args()
    if opts.only:
        global CASES
        CASES = tuple(c for c in CASES if opts.only in " ".join(c.args))
        if not CASES:
            parser.error(f"--only {opts.only!r}: no command holds it")
    if opts.runs < 1:
        parser.error(f"--runs must be >= 1, got {opts.runs}")

    prefix = command_prefix()
    print(
        f"python {sys.version.split()[0]}, {opts.runs} runs per command, load average "
        f"{os.getloadavg()[0]:.2f} (2 cores are shared: the minimum is the least disturbed figure)"
    )
    failed = False
    if opts.bytecode == "both" and editable():
        failed |= compare_bytecode(prefix, opts.runs)
    else:
        if opts.bytecode == "both":
            print("(boardeval is not an editable install of this checkout: timing it as installed)")
        failed |= time_cases(prefix, opts.runs)

    if opts.importtime:
        for case in CASES:
            _, _, proc = run_once(prefix, case.args, python_flags=("-X", "importtime"))
            print(f"\n{display(case.args)}: heaviest imports (python -X importtime, cumulative ms)")
            for cumulative, self_us, name in top_imports(proc.stderr, opts.top):
                print(f"  {cumulative / 1000:8.1f} ms  (self {self_us / 1000:5.1f})  {name}")
            if proc.returncode != 0:
                print(failure(case.args, proc))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if failed:
        sys.exit(1)


def own_import_ms(stderr: str) -> float:
    """Milliseconds boardeval's own modules took to import: the sum of their self times in a
    ``python -X importtime`` report (compiling a module from source lands in its self time)."""
    total = 0
    for line in stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            self_us, _cumulative, name = line.removeprefix("import time:").split("|")
            if name.strip().startswith("boardeval"):
                total += int(self_us)
    return total / 1000


def compare_bytecode(prefix: list[str], runs: int) -> bool:
    """Every case without and with boardeval's bytecode, the two states alternating run by run; prints
    median/min wall, median CPU and median own-import ms per case and state. True if a command failed."""
    states = {"without": drop_bytecode, "with": compile_bytecode}
    figures: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for case in CASES:  # untimed warm-up: the page cache (no bytecode is written)
        run_once(prefix, case.args)
    for _ in range(runs):
        for state, prepare in states.items():
            prepare()
            for case in CASES:
                wall, cpu, proc = run_once(prefix, case.args)
                if proc.returncode != 0:
                    print(f"{display(case.args):<62}{failure(case.args, proc)}")
                    return True
                _, _, timed = run_once(prefix, case.args, python_flags=("-X", "importtime"))
                figures.setdefault((display(case.args), state), []).append(
                    (wall, cpu, own_import_ms(timed.stderr))
                )
    compile_bytecode()
    print(
        "\nboardeval's bytecode without (__pycache__ removed, none written back) / with (compileall, as "
        f"make setup runs), alternating, {runs} runs each"
    )
    print(f"{'command':<62} {'state':<8} {'median s':>9} {'min s':>7} {'cpu s':>7} {'own imports ms':>15}")
    for case in CASES:
        for state in states:
            rows = figures[(display(case.args), state)]
            walls = [w for w, _, _ in rows]
            cpu = statistics.median(c for _, c, _ in rows)
            own = statistics.median(i for _, _, i in rows)
            print(
                f"{display(case.args):<62} {state:<8} {statistics.median(walls):>9.3f} {min(walls):>7.3f} "
                f"{cpu:>7.3f} {own:>15.1f}"
            )
    return False


def time_cases(prefix: list[str], runs_per_case: int) -> bool:
    """Time every case (one untimed warm-up run first); True if a command failed."""
    print(f"{'command':<62} {'median s':>9} {'min s':>7} {'cpu s':>7} {'target s':>9}  ")
    failed = False
    for case in CASES:
        # warm-up: the page cache (no bytecode is written)
        _, _, proc = run_once(prefix, case.args, stdin=case.stdin)
        if proc.returncode != 0:
            print(f"{display(case.args):<62}{failure(case.args, proc)}")
            failed = True
            continue
        runs = [run_once(prefix, case.args, stdin=case.stdin) for _ in range(runs_per_case)]
        walls = [wall for wall, _, _ in runs]
        median, best = statistics.median(walls), min(walls)
        cpu = statistics.median(c for _, c, _ in runs)
        verdict = "ok" if median <= case.target else ("min ok" if best <= case.target else "OVER")
        print(
            f"{display(case.args):<62} {median:>9.3f} {best:>7.3f} {cpu:>7.3f} {case.target:>9.2f}  {verdict}"
        )
        reported = [_reported(proc.stdout) for _, _, proc in runs]
        if all(r is not None for r in reported):
            search = statistics.median(r[0] for r in reported if r is not None)
            why = statistics.median(r[1] for r in reported if r is not None)
            print(f"    reported: search {search:.3f} s (median; issue 25: <= 1.05), why-panel {why:.3f} s")
    return failed


def _reported(stdout: str) -> tuple[float, float] | None:
    """(search seconds, why-panel seconds) a ``morris best --json`` document reports, else None."""
    import json

    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict) or "seconds" not in data or not isinstance(data.get("why"), dict):
        return None
    return float(data["seconds"]), float(data["why"].get("seconds", 0.0))


if __name__ == "__main__":
    main()
