"""Seed 004's MiniZinc models, reproduced: the blog's 5x5 tile model and its number-marker model.

The blog encodes the 19-hex island in a 5x5 array; rows are shifted so that the hex neighbours of
``(r, c)`` are ``(r, c±1)``, ``(r±1, c)``, ``(r+1, c+1)`` and ``(r-1, c-1)``. Six cells are water::

      col  1  2  3  4  5
    row 1  .  .  .  ~  ~          staggered, as the blog prints it:   [a, b, c]
    row 2  .  .  .  .  ~                                             [d, e, f, g]
    row 3  .  .  .  .  .                                            [h, i, j, k, l]
    row 4  ~  .  .  .  .                                             [m, n, o, p]
    row 5  ~  ~  .  .  .                                              [q, r, s]

Values follow the blog: tiles ``1 water, 2 desert, 3 brick, 4 grain, 5 sheep, 6 stone, 7 lumber``;
markers ``1`` on water, ``7`` on the desert, the usual 2..12 tokens elsewhere.

Constraints, read as the spec (section 4) fixes them:

* tile model: resource counts 6/1/3/4/4/3/4; ``alldifferent_except_0(Board - 1)`` over every 2x2 block
  (so the non-adjacent diagonal ``(r, c+1)-(r+1, c)`` of a block is separated too); lumber and brick never
  on hex neighbours (this also bans lumber-lumber and brick-brick); ``B[1,1] < B[3,5] < B[5,3]``.
  Exactly 96 solutions.
* marker model on the blog's displayed board: 7 on the desert, 1 on water; per resource all-different
  markers and at most one 6 or 8; over every 2x2 block all non-water markers differ and at most one is
  a 6 or an 8; for every land ``(r, c)`` (``M[r,c] > 1``, the desert included) the two vertex triangles
  ``M[r,c]+M[r+1,c]+M[r+1,c+1] < T`` and ``M[r,c]+M[r,c+1]+M[r+1,c+1] < T`` (water's 1 and the desert's
  7 count in the sums). Counts: 0 for T <= 21, 1 for T = 22, 11,753 for T = 23, 500,170 for T = 24.

The counter is a dedicated depth-first search (bitsets, precomputed per-cell neighbour lists and vertex
triangles, pruning on the smallest tokens still to come; no memo): T = 23 takes about 2 s. The tests
cross-check the small counts against CP-SAT models of the same constraints (``tests/catan/blog_cpsat.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from boardeval.core import CatanError, Progress, report

__all__ = [
    "BLOG_BOARD",
    "BLOG_T22_MARKERS",
    "LAND_CELLS",
    "WATER_CELLS",
    "BlogModelError",
    "MarkerCount",
    "count_markers",
    "count_tiles",
    "format_staggered",
    "iter_markers",
    "iter_tiles",
    "parse_staggered",
]

N = 5
WATER, DESERT, BRICK, GRAIN, SHEEP, STONE, LUMBER = 1, 2, 3, 4, 5, 6, 7
TILE_NAMES = {1: "water", 2: "desert", 3: "brick", 4: "grain", 5: "sheep", 6: "stone", 7: "lumber"}
TILE_COUNTS = {WATER: 6, DESERT: 1, BRICK: 3, GRAIN: 4, SHEEP: 4, STONE: 3, LUMBER: 4}
MARKER_COUNTS = {1: 6, 2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}

WATER_CELLS: tuple[tuple[int, int], ...] = ((0, 3), (0, 4), (1, 4), (3, 0), (4, 0), (4, 1))
"""Water cells, 0-based (the blog's (1,4), (1,5), (2,5), (4,1), (5,1), (5,2))."""

LAND_CELLS: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(N) for c in range(N) if (r, c) not in WATER_CELLS
)
"""The 19 land cells, 0-based, row-major (the staggered print order)."""

Grid = tuple[tuple[int, ...], ...]

BLOG_BOARD: Grid = (
    (2, 7, 5, 1, 1),
    (3, 4, 6, 7, 1),
    (6, 5, 3, 5, 4),
    (1, 7, 4, 6, 3),
    (1, 1, 5, 7, 4),
)
"""The tile layout the blog displays (desert at (1,1)); the marker model runs on it."""

