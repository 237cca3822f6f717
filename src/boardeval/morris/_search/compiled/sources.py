"""Which source files the compiled search is made of, and their digest (no numba here).

numba's on-disk cache (:mod:`.jit`) and the ahead-of-time compiled kernels (:mod:`.aot`) both hold copies
of this code and of the tables it reads from the rules modules; both are keyed by :func:`digest`, so an edit
of any of these files makes them compile again instead of running old code.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["CACHE_SOURCES", "COMPILED_MODULES", "digest"]

_HERE = Path(__file__).resolve().parent
_MORRIS = _HERE.parents[1]

COMPILED_MODULES: Final[tuple[str, ...]] = (
    "movegen.py",
    "evaluate.py",
    "tbprobe.py",
    "ordering.py",
    "pvs.py",
)
"""The modules of this package that define cached compiled functions."""

CACHE_SOURCES: Final[tuple[Path, ...]] = (
    *(_HERE / name for name in (*COMPILED_MODULES, "layout.py", "sources.py")),
    _HERE.parent / "endgame.py",
    *(
        _MORRIS / name
        for name in (
            "board.py",
            "variants.py",
            "turns.py",
            "outcome.py",
            "rules.py",
            "_features.py",
            "_evaluate.py",
        )
    ),
)
"""Every file whose code or tables the cached functions may hold: the compiled modules and every Morris
module they import, directly or not (``tests/morris/search/test_engine.py`` checks the list against the
imports)."""


@cache
def digest(extra: bytes = b"") -> str:
    """SHA-256 of the sources (and ``extra``), hex."""
    return hashlib.sha256(b"".join(p.read_bytes() for p in CACHE_SOURCES) + extra).hexdigest()
