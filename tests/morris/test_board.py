"""Board tables: 32 edges, 16 mills, rings, symmetric adjacency, names, and the bit-trick helpers."""

from __future__ import annotations

import random

import pytest

from boardeval.core import MorrisError
from boardeval.morris.board import (
    ADJ_MASK,
    ADJACENT,
    EDGES,
    FULL_MASK,
    MILL_MASKS,
    MILLS,
    N_POINTS,
    POINT_MILL_MASKS,
    POINT_MILLS,
    POINT_NAMES,
    RING,
    RING_MASKS,
    VERTICAL_ORDER,
    NotationError,
    in_mills,
    iter_bits,
    mask_of,
    mill_closers,
    neighbours,
    point_index,
    point_name,
    points_of,
    popcount,
)

# Coordinates (file, rank) of every point, read off the diagram independently of the tables.
COORDS = {name: ("abcdefg".index(name[0]), int(name[1])) for name in POINT_NAMES}


def test_names_are_row_major_on_the_grid() -> None:
    assert len(POINT_NAMES) == N_POINTS == 24 == len(set(POINT_NAMES))
    order = sorted(POINT_NAMES, key=lambda n: (-COORDS[n][1], COORDS[n][0]))
    assert list(POINT_NAMES) == order
    assert POINT_NAMES[:3] == ("a7", "d7", "g7") and POINT_NAMES[-3:] == ("a1", "d1", "g1")


def test_edges_follow_the_diagram() -> None:
    """32 edges; each joins the nearest point in a straight line on the same ring or on the cross."""
    assert len(EDGES) == 32 == len({frozenset(e) for e in EDGES})
    degree = [len(ADJACENT[p]) for p in range(N_POINTS)]
    assert sum(degree) == 64
    assert sorted(set(degree)) == [2, 3, 4]
    assert degree.count(4) == 4 and degree.count(3) == 8 and degree.count(2) == 12
    for a, b in EDGES:
        (fa, ra), (fb, rb) = COORDS[POINT_NAMES[a]], COORDS[POINT_NAMES[b]]
        assert fa == fb or ra == rb
        # never across the centre
        assert not (fa == fb == 3 and {ra, rb} == {3, 5}) and not (ra == rb == 4 and {fa, fb} == {2, 4})


def test_adjacency_is_symmetric_and_masks_match() -> None:
    for p in range(N_POINTS):
        assert p not in ADJACENT[p]
        for q in ADJACENT[p]:
            assert p in ADJACENT[q]
        assert ADJ_MASK[p] == mask_of(ADJACENT[p])


def test_mills() -> None:
    assert len(MILLS) == 16 == len(set(MILLS)) == len(MILL_MASKS)
    edges = {frozenset(e) for e in EDGES}
    for a, b, c in MILLS:
        assert frozenset((a, b)) in edges and frozenset((b, c)) in edges  # a straight connected line
        cols = {COORDS[POINT_NAMES[p]][0] for p in (a, b, c)}
        rows = {COORDS[POINT_NAMES[p]][1] for p in (a, b, c)}
        assert len(cols) == 1 or len(rows) == 1  # no diagonals
    for p in range(N_POINTS):
        assert len(POINT_MILLS[p]) == 2
        assert POINT_MILL_MASKS[p] == tuple(MILL_MASKS[k] for k in POINT_MILLS[p])
    assert sorted(VERTICAL_ORDER) == list(range(24))


def test_rings() -> None:
    expected = {
        "outer": ("a7", "d7", "g7", "a4", "g4", "a1", "d1", "g1"),
        "middle": ("b6", "d6", "f6", "b4", "f4", "b2", "d2", "f2"),
        "inner": ("c5", "d5", "e5", "c4", "e4", "c3", "d3", "e3"),
    }
    for ring, names in expected.items():
        assert RING_MASKS[ring] == mask_of([point_index(n) for n in names])
    assert RING_MASKS["outer"] | RING_MASKS["middle"] | RING_MASKS["inner"] == FULL_MASK
    assert RING.count("outer") == RING.count("middle") == RING.count("inner") == 8


def test_point_names_round_trip_and_errors() -> None:
    for i, name in enumerate(POINT_NAMES):
        assert point_index(name) == i and point_name(i) == name
        assert point_index(name.upper()) == i  # upper case accepted on purpose
        with pytest.raises(NotationError, match="unknown point"):
            point_index(f" {name}")  # no padding (issue 17)
    for bad in ("d4", "h1", "a0", "", "a77"):
        with pytest.raises(NotationError, match="unknown point"):
            point_index(bad)
    with pytest.raises(MorrisError):
        point_name(24)


def test_bit_helpers() -> None:
    assert popcount(FULL_MASK) == 24
    assert iter_bits(0b1011) == [0, 1, 3]
    assert points_of(mask_of([0, 23])) == ["a7", "g1"]


def _slow_in_mills(men: int) -> int:
    out = 0
    for m in MILL_MASKS:
        if men & m == m:
            out |= m
    return out


def _slow_closers(men: int, empty: int) -> int:
    out = 0
    for m in MILL_MASKS:
        hole = m & ~men
        if popcount(hole) == 1 and hole & empty:
            out |= hole
    return out


def test_bit_tricks_match_the_definition_on_random_boards() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        cells = [rng.choice("WWB..") for _ in range(24)]
        w = mask_of([i for i, c in enumerate(cells) if c == "W"])
        b = mask_of([i for i, c in enumerate(cells) if c == "B"])
        empty = FULL_MASK ^ (w | b)
        assert in_mills(w) == _slow_in_mills(w)
        assert mill_closers(w, empty) == _slow_closers(w, empty)
        assert mill_closers(b, empty) == _slow_closers(b, empty)
        assert neighbours(w) == mask_of([q for p in iter_bits(w) for q in ADJACENT[p]])