BLOG_T22_MARKERS: Grid = (
    (7, 9, 6, 1, 1),
    (8, 5, 4, 11, 1),
    (10, 3, 12, 5, 4),
    (1, 8, 2, 3, 11),
    (1, 1, 9, 10, 6),
)
"""The unique marker solution at threshold T = 22 (spec section 4)."""


class BlogModelError(CatanError):
    """Bad input to the seed-004 models (a malformed tile grid, a threshold out of range)."""


def _blocks() -> list[tuple[tuple[int, int], ...]]:
    """The sixteen 2x2 blocks (top-left corner first)."""
    return [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)) for r in range(N - 1) for c in range(N - 1)]


def _block_pairs() -> set[frozenset[tuple[int, int]]]:
    """Every pair of cells that share a 2x2 block (hex neighbours plus the block's other diagonal)."""
    out: set[frozenset[tuple[int, int]]] = set()
    for blk in _blocks():
        for i in range(4):
            for j in range(i + 1, 4):
                out.add(frozenset((blk[i], blk[j])))
    return out


def _hex_pairs() -> set[frozenset[tuple[int, int]]]:
    """Pairs of hex neighbours in the 5x5 encoding (right, down, down-right)."""
    out: set[frozenset[tuple[int, int]]] = set()
    for r in range(N):
        for c in range(N):
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                rr, cc = r + dr, c + dc
                if rr < N and cc < N:
                    out.add(frozenset(((r, c), (rr, cc))))
    return out


def _triangles() -> list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """The threshold triangles, anchored at (r, c) for r, c in 0..3 (the anchor must be land)."""
    out = []
    for r in range(N - 1):
        for c in range(N - 1):
            if (r, c) in WATER_CELLS:
                continue
            out.append(((r, c), (r + 1, c), (r + 1, c + 1)))
            out.append(((r, c), (r, c + 1), (r + 1, c + 1)))
    return out


BLOCK_PAIRS = _block_pairs()
HEX_PAIRS = _hex_pairs()
TRIANGLES = _triangles()


# ---------------------------------------------------------------------------------------------------
# Text form: the blog's staggered print
# ---------------------------------------------------------------------------------------------------


def format_staggered(grid: Grid) -> str:
    """The blog's staggered print of a 5x5 grid (land cells only), one row per line."""
    lines = []
    for r in range(N):
        vals = [grid[r][c] for c in range(N) if (r, c) not in WATER_CELLS]
        text = "[" + ", ".join(str(v) for v in vals) + "]"
        lines.append(text if r == 2 else " " + text)
    return "\n".join(lines)


def parse_staggered(text: str) -> Grid:
    """Parse :func:`format_staggered` output (or ``a b c / d e f g / ...``) back into a 5x5 grid.

    Water cells get 1. Raises :class:`BlogModelError` quoting the text when the shape is wrong.
    """
    cleaned = text.replace("[", " ").replace("]", " ").replace(",", " ")
    rows = [r.split() for r in cleaned.replace("/", "\n").splitlines() if r.strip()]
    if [len(r) for r in rows] != [3, 4, 5, 4, 3]:
        raise BlogModelError(f"expected rows of 3, 4, 5, 4, 3 values, got {text!r}")
    try:
        flat = [int(v) for row in rows for v in row]
    except ValueError:
        raise BlogModelError(f"non-integer value in {text!r}") from None
    grid = [[WATER] * N for _ in range(N)]
    for (r, c), v in zip(LAND_CELLS, flat, strict=True):
        grid[r][c] = v
    return tuple(tuple(row) for row in grid)


# ---------------------------------------------------------------------------------------------------
# Tile model: dedicated search
# ---------------------------------------------------------------------------------------------------


