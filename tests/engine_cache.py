"""The test run's compiled code: the Morris search (where it lives, building it) and numba's caches of the
kernels many test processes use, both made before pytest starts.

Every test process sees an empty cache folder of its own (``tests/conftest.py``) except for the compiled
Morris search (:mod:`boardeval.morris._search.compiled.aot`), which lives in this checkout's
``.pytest_cache/morris-engine`` (:data:`ENGINE`) and is linked into each test cache (:func:`link`).

``make test`` runs this module (``python -m tests.engine_cache``) beside ruff and mypy: mypy keeps one core
busy for ~20 s, the build (~20 CPU-s on a fresh clone) takes the other. Without it a fresh clone's pytest
built it in the background while both workers collected (three busy processes on two cores), and the
first searching tests waited for it. pytest still builds it itself when it is missing (``pytest`` alone).

The same step fills numba's on-disk caches (``__pycache__`` beside the sources) of the just-in-time kernels
that many test processes use (:func:`warm_jit_caches`): on a fresh clone each process compiled them on first
use, several at once (both workers, the web servers' worker processes, CLI subprocesses: the tablebase's
retrograde analysis ~4 CPU-s, the Catan seat-equity kernel ~8 CPU-s, each time). A user pays that compile
once per machine too; here it is paid once, beside mypy.

And it writes the test modules' bytecode (:func:`compile_test_modules`): pytest keeps each test module, its
asserts rewritten, as a .pyc in ``__pycache__`` (tests/conftest.py lets it write them while it collects), but
on a fresh clone both workers rewrote and compiled all of them at once, each ~4-5 CPU-s of its collection.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout (``python -m tests.engine_cache`` runs from here)."""
ENGINE = ROOT / ".pytest_cache" / "morris-engine"
"""The compiled Morris search of the test runs in this checkout."""


def link(cache: Path) -> None:
    """Make ``cache/boardeval/engine`` (the search's folder for ``XDG_CACHE_HOME=cache``) :data:`ENGINE`."""
    ENGINE.mkdir(parents=True, exist_ok=True)
    (cache / "boardeval").mkdir(parents=True, exist_ok=True)
    (cache / "boardeval" / "engine").symlink_to(ENGINE, target_is_directory=True)


def compile_test_modules() -> None:
    """Write the .pyc files pytest's workers would write while they collect (each worker would make them
    all, at the same time): the test modules and conftest files with their asserts rewritten by pytest's
    own rewriter (the name and format pytest reads back: a hash of the source, so a changed file is
    rewritten again; a current one is left alone), and every other module under tests/ compiled as Python
    compiles it.
    pytest's rewriter is not public API: if it is not where pytest 9 keeps it, pytest does the work."""
    import compileall
    import re

    rewritten = re.compile(r"/(test_[^/]*|[^/]*_test|conftest)\.py$")  # pytest's test files, and conftest
    compileall.compile_dir(ROOT / "tests", quiet=1, rx=rewritten)  # rx: the files it leaves out
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, get_cache_dir
    except ImportError:
        return

    class _Quiet:
        def trace(self, *message: object) -> None:
            pass

    for path in sorted((ROOT / "tests").rglob("*.py")):
        if rewritten.search(path.as_posix()):
            cache = get_cache_dir(path)
            pyc = cache / (path.name[:-3] + PYC_TAIL)
            if _read_pyc(path, pyc) is not None:  # written for this source already
                continue
            try:
                cache.mkdir(exist_ok=True)
            except OSError:  # a read-only checkout: pytest reads the sources as they are
                return
            source_hash, code = _rewrite_test(path, None)  # type: ignore[arg-type]  # no config: defaults
            _write_pyc(_Quiet(), code, source_hash, pyc)  # type: ignore[arg-type]


def warm_jit_caches(folder: Path) -> None:
    """Compile (or load, when numba's cache is current) the just-in-time kernels many test processes use,
    through the calls the library makes: a 3v3 tablebase build (the retrograde analysis) in ``folder``,
    and the Catan seat-equity kernel as the generators and ``fast_equity`` call it. numba writes its cache
    next to the sources, where every later process of the run finds it."""
    from boardeval.catan.board import Board
    from boardeval.catan.equity import load_seat_model
    from boardeval.catan.equity_fast import fast_equity
    from boardeval.catan.equity_generate import equity_anneal
    from boardeval.morris.tablebase import build_tablebase

    build_tablebase(3, folder / "tablebase")
    equity_anneal(3, steps=20, energy_weight=0.0)
    board = Board.random(0)
    fast_equity(load_seat_model()).probabilities(
        board.resource_index, board.pips.astype(float), board.number_array, board.port_index
    )


def main() -> None:
    """Build the compiled search into :data:`ENGINE` (a no-op when it is built for these sources) and warm
    numba's caches (:func:`warm_jit_caches`), after the test modules' bytecode (:func:`compile_test_modules`).
    Run by ``make test``, and by ``tests/conftest.py`` in the background when pytest finds no compiled
    search."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: clean up the build folder
    compile_test_modules()
    with tempfile.TemporaryDirectory(prefix="boardeval-engine-") as cache:
        link(Path(cache))
        os.environ["XDG_CACHE_HOME"] = cache
        if os.environ.get("BOARDEVAL_MORRIS_KERNELS") != "jit":
            from boardeval.morris._search.compiled.kernels import kernels

            kernels()
        warm_jit_caches(Path(cache))


if __name__ == "__main__":
    main()
