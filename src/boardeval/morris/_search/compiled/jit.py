"""numba for the compiled search: :func:`njit_cached` and the check that keeps its cache honest.

Every compiled function is ``numba.njit(cache=True)``: the machine code is cached in ``__pycache__`` next
to its module, so the compile (~30 s CPU) happens once per machine. numba's cache does not follow imports,
though: it is keyed by the defining file alone, while a cached function holds a copy of the code it calls
in the other compiled modules (the search inlines the move generator and the evaluation) and of the tables
it reads from the rules modules (adjacency, mills, Zobrist keys, the feature order). After an edit of any of
those, numba would run the old code. :func:`drop_stale_cache` keeps a digest of :data:`CACHE_SOURCES`
beside the cache and deletes the whole compiled cache when it changed; it runs when this module is first
imported, which every compiled module does before it defines anything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

from boardeval.morris._search.compiled.sources import CACHE_SOURCES, COMPILED_MODULES

__all__ = ["CACHE_SOURCES", "COMPILED_MODULES", "drop_stale_cache", "njit_cached", "njit_inline"]

F = TypeVar("F", bound=Callable[..., Any])


def njit_cached(fn: F) -> F:
    """``numba.njit(cache=True, nogil=True)`` with the function's type kept for mypy (``nogil``: a search
    runs in a thread while the calling thread stays free for Ctrl-C, and helper threads search beside it)."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def njit_inline(fn: F) -> F:
    """:func:`njit_cached`, always inlined into its callers (numba's ``inline="always"``)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def drop_stale_cache(cache_dir: Path, sources: list[Path], prefix: str = "") -> bool:
    """Delete the numba cache files ``prefix*.nbi`` / ``.nbc`` in ``cache_dir`` when one of ``sources``
    changed since they were written; True if it deleted them.

    A digest of the sources, kept beside the cache (``{prefix}sources.sha256``), notices the edit; the next
    call recompiles (~30 s CPU once)."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = cache_dir / f"{prefix}sources.sha256"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    for old in [*cache_dir.glob(f"{prefix}*.nbi"), *cache_dir.glob(f"{prefix}*.nbc")]:
        old.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass  # a read-only install: numba then caches elsewhere or not at all
    return True


_HERE = Path(__file__).resolve().parent

drop_stale_cache(_HERE / "__pycache__", list(CACHE_SOURCES))
