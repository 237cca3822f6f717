"""The compiled search's entry points come ahead-of-time compiled (issue 25 section 3): a process that
searches imports no numba, and the module is rebuilt for other sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from boardeval.morris import Position, Searcher
from boardeval.morris._search.compiled import aot
from boardeval.morris._search.compiled.kernels import kernels


def test_a_search_process_loads_the_ahead_of_time_module_without_numba() -> None:
    k = kernels()  # builds the module on first use (under a lock)
    if k.source != "aot":  # no C compiler here: the just-in-time path serves (docs/morris-search.md)
        assert aot.load() is None
        return
    code = (
        "import sys\n"
        "from boardeval.morris import Position, Searcher\n"
        "r = Searcher().search(Position.parse('WW.B.B........W....B.W.. w 0 0'), depth=5)\n"
        "from boardeval.morris._search.compiled.kernels import kernels\n"
        "print(kernels().source, 'numba' in sys.modules, r.move)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    source, numba_loaded, move = out.split()
    assert (source, numba_loaded) == ("aot", "False")
    # White slides g4-g7, closes a7-d7-g7 and takes one of Black's three men: won, whatever the weights;
    # the same answer as this process's search
    assert move.startswith("g4-g7x")
    here = Searcher().search(Position.parse("WW.B.B........W....B.W.. w 0 0"), depth=5)
    assert str(here.move) == move


def test_a_build_keeps_the_most_recently_used_other_versions(tmp_path: Path) -> None:
    # Two checkouts share the cache folder: a build must not delete the other's module (it would rebuild).
    folder = tmp_path / "engine"
    folder.mkdir()
    (folder / "build.lock").touch()
    built = []
    for age in range(6):  # age 0 the most recently used
        module = folder / f"_morris_kernels_{age:016x}.so"
        module.touch()
        os.utime(module, (1_000_000 - age, 1_000_000 - age))
        built.append(module)
    current = built[5]  # the oldest mtime: the one just built keeps its place whatever its time
    gone = aot._prune(current, keep=3)
    assert sorted(gone) == sorted(built[2:5])
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["build.lock", built[0].name, built[1].name, current.name]
    )
    assert aot._prune(current, keep=3) == []
