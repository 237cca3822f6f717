"""Time evaluating all 54 settlement spots: the vectorised call vs a per-spot loop written the seed's way.

Usage: ``.venv/bin/python benchmarks/catan_spots.py [--boards N] [--repeats R]``

Prints the median time per board (all 54 spots) of

* ``evaluate_spots(board)``                 -- the batch scorer on a batch of one (numpy), with the
                                               reference's Python strengths;
* a seed-style loop                         -- per spot: dicts of production, board totals and strengths
                                               recomputed, Python loops (as ``settle_eval_simple.py``
                                               evaluates one spot at a time);
* ``evaluate_spot`` for every spot          -- our pure-Python reference (returns Breakdowns),
* ``evaluate_spots`` on a fresh ``Board``    -- includes building the board's cached arrays,
* ``spot_scores_batch`` over 1000 boards     -- per board, for generators and sweeps,
* the web app's board view                  -- the real single-board caller (``board_view``: spots,
                                               energy, SVG, breakdowns), for scale,

checks that they agree, and compares with the targets: <= 1 ms per board and >= 20x the loop (issue 3's;
issue 10 traded the hand-unrolled single-board path for one shared scorer, see docs/catan.md).

Then the same single-board and batch figures for the 5-6 player board (``layout="extended"``: all 80
spots; issue 16's target: <= 1 ms per board), checked against the pure-Python reference.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from _harness import add_common_options, load_text
from boardeval.catan import PIPS, Board, SpotParams, evaluate_spots, spot_scores_batch
from boardeval.catan.spots import evaluate_spot
from boardeval.catan.topology import (
    SPOT_HEXES,
    SPOT_PORT,
)

RES = ("W", "B", "S", "G", "O")
COMP = {"W": "B", "B": "W", "G": "O", "O": "G", "S": None}


def seed_style_score(board: Board, spot: int, p: SpotParams) -> float:
    """One spot, the seed's way: dicts and loops, board-wide figures recomputed per call."""
    total = {r: 0 for r in RES}
    for res, num in zip(board.resources, board.numbers, strict=True):
        if res != "D" and num is not None:
            total[res] += PIPS[num]
    strength = {}
    for i, r in enumerate(RES):
        scarcity = 1.0 / total[r] if total[r] > 0 else 20.0
        c = COMP[r]
        if c is None:
            pair = 1.0
        elif total[r] == 0:
            pair = 20.0 if total[c] > 0 else 1.0
        else:
            pair = min(20.0, max(0.05, total[c] / total[r]))
        strength[r] = (p.base_resource_strength[i] * scarcity * pair) ** p.dampening_factor
    prod = {r: 0 for r in RES}
    for h in SPOT_HEXES[spot]:
        res, num = board.resources[h], board.numbers[h]
        if res != "D" and num is not None:
            prod[res] += PIPS[num]
    m1 = sum(prod.values())
    m2 = sum(prod[r] * strength[r] for r in RES)
    slot = int(SPOT_PORT[spot])
    m3 = 0.0
    if slot >= 0:
        kind = board.ports[slot]
        if kind == "3":
            m3 = p.port_bonus
        else:
            d = {r: total[r] * strength[r] for r in RES}
            second = sorted(d.values(), reverse=True)[1]
            m3 = d[kind] / second * p.port_bonus
    distinct = sum(1 for r in RES if prod[r] > 0)
    m4 = p.prime_variate_bonus if m1 >= 10 and distinct >= 3 else 0.0
    m5 = 0.0
    for a, b in (("W", "B"), ("G", "O")):
        if prod[a] > 0 and prod[b] > 0:
            m5 += p.parity_preference * min(prod[a], prod[b])
    w = p.eval_weights
    return w[0] * m1 + w[1] * m2 + w[2] * m3 + w[3] * m4 + w[4] * m5


