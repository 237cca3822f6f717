"""Tablebase indexing: the board's 16 symmetries, colexicographic ranks, and the symmetry-reduced rows.

A position of the moving/flying phases is stored *side-relative*: ``own`` = the men of the side to move
(``a`` of them), ``opp`` = the opponent's men (``b``). Sub-database ``(a, b)`` ("4v3": the side to move has
4 men, the opponent 3) holds every such pair once, whichever colour is to move.

Index (the full, unreduced space): ``rank(own) * C(24 - a, b) + rank(pext(opp, ~own))``, where ``rank`` is
the colexicographic rank of a set of points -- for bitboards, colex order is plain numeric order, so
``rank(x)`` is the position of ``x`` among all masks with as many bits, ``sum(C(p_i, i + 1))`` over its
points ``p_0 < p_1 < ...`` -- and ``pext(opp, ~own)`` renumbers the opponent's men among the ``24 - a``
points that ``own`` leaves free.

Symmetry reduction (what is stored): only the rows whose ``own`` set is the smallest mask of its orbit under
the 16 symmetries are kept; a position is probed by mapping ``own`` to its orbit's representative with one
symmetry ``g`` and ``opp`` with the same ``g``. Rows of an ``own`` set with a non-trivial stabiliser keep all
their columns (a few symmetric duplicates, each a correct position), which keeps the index a plain product.

The 16 symmetries are :data:`boardeval.morris.symmetry.SYMMETRIES` (derived from the grid coordinates:
the 8 of the square times the swap of the inner and outer rings);
``tests/morris/tablebase/test_tablebase_index.py`` checks that each maps edges to edges and mills to mills
and that no other permutation of the points does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from boardeval.morris.board import EDGES, FULL_MASK, MILLS, N_POINTS
from boardeval.morris.symmetry import SYMMETRIES

__all__ = [
    "SYMMETRIES",
    "SYM_BYTES",
    "Rows",
    "apply_symmetry",
    "binomials",
    "canonical",
    "combos",
    "index_of",
    "pext",
    "position_of",
    "rank",
    "rows",
    "symmetry_classes",
]

I64 = npt.NDArray[np.int64]


def _sym_bytes() -> I64:
    # out[g, k, v] = OR of 1 << perm_g[8k + b] over the bits b set in v: the bits are distinct, so the OR is
    # a sum, i.e. a product of the (256, 8) bit matrix with the (8,) images (numpy: ~30x faster than loops
    # over the 98,304 cells, which cost ~25 ms of every process that opens a tablebase)
    bits = (np.arange(256, dtype=np.int64)[:, None] >> np.arange(8, dtype=np.int64)) & 1
    images = np.int64(1) << np.asarray(SYMMETRIES, dtype=np.int64).reshape(len(SYMMETRIES), 3, 8)
    return np.einsum("vb,gkb->gkv", bits, images)


#: ``SYM_BYTES[g, k, v]``: the image under ``g`` of the points in byte ``k`` of a bitboard (byte value ``v``).
SYM_BYTES: I64 = _sym_bytes()


def apply_symmetry(g: int, mask: int) -> int:
    """The image of a bitboard under symmetry ``g`` (three table look-ups)."""
    t = SYM_BYTES[g]
    return int(t[0, mask & 0xFF] | t[1, (mask >> 8) & 0xFF] | t[2, mask >> 16])


def _apply_all(masks: I64) -> I64:
    """Images of many bitboards under all 16 symmetries: shape (16, len(masks))."""
    t = SYM_BYTES
    return t[:, 0, masks & 0xFF] | t[:, 1, (masks >> 8) & 0xFF] | t[:, 2, masks >> 16]


def _check_symmetries() -> None:
    edges = {frozenset(e) for e in EDGES}
    mills = {frozenset(m) for m in MILLS}
    for perm in SYMMETRIES:
        assert {frozenset(perm[p] for p in e) for e in edges} == edges
        assert {frozenset(perm[p] for p in m) for m in mills} == mills
    assert len(set(SYMMETRIES)) == 16


_check_symmetries()


@cache
def binomials() -> I64:
    """``C[n, k]`` for n in 0..24, k in 0..24 (int64)."""
    table = np.zeros((N_POINTS + 1, N_POINTS + 1), dtype=np.int64)
    for n in range(N_POINTS + 1):
        for k in range(n + 1):
            table[n, k] = comb(n, k)
    return table


@cache
def combos(k: int) -> I64:
    """All 24-bit masks with ``k`` bits, in colex (= numeric) order; the first ``C(n, k)`` lie below bit n."""
    # Pascal's rule in colex order: the j-sets below bit n + 1 are the j-sets below bit n, then the
    # (j - 1)-sets below bit n with bit n added (numpy; the 346,104 sets of 7 took 0.58 s as Python sums,
    # inside the first move that met a 7-men table, issue 25 twentieth session)
    if not 0 <= k <= N_POINTS:
        return np.zeros(0, dtype=np.int64)
    level = [np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * k
    for n in range(N_POINTS):
        for j in range(min(k, n + 1), 0, -1):
            level[j] = np.concatenate([level[j], level[j - 1] + (1 << n)])
    out = level[k]
    out.flags.writeable = False
    return out


def _rank_bytes() -> tuple[list[list[list[int]]], list[int]]:
    """``table[k][c][v]``: the colex-rank terms of the points in byte ``k`` (value ``v``) when ``c`` points of
    the set lie in the lower bytes; and the popcount of a byte."""
    # numpy over the (256 values x 8 bits) matrix instead of 13,056 Python sums (~25 ms of every process
    # that opens a tablebase): the j-th set bit q of v adds C(8k + q, c + j + 1); C(n, r) = 0 for r > n
    v = np.arange(256, dtype=np.int64)
    bit = (v[:, None] >> np.arange(8)) & 1  # (256, 8)
    j = np.cumsum(bit, axis=1) - 1  # the set bit's order within v
    pascal = np.array([[comb(n, r) for r in range(27)] for n in range(N_POINTS)], dtype=np.int64)
    q = np.arange(8)
    table = [
        [(bit * pascal[8 * k + q, np.where(bit == 1, c + j + 1, 0)]).sum(axis=1).tolist() for c in range(17)]
        for k in range(3)
    ]
    return table, bit.sum(axis=1).tolist()


_RANK_BYTES, _PC8 = _rank_bytes()
_R0, _R1, _R2 = _RANK_BYTES


def rank(mask: int) -> int:
    """Colexicographic rank of a set of points among the sets of the same size (three table look-ups)."""
    b0 = mask & 0xFF
    b1 = (mask >> 8) & 0xFF
    c1 = _PC8[b0]
    return _R0[0][b0] + _R1[c1][b1] + _R2[c1 + _PC8[b1]][mask >> 16]


def pext(x: int, free: int) -> int:
    """Renumber the points of ``x`` (a subset of ``free``) by their order among the points of ``free``."""
    out = 0
    while x:
        low = x & -x
        out |= 1 << (free & (low - 1)).bit_count()
        x ^= low
    return out


def index_of(own: int, opp: int) -> int:
    """Full (unreduced) index of a side-relative position in its sub-database ``(|own|, |opp|)``."""
    a, b = own.bit_count(), opp.bit_count()
    return rank(own) * comb(N_POINTS - a, b) + rank(pext(opp, FULL_MASK ^ own))


def position_of(a: int, b: int, index: int) -> tuple[int, int]:
    """The ``(own, opp)`` bitboards at a full index of sub-database ``(a, b)`` (inverts :func:`index_of`)."""
    row, col = divmod(index, comb(N_POINTS - a, b))
    own = int(combos(a)[row])
    rel = int(combos(b)[col])
    free = [p for p in range(N_POINTS) if not own >> p & 1]
    opp = 0
    for q in range(N_POINTS - a):
        if rel >> q & 1:
            opp |= 1 << free[q]
    return own, opp


@dataclass(frozen=True)
class Rows:
    """The symmetry-reduced rows of the ``own`` sets with ``a`` men.

    ``masks``: the orbit representatives (smallest mask of each orbit), ascending -- row ``i`` of a stored
    sub-database is ``own = masks[i]``. ``row_of_rank[rank(own)]``: the row of ``own``'s orbit;
    ``sym_of_rank[rank(own)]``: a symmetry ``g`` with ``g(own) == masks[row]``.
    """

    a: int
    masks: I64
    row_of_rank: npt.NDArray[np.int32]
    sym_of_rank: npt.NDArray[np.int8]
    stabilisers: tuple[tuple[int, ...], ...]


@cache
def rows(a: int) -> Rows:
    """The reduced rows for ``a`` men on the side to move (computed in milliseconds, then cached)."""
    sets = combos(a)
    images = _apply_all(sets)
    canon = images.min(axis=0)
    sym = images.argmin(axis=0).astype(np.int8)
    masks = np.unique(canon)
    row_of_rank = np.searchsorted(masks, canon).astype(np.int32)
    mask_images = _apply_all(masks)
    stabilisers = tuple(
        tuple(int(g) for g in np.flatnonzero(mask_images[:, i] == masks[i])) for i in range(len(masks))
    )
    for arr in (masks, row_of_rank, sym):
        arr.flags.writeable = False
    return Rows(a, masks, row_of_rank, sym, stabilisers)


_ROW_LISTS: dict[int, tuple[list[int], list[int], list[int]]] = {}
""":func:`canonical`'s tables per men count: computed by :func:`rows` on first use, or handed over from a
packed tablebase's index by :func:`prime_row_lists` (milliseconds instead of ~1 s for 7 men)."""


