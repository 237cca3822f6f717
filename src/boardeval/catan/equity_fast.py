"""The seat-equity prediction compiled (numba), for the generators: a board's arrays in, four win
probabilities out, in tens of microseconds instead of about 1 ms through numpy.

The same arithmetic as :func:`~boardeval.catan.spots.evaluate_spots` (seed 000's five metrics),
:func:`~boardeval.catan.draft.draft_picks` (the advisor's snake draft, ties to the lower spot id),
:func:`~boardeval.catan.equity.draft_features` and
:func:`~boardeval.catan.equity.predict_probabilities`, written as loops. Sums may be added in another order
than numpy's, so a value can differ in its last bit and a pick that ties to the last bit may go the other
way: the generators use this kernel to search and rescore their final board with the exact
:func:`~boardeval.catan.equity.seat_equity` (a test checks both agree on hundreds of boards).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from boardeval.catan.advisor import OpeningParams
from boardeval.catan.draft import _blocking
from boardeval.catan.equity import FEATURES, SeatModel
from boardeval.catan.params import SpotParams
from boardeval.catan.spots import SCARCITY_CAP
from boardeval.catan.topology import BASE_TOPOLOGY

__all__ = ["FastEquity", "fast_equity"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


F = TypeVar("F", bound=Callable[..., Any])
N_TERMS = len(FEATURES)
"""The kernel writes the terms by position, in :data:`~boardeval.catan.equity.FEATURES` order."""


def _compiled(fn: F) -> F:
    """``numba.njit(cache=True)`` with the function's type kept for mypy."""
    return cast(F, njit(cache=True, nogil=True)(fn))


@_compiled
def _probabilities(
    res: IntArray,
    pips: FloatArray,
    nums: IntArray,
    port_idx: IntArray,
    spot_hexes: IntArray,
    spot_slot: IntArray,
    block: npt.NDArray[np.bool_],
    base: FloatArray,
    damp: float,
    port_bonus: float,
    prime_bonus: float,
    parity: float,
    w: FloatArray,
    div_w: float,
    harb_w: float,
    coef: FloatArray,
    picks: IntArray,
    ends: IntArray,
) -> FloatArray:
    n_spots = spot_hexes.shape[0]
    prod = np.zeros((n_spots, 5))
    totals = np.zeros(5)
    for h in range(res.shape[0]):
        if res[h] < 5:
            totals[res[h]] += pips[h]
    for s in range(n_spots):
        for j in range(spot_hexes.shape[1]):
            h = spot_hexes[s, j]
            if h >= 0 and res[h] < 5:
                prod[s, res[h]] += pips[h]
    comp = np.array([1, 0, 2, 4, 3])
    strength = np.zeros(5)
    for r in range(5):
        scarcity = 1.0 / totals[r] if totals[r] > 0 else SCARCITY_CAP
        if r == 2:
            pairwise = 1.0
        elif totals[r] > 0:
            pairwise = min(max(totals[comp[r]] / totals[r], 1.0 / SCARCITY_CAP), SCARCITY_CAP)
        else:
            pairwise = SCARCITY_CAP if totals[comp[r]] > 0 else 1.0
        strength[r] = (base[r] * scarcity * pairwise) ** damp
    d = totals * strength
    ordered = np.sort(d)
    norm = ordered[3] if ordered[3] > 0 else (ordered[4] if ordered[4] > 0 else 1.0)
    scores = np.zeros(n_spots)
    base_second = np.zeros(n_spots)
    kind = np.full(n_spots, -2)  # -2 no port, -1 a 3:1 port, else the resource of a 2:1 port
    has_port = np.zeros(n_spots)
    for s in range(n_spots):
        m1 = 0.0
        m2 = 0.0
        distinct = 0
        for r in range(5):
            m1 += prod[s, r]
            m2 += prod[s, r] * strength[r]
            if prod[s, r] > 0:
                distinct += 1
        m3 = 0.0
        if spot_slot[s] >= 0:
            k = port_idx[spot_slot[s]]
            kind[s] = k
            has_port[s] = 1.0
            m3 = (1.0 if k < 0 else d[k] / norm) * port_bonus
        m4 = prime_bonus if (m1 >= 10 and distinct >= 3) else 0.0
        m5 = parity * (min(prod[s, 0], prod[s, 1]) + min(prod[s, 3], prod[s, 4]))
        scores[s] = w[0] * m1 + w[1] * m2 + w[2] * m3 + w[3] * m4 + w[4] * m5
        base_second[s] = scores[s] - m3 * w[2]
    seats = 4
    free = np.ones(n_spots, dtype=np.bool_)
    for k in range(2 * seats):
        seat = k if k < seats else 2 * seats - 1 - k
        best = -1
        best_v = -np.inf
        if k < seats:
            for s in range(n_spots):
                if free[s] and scores[s] > best_v:
                    best_v = scores[s]
                    best = s
        else:
            f = picks[seat]
            for s in range(n_spots):
                if not free[s]:
                    continue
                div = 0.0
                for r in range(5):
                    if prod[f, r] == 0:
                        div += prod[s, r] * strength[r]
                harb = 0.0
                if kind[s] == -1:
                    for r in range(5):
                        harb += prod[s, r] + prod[f, r]
                    harb /= 4.0
                elif kind[s] >= 0:
                    harb = prod[s, kind[s]] + prod[f, kind[s]]
                v = base_second[s] + div_w * div + harb_w * harb
                if v > best_v:
                    best_v = v
                    best = s
        picks[k] = best
        for s in range(n_spots):
            if block[best, s]:
                free[s] = False
        # the advisor's opening road: to the neighbour whose far free spots score best (ties: lower id)
        end_v = -np.inf
        for e in range(n_spots):
            if e == best or not block[best, e]:
                continue
            far = -1.0
            for t in range(n_spots):
                if t != e and t != best and block[e, t] and free[t] and scores[t] > far:
                    far = scores[t]
            if far > end_v:
                end_v = far
                ends[k] = e
    x = _terms(res, pips, nums, spot_hexes, block, scores, prod, kind, free, picks, ends)
    return _softmax(x, coef)


