"""CP-SAT models of seed 004's blog constraints: an independent cross-check of ``boardeval.catan.blogmodel``.

The library counts the blog's tile and marker layouts with a dedicated depth-first search; these models
state the same constraints for CP-SAT and enumerate the solutions (through the library's one CP-SAT
solution counter, :func:`boardeval.catan._generate.cp.count_solutions`), so the tests can compare the two
on the small counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from boardeval.catan._generate.cp import count_solutions
from boardeval.catan.blogmodel import (
    BLOG_BOARD,
    BRICK,
    DESERT,
    GRAIN,
    HEX_PAIRS,
    LAND_CELLS,
    LUMBER,
    MARKER_COUNTS,
    SHEEP,
    STONE,
    TILE_COUNTS,
    TRIANGLES,
    WATER,
    WATER_CELLS,
    BlogModelError,
    Grid,
    N,
    _blocks,
    _validate_board,
    _validate_threshold,
)

__all__ = ["count_markers_cpsat", "count_tiles_cpsat"]


def _count(model: cp_model.CpModel, limit: int | None, seconds: float) -> int:
    """Enumerate the solutions; an unfinished enumeration (budget spent) is an error, not a count. The
    budget is CP-SAT's deterministic time (T = 22 takes ~7 of the 60 s), so a slow or loaded machine gets
    the same verdict."""
    n, complete = count_solutions(model, limit, seconds)
    if not complete and (limit is None or n < limit):
        raise BlogModelError(
            f"CP-SAT did not finish counting within {seconds} s of deterministic time ({n} found so far)"
        )
    return n


def _one_hot(model: cp_model.CpModel, name: str, values: Sequence[int]) -> dict[int, cp_model.IntVar]:
    lits = {v: model.new_bool_var(f"{name}={v}") for v in values}
    model.add_exactly_one(lits.values())
    return lits


def count_tiles_cpsat(seconds: float = 60.0) -> int:
    """The tile model's solution count, enumerated by CP-SAT (independent of :func:`count_tiles`)."""
    model = cp_model.CpModel()
    cells = [(r, c) for r in range(N) for c in range(N)]
    is_v = {cell: _one_hot(model, f"b{cell}", range(1, 8)) for cell in cells}
    for v, n in TILE_COUNTS.items():
        model.add(sum(is_v[cell][v] for cell in cells) == n)
    for cell in WATER_CELLS:
        model.add(is_v[cell][WATER] == 1)
    for blk in _blocks():
        for v in range(2, 8):
            model.add_at_most_one(is_v[cell][v] for cell in blk)
    for pair in HEX_PAIRS:
        x, y = tuple(pair)
        for p in (BRICK, LUMBER):
            for q in (BRICK, LUMBER):
                model.add_bool_or([is_v[x][p].Not(), is_v[y][q].Not()])
    value = {cell: sum(v * is_v[cell][v] for v in range(1, 8)) for cell in ((0, 0), (2, 4), (4, 2))}
    model.add(value[(0, 0)] < value[(2, 4)])
    model.add(value[(2, 4)] < value[(4, 2)])
    return _count(model, None, seconds)


def count_markers_cpsat(
    threshold: int, board: Grid = BLOG_BOARD, limit: int | None = None, seconds: float = 60.0
) -> int:
    """The marker model's count by CP-SAT enumeration (slow beyond T = 22; used as a cross-check)."""
    _validate_threshold(threshold)
    _validate_board(board)
    model = cp_model.CpModel()
    cells = [(r, c) for r in range(N) for c in range(N)]
    is_v = {cell: _one_hot(model, f"m{cell}", range(1, 13)) for cell in cells}
    for r, c in cells:
        tile = board[r][c]
        if tile == WATER:
            model.add(is_v[(r, c)][1] == 1)
        elif tile == DESERT:
            model.add(is_v[(r, c)][7] == 1)
        else:
            model.add(is_v[(r, c)][1] + is_v[(r, c)][7] == 0)
    for v, n in MARKER_COUNTS.items():
        model.add(sum(is_v[cell][v] for cell in cells) == n)
    for res in (BRICK, GRAIN, SHEEP, STONE, LUMBER):
        same = [cell for cell in LAND_CELLS if board[cell[0]][cell[1]] == res]
        for v in range(2, 13):
            model.add_at_most_one(is_v[cell][v] for cell in same)
        model.add(sum(is_v[cell][6] + is_v[cell][8] for cell in same) <= 1)
    for blk in _blocks():
        for v in range(2, 13):
            model.add_at_most_one(is_v[cell][v] for cell in blk)
        model.add(sum(is_v[cell][6] + is_v[cell][8] for cell in blk) <= 1)
    value = {cell: sum(v * is_v[cell][v] for v in range(1, 13)) for cell in cells}
    for ta, tb, tc in TRIANGLES:  # anchors on water were dropped, so M[a] > 1 holds for every triangle
        model.add(value[ta] + value[tb] + value[tc] < threshold)
    return _count(model, limit, seconds)