def _row_lists(a: int) -> tuple[list[int], list[int], list[int]]:
    lists = _ROW_LISTS.get(a)
    if lists is None:
        table = rows(a)
        lists = _ROW_LISTS[a] = (table.row_of_rank.tolist(), table.sym_of_rank.tolist(), table.masks.tolist())
    return lists


def prime_row_lists(
    a: int, row_of_rank: npt.ArrayLike, sym_of_rank: npt.ArrayLike, masks: npt.ArrayLike
) -> None:
    """Hand :func:`canonical` the reduced rows of ``a`` men already computed elsewhere (a packed index).

    The arrays must be :func:`rows`' own (``tests/morris/tablebase`` checks a packed index's against them).
    """
    if a not in _ROW_LISTS:
        _ROW_LISTS[a] = (
            np.asarray(row_of_rank).tolist(),
            np.asarray(sym_of_rank).tolist(),
            np.asarray(masks).tolist(),
        )


_SYM_LISTS: list[list[list[int]]] = SYM_BYTES.tolist()


def canonical(own: int, opp: int) -> tuple[int, int]:
    """``(row, column)`` of a side-relative position in the stored (reduced) sub-database."""
    row_of_rank, sym_of_rank, masks = _row_lists(own.bit_count())
    r = rank(own)
    row = row_of_rank[r]
    t0, t1, t2 = _SYM_LISTS[sym_of_rank[r]]
    opp2 = t0[opp & 0xFF] | t1[(opp >> 8) & 0xFF] | t2[opp >> 16]
    return row, rank(pext(opp2, FULL_MASK ^ masks[row]))


def symmetry_classes(a: int, b: int) -> int:
    """Number of positions of sub-database ``(a, b)`` up to the 16 symmetries (Burnside's lemma)."""
    total = 0
    sets_a, sets_b = combos(a), combos(b)
    images_a, images_b = _apply_all(sets_a), _apply_all(sets_b)
    for g in range(len(SYMMETRIES)):
        if g == 0:
            total += comb(N_POINTS, a) * comb(N_POINTS - a, b)
            continue
        fixed_a = sets_a[images_a[g] == sets_a]
        fixed_b = sets_b[images_b[g] == sets_b]
        if len(fixed_a) and len(fixed_b):
            total += int(((fixed_a[:, None] & fixed_b[None, :]) == 0).sum())
    assert total % len(SYMMETRIES) == 0
    return total // len(SYMMETRIES)