def _earlier_partners(pairs: set[frozenset[tuple[int, int]]]) -> list[list[int]]:
    """For each land cell (in LAND_CELLS order), the indices of earlier land cells paired with it."""
    index = {cell: i for i, cell in enumerate(LAND_CELLS)}
    out: list[list[int]] = [[] for _ in LAND_CELLS]
    for pair in pairs:
        a, b = sorted(pair)
        if a in index and b in index:
            ia, ib = index[a], index[b]
            lo, hi = min(ia, ib), max(ia, ib)
            out[hi].append(lo)
    return [sorted(x) for x in out]


def iter_tiles() -> Iterator[Grid]:
    """Every solution of the blog's tile model, in lexicographic order of the land cells.

    Cell-by-cell search with bitsets: for each cell, the values of its earlier 2x2-block partners are
    forbidden (all-different), and lumber/brick is forbidden when an earlier hex neighbour holds either.
    """
    block_prev = _earlier_partners(BLOCK_PAIRS)
    hex_prev = _earlier_partners(HEX_PAIRS)
    counts = [0] * 8
    for v in range(2, 8):
        counts[v] = TILE_COUNTS[v]
    vals = [0] * len(LAND_CELLS)
    n = len(LAND_CELLS)
    i11, i35, i53 = LAND_CELLS.index((0, 0)), LAND_CELLS.index((2, 4)), LAND_CELLS.index((4, 2))
    wb_bits = (1 << BRICK) | (1 << LUMBER)
    out: list[Grid] = []

    def rec(k: int) -> None:
        if k == n:
            grid = [[WATER] * N for _ in range(N)]
            for (r, c), v in zip(LAND_CELLS, vals, strict=True):
                grid[r][c] = v
            out.append(tuple(tuple(row) for row in grid))
            return
        forbid = 0
        for j in block_prev[k]:
            forbid |= 1 << vals[j]
        for j in hex_prev[k]:
            if (1 << vals[j]) & wb_bits:
                forbid |= wb_bits
                break
        lo = vals[i11] + 1 if k == i35 else vals[i35] + 1 if k == i53 else 2
        for v in range(lo, 8):
            if counts[v] and not forbid >> v & 1:
                counts[v] -= 1
                vals[k] = v
                rec(k + 1)
                counts[v] += 1
        vals[k] = 0

    rec(0)
    yield from out


@cache
def all_tiles() -> tuple[Grid, ...]:
    """Every solution of the tile model (computed once per process)."""
    return tuple(iter_tiles())


def count_tiles() -> int:
    """Number of solutions of the blog's tile model (96)."""
    return len(all_tiles())


# ---------------------------------------------------------------------------------------------------
# Marker model: dedicated counter
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MarkerCount:
    """How many marker layouts satisfy the model at ``threshold``, and how long counting took."""

    threshold: int
    count: int
    seconds: float
    nodes: int
    interrupted: bool = False
    """Ctrl-C stopped the count: ``count`` is the layouts found so far (a lower bound)."""


def _validate_board(board: Grid) -> None:
    if len(board) != N or any(len(row) != N for row in board):
        raise BlogModelError(f"tile grid must be 5x5, got {board!r}")
    for r, c in WATER_CELLS:
        if board[r][c] != WATER:
            raise BlogModelError(f"cell ({r + 1},{c + 1}) must be water (1), got {board[r][c]}")
    land = [board[r][c] for r, c in LAND_CELLS]
    for v, n in TILE_COUNTS.items():
        if v == WATER:
            continue
        if land.count(v) != n:
            raise BlogModelError(
                f"tile grid must hold {n} {TILE_NAMES[v]} ({v}) on land, found {land.count(v)} in {board!r}"
            )


def _validate_threshold(threshold: int) -> None:
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 3 <= threshold <= 40:
        raise BlogModelError(f"threshold T must be an integer in 3..40, got {threshold!r}")


TOKEN_ORDER: tuple[int, ...] = (8, 8, 6, 6, 12, 11, 11, 10, 10, 9, 9, 5, 5, 4, 4, 3, 3, 2)
"""The order in which the counter places the 18 tokens (measured fastest: the 6/8 placement is the most
constrained, then the high numbers that the triangle sums restrict most)."""


