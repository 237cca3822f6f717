"""The compiled search's entry points: the few compiled functions Python calls (private).

:func:`kernels` returns them as one object. Everything else compiled (move generation, evaluation, the
recursive search, the tablebase probe) is called from inside these and compiled into them.

Two sources of the same code: the ahead-of-time compiled extension module of :mod:`.aot` (imported in
milliseconds, no numba in the process; built on first use), else numba's just-in-time dispatchers (loaded
from numba's on-disk cache, ~1.5 s of CPU per process). ``BOARDEVAL_MORRIS_KERNELS``: ``aot`` / ``jit``
forces one (``aot`` fails loudly when the module cannot be built), unset or ``auto`` prefers ``aot``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from boardeval.core import ParamsError

__all__ = ["Kernels", "kernels"]


@dataclass(frozen=True)
class Kernels:
    """The compiled entry points (numba dispatchers)."""

    root: Any
    helper: Any
    order_root: Any
    generate: Any
    apply_turn: Any
    game_over: Any
    evaluate: Any
    evaluate_fast: Any
    perft: Any
    tb_probe: Any
    source: str
    """``"aot"``: the ahead-of-time compiled module; ``"jit"``: numba's dispatchers (loaded from numba's
    cache, compiled when it is stale)."""


_loaded: Kernels | None = None
ENV: str = "BOARDEVAL_MORRIS_KERNELS"


def kernels() -> Kernels:
    """The entry points, loaded once per process (see the module docstring for which)."""
    global _loaded
    if _loaded is None:
        want = os.environ.get(ENV, "auto").strip() or "auto"
        if want not in ("auto", "aot", "jit"):
            raise ParamsError(f"{ENV} must be auto, aot or jit, got {want!r}")
        _loaded = (_aot(want == "aot") if want != "jit" else None) or _jit()
    return _loaded


def _aot(required: bool) -> Kernels | None:
    """The ahead-of-time module's entry points (built first if needed); None if it cannot be had."""
    from boardeval.morris._search.compiled import aot

    module = aot.load()
    if module is None:
        try:
            aot.build()
        except Exception:
            if required:
                raise
            return None
        module = aot.load()
        if module is None:
            if required:
                raise ParamsError(f"the ahead-of-time Morris kernels in {aot.module_path()} do not load")
            return None
    return Kernels(**{name: getattr(module, name) for name in aot.EXPORTS}, source="aot")


def _jit() -> Kernels:
    """numba's dispatchers (numba imports here)."""
    from boardeval.morris._search.compiled import evaluate, movegen, ordering, pvs, tbprobe

    return Kernels(
        root=pvs._root,
        helper=pvs._helper,
        order_root=ordering.order_root,
        generate=movegen.generate,
        apply_turn=movegen.apply_turn,
        game_over=movegen.game_over,
        evaluate=evaluate.evaluate,
        evaluate_fast=evaluate.evaluate_fast,
        perft=movegen._perft,
        tb_probe=tbprobe.tb_probe,
        source="jit",
    )
