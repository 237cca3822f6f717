"""Nine Men's Morris board: points, adjacency, mills and rings as int tables and 24-bit bitboards, the two
sides, and the Zobrist keys that hash a board.

Points are numbered 0..23 row-major on the 7x7 grid -- the numbering OpenSpiel uses, so cross-checks need no
translation table -- and named algebraically (file a..g, rank 1..7)::

     0 a7 ------- 1 d7 ------- 2 g7
     |   3 b6 --- 4 d6 --- 5 f6  |
     |   |  6 c5- 7 d5- 8 e5 |   |
     9 a4-10 b4-11 c4   12 e4-13 f4-14 g4
     |   | 15 c3-16 d3-17 e3 |   |
     |  18 b2 ---19 d2 ---20 f2  |
    21 a1 -------22 d1 -------23 g1

A set of points is a bitboard: bit ``i`` stands for point ``i`` (``1 << i``); ``FULL_MASK`` is all 24.

Two facts of this numbering make bit tricks cheap (used by :func:`mill_closers` and :func:`in_mills`):

- the 8 horizontal mills are the aligned bit triples ``3k, 3k+1, 3k+2`` (k = 0..7);
- every point lies on exactly one vertical mill, so a fixed permutation of the bits (``VERTICAL_ORDER``)
  turns the 8 vertical mills into aligned triples as well.

Sides are ``WHITE = 0`` and ``BLACK = 1`` (each with :data:`MEN_PER_SIDE` men); :func:`zobrist_of` hashes
men, hands and the side to move with fixed SplitMix64 keys (what ``rules.Position.zobrist`` maintains
incrementally and the compiled search recomputes).
"""

from __future__ import annotations

from collections.abc import Iterable

from boardeval.core import MorrisError

__all__ = [
    "ADJACENT",
    "ADJ_MASK",
    "BIT",
    "BLACK",
    "EDGES",
    "FULL_MASK",
    "MEN_PER_SIDE",
    "MILLS",
    "MILL_MASKS",
    "N_POINTS",
    "POINT_MILLS",
    "POINT_MILL_MASKS",
    "POINT_NAMES",
    "RING",
    "RING_MASKS",
    "RING_WEIGHT",
    "SIDE_NAMES",
    "VERTICAL_ORDER",
    "WHITE",
    "Z_BLACK_TO_MOVE",
    "Z_HAND",
    "Z_MEN",
    "NotationError",
    "in_mills",
    "iter_bits",
    "mask_of",
    "mill_closers",
    "neighbours",
    "point_index",
    "point_name",
    "points_of",
    "popcount",
    "threat_points",
    "zobrist_of",
]


class NotationError(MorrisError):
    """A point name, turn or move list that cannot be read (e.g. ``"h9"`` or ``"a1--a4"``)."""


N_POINTS = 24
FULL_MASK = (1 << N_POINTS) - 1

WHITE = 0
BLACK = 1
SIDE_NAMES = ("white", "black")
MEN_PER_SIDE = 9

# fmt: off
POINT_NAMES: tuple[str, ...] = (
    "a7", "d7", "g7",
    "b6", "d6", "f6",
    "c5", "d5", "e5",
    "a4", "b4", "c4", "e4", "f4", "g4",
    "c3", "d3", "e3",
    "b2", "d2", "f2",
    "a1", "d1", "g1",
)

# The 32 lines of the diagram: 16 horizontal, 16 vertical.
EDGES: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8), (9, 10), (10, 11),
    (12, 13), (13, 14), (15, 16), (16, 17), (18, 19), (19, 20), (21, 22), (22, 23),
    (0, 9), (9, 21), (3, 10), (10, 18), (6, 11), (11, 15), (1, 4), (4, 7),
    (16, 19), (19, 22), (8, 12), (12, 17), (5, 13), (13, 20), (2, 14), (14, 23),
)

# 16 mills: the 8 rows (aligned bit triples), then the 8 columns.
MILLS: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14), (15, 16, 17), (18, 19, 20), (21, 22, 23),
    (0, 9, 21), (3, 10, 18), (6, 11, 15), (1, 4, 7), (16, 19, 22), (8, 12, 17), (5, 13, 20), (2, 14, 23),
)

RING: tuple[str, ...] = (
    "outer", "outer", "outer",
    "middle", "middle", "middle",
    "inner", "inner", "inner",
    "outer", "middle", "inner", "inner", "middle", "outer",
    "inner", "inner", "inner",
    "middle", "middle", "middle",
    "outer", "outer", "outer",
)
# fmt: on

