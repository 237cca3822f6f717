"""A second, plain tablebase solver and checks, written differently from :mod:`.retrograde` (for tests).

:func:`plain_solve` is forward value iteration ("rounds") over the *unreduced* space with its own indexing
(``rank24(own) * C(24, b) + rank24(opp)``, overlapping pairs simply unused), no symmetry, no unmoves and no
counters: in round ``r`` every undecided position looks at all its successors as they stood after round
``r - 1`` and is a win at ``r`` if one of them is a loss at ``r - 1``, a loss at ``r`` if all of them are wins
(at most ``r - 1``). A win's distance is odd and a loss's even, so an even round decides only losses and
its scan of a position stops at the first turn that does not lead to an opponent win (3v3: 4.5 instead of
6.3 CPU-s, the same table). Captures look into the plain solution of the smaller sub-database. Slow (it
rescans the undecided positions every round) but obviously right, which is the point.

:func:`check_position` checks one tablebase entry against the rules engine: it plays every legal turn of
``rules.Position`` and requires the stored value/distance to follow from the successors' values (a win at
``d``: the best successor is an opponent loss at ``d - 1``; a loss at ``d``: every successor is an opponent
win, the longest at ``d - 1``; a draw: no successor is an opponent loss, and one is a draw).
:func:`check_all` runs the same check over every class with the compiled turn generator.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from boardeval.morris.board import ADJ_MASK, MILLS, N_POINTS
from boardeval.morris.rules import Position

__all__ = ["check_all", "check_position", "plain_solve", "plain_value", "rules_successors"]

FULL = (1 << 24) - 1
I64 = npt.NDArray[np.int64]
Plain = dict[tuple[int, int], npt.NDArray[np.int16]]


def _binom() -> I64:
    return np.array([[comb(n, k) for k in range(25)] for n in range(25)], dtype=np.int64)


def _mills_through() -> I64:
    """``out[p]``: the (up to 2) mills through point p as bitboards, padded with -1."""
    out = np.full((N_POINTS, 2), -1, dtype=np.int64)
    for p in range(N_POINTS):
        lines = [sum(1 << q for q in m) for m in MILLS if p in m]
        out[p, : len(lines)] = lines
    return out


@njit(cache=True)  # type: ignore[untyped-decorator]
def _fold(v: int, best_loss: int, all_win: bool, longest: int) -> tuple[int, bool, int]:
    """Account for one successor value (opponent's view): -1 draw, even = loss, odd = win."""
    if v == -1:
        return best_loss, False, longest
    if v % 2 == 0:
        if best_loss == -1 or v < best_loss:
            best_loss = v
        return best_loss, all_win, longest
    return best_loss, all_win, max(longest, v)


@njit(cache=True)  # type: ignore[untyped-decorator]
def _scan(
    own: int,
    opp: int,
    a: int,
    b: int,
    other: npt.NDArray[np.int16],
    smaller: npt.NDArray[np.int16],
    stop_at: int,
    binom: I64,
    adj: I64,
    through: I64,
    rank_of: npt.NDArray[np.int32],
    loss_round: bool = False,
) -> tuple[int, bool, int, bool]:
    """Look at every turn of ``own`` (a men, to move) against ``opp`` (b men).

    Returns (smallest opponent loss or -1, all successors opponent wins, longest such win, any turn).
    ``other`` holds sub-database (b, a), ``smaller`` (b - 1, a); the scan stops early once an opponent
    loss at ``stop_at`` is seen (-1: never), and in a ``loss_round`` (one that decides only losses) at the
    first successor that is not an opponent win (the position cannot be a loss then; the figures returned
    so far say so).
    """
    empty = FULL & ~(own | opp)
    best_loss = -1
    all_win = True
    longest = -1
    any_move = False
    for s in range(24):
        if stop_at >= 0 and best_loss == stop_at:
            break
        if not own >> s & 1:
            continue
        targets = empty if a == 3 else empty & adj[s]
        for d in range(24):
            if not targets >> d & 1:
                continue
            any_move = True
            moved = (own & ~(1 << s)) | (1 << d)
            mill = False
            for k in range(2):
                line = through[d, k]
                if line != -1 and moved & line == line:
                    mill = True
            if not mill:
                v = other[rank_of[opp] * binom[24, a] + rank_of[moved]]
                best_loss, all_win, longest = _fold(v, best_loss, all_win, longest)
                if loss_round and (best_loss != -1 or not all_win):
                    return best_loss, all_win, longest, True
                continue
            if b == 3:  # the opponent is left with 2 men: lost
                best_loss, all_win, longest = _fold(0, best_loss, all_win, longest)
                if loss_round:
                    return best_loss, all_win, longest, True
                continue
            # removable: men outside the opponent's mills, or any man if every one is in a mill
            in_mill = 0
            for q in range(24):
                if opp >> q & 1:
                    for k in range(2):
                        line = through[q, k]
                        if line != -1 and opp & line == line:
                            in_mill |= 1 << q
            pool = opp & ~in_mill
            if pool == 0:
                pool = opp
            for q in range(24):
                if pool >> q & 1:
                    rest = opp & ~(1 << q)
                    v = smaller[rank_of[rest] * binom[24, a] + rank_of[moved]]
                    best_loss, all_win, longest = _fold(v, best_loss, all_win, longest)
                    if loss_round and (best_loss != -1 or not all_win):
                        return best_loss, all_win, longest, True
    return best_loss, all_win, longest, any_move


@njit(cache=True)  # type: ignore[untyped-decorator]
def _round(
    r: int,
    a: int,
    b: int,
    old: npt.NDArray[np.int16],
    old_other: npt.NDArray[np.int16],
    new: npt.NDArray[np.int16],
    smaller: npt.NDArray[np.int16],
    binom: I64,
    adj: I64,
    through: I64,
    sets_a: I64,
    sets_b: I64,
    rank_of: npt.NDArray[np.int32],
) -> int:
    """One round for sub-database (a, b); ``old_other`` is (b, a) after round r - 1. Returns decisions."""
    n_own = binom[24, a]
    n_opp = binom[24, b]
    changed = 0
    for i in range(n_own):
        own = sets_a[i]
        for j in range(n_opp):
            if old[i * n_opp + j] != -1:
                continue
            opp = sets_b[j]
            if own & opp:
                new[i * n_opp + j] = -3  # not a position: skipped from now on
                continue
            # a win's distance is odd, a loss's even: round r decides only losses when r is even, so their
            # scan stops at the first turn that does not lead to an opponent win
            best_loss, all_win, longest, any_move = _scan(
                own, opp, a, b, old_other, smaller, r - 1, binom, adj, through, rank_of, r % 2 == 0
            )
            if not any_move:
                if r == 0:
                    new[i * n_opp + j] = 0
                    changed += 1
            elif best_loss != -1:
                if best_loss == r - 1:
                    new[i * n_opp + j] = r
                    changed += 1
            elif all_win and longest == r - 1:
                new[i * n_opp + j] = r
                changed += 1
    return changed


@njit(cache=True)  # type: ignore[untyped-decorator]
def _check(
    a: int,
    b: int,
    values: npt.NDArray[np.int16],
    other: npt.NDArray[np.int16],
    smaller: npt.NDArray[np.int16],
    binom: I64,
    adj: I64,
    through: I64,
    sets_a: I64,
    sets_b: I64,
    rank_of: npt.NDArray[np.int32],
    bad: I64,
) -> tuple[int, int]:
    """Check every position of (a, b); returns (positions checked, disagreements; the first few in bad)."""
    n_opp = binom[24, b]
    checked = 0
    wrong = 0
    for i in range(binom[24, a]):
        own = sets_a[i]
        for j in range(n_opp):
            opp = sets_b[j]
            if own & opp:
                continue
            v = values[i * n_opp + j]
            best_loss, all_win, longest, any_move = _scan(
                own, opp, a, b, other, smaller, -1, binom, adj, through, rank_of
            )
            if v == -1:
                ok = any_move and best_loss == -1 and not all_win
            elif v % 2 == 1:
                ok = best_loss == v - 1
            elif not any_move:
                ok = v == 0
            else:
                ok = best_loss == -1 and all_win and longest + 1 == v
            checked += 1
            if not ok:
                if wrong < bad.shape[0]:
                    bad[wrong] = i * n_opp + j
                wrong += 1
    return checked, wrong


def _sets(k: int) -> I64:
    """All k-point bitboards in colex order (itertools, sorted)."""
    masks = sorted(sum(1 << p for p in c) for c in itertools.combinations(range(N_POINTS), k))
    return np.array(masks, dtype=np.int64)


def _rank_table(max_men: int) -> npt.NDArray[np.int32]:
    """``rank_of[mask]`` for every mask of 2..max_men points (a plain 2^24 look-up table)."""
    table = np.zeros(1 << N_POINTS, dtype=np.int32)
    for k in range(2, max_men + 1):
        table[_sets(k)] = np.arange(comb(N_POINTS, k), dtype=np.int32)
    return table


def plain_solve(max_men: int, progress: Any = None) -> Plain:
    """Solve every sub-database with 3 <= a, b <= ``max_men`` by value iteration (distances, -1 = draw)."""
    binom = _binom()
    rank_of = _rank_table(max_men)
    adj = np.array(ADJ_MASK, dtype=np.int64)
    through = _mills_through()
    out: Plain = {}
    for total in range(6, 2 * max_men + 1):
        for a in range(3, max_men + 1):
            b = total - a
            if not 3 <= b <= max_men or b < a:
                continue
            group = [(a, b)] if a == b else [(a, b), (b, a)]
            cur = {k: np.full(comb(24, k[0]) * comb(24, k[1]), -1, dtype=np.int16) for k in group}
            r = 0
            quiet = 0
            while quiet < 2:
                nxt = {k: v.copy() for k, v in cur.items()}
                changed = 0
                for x, y in group:
                    smaller = out.get((y - 1, x), np.zeros(1, dtype=np.int16))
                    changed += _round(
                        r, x, y, cur[(x, y)], cur[(y, x)], nxt[(x, y)], smaller, binom, adj, through,
                        _sets(x), _sets(y), rank_of,
                    )  # fmt: skip
                cur = nxt
                # captures can decide a position late (a capture into a long loss), so stop only after
                # every distance the smaller tables hold has been passed
                longest_small = max(
                    (int(out[(y - 1, x)].max(initial=0)) for x, y in group if (y - 1, x) in out), default=0
                )
                quiet = quiet + 1 if changed == 0 and r > longest_small + 1 else 0
                if progress is not None:
                    progress(r, 0, f"plain {'+'.join(f'{x}v{y}' for x, y in group)} round {r}")
                r += 1
            out.update(cur)
    return out


def check_all(
    values: dict[tuple[int, int], npt.NDArray[np.int16]], key: tuple[int, int]
) -> tuple[int, int, list[tuple[int, int]]]:
    """Check that every position of sub-database ``key`` follows from its successors' values.

    ``values`` maps sub-databases to full distance arrays (-1 draw) in this module's layout
    (``rank24(own) * C(24, b) + rank24(opp)``), e.g. a tablebase expanded to every position; it needs
    ``key``, its mirror ``(b, a)`` and the capture target ``(b - 1, a)`` (when b > 3). Returns (positions
    checked, disagreements, the first disagreeing positions as (own, opp) bitboards).
    """
    a, b = key
    bad = np.zeros(10, dtype=np.int64)
    smaller = values.get((b - 1, a), np.zeros(1, dtype=np.int16))
    sets_a, sets_b = _sets(a), _sets(b)
    checked, wrong = _check(
        a, b, values[key], values[(b, a)], smaller, _binom(), np.array(ADJ_MASK, dtype=np.int64),
        _mills_through(), sets_a, sets_b, _rank_table(max(a, b)), bad,
    )  # fmt: skip
    n_opp = comb(24, b)
    first = [(int(sets_a[k // n_opp]), int(sets_b[k % n_opp])) for k in bad[: min(wrong, 10)]]
    return checked, wrong, first


def plain_value(plain: Plain, own: int, opp: int) -> int:
    """Distance code (-1 draw) of a side-relative position in a :func:`plain_solve` result."""
    a, b = own.bit_count(), opp.bit_count()
    return int(plain[(a, b)][_rank_py(own) * comb(24, b) + _rank_py(opp)])


def _rank_py(x: int) -> int:
    r = 0
    i = 0
    for p in range(24):
        if x >> p & 1:
            i += 1
            r += comb(p, i)
    return r


def check_position(value: str, distance: int | None, successors: list[tuple[str, int | None]]) -> str | None:
    """None if a (value, distance) agrees with its successors' (value, distance) for the *opponent*.

    ``successors`` lists every legal turn's resulting position as the opponent sees it (a capture of the
    third-to-last man counts as ``("loss", 0)``). Returns a description of the first disagreement.
    """
    if value == "win":
        losses = [d for v, d in successors if v == "loss"]
        if not losses:
            return "a win without a successor that loses for the opponent"
        if min(d for d in losses if d is not None) != (distance or 0) - 1:
            return f"a win in {distance} whose fastest successor loss is at {min(losses)}"  # type: ignore[type-var]
        return None
    if value == "loss":
        if any(v != "win" for v, _ in successors):
            return "a loss with a successor that does not win for the opponent"
        longest = max((d or 0 for _, d in successors), default=-1)
        if longest + 1 != distance:
            return f"a loss in {distance} whose longest successor win is {longest}"
        return None
    if any(v == "loss" for v, _ in successors):
        return "a draw with a successor that loses for the opponent"
    if not any(v == "draw" for v, _ in successors):
        return "a draw without a drawn successor"
    return None


def rules_successors(tb: Any, position: Position) -> list[tuple[str, int | None]]:
    """Every legal turn of ``position`` (by the rules) looked up in ``tb`` from the opponent's side."""
    s = position.side
    fresh = Position(list(position.men), (0, 0), s, variant=position.variant)
    out: list[tuple[str, int | None]] = []
    for turn in fresh.legal_turns():
        fresh.push(turn)
        out.append(tb.lookup_sides(fresh.men[s ^ 1], fresh.men[s]))
        fresh.pop()
    return out