@_compiled
def _terms(
    res: IntArray,
    pips: FloatArray,
    nums: IntArray,
    spot_hexes: IntArray,
    block: npt.NDArray[np.bool_],
    scores: FloatArray,
    prod: FloatArray,
    kind: IntArray,
    free: npt.NDArray[np.bool_],
    picks: IntArray,
    ends: IntArray,
) -> FloatArray:
    """The raw terms of the four seats (:data:`~boardeval.catan.equity.FEATURES` order)."""
    seats = 4
    n_spots = spot_hexes.shape[0]
    n_hexes = res.shape[0]
    x = np.zeros((seats, N_TERMS))
    touched = np.zeros((seats, n_hexes))
    on_number = np.zeros((seats, 13))
    reach = np.zeros((seats, n_spots), dtype=np.bool_)
    for i in range(seats):
        a = picks[i]
        b = picks[2 * seats - 1 - i]
        x[i, 0] = scores[a] + scores[b]
        cnt = 0
        bal = 0.0
        for r in range(5):
            x[i, 1 + r] = prod[a, r] + prod[b, r]
            if x[i, 1 + r] > 0:
                cnt += 1
            bal += np.log1p(x[i, 1 + r])
        x[i, 6] = cnt
        x[i, 7] = bal
        x[i, 8] = min(x[i, 4] / 2.0, x[i, 5] / 3.0)
        x[i, 9] = min(x[i, 1], x[i, 2])
        x[i, 10] = min(x[i, 3], min(x[i, 4], x[i, 5]))
        for r in range(5):
            if kind[a] == r or kind[b] == r:
                x[i, 11] += x[i, 1 + r]
        x[i, 12] = 1.0 if (kind[a] == -1 or kind[b] == -1) else 0.0
        for s in (a, b):
            for j in range(spot_hexes.shape[1]):
                h = spot_hexes[s, j]
                if h >= 0 and res[h] < 5:
                    touched[i, h] += 1.0
                    x[i, 13] += 1.0
                    on_number[i, nums[h]] += pips[h]
        near = np.zeros(n_spots, dtype=np.bool_)
        for s in range(n_spots):
            near[s] = block[a, s] or block[b, s]
        for t in range(n_spots):
            if near[t] or not free[t]:
                continue
            for u in range(n_spots):
                if near[u] and block[u, t]:
                    reach[i, t] = True
                    break
    for i in range(seats):
        for h in range(n_hexes):
            if touched[i, h] > 0:
                other = 0.0
                for j in range(seats):
                    if j != i:
                        other += touched[j, h]
                if other > 0:
                    x[i, 14] += touched[i, h] * pips[h]
        for k in range(13):
            if on_number[i, k] > 0:
                x[i, 16] += 1.0
                other = 0.0
                for j in range(seats):
                    if j != i:
                        other += on_number[j, k]
                if other > 0:
                    x[i, 15] += on_number[i, k]
        best = 0.0
        second = 0.0
        seen = 0
        alone = 0.0
        for t in range(n_spots):
            if not reach[i, t]:
                continue
            v = scores[t]
            if seen == 0 or v > best:
                second = best if seen > 0 else 0.0
                best = v
            elif seen == 1 or v > second:
                second = v
            seen += 1
            shared = False
            for j in range(seats):
                if j != i and reach[j, t]:
                    shared = True
            if not shared and v > alone:
                alone = v
        x[i, 17] = best if seen > 0 else 0.0
        x[i, 18] = second if seen > 1 else 0.0
        x[i, 19] = alone
        for r in range(5):
            x[i, 20] += prod[picks[i], r]
        if i >= 1:
            x[i, 22 + i] = 1.0
    for k in range(2 * seats):  # the spots one road beyond each opening road's end
        seat = k if k < seats else 2 * seats - 1 - k
        e = ends[k]
        for t in range(n_spots):
            if t != e and t != picks[k] and block[e, t] and free[t]:
                x[seat, 21] += 1.0
                if scores[t] > x[seat, 22]:
                    x[seat, 22] = scores[t]
    return x