#: Ring weights of the spec's fork-threat feature (middle ring counts more: it has 4 neighbours at the cross).
RING_WEIGHT: dict[str, float] = {"outer": 1.0, "middle": 1.25, "inner": 1.0}

BIT: tuple[int, ...] = tuple(1 << i for i in range(N_POINTS))

ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted([b for a, b in EDGES if a == p] + [a for a, b in EDGES if b == p])) for p in range(N_POINTS)
)
ADJ_MASK: tuple[int, ...] = tuple(sum(1 << q for q in ADJACENT[p]) for p in range(N_POINTS))
MILL_MASKS: tuple[int, ...] = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in MILLS)
POINT_MILLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k, mill in enumerate(MILLS) if p in mill) for p in range(N_POINTS)
)
POINT_MILL_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(MILL_MASKS[k] for k in POINT_MILLS[p]) for p in range(N_POINTS)
)
RING_MASKS: dict[str, int] = {
    ring: sum(1 << p for p in range(N_POINTS) if RING[p] == ring) for ring in ("outer", "middle", "inner")
}

#: The points in vertical-mill order: ``VERTICAL_ORDER[3k + j]`` is point j of vertical mill k.
VERTICAL_ORDER: tuple[int, ...] = tuple(p for mill in MILLS[8:] for p in mill)

_NAME_TO_INDEX = {name: i for i, name in enumerate(POINT_NAMES)}

# Bit-triple masks: lowest, middle and highest bit of each aligned triple.
_LOW = sum(1 << (3 * k) for k in range(8))
_MID = _LOW << 1
_HIGH = _LOW << 2


