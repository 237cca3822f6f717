"""The compiled search ahead of time: one extension module of the entry points, built once per machine and
source version, imported in milliseconds without numba (issue 25 section 3).

Why: loading numba's on-disk cache costs about a second and a half of CPU in every process -- numba itself
(~0.4 s), its typing and target registries (which import the whole of numba's numpy support and SciPy's
BLAS bindings, ~0.5 s) and the cached machine code of every entry point -- and a command like
``boardeval morris best --time 1`` paid it on top of its second. numba's ``pycc`` compiles the same
Python functions (the same code as the just-in-time path: :mod:`.kernels` hands out one or the other) into
a plain CPython extension that needs only numpy at run time.

- The module is ``_morris_kernels_<digest>`` in ``platformdirs.user_cache_dir("boardeval")/engine``; the
  digest covers every source the compiled code holds (:mod:`.sources`), this file, the Python version and
  the machine, so an edit builds a new one. The :data:`KEEP` most recently used modules stay (a load marks
  its module used), older ones are deleted: two checkouts or installed versions on one machine (a release
  and a working copy, two worktrees) share the folder without deleting each other's build, which would
  make each rebuild (~1 min of CPU) whenever the other had run.
- It is built by the first process that needs it (``build``, ~1 min of CPU, the time numba's cache compile
  took before), under a file lock: a second process waits for it instead of building too.
- Compiled for this machine's CPU (``popcnt`` and the like), with the GIL released in every entry point,
  so a search thread runs while the calling thread waits for Ctrl-C, and helper threads run beside it.
- Where no module can be built (no C compiler, a numba without ``pycc``) the just-in-time path is used;
  ``BOARDEVAL_MORRIS_KERNELS=jit`` asks for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import importlib.machinery
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from boardeval.core.files import write_atomic
from boardeval.morris._search.compiled.sources import digest

__all__ = ["EXPORTS", "KEEP", "build", "load", "module_path"]

KEEP: Final[int] = 4
"""How many built modules (source versions) the cache folder keeps, the most recently used ones."""

EXPORTS: Final[tuple[str, ...]] = (
    "root",
    "helper",
    "order_root",
    "generate",
    "apply_turn",
    "game_over",
    "evaluate",
    "evaluate_fast",
    "perft",
    "tb_probe",
)
"""The entry points (the fields of ``kernels.Kernels`` other than ``source``)."""


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("boardeval")) / "engine"


def _move(source: Path, target: Path) -> None:
    shutil.move(str(source), target)


def module_name() -> str:
    """``_morris_kernels_<digest>`` for the current sources, Python and machine."""
    extra = Path(__file__).read_bytes() + f"{sys.version}|{platform.machine()}".encode()
    return "_morris_kernels_" + digest(extra)[:16]


def module_path() -> Path:
    """Where the extension module for the current sources lives (whether built or not)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return _cache_dir() / (module_name() + suffix)


def load() -> ModuleType | None:
    """The built module for the current sources, imported; None if it is not built (or does not load)."""
    path = module_path()
    if not path.is_file():
        return None
    name = module_name()
    if name in sys.modules:
        return sys.modules[name]
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        return None
    if not all(hasattr(module, name) for name in EXPORTS):
        return None
    sys.modules[name] = module
    with contextlib.suppress(OSError):  # a read-only cache: nothing is pruned there either
        os.utime(path)  # used now: the build of another version keeps it (``_prune``)
    return module


def _prune(current: Path, keep: int = KEEP) -> list[Path]:
    """Delete the built modules beside ``current`` beyond the ``keep`` most recently used (``current``
    always stays); return what was deleted."""
    others = [p for p in current.parent.glob("_morris_kernels_*") if p != current and p.is_file()]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    gone = others[max(keep - 1, 0) :]
    for old in gone:
        old.unlink(missing_ok=True)
    return gone