REPORT_EVERY = 4096
"""The marker counter reports its progress at the first of every this many layouts (and per branch)."""


class _MarkerSearch:
    """Value-major depth-first counter: place the tokens one by one (TOKEN_ORDER), each into a free cell.

    Why value-major rather than cell by cell: placing the 6s, 8s and the high numbers first makes the
    triangle sums bite at once (a triangle's partial sum plus the smallest tokens still to come must stay
    below T), so dead branches die near the root. Measured on the blog board at T = 23: 1.0 M nodes for
    the value-major order against 46 M for a row-major search with a row memo.

    State is kept in bitsets over the 18 numbered cells: ``free``; ``hi_forbid`` (cells sharing a block
    or a resource with a placed 6/8); ``same_forbid`` (cells the second copy of a value may not take: a
    block or resource conflict with the first copy, or an earlier cell, which counts each unordered pair of
    equal tokens once). Triangle sums and free-cell counts are updated in place and undone on return.
    """

    def __init__(self, board: Grid, threshold: int) -> None:
        self.threshold = threshold
        self.cells = [(r, c) for r, c in LAND_CELLS if board[r][c] != DESERT]
        pos = {cell: i for i, cell in enumerate(self.cells)}
        fixed: dict[tuple[int, int], int] = {cell: WATER for cell in WATER_CELLS}
        for r, c in LAND_CELLS:
            if board[r][c] == DESERT:
                fixed[(r, c)] = 7
        self.fixed = fixed
        n = len(self.cells)
        partner = [0] * n
        for pair in BLOCK_PAIRS:
            a, b = tuple(pair)
            if a in pos and b in pos:
                partner[pos[a]] |= 1 << pos[b]
                partner[pos[b]] |= 1 << pos[a]
        res = [board[r][c] for r, c in self.cells]
        res_mask = {x: sum(1 << i for i in range(n) if res[i] == x) for x in set(res)}
        # cells that may not hold the same value as cell i (nor a second 6/8 when i holds one)
        self.conflict = [partner[i] | res_mask[res[i]] for i in range(n)]
        self.tri_sum: list[int] = []
        self.tri_free: list[int] = []
        self.tri_of: list[list[int]] = [[] for _ in range(n)]
        for tri in TRIANGLES:
            free = [pos[c] for c in tri if c in pos]
            if not free:
                continue
            t = len(self.tri_sum)
            self.tri_sum.append(sum(fixed[c] for c in tri if c not in pos))
            self.tri_free.append(len(free))
            for i in free:
                self.tri_of[i].append(t)
        # smallest sum of j tokens still to come after position k (j = 0, 1, 2)
        self.min_rest: list[tuple[int, int, int]] = []
        for k in range(len(TOKEN_ORDER)):
            rest = sorted(TOKEN_ORDER[k + 1 :])
            one = rest[0] if rest else 10**6
            two = rest[0] + rest[1] if len(rest) > 1 else 10**6
            self.min_rest.append((0, one, two))
        self.nodes = 0
        self.solutions = 0

    def _grid(self, placed: Sequence[int]) -> Grid:
        """The full 5x5 grid: water, the fixed cells, and the tokens ``placed`` on the numbered cells."""
        grid = [[WATER] * N for _ in range(N)]
        for cell, v in self.fixed.items():
            grid[cell[0]][cell[1]] = v
        for (r, c), v in zip(self.cells, placed, strict=True):
            grid[r][c] = v
        return tuple(tuple(row) for row in grid)

    def run(
        self, collect: bool, limit: int | None, progress: Progress | None = None
    ) -> tuple[int, list[Grid]]:
        """Count (and with ``collect`` list, up to ``limit``) the layouts. ``progress`` hears
        ``(branches done, branches, "N layouts so far")``, the branches being the cells of the first
        token: at the start, after each branch and at the first of every :data:`REPORT_EVERY` layouts."""
        n = len(self.cells)
        order = TOKEN_ORDER
        total_tokens = len(order)
        threshold = self.threshold
        tri_sum, tri_free, tri_of = self.tri_sum, self.tri_free, self.tri_of
        conflict, min_rest = self.conflict, self.min_rest
        placed = [0] * n
        found: list[Grid] = []
        nodes = 0
        self.solutions = 0  # the layouts found so far, readable after a Ctrl-C
        branches = [0, n]  # the first token's cells done (tried in cell order), in all

        def tell() -> None:
            report(progress, branches[0], branches[1], f"{self.solutions:,} layouts so far")

        def rec(k: int, free: int, hi_forbid: int, same_forbid: int) -> int:
            nonlocal nodes
            nodes += 1
            if k == total_tokens:
                self.solutions += 1
                if progress is not None and self.solutions % REPORT_EVERY == 1:
                    tell()
                if collect:
                    found.append(self._grid(placed))
                return 1
            v = order[k]
            is_hi = v == 6 or v == 8
            cand = free & ~same_forbid
            if is_hi:
                cand &= ~hi_forbid
            again = k + 1 < total_tokens and order[k + 1] == v
            mins = min_rest[k]
            count = 0
            while cand:
                low = cand & -cand
                cand ^= low
                x = low.bit_length() - 1
                tris = tri_of[x]
                ok = True
                for t in tris:
                    if tri_sum[t] + v + mins[tri_free[t] - 1] >= threshold:
                        ok = False
                        break
                if not ok:
                    continue
                for t in tris:
                    tri_sum[t] += v
                    tri_free[t] -= 1
                placed[x] = v
                count += rec(
                    k + 1,
                    free ^ low,
                    hi_forbid | conflict[x] if is_hi else hi_forbid,
                    conflict[x] | (low - 1) if again else 0,
                )
                placed[x] = 0
                for t in tris:
                    tri_sum[t] -= v
                    tri_free[t] += 1
                if k == 0 and progress is not None:
                    branches[0] = x + 1  # cells 0..x are done (pruned ones included)
                    tell()
                if collect and limit is not None and len(found) >= limit:
                    break
            return count

        tell()
        total = rec(0, (1 << n) - 1, 0, 0)
        branches[0] = n
        tell()
        self.nodes = nodes
        return total, found