@_compiled
def _softmax(x: FloatArray, coef: FloatArray) -> FloatArray:
    """The conditional logit: softmax over the seats of the centred terms times the coefficients."""
    seats, n_feat = x.shape
    mean = np.zeros(n_feat)
    for i in range(seats):
        for j in range(n_feat):
            mean[j] += x[i, j] / seats
    z = np.zeros(seats)
    for i in range(seats):
        for j in range(n_feat):
            z[i] += coef[j] * (x[i, j] - mean[j])
    top = z.max()
    p = np.exp(z - top)
    return p / p.sum()


@dataclass(frozen=True, eq=False)
class FastEquity:
    """The constant inputs of the kernel for one model and parameter set (base board)."""

    spot_hexes: IntArray
    spot_slot: IntArray
    block: npt.NDArray[np.bool_]
    base: FloatArray
    damp: float
    port_bonus: float
    prime_bonus: float
    parity: float
    w: FloatArray
    div_w: float
    harb_w: float
    coef: FloatArray

    def probabilities(
        self, res: IntArray, pips: FloatArray, nums: IntArray, port_idx: IntArray
    ) -> FloatArray:
        """Win probabilities of the four seats for a base board's arrays (resource, pips and number per
        hex, harbour kind per slot)."""
        picks = np.zeros(8, dtype=np.int64)
        ends = np.zeros(8, dtype=np.int64)
        return _probabilities(
            res,
            pips,
            nums,
            port_idx,
            self.spot_hexes,
            self.spot_slot,
            self.block,
            self.base,
            self.damp,
            self.port_bonus,
            self.prime_bonus,
            self.parity,
            self.w,
            self.div_w,
            self.harb_w,
            self.coef,
            picks,
            ends,
        )

    def spread(self, res: IntArray, pips: FloatArray, nums: IntArray, port_idx: IntArray) -> float:
        p = self.probabilities(res, pips, nums, port_idx)
        return float(p.max() - p.min())


@cache
def _topology_arrays() -> tuple[IntArray, IntArray]:
    topo = BASE_TOPOLOGY
    hexes = np.full((topo.n_spots, 3), -1, dtype=np.int64)
    for s, hs in enumerate(topo.spot_hexes):
        hexes[s, : len(hs)] = hs
    return hexes, np.asarray(topo.spot_port, dtype=np.int64)


def fast_equity(
    model: SeatModel, params: SpotParams | None = None, opening: OpeningParams | None = None
) -> FastEquity:
    """The kernel's inputs for ``model`` (and the advisor's spot and opening parameters)."""
    p = params or SpotParams.default()
    o = opening or OpeningParams()
    hexes, slots = _topology_arrays()
    return FastEquity(
        hexes,
        slots,
        np.ascontiguousarray(_blocking(BASE_TOPOLOGY)),
        np.asarray(p.base_resource_strength, dtype=np.float64),
        float(p.dampening_factor),
        float(p.port_bonus),
        float(p.prime_variate_bonus),
        float(p.parity_preference),
        np.asarray(p.eval_weights, dtype=np.float64),
        float(o.diversity_weight),
        float(o.harbour_weight),
        np.asarray(model.coef, dtype=np.float64),
    )
