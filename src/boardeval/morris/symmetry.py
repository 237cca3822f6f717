"""The board's 16 symmetries: point permutations that map every edge to an edge and every mill to a mill.

Derived from the 7x7 grid coordinates (``a1`` = (0, 0), ``g7`` = (6, 6)): the 8 of the square (rotations by
90 degrees, reflections) times the swap of the inner and outer rings (a point at Chebyshev distance 3 from
the centre goes to distance 1 on the same ray and back; the middle ring stays).
``tests/morris/tablebase/test_tablebase_index.py`` checks that each maps edges to edges and mills to mills
and that no other permutation of the points does.

Positions that differ by a symmetry are the same game: the tablebase stores one of each orbit, and the
opening book (:mod:`boardeval.morris.book`) keys its entries by :func:`canonical` positions. Pure Python,
no numpy.
"""

from __future__ import annotations

from boardeval.morris.board import N_POINTS, POINT_NAMES
from boardeval.morris.turns import Turn, make_turn

__all__ = ["INVERSE", "SYMMETRIES", "canonical", "map_mask", "map_turn"]


def _coordinates(p: int) -> tuple[int, int]:
    name = POINT_NAMES[p]
    return ord(name[0]) - ord("a") - 3, int(name[1]) - 1 - 3


def _derive_symmetries() -> tuple[tuple[int, ...], ...]:
    """The 16 point permutations: D4 on the grid, each with and without the inner/outer ring swap."""
    where = {_coordinates(p): p for p in range(N_POINTS)}
    square = (
        lambda u, v: (u, v),
        lambda u, v: (-v, u),
        lambda u, v: (-u, -v),
        lambda u, v: (v, -u),
        lambda u, v: (-u, v),
        lambda u, v: (u, -v),
        lambda u, v: (v, u),
        lambda u, v: (-v, -u),
    )

    def swap(u: int, v: int) -> tuple[int, int]:
        k = max(abs(u), abs(v))
        if k == 3:
            return u // 3, v // 3
        if k == 1:
            return 3 * u, 3 * v
        return u, v

    out = []
    for ring_swap in (False, True):
        for f in square:
            perm = []
            for p in range(N_POINTS):
                u, v = f(*_coordinates(p))
                if ring_swap:
                    u, v = swap(u, v)
                perm.append(where[(u, v)])
            out.append(tuple(perm))
    return tuple(out)


#: ``SYMMETRIES[g][p]`` is the image of point ``p`` under symmetry ``g``; ``SYMMETRIES[0]`` is the identity.
SYMMETRIES: tuple[tuple[int, ...], ...] = _derive_symmetries()

#: ``INVERSE[g]`` undoes symmetry ``g``.
INVERSE: tuple[int, ...] = tuple(
    next(h for h, back in enumerate(SYMMETRIES) if all(back[SYMMETRIES[g][p]] == p for p in range(N_POINTS)))
    for g in range(len(SYMMETRIES))
)


_BYTE_IMAGES: list[tuple[tuple[tuple[int, ...], ...], ...]] = []
"""``_BYTE_IMAGES[0][g][k][b]``: the image under symmetry ``g`` of the points ``8k..8k+7`` set in byte ``b``
(a bitboard's image is the OR of its three bytes' images). Built on first use (~3 ms), not at import."""


def _byte_images() -> tuple[tuple[tuple[int, ...], ...], ...]:
    if not _BYTE_IMAGES:
        tables = []
        for perm in SYMMETRIES:
            per_byte = []
            for k in range(3):
                row = [0] * 256
                for b in range(1, 256):
                    low = b & -b  # the image of b is the image of b without its lowest bit, plus that bit's
                    row[b] = row[b ^ low] | 1 << perm[8 * k + low.bit_length() - 1]
                per_byte.append(tuple(row))
            tables.append(tuple(per_byte))
        _BYTE_IMAGES.append(tuple(tables))
    return _BYTE_IMAGES[0]


def map_mask(g: int, mask: int) -> int:
    """The image of a bitboard under symmetry ``g``."""
    t0, t1, t2 = (_BYTE_IMAGES[0] if _BYTE_IMAGES else _byte_images())[g]
    return t0[mask & 255] | t1[mask >> 8 & 255] | t2[mask >> 16]


def map_turn(g: int, turn: Turn) -> Turn:
    """The image of a turn under symmetry ``g`` (every point of it mapped)."""
    perm = SYMMETRIES[g]
    return make_turn(
        None if turn.src is None else perm[turn.src],
        perm[turn.dst],
        None if turn.remove is None else perm[turn.remove],
    )


def canonical(white: int, black: int) -> tuple[tuple[int, int], int]:
    """The smallest image ``(white, black)`` of a pair of bitboards over the 16 symmetries, and the (first)
    symmetry that gives it."""
    tables = _BYTE_IMAGES[0] if _BYTE_IMAGES else _byte_images()
    w0, w1, w2 = white & 255, white >> 8 & 255, white >> 16
    b0, b1, b2 = black & 255, black >> 8 & 255, black >> 16
    best = white << 24 | black  # (white, black) in tuple order: black < 2**24
    best_g = 0
    for g in range(1, len(tables)):
        t0, t1, t2 = tables[g]
        image = (t0[w0] | t1[w1] | t2[w2]) << 24 | t0[b0] | t1[b1] | t2[b2]
        if image < best:
            best, best_g = image, g
    return (best >> 24, best & 0xFFFFFF), best_g
