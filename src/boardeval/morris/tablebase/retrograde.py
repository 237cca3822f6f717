"""Retrograde analysis of one pair of sub-databases over symmetry classes, compiled with numba.

A pair is ``{(a, b), (b, a)}`` (one sub-database when ``a == b``): a turn without a capture leads from one to
the other, so they are solved together; a capture leads into ``(b - 1, a)``, solved before (or, when the
opponent drops to 2 men, to a win).

Cells: the stored layout of :mod:`.index` -- row = an orbit representative ``rep`` of the side to move's
men, column = colex rank of the opponent's men among the points ``rep`` leaves free. A cell is *canonical*
when its column is the smallest among the images under the stabiliser of ``rep``; canonical cells are exactly
one per symmetry class and are the positions solved here (``dist = -2`` marks the others until
:func:`fill_duplicates` copies their class's value into them).

Distances: ``dist`` is the number of turns to the end with best play (the winner hurries, the loser delays);
-1 = not decided = draw. A loss has an even distance (0: the side to move has no legal turn), a win an odd
one: a win at ``d`` has a successor that is a loss at ``d - 1`` (and none lower); a loss at ``d`` has only
winning successors, the longest at ``d - 1``. Capturing the opponent's third man wins at distance 1.

Algorithm (levels in increasing distance, like a breadth-first search):

1. :func:`init_rows`: for every class, count the turns without capture (they stay in the pair) and look the
   turns with capture up in the smaller, finished sub-database. A capture into a loss for the opponent
   schedules a win at ``loss + 1`` (``capw``); a capture into a draw blocks a loss for ever; captures that all
   lead into opponent wins hold one extra count that is released at level ``longest + 1`` (``capb``).
   Classes without any legal turn are losses at 0.
2. :func:`process_level`: for each class decided at level ``L``, generate its unmoves (the opponent's
   previous turn, which did not close a mill) to get its predecessors. If ``L`` is a loss, every undecided
   predecessor is a win at ``L + 1``. If ``L`` is a win, each predecessor's count drops; at zero it is a
   loss at ``L + 1``.

Counting over classes: a class S has ``M`` turns into class P, and P's representative has ``U`` unmoves into
S; counting the turns between the two orbits both ways gives ``|orbit S| * M = |orbit P| * U``, so each
unmove stands for ``|Stab S| / |Stab P|`` turns. Counts are kept in units of 1/16 turn (``16 * |Stab S| /
|Stab P|`` per unmove, an integer since stabiliser orders divide 16).

The Python driver in :mod:`.build` calls these in chunks, reports progress between calls and lets
Ctrl-C through.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = [
    "apply_block_releases",
    "apply_scheduled_wins",
    "canonical_cell",
    "fill_duplicates",
    "init_rows",
    "level_counts",
    "process_level",
    "schedule_cells",
    "successors",
]

FULL = (1 << 24) - 1
UNIT = 16  # counter units per turn

I64 = npt.NDArray[np.int64]
Cells = npt.NDArray[np.integer[Any]]  # cell numbers: int32 while they fit (build.solve_pair), else int64
Tabs = tuple[Any, ...]

# indices into the ``tabs`` tuple built by build._tables()
(_RANK, _PC8, _ROW, _SYM, _MASKS, _STAB, _STABN) = range(7)
(_COMP, _SYMB, _BINOM, _ADJ, _PMILLS, _MILLS, _COMBOS) = range(7, 14)


@njit(cache=True)  # type: ignore[untyped-decorator]
def _popc(x: int) -> int:
    x = x - ((x >> 1) & 0x555555)
    x = (x & 0x333333) + ((x >> 2) & 0x333333)
    x = (x + (x >> 4)) & 0x0F0F0F
    return (x + (x >> 8) + (x >> 16)) & 0x1F


@njit(cache=True)  # type: ignore[untyped-decorator]
def _rank(x: int, rank_t: I64, pc8: I64) -> int:
    """Colex rank from three byte tables: ``rank_t[byte, men below, byte value]``."""
    b0 = x & 0xFF
    b1 = (x >> 8) & 0xFF
    c1 = pc8[b0]
    return rank_t[0, 0, b0] + rank_t[1, c1, b1] + rank_t[2, c1 + pc8[b1], x >> 16]


@njit(cache=True)  # type: ignore[untyped-decorator]
def _pext(x: int, free: int) -> int:
    out = 0
    while x:
        low = x & -x
        out |= 1 << _popc(free & (low - 1))
        x ^= low
    return out


@njit(cache=True)  # type: ignore[untyped-decorator]
def _pdep(rel: int, free: int) -> int:
    out = 0
    q = 0
    f = free
    while rel:
        low = f & -f
        if rel & 1:
            out |= low
        rel >>= 1
        q += 1
        f ^= low
    return out


@njit(cache=True)  # type: ignore[untyped-decorator]
def _apply(sym_bytes: I64, g: int, x: int) -> int:
    return sym_bytes[g, 0, x & 0xFF] | sym_bytes[g, 1, (x >> 8) & 0xFF] | sym_bytes[g, 2, x >> 16]


@njit(cache=True)  # type: ignore[untyped-decorator]
def canonical_cell(own: int, opp: int, a: int, b: int, tabs: Tabs) -> tuple[int, int]:
    """``(cell, |stabiliser|)`` of the class of a side-relative position: cell = row * ncol + column."""
    rank_t = tabs[_RANK]
    pc8 = tabs[_PC8]
    r = _rank(own, rank_t, pc8)
    row = tabs[_ROW][a, r]
    g0 = tabs[_SYM][a, r]
    rep = tabs[_MASKS][a, row]
    free = FULL ^ rep
    ncol = tabs[_BINOM][24 - a, b]
    n_stab = tabs[_STABN][a, row]
    if n_stab == 1:
        return row * ncol + _rank(_pext(_apply(tabs[_SYMB], g0, opp), free), rank_t, pc8), 1
    best = 1 << 40
    count = 0
    for k in range(n_stab):
        g = tabs[_COMP][tabs[_STAB][a, row, k], g0]
        col = _rank(_pext(_apply(tabs[_SYMB], g, opp), free), rank_t, pc8)
        if col < best:
            best = col
            count = 1
        elif col == best:
            count += 1
    return row * ncol + best, count


@njit(cache=True)  # type: ignore[untyped-decorator]
def _lookup(own: int, opp: int, a: int, table: npt.NDArray[np.int16], tabs: Tabs) -> int:
    """Distance code (-1 draw) of a position in a finished table whose duplicate cells are filled."""
    rank_t = tabs[_RANK]
    pc8 = tabs[_PC8]
    r = _rank(own, rank_t, pc8)
    row = tabs[_ROW][a, r]
    g0 = tabs[_SYM][a, r]
    rep = tabs[_MASKS][a, row]
    col = _rank(_pext(_apply(tabs[_SYMB], g0, opp), FULL ^ rep), rank_t, pc8)
    return int(table[row, col])


@njit(cache=True)  # type: ignore[untyped-decorator]
def _closes(after: int, dst: int, point_mills: I64) -> bool:
    m0 = point_mills[dst, 0]
    m1 = point_mills[dst, 1]
    return (after & m0) == m0 or (after & m1) == m1


@njit(cache=True)  # type: ignore[untyped-decorator]
def _in_mills(men: int, mills: I64) -> int:
    out = 0
    for k in range(mills.shape[0]):
        m = mills[k]
        if men & m == m:
            out |= m
    return out


@njit(cache=True)  # type: ignore[untyped-decorator]
def init_rows(
    a: int,
    b: int,
    row_start: int,
    row_end: int,
    offset: int,
    tabs: Tabs,
    cap_table: npt.NDArray[np.int16],
    dist: npt.NDArray[np.int16],
    counter: npt.NDArray[np.uint16],
    stab: npt.NDArray[np.uint8],
    capw: npt.NDArray[np.int16],
    capb: npt.NDArray[np.int16],
) -> int:
    """Initialise the cells of rows ``row_start..row_end`` of member ``(a, b)`` (global = ``offset`` + cell).

    Non-canonical cells get ``dist = -2``. Returns the number of classes initialised.
    """
    ncol = tabs[_BINOM][24 - a, b]
    adj = tabs[_ADJ]
    point_mills = tabs[_PMILLS]
    mills = tabs[_MILLS]
    fly = a == 3
    done = 0
    for row in range(row_start, row_end):
        own = tabs[_MASKS][a, row]
        free = FULL ^ own
        for col in range(ncol):
            cell = row * ncol + col
            i = offset + cell
            opp = _pdep(tabs[_COMBOS][b, col], free)
            canon, n_stab = canonical_cell(own, opp, a, b, tabs)
            if canon != cell:
                dist[i] = -2
                continue
            stab[i] = n_stab
            done += 1
            empty = free ^ opp
            n_in = 0
            n_moves = 0
            best_win = 32767
            longest = -1
            cap_draw = False
            removable = -1
            src_bits = own
            while src_bits:
                sb = src_bits & -src_bits
                src_bits ^= sb
                src = _popc(sb - 1)
                targets = empty if fly else adj[src] & empty
                base = own ^ sb
                while targets:
                    db = targets & -targets
                    targets ^= db
                    dst = _popc(db - 1)
                    after = base | db
                    if not _closes(after, dst, point_mills):
                        n_in += 1
                        n_moves += 1
                        continue
                    if removable == -1:
                        removable = opp & ~_in_mills(opp, mills)
                        if removable == 0:
                            removable = opp
                    rem = removable
                    while rem:
                        rb = rem & -rem
                        rem ^= rb
                        n_moves += 1
                        if b == 3:
                            best_win = 1
                            continue
                        v = _lookup(opp ^ rb, after, b - 1, cap_table, tabs)
                        if v < 0:
                            cap_draw = True
                        elif v % 2 == 0:
                            if v + 1 < best_win:
                                best_win = v + 1
                        elif v > longest:
                            longest = v
            if n_moves == 0:
                dist[i] = 0
                continue
            count = UNIT * n_in
            if best_win < 32767:
                capw[i] = best_win
                count += UNIT  # never a loss
            elif cap_draw:
                count += UNIT  # never a loss
            elif longest >= 0:
                count += UNIT
                capb[i] = longest + 1
            counter[i] = count
    return done


@njit(cache=True)  # type: ignore[untyped-decorator]
def level_counts(levels: npt.NDArray[np.int16]) -> I64:
    """How many cells are scheduled at each level v = 0..max (``counts[v]``); levels <= 0 schedule nothing."""
    top = 0
    for i in range(levels.shape[0]):
        if levels[i] > top:
            top = levels[i]
    counts = np.zeros(top + 1, dtype=np.int64)
    for i in range(levels.shape[0]):
        if levels[i] > 0:
            counts[levels[i]] += 1
    return counts


@njit(cache=True)  # type: ignore[untyped-decorator]
def schedule_cells(levels: npt.NDArray[np.int16], bounds: I64, cells: Cells) -> None:
    """Counting sort: the scheduled cells by level, in cell order within a level (level v at ``bounds[v]``).

    One pass and no temporaries: a stable argsort of a billion cells needs 8 bytes a cell of indices on top
    of the result, which was the solver's peak (issue 25, 8v7 + 7v8).
    """
    pos = bounds[:-1].copy()
    for i in range(levels.shape[0]):
        v = levels[i]
        if v > 0:
            cells[pos[v]] = i
            pos[v] += 1


@njit(cache=True)  # type: ignore[untyped-decorator]
def apply_scheduled_wins(
    level: int, scheduled: Cells, dist: npt.NDArray[np.int16], frontier: Cells, fill: int
) -> int:
    """Classes whose best capture wins at ``level``: decide the still undecided ones; returns the new fill."""
    for k in range(scheduled.shape[0]):
        i = scheduled[k]
        if dist[i] == -1:
            dist[i] = level
            frontier[fill] = i
            fill += 1
    return fill


@njit(cache=True)  # type: ignore[untyped-decorator]
def apply_block_releases(
    level: int,
    scheduled: Cells,
    dist: npt.NDArray[np.int16],
    counter: npt.NDArray[np.uint16],
    frontier: Cells,
    fill: int,
) -> int:
    """Classes whose capture turns all lead to wins ending by ``level - 1``: release their extra count."""
    for k in range(scheduled.shape[0]):
        i = scheduled[k]
        if dist[i] == -1:
            counter[i] -= UNIT
            if counter[i] == 0:
                dist[i] = level
                frontier[fill] = i
                fill += 1
    return fill


@njit(cache=True)  # type: ignore[untyped-decorator]
def process_level(
    level: int,
    start: int,
    end: int,
    fill: int,
    a0: int,
    b0: int,
    n0: int,
    two: bool,
    tabs: Tabs,
    dist: npt.NDArray[np.int16],
    counter: npt.NDArray[np.uint16],
    stab: npt.NDArray[np.uint8],
    frontier: Cells,
) -> int:
    """Propagate the classes ``frontier[start:end]`` (decided at ``level``) to their predecessors.

    Member 0 is ``(a0, b0)`` at global cells ``0..n0-1``; with ``two``, member 1 is ``(b0, a0)`` after it.
    Returns the new fill of ``frontier``.
    """
    win = level % 2 == 1
    adj = tabs[_ADJ]
    point_mills = tabs[_PMILLS]
    for k in range(start, end):
        gi = frontier[k]
        if gi < n0:
            a, b, local, pred_off = a0, b0, gi, (n0 if two else 0)
        else:
            a, b, local, pred_off = b0, a0, gi - n0, 0
        ncol = tabs[_BINOM][24 - a, b]
        row = local // ncol
        col = local - row * ncol
        own = tabs[_MASKS][a, row]
        opp = _pdep(tabs[_COMBOS][b, col], FULL ^ own)
        empty = FULL ^ own ^ opp
        fly = b == 3
        stab_p = stab[gi]
        # the opponent (b men) moved src -> dst without closing a mill; before that, it was to move
        dst_bits = opp
        while dst_bits:
            db = dst_bits & -dst_bits
            dst_bits ^= db
            dst = _popc(db - 1)
            if _closes(opp, dst, point_mills):
                continue
            sources = empty if fly else adj[dst] & empty
            base = opp ^ db
            while sources:
                sb = sources & -sources
                sources ^= sb
                cell, stab_s = canonical_cell(base | sb, own, b, a, tabs)
                q = pred_off + cell
                if dist[q] != -1:
                    continue
                if win:
                    counter[q] -= UNIT * stab_s // stab_p
                    if counter[q] != 0:
                        continue
                dist[q] = level + 1
                frontier[fill] = q
                fill += 1
    return fill


@njit(cache=True)  # type: ignore[untyped-decorator]
def fill_duplicates(a: int, b: int, table: npt.NDArray[np.int16], tabs: Tabs) -> None:
    """Copy each class's value into its non-canonical cells (``-2``), so any symmetry finds it."""
    ncol = tabs[_BINOM][24 - a, b]
    for row in range(table.shape[0]):
        if tabs[_STABN][a, row] == 1:
            continue
        own = tabs[_MASKS][a, row]
        for col in range(ncol):
            if table[row, col] == -2:
                cell, _ = canonical_cell(own, _pdep(tabs[_COMBOS][b, col], FULL ^ own), a, b, tabs)
                table[row, col] = table[cell // ncol, cell % ncol]


@njit(cache=True)  # type: ignore[untyped-decorator]
def successors(own: int, opp: int, tabs: Tabs) -> npt.NDArray[np.int64]:
    """Every turn of the side to move as rows ``(src, dst, removed or -1, new own, new opp)`` (for tests)."""
    adj = tabs[_ADJ]
    point_mills = tabs[_PMILLS]
    mills = tabs[_MILLS]
    out = []
    empty = FULL ^ own ^ opp
    fly = _popc(own) == 3
    src_bits = own
    while src_bits:
        sb = src_bits & -src_bits
        src_bits ^= sb
        src = _popc(sb - 1)
        targets = empty if fly else adj[src] & empty
        while targets:
            db = targets & -targets
            targets ^= db
            dst = _popc(db - 1)
            after = (own ^ sb) | db
            if not _closes(after, dst, point_mills):
                out.append((src, dst, -1, after, opp))
                continue
            removable = opp & ~_in_mills(opp, mills)
            if removable == 0:
                removable = opp
            while removable:
                rb = removable & -removable
                removable ^= rb
                out.append((src, dst, _popc(rb - 1), after, opp ^ rb))
    res = np.empty((len(out), 5), dtype=np.int64)
    for k in range(len(out)):
        for j in range(5):
            res[k, j] = out[k][j]
    return res