def _signatures() -> dict[str, Any]:
    from numba import types as t

    i8, f8, u8, b1 = t.int64, t.float64, t.uint64, t.boolean
    ai8, af8, au8, au1 = t.int64[::1], t.float64[::1], t.uint64[::1], t.uint8[::1]
    pos = (i8, i8, i8, i8, i8, i8, i8, i8)  # me, opp, hme, hopp, side, turns, quiet, cur
    bufs = (ai8, af8, ai8, af8, au8, ai8, au1)  # ib, fb, tt, ttf, hist, tbi, tbd
    return {
        "root": t.Tuple((f8, i8))(*pos, ai8, i8, i8, f8, f8, *bufs),
        "helper": i8(*pos, ai8, i8, i8, i8, *bufs),
        "order_root": t.none(i8, i8, i8, i8, i8, ai8, ai8),
        "generate": i8(i8, i8, i8, b1, ai8, i8),
        "apply_turn": t.Tuple((i8, i8, i8, u8, b1))(i8, i8, i8, i8, u8, i8),
        "game_over": i8(i8, i8, i8, b1, i8, i8, au8, i8, i8, b1, i8),
        "evaluate": f8(i8, i8, i8, i8, b1, t.float64[:, ::1]),
        "evaluate_fast": f8(i8, i8, i8, i8, b1, af8, i8),
        "perft": i8(i8, i8, i8, i8, i8, i8, i8, au8, i8, i8, b1, b1, i8, b1, i8, t.int64[:, ::1]),
        "tb_probe": i8(i8, i8, ai8, au1),
    }


def _wrapper(target: Any, arity: int) -> Any:
    """A plain function calling ``target`` (a numba dispatcher) with ``arity`` arguments: what pycc
    compiles for an entry point. Not the dispatcher's own Python function: a recursive one (the search,
    perft) would then be typed twice at once ("compiler re-entrant to the same function signature")."""
    names = ", ".join(f"a{i}" for i in range(arity))
    scope: dict[str, Any] = {"target": target}
    exec(f"def entry({names}):\n    return target({names})\n", scope)
    return scope["entry"]


def build() -> Path:
    """Build the extension module for the current sources (under a lock; a no-op if another process built
    it meanwhile) and return its path. Raises whatever the build raises (the caller falls back)."""
    path = module_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with (path.parent / "build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            return path
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's pending-deprecation notice
            import llvmlite.binding as llvm
            import numba.pycc.compiler as pycc_compiler
            from numba.core.compiler import Flags
            from numba.pycc.cc import CC

            from boardeval.morris._search.compiled import evaluate, movegen, ordering, pvs, tbprobe

            class _NoGil(Flags):  # type: ignore[misc]
                """pycc's flags with the GIL released in every entry point (numba's ``nogil``)."""

                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    super().__init__(*args, **kwargs)
                    setattr(self, "release_gil", True)  # noqa: B010 -- numba's Option descriptor

            functions: dict[str, Any] = {
                "root": pvs._root,
                "helper": pvs._helper,
                "order_root": ordering.order_root,
                "generate": movegen.generate,
                "apply_turn": movegen.apply_turn,
                "game_over": movegen.game_over,
                "evaluate": evaluate.evaluate,
                "evaluate_fast": evaluate.evaluate_fast,
                "perft": movegen._perft,
                "tb_probe": tbprobe.tb_probe,
            }
            name = module_name()
            cc = CC(name, source_module=sys.modules[__name__])
            cc.target_cpu = llvm.get_host_cpu_name()
            sigs = _signatures()
            for export in EXPORTS:
                cc.export(export, sigs[export])(_wrapper(functions[export], len(sigs[export].args)))
            with tempfile.TemporaryDirectory(prefix="boardeval-kernels-", dir=path.parent) as tmp:
                cc.output_dir = tmp
                original = getattr(pycc_compiler, "Flags")  # noqa: B009
                setattr(pycc_compiler, "Flags", _NoGil)  # noqa: B010 -- pycc makes its flags from this name
                try:
                    cc.compile()
                finally:
                    setattr(pycc_compiler, "Flags", original)  # noqa: B010
                built = Path(tmp) / cc.output_file
                write_atomic(path, functools.partial(_move, built))
        _prune(path)
    return path