def _byte_tables(image: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Three 256-entry tables: for one byte of a board, the OR of ``image[p]`` over the points ``p`` it holds.

    With ``image = ADJ_MASK`` a board maps to the neighbours of its points; with ``image[p] = 1 << q`` it is
    permuted (point ``p`` goes to bit ``q``). A whole board is then three look-ups.
    """
    tables = []
    for byte in range(3):
        table = []
        for v in range(256):
            out = 0
            for b in range(8):
                if v >> b & 1:
                    out |= image[8 * byte + b]
            table.append(out)
        tables.append(tuple(table))
    return tuple(tables)


_NB0, _NB1, _NB2 = _byte_tables(ADJ_MASK)
# to vertical order: board bit VERTICAL_ORDER[j] goes to bit j; from it: bit j goes back to VERTICAL_ORDER[j]
_TO_V0, _TO_V1, _TO_V2 = _byte_tables(tuple(1 << VERTICAL_ORDER.index(p) for p in range(N_POINTS)))
_FROM_V0, _FROM_V1, _FROM_V2 = _byte_tables(tuple(1 << p for p in VERTICAL_ORDER))


def popcount(x: int) -> int:
    """Number of set bits (men, points) in a bitboard."""
    return x.bit_count()


def point_index(name: str) -> int:
    """The index 0..23 of an algebraic point name such as ``"d2"``.

    Upper case is accepted on purpose (``"D2"``, as in :meth:`~boardeval.morris.Turn.parse`); spaces
    are not. Raises :class:`NotationError` naming the bad input and listing the valid names.
    """
    key = name.lower() if isinstance(name, str) and name.isascii() else None
    if key is None or key not in _NAME_TO_INDEX:
        shown = repr(name[:20]) if isinstance(name, str) else type(name).__name__
        raise NotationError(f"unknown point {shown}: points are {', '.join(POINT_NAMES)}")
    return _NAME_TO_INDEX[key]


def point_name(index: int) -> str:
    """The algebraic name of point ``index`` (0..23)."""
    if not isinstance(index, int) or not 0 <= index < N_POINTS:
        raise NotationError(f"point index must be an int in 0..23, got {index!r}")
    return POINT_NAMES[index]


def iter_bits(mask: int) -> list[int]:
    """The point indices set in ``mask``, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def points_of(mask: int) -> list[str]:
    """The names of the points set in ``mask``, in index order."""
    return [POINT_NAMES[i] for i in iter_bits(mask)]


def mask_of(points: list[int] | tuple[int, ...] | set[int]) -> int:
    """The bitboard of a collection of point indices."""
    m = 0
    for p in points:
        m |= 1 << p
    return m


def neighbours(mask: int) -> int:
    """The points adjacent to at least one point of ``mask`` (three table look-ups)."""
    return _NB0[mask & 0xFF] | _NB1[(mask >> 8) & 0xFF] | _NB2[mask >> 16]


def _to_vertical(x: int) -> int:
    return _TO_V0[x & 0xFF] | _TO_V1[(x >> 8) & 0xFF] | _TO_V2[x >> 16]


def _from_vertical(x: int) -> int:
    return _FROM_V0[x & 0xFF] | _FROM_V1[(x >> 8) & 0xFF] | _FROM_V2[x >> 16]


def _triple_full(x: int) -> int:
    t = x & (x >> 1) & (x >> 2) & _LOW
    return t | (t << 1) | (t << 2)


def _triple_closers(x: int, e: int) -> int:
    return (
        (e & (x >> 1) & (x >> 2) & _LOW)
        | ((x << 1) & e & (x >> 1) & _MID)
        | ((x << 2) & (x << 1) & e & _HIGH)
    )


def in_mills(men: int) -> int:
    """The men of ``men`` (one side's bitboard) that stand in a closed mill of that side."""
    return _triple_full(men) | _from_vertical(_triple_full(_to_vertical(men)))


def mill_closers(men: int, empty: int) -> int:
    """Empty points where one more man of ``men`` would complete a mill (a line with 2 own men + 1 empty).

    This is the placement (or flying, if the flying man is not one of the two) view: the man comes from
    outside the line. ``empty`` must be the empty points of the board.
    """
    return _triple_closers(men, empty) | _from_vertical(
        _triple_closers(_to_vertical(men), _to_vertical(empty))
    )


def threat_points(own: int, empty: int, phase: str) -> tuple[int, int]:
    """Bitboards of (threat points, double-threat points) of a side with men ``own``.

    A point counts when placing/moving/flying a man onto it closes a mill, with the closing man never one
    of the two men already on that line (defect 1 of the seed). ``phase`` is how the side brings a man:
    "placing" (from hand), "flying" (any own man) or "moving" (an adjacent own man).
    """
    closes = 0  # points where some line closes
    seen = 0  # points where a first line closed, for double detection
    double = 0
    for mask in MILL_MASKS:
        own_in = own & mask
        if own_in.bit_count() != 2:
            continue
        gap = mask & empty
        if not gap:
            continue
        p = gap.bit_length() - 1
        if phase == "placing":
            ok = True
        elif phase == "flying":
            ok = (own & ~mask) != 0
        else:
            ok = (ADJ_MASK[p] & own & ~mask) != 0
        if not ok:
            continue
        if seen & gap:
            double |= gap
        seen |= gap
        closes |= gap
    # A double closure needs one man outside *both* lines (placing: from hand, always possible).
    if double and phase != "placing":
        checked = 0
        x = double
        while x:
            b = x & -x
            x ^= b
            p = b.bit_length() - 1
            both = 0
            for mask in MILL_MASKS:
                if mask & b:
                    both |= mask
            src = ADJ_MASK[p] if phase == "moving" else FULL_MASK
            if src & own & ~both:
                checked |= b
        double = checked
    return closes, double


# ----------------------------------------------------------------------------------------------- zobrist


def _splitmix64(seed: int) -> Iterable[int]:
    """A fixed, platform-independent stream of 64-bit keys (SplitMix64)."""
    state = seed
    mask = (1 << 64) - 1
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        yield z ^ (z >> 31)


def _zobrist_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    stream = iter(_splitmix64(0x4D6F72726973))  # "Morris"
    men = tuple(tuple(next(stream) for _ in range(N_POINTS)) for _side in range(2))
    hand = tuple(tuple(next(stream) for _ in range(MEN_PER_SIDE + 1)) for _side in range(2))
    return men, hand, next(stream)


#: Zobrist keys: ``Z_MEN[side][point]``, ``Z_HAND[side][men in hand]``, ``Z_BLACK_TO_MOVE``.
Z_MEN, Z_HAND, Z_BLACK_TO_MOVE = _zobrist_tables()


def zobrist_of(men: tuple[int, int] | list[int], hand: tuple[int, int] | list[int], side: int) -> int:
    """The Zobrist hash of a board, hands and side to move (what :attr:`Position.zobrist` maintains)."""
    z = Z_HAND[0][hand[0]] ^ Z_HAND[1][hand[1]]
    if side == BLACK:
        z ^= Z_BLACK_TO_MOVE
    for s in (WHITE, BLACK):
        for p in iter_bits(men[s]):
            z ^= Z_MEN[s][p]
    return z
