"""The compiled search (numba), by file:

- :mod:`.jit` -- ``njit(cache=True)`` and the check that drops a stale cache;
- :mod:`.movegen` -- bitboard tables, move generation, turns applied, game ends, perft;
- :mod:`.evaluate` -- the static evaluation, ported one for one from ``boardeval.morris._features``;
- :mod:`.state` -- a public ``Position`` in engine form, with make/unmake (tests, the root, the PV);
- :mod:`.pvs` -- the principal-variation search itself (iterative deepening's inner loop);
- :mod:`.engine` -- :class:`~.engine.Engine`, its options and result: the Python driver of the search.

Importing any of them loads numba; ``import boardeval.morris`` does not (the search builds an engine on
first use).
"""
