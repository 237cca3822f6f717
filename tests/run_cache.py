"""Inputs made once per test run and read by every test process of it (pytest's workers).

A session fixture is made once per *process*: under ``pytest -n 2`` both workers made their own, and a
module fixture was made again whenever its module's tests came back to a worker after others (the
K = 4 tablebase of ``tests/morris/tablebase``: three builds of ~2.2 CPU-s in one run). :func:`made_once`
makes a folder in the run's cache folder (``BOARDEVAL_TEST_CACHE``, set once by ``tests/conftest.py``
before the workers start, so all of them see the same one) under a file lock: the first process to ask
makes it, another that asks meanwhile waits for the lock (the maker's end is the signal) and then reads
what was made. Only for inputs the tests read and never change.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def made_once(name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """``(folder, note)``: the folder ``name`` of this run, made by ``make(folder)`` in the first process
    that asks; ``note`` is what ``make`` returned there (kept as JSON beside the folder, so every process
    gets the same). A ``make`` that raises leaves nothing behind: the next process to ask tries again."""
    root = Path(os.environ["BOARDEVAL_TEST_CACHE"]) / "made-once"
    root.mkdir(parents=True, exist_ok=True)
    folder, note = root / name, root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not note.is_file():
            work = Path(tempfile.mkdtemp(dir=root, prefix=f".{name}-"))
            try:
                made = make(work)
                shutil.rmtree(folder, ignore_errors=True)
                work.rename(folder)
            except BaseException:
                shutil.rmtree(work, ignore_errors=True)
                raise
            note.write_text(json.dumps(made))  # written last: its presence says the folder is whole
        return folder, json.loads(note.read_text())
