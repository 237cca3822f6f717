"""boardeval: evaluate board-game positions, build balanced boards, and explain every number.

Games live in :mod:`boardeval.catan`, :mod:`boardeval.morris` and :mod:`boardeval.diplomacy`; the shared
evaluation vocabulary (breakdowns, weight sets, seeded RNG, job runner, errors) in :mod:`boardeval.core`.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
