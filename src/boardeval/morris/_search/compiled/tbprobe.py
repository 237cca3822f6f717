"""The endgame tablebase probed inside the compiled search (issue 25 section 1): value and distance of a
side-relative position from the packed arrays of ``boardeval.morris._search.endgame`` (``index``, ``data``).

It computes what ``boardeval.morris.tablebase.index.canonical`` computes -- the colex rank of the side to
move's men, that rank's row and symmetry, the opponent's men mapped by the symmetry and renumbered among
the free points, their colex rank -- with integer tables only, so the search inlines it. The tests check it
against the tablebase's own lookup on sampled positions of every built sub-database.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from boardeval.morris._search.compiled.jit import njit_cached
from boardeval.morris._search.compiled.movegen import FULL, _ctz, _popcnt
from boardeval.morris._search.endgame import P_BINOM, P_MASK, P_ROR, P_SLOTS, P_SOR, P_SUB, P_SYM

__all__ = ["TB_DRAW", "TB_NONE", "tb_probe"]

TB_NONE: Final[int] = -2
""":func:`tb_probe` of a position whose sub-database is not built."""
TB_DRAW: Final[int] = -1
""":func:`tb_probe` of a drawn position."""


@njit_cached
def _rank(mask: int, index: np.ndarray) -> int:
    """Colexicographic rank of a set of points: the sum of C(p_i, i + 1) over its points p_0 < p_1 < ..."""
    r = 0
    i = 1
    m = mask
    while m:
        r += index[P_BINOM + 25 * _ctz(m) + i]
        i += 1
        m &= m - 1
    return r


@njit_cached
def _pext(x: int, free: int) -> int:
    """Renumber the points of ``x`` by their order among the points of ``free``."""
    out = 0
    while x:
        low = x & -x
        out |= 1 << _popcnt(free & (low - 1))
        x ^= low
    return out


@njit_cached
def tb_probe(own: int, opp: int, index: np.ndarray, data: np.ndarray) -> int:
    """The distance of a side-relative position (``own`` = the side to move's men, no men in hand): odd =
    a win for the side to move, even = a loss, :data:`TB_DRAW`, or :data:`TB_NONE` when not built."""
    a = _popcnt(own)
    b = _popcnt(opp)
    if a >= P_SLOTS or b >= P_SLOTS:
        return TB_NONE
    sub = P_SUB + 4 * (P_SLOTS * a + b)
    width = index[sub + 3]
    if width == 0:
        return TB_NONE
    r = _rank(own, index)
    row = index[index[P_ROR + a] + r]
    g = index[index[P_SOR + a] + r]
    rep = index[index[P_MASK + a] + row]
    sym = P_SYM + 768 * g
    opp2 = index[sym + (opp & 0xFF)] | index[sym + 256 + ((opp >> 8) & 0xFF)] | index[sym + 512 + (opp >> 16)]
    col = _rank(_pext(opp2, FULL ^ rep), index)
    at = index[sub] + (row * index[sub + 1] + col) * width
    code = np.int64(data[at])
    if width == 2:
        code |= np.int64(data[at + 1]) << 8
    bits = index[sub + 2]
    if (code >> bits) == 0:
        return TB_DRAW
    return code & ((1 << bits) - 1)
