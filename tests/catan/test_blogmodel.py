"""Seed 004's MiniZinc models: the blog's counts (tiles 96; markers T=21 -> 0, 22 -> 1 with the spec's
board, 23 -> 11,753), cross-checked by CP-SAT models of the same constraints for the small counts."""

from __future__ import annotations

import pytest

from boardeval.catan import (
    BLOG_BOARD,
    BlogModelError,
    count_markers,
    count_tiles,
    format_staggered,
    iter_markers,
    iter_tiles,
)
from boardeval.catan.blogmodel import (
    BLOCK_PAIRS,
    BLOG_T22_MARKERS,
    HEX_PAIRS,
    LAND_CELLS,
    TRIANGLES,
    WATER_CELLS,
    all_tiles,
    parse_staggered,
)
from tests.catan.blog_cpsat import count_markers_cpsat, count_tiles_cpsat


def test_encoding_geometry() -> None:
    assert len(LAND_CELLS) == 19 and len(WATER_CELLS) == 6
    land_hex_pairs = [p for p in HEX_PAIRS if all(c in LAND_CELLS for c in p)]
    assert len(land_hex_pairs) == 42  # the true hex adjacency of the 19-hex island
    assert len(BLOCK_PAIRS) == 16 * 6 - 24  # six pairs per 2x2 block, shared edges counted once
    assert all(t[0] not in WATER_CELLS for t in TRIANGLES)


def test_staggered_print_round_trip() -> None:
    text = format_staggered(BLOG_BOARD)
    assert text.splitlines() == [
        " [2, 7, 5]",
        " [3, 4, 6, 7]",
        "[6, 5, 3, 5, 4]",
        " [7, 4, 6, 3]",
        " [5, 7, 4]",
    ]
    assert parse_staggered(text) == BLOG_BOARD
    assert parse_staggered("D 9 6 / 8 5 4 11 / 10 3 12 5 4 / 8 2 3 11 / 9 10 6".replace("D", "7")) == (
        BLOG_T22_MARKERS
    )
    with pytest.raises(BlogModelError, match="rows of 3, 4, 5, 4, 3"):
        parse_staggered("[1, 2]")


def test_tile_model_has_96_solutions_by_both_methods() -> None:
    assert count_tiles() == 96
    assert count_tiles_cpsat() == 96
    assert BLOG_BOARD in set(all_tiles())
    assert next(iter_tiles()) == all_tiles()[0]  # the blog's displayed board is one of them


def test_marker_counts() -> None:
    assert count_markers(21).count == 0
    assert count_markers(22).count == 1
    assert count_markers(23).count == 11_753


def test_t22_solution_is_the_spec_board() -> None:
    assert iter_markers(22) == [BLOG_T22_MARKERS]
    listed = iter_markers(23, limit=3)
    assert len(listed) == 3 and len(set(listed)) == 3


def test_cpsat_agrees_on_small_marker_counts() -> None:
    assert count_markers_cpsat(20) == 0
    assert count_markers_cpsat(21) == 0
    assert count_markers_cpsat(22) == 1


def test_bad_inputs() -> None:
    with pytest.raises(BlogModelError, match="threshold"):
        count_markers(2)
    bad = tuple(
        tuple(1 if (r, c) == (0, 0) else v for c, v in enumerate(row)) for r, row in enumerate(BLOG_BOARD)
    )
    with pytest.raises(BlogModelError, match="desert"):
        count_markers(23, bad)
