"""The test run's compiled Morris search: where it lives, and building it before pytest starts.

Every test process sees an empty cache folder of its own (``tests/conftest.py``) except for the compiled
Morris search (:mod:`boardeval.morris._search.compiled.aot`), which lives in this checkout's
``.pytest_cache/morris-engine`` (:data:`ENGINE`) and is linked into each test cache (:func:`link`).

``make test`` runs this module (``python -m tests.engine_cache``) beside ruff and mypy: mypy keeps one core
busy for ~20 s, the build (~20 CPU-s on a fresh clone) takes the other. Without it a fresh clone's pytest
built it in the background while both workers collected (three busy processes on two cores), and the
first searching tests waited for it. pytest still builds it itself when it is missing (``pytest`` alone).
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


def main() -> None:
    """Build the compiled search into :data:`ENGINE` (a no-op when it is built for these sources). Run by
    ``make test``, and by ``tests/conftest.py`` in the background when pytest finds none."""
    if os.environ.get("BOARDEVAL_MORRIS_KERNELS") == "jit":
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: clean up the build folder
    with tempfile.TemporaryDirectory(prefix="boardeval-engine-") as cache:
        link(Path(cache))
        os.environ["XDG_CACHE_HOME"] = cache
        from boardeval.morris._search.compiled.kernels import kernels

        kernels()


if __name__ == "__main__":
    main()