def count_markers(
    threshold: int, board: Grid = BLOG_BOARD, *, progress: Progress | None = None
) -> MarkerCount:
    """Count the marker layouts of the blog's marker model at ``threshold`` T on ``board``.

    ``progress`` hears the first token's cells done and the layouts found so far (T = 24 takes tens of
    seconds). Ctrl-C returns the count so far with ``interrupted=True`` (a lower bound; ``nodes`` is
    then 0)."""
    _validate_threshold(threshold)
    _validate_board(board)
    t0 = time.perf_counter()
    search = _MarkerSearch(board, threshold)
    try:
        count, _ = search.run(collect=False, limit=None, progress=progress)
    except KeyboardInterrupt:  # Ctrl-C: the layouts counted so far, flagged (issue 17)
        return MarkerCount(threshold, search.solutions, time.perf_counter() - t0, search.nodes, True)
    return MarkerCount(threshold, count, time.perf_counter() - t0, search.nodes)


def iter_markers(threshold: int, board: Grid = BLOG_BOARD, limit: int | None = None) -> list[Grid]:
    """The first ``limit`` marker layouts (all if None) in lexicographic order of the cells."""
    _validate_threshold(threshold)
    _validate_board(board)
    if limit is not None and limit < 0:
        raise BlogModelError(f"limit must be >= 0, got {limit}")
    if limit == 0:
        return []
    search = _MarkerSearch(board, threshold)
    _, found = search.run(collect=True, limit=limit)
    return found if limit is None else found[:limit]


def as_rows(grid: Grid) -> list[list[int]]:
    """The land values of a grid, row by row (3, 4, 5, 4, 3)."""
    return [[grid[r][c] for c in range(N) if (r, c) not in WATER_CELLS] for r in range(N)]


def land_values(grid: Grid) -> Sequence[int]:
    """The 19 land values in LAND_CELLS order."""
    return [grid[r][c] for r, c in LAND_CELLS]
