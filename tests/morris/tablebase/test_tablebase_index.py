"""Tablebase indexing: the 16 board symmetries, colex ranks, reduced rows, symmetry classes."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from boardeval.morris.board import ADJACENT, EDGES, MILLS, N_POINTS
from boardeval.morris.tablebase.index import (
    SYM_BYTES,
    SYMMETRIES,
    apply_symmetry,
    canonical,
    combos,
    index_of,
    pext,
    position_of,
    rank,
    rows,
    symmetry_classes,
)


def _automorphisms() -> list[tuple[int, ...]]:
    """Every permutation of the 24 points that maps edges to edges and mills to mills (backtracking)."""
    edges = {frozenset(e) for e in EDGES}
    mills = {frozenset(m) for m in MILLS}
    found: list[tuple[int, ...]] = []

    def extend(perm: dict[int, int]) -> None:
        if len(perm) == N_POINTS:
            if {frozenset(perm[p] for p in m) for m in mills} == mills:
                found.append(tuple(perm[p] for p in range(N_POINTS)))
            return
        p = len(perm)
        for q in range(N_POINTS):
            if q in perm.values():
                continue
            # every already-mapped neighbour of p must map to a neighbour of q, and non-neighbours to non-
            if all((frozenset((perm[r], q)) in edges) == (r in ADJACENT[p]) for r in perm):
                perm[p] = q
                extend(perm)
                del perm[p]

    extend({})
    return found


def test_the_symmetries_are_exactly_the_board_automorphisms() -> None:
    autos = _automorphisms()
    assert len(autos) == 16
    assert set(autos) == set(SYMMETRIES)
    assert SYMMETRIES[0] == tuple(range(N_POINTS))


def test_symmetries_form_a_group_and_map_lines_to_lines() -> None:
    group = set(SYMMETRIES)
    for g, h in itertools.product(SYMMETRIES, repeat=2):
        assert tuple(g[h[p]] for p in range(N_POINTS)) in group
    mills = {frozenset(m) for m in MILLS}
    for g in SYMMETRIES:
        assert {frozenset(g[p] for p in m) for m in mills} == mills
        images = [apply_symmetry(SYMMETRIES.index(g), 1 << p).bit_length() - 1 for p in range(24)]
        assert sorted(images) == list(range(24))


def test_colex_rank_is_the_position_in_numeric_order() -> None:
    for k in (3, 4):
        masks = combos(k)
        assert len(masks) == comb(24, k)
        for r in (0, 1, 17, len(masks) // 2, len(masks) - 1):
            assert rank(int(masks[r])) == r
    assert pext(0b1010_0000, 0b1111_0000) == 0b1010
    assert pext(1 << 5, ~0b11 & (2**24 - 1)) == 1 << 3


@pytest.mark.parametrize(("a", "b"), [(3, 3), (4, 3), (3, 4), (4, 4)])
def test_index_round_trip_and_range(a: int, b: int) -> None:
    rng = np.random.default_rng(1)
    size = comb(24, a) * comb(24 - a, b)
    for i in rng.integers(0, size, 300):
        own, opp = position_of(a, b, int(i))
        assert own.bit_count() == a and opp.bit_count() == b and not own & opp
        assert index_of(own, opp) == i


@pytest.mark.parametrize(("a", "b"), [(3, 3), (4, 3), (4, 4)])
def test_symmetric_positions_share_one_stored_cell(a: int, b: int) -> None:
    rng = np.random.default_rng(2)
    table = rows(a)
    for i in rng.integers(0, comb(24, a) * comb(24 - a, b), 100):
        own, opp = position_of(a, b, int(i))
        row, _ = canonical(own, opp)
        rep = int(table.masks[row])
        cells = set()
        for g in range(16):
            gown, gopp = apply_symmetry(g, own), apply_symmetry(g, opp)
            r2, c2 = canonical(gown, gopp)
            assert r2 == row
            # the same class; its cell may differ only inside a row whose representative is symmetric
            cells.add(c2)
        assert len(cells) <= len(table.stabilisers[row])
        assert rep == min(apply_symmetry(g, own) for g in range(16))


def test_symmetry_classes_agree_with_a_direct_count() -> None:
    """Burnside's count equals counting distinct smallest images of every 3v3 position."""
    t = SYM_BYTES

    def image(g: int, m: np.ndarray) -> np.ndarray:
        return t[g, 0, m & 0xFF] | t[g, 1, (m >> 8) & 0xFF] | t[g, 2, m >> 16]  # type: ignore[no-any-return]

    own = np.repeat(combos(3), len(combos(3)))
    opp = np.tile(combos(3), len(combos(3)))
    ok = (own & opp) == 0
    own, opp = own[ok], opp[ok]
    smallest = (own << 24) | opp  # each position's smallest image as one 48-bit number
    for g in range(1, 16):
        np.minimum(smallest, (image(g, own) << 24) | image(g, opp), out=smallest)
    assert len(np.unique(smallest)) == symmetry_classes(3, 3)
    assert symmetry_classes(3, 3) == 169_626
    assert len(rows(3).masks) == 158


@pytest.mark.parametrize("k", [0, 1, 3, 5, 7, 24])
def test_combos_are_every_k_set_once_in_numeric_order(k: int) -> None:
    masks = combos(k)
    assert len(masks) == comb(24, k)
    assert np.all(np.diff(masks) > 0)  # ascending, so no repeats
    if k <= 3:
        expected = sorted(sum(1 << p for p in c) for c in itertools.combinations(range(24), k))
        assert masks.tolist() == expected
    else:
        counts = np.array([int(m).bit_count() for m in masks[:: max(1, len(masks) // 5000)]])
        assert np.all(counts == k)