def _median_time(fn: Callable[[], object], repeats: int, inner: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20)
    add_common_options(ap, repeats=15)
    args = ap.parse_args()
    params = SpotParams.default()
    boards = [Board.random(seed) for seed in range(args.boards)]
    for b in boards:  # warm caches (board arrays, params) and check agreement
        vec = evaluate_spots(b, params).scores.tolist()
        loop = [seed_style_score(b, s, params) for s in range(54)]
        ref = [evaluate_spot(b, s, params).total for s in range(54)]
        assert max(abs(x - y) for x, y in zip(vec, loop, strict=True)) < 1e-9
        assert max(abs(x - y) for x, y in zip(vec, ref, strict=True)) < 1e-9

    vec_t, loop_t, ref_t = [], [], []
    for b in boards:
        vec_t.append(_median_time(lambda b=b: evaluate_spots(b, params), args.repeats, 200))
        loop_t.append(
            _median_time(lambda b=b: [seed_style_score(b, s, params) for s in range(54)], args.repeats, 10)
        )
        ref_t.append(
            _median_time(lambda b=b: [evaluate_spot(b, s, params) for s in range(54)], args.repeats, 5)
        )
    v, lo, r = statistics.median(vec_t), statistics.median(loop_t), statistics.median(ref_t)

    fresh_t = []
    for _ in range(args.repeats):
        copies = [Board(b.resources, b.numbers, b.ports) for b in boards for _ in range(10)]
        t0 = time.perf_counter()
        for c in copies:
            evaluate_spots(c, params)
        fresh_t.append((time.perf_counter() - t0) / len(copies))
    fresh = statistics.median(fresh_t)

    many = [Board.random(10_000 + k) for k in range(1000)]
    res = np.stack([b.resource_index for b in many])
    pips = np.stack([b.pips for b in many])
    ports = np.stack([b.port_index for b in many])
    ref_batch = np.stack([evaluate_spots(b, params).scores for b in many[:50]])
    assert np.allclose(spot_scores_batch(res[:50], pips[:50], ports[:50], params), ref_batch)
    batch = _median_time(lambda: spot_scores_batch(res, pips, ports, params), args.repeats, 1) / len(many)

    from boardeval.web.catan import board_view

    view = statistics.median(_median_time(lambda b=b: board_view(b), args.repeats, 5) for b in boards[:5])

    print(f"boards: {len(boards)}, repeats: {args.repeats} (median of medians); {load_text()}")
    print(f"evaluate_spots (vectorised, 54 spots):   {v * 1e6:9.1f} us per board")
    print(f"  same, fresh Board (arrays not cached): {fresh * 1e6:9.1f} us per board")
    print(f"spot_scores_batch (1000 boards):         {batch * 1e6:9.1f} us per board")
    print(f"seed-style per-spot loop (54 spots):     {lo * 1e6:9.1f} us per board")
    print(f"evaluate_spot reference (54 Breakdowns): {r * 1e6:9.1f} us per board")
    met = "met" if lo / v >= 20 else "NOT met"
    print(f"speed-up vs seed-style loop: {lo / v:6.1f}x single board (target >= 20x: {met})")
    print(f"                             {lo / batch:6.1f}x per board in a batch")
    print(f"speed-up vs reference loop:  {r / v:6.1f}x")
    print(f"web board view (real caller): {view * 1e6:9.1f} us per board; spots {v / view:.1%} of it")
    print(f"vectorised time target <= 1 ms: {'met' if v <= 1e-3 else 'NOT met'}")
    _extended(args.boards, args.repeats, params)


def _extended(n_boards: int, repeats: int, params: SpotParams) -> None:
    """The 5-6 player board: all 80 spots of one board, and per board in a batch of 1000."""
    boards = [Board.random(seed, layout="extended") for seed in range(n_boards)]
    for b in boards:
        vec = evaluate_spots(b, params).scores.tolist()
        ref = [evaluate_spot(b, s, params).total for s in range(80)]
        assert len(vec) == 80 and max(abs(x - y) for x, y in zip(vec, ref, strict=True)) < 1e-9
    v = statistics.median(_median_time(lambda b=b: evaluate_spots(b, params), repeats, 200) for b in boards)
    many = [Board.random(10_000 + k, layout="extended") for k in range(1000)]
    res = np.stack([b.resource_index for b in many])
    pips = np.stack([b.pips for b in many])
    ports = np.stack([b.port_index for b in many])
    batch = _median_time(lambda: spot_scores_batch(res, pips, ports, params), repeats, 1) / len(many)
    print(f"5-6 player board (80 spots), {load_text()}:")
    print(f"evaluate_spots (vectorised, 80 spots):   {v * 1e6:9.1f} us per board")
    print(f"spot_scores_batch (1000 boards):         {batch * 1e6:9.1f} us per board")
    print(f"vectorised time target <= 1 ms: {'met' if v <= 1e-3 else 'NOT met'}")


if __name__ == "__main__":
    main()
