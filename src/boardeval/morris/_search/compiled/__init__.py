"""The compiled search (numba), by file:

- :mod:`.jit` -- ``njit(cache=True)`` and the check that drops a stale cache;
- :mod:`.movegen` -- bitboard tables, move generation, turns applied, game ends, perft;
- :mod:`.evaluate` -- the static evaluation, ported one for one from ``boardeval.morris._features``;
- :mod:`.state` -- a public ``Position`` in engine form, with make/unmake (tests, the root, the PV);
- :mod:`.ordering` -- move ordering: the keys of a node's turns, the pick of the next, the root's order;
- :mod:`.tbprobe` -- the endgame tablebase probed inside the tree;
- :mod:`.pvs` -- the principal-variation search itself (iterative deepening's inner loop);
- :mod:`.engine` -- :class:`~.engine.Engine`: the Python driver of the search;
- :mod:`.options` -- its options (which techniques are on), its result and the evaluation's coefficients;
- :mod:`.layout` -- the layout of the flat state buffers the kernels share;
- :mod:`.kernels`, :mod:`.aot`, :mod:`.sources` -- the kernels ahead of time (one extension module built
  per source version) or just in time, and the digest of the sources they hold.

Importing the kernels loads numba (or the ahead-of-time module); :mod:`.options`, :mod:`.layout` and
``import boardeval.morris`` do not (the search builds an engine on first use).
"""
