"""The compiled search's entry points: the few compiled functions Python calls (private).

:func:`kernels` returns them as one object. Everything else compiled (move generation, evaluation, the
recursive search, the tablebase probe) is called from inside these and compiled into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    """``"jit"``: numba's dispatchers (loaded from numba's cache, compiled when it is stale)."""


_loaded: Kernels | None = None


def kernels() -> Kernels:
    """The entry points, loaded once per process (numba imports here, not before)."""
    global _loaded
    if _loaded is None:
        from boardeval.morris._search.compiled import evaluate, movegen, pvs, tbprobe

        _loaded = Kernels(
            root=pvs._root,
            helper=pvs._helper,
            order_root=pvs._order_root,
            generate=movegen.generate,
            apply_turn=movegen.apply_turn,
            game_over=movegen.game_over,
            evaluate=evaluate.evaluate,
            evaluate_fast=evaluate.evaluate_fast,
            perft=movegen._perft,
            tb_probe=tbprobe.tb_probe,
            source="jit",
        )
    return _loaded
