"""Catan play-tests on catanatron: the opening advisor's strength, scaling, and the wrapper's overhead.

Usage::

    nice .venv/bin/python benchmarks/catan_playtest.py                 # 1000 seeds x 4 rotations = 4000 games
    nice .venv/bin/python benchmarks/catan_playtest.py --seeds 100 --vp-seeds 0   # a quick look

Prints, each with a 95 % interval (Wilson for win rates, normal for means):

1. Strength, on random base boards (game ``j`` on ``Board.random(seed_j)``), every game in all four
   seatings: ``advisor`` against three catanatron ``WeightedRandomPlayer``\\ s (target >= 85 %), against
   three ``pips`` openers (target >= 35 %), against three ``VictoryPointPlayer``\\ s (reported), and
   four ``pips`` (seat effects: identical players in rotated seatings play the same game, so each listed
   player wins exactly 25 %; the per-seat rates are the figure).
2. Scaling: games/s of the same batch on 1 and on 2 worker processes (target >= 1.8x), with the load
   average (the machine is shared).
3. Overhead: CPU time of :func:`boardeval.catan.playtest.play_game` against driving catanatron
   directly (``Game([WeightedRandomPlayer(c) ...], seed, catan_map).play()``) on the same seeds and
   boards, in two fresh single-worker processes taking turns (target <= 10 %). The two do not play the
   very same games (ours sorts three of catanatron's set-ordered action lists, the direct one follows
   its process's hash seed), so besides time per game the figure that isolates the wrapper is CPU time
   per game turn.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from _harness import add_common_options, cpu_seconds, load_text
from boardeval.catan import Board
from boardeval.catan.playtest import GameSpec, PlaytestResult, game_specs, play_game, run_playtest
from boardeval.core import mean_interval, spawn_seeds


def _boards(seed: int, n: int) -> list[Board]:
    return [Board.random(seed=s) for s in spawn_seeds(seed, n)]


def _pct(result: PlaytestResult, k: int = 0) -> str:
    r = result.players[k].rate
    return f"{100 * r.value:5.1f}% [{100 * r.lo:.1f}, {100 * r.hi:.1f}]"


def strength(seeds: int, workers: int, vp_seeds: int, only_vp: bool = False) -> None:
    """The strength lines; the slow ``vp`` line (catanatron's VictoryPointPlayer copies the game for every
    legal action) on the first ``vp_seeds`` of the same boards and seeds (0 skips it)."""
    boards = _boards(2026, seeds)
    lineups = [
        ("advisor vs 3 weighted", ["advisor", "weighted", "weighted", "weighted"], ">= 85%", seeds),
        ("advisor vs 3 pips", ["advisor", "pips", "pips", "pips"], ">= 35%", seeds),
        ("4 pips (seat effects)", ["pips", "pips", "pips", "pips"], "25% by construction", seeds),
    ]
    if only_vp:
        lineups = []
    if vp_seeds:
        lineups.append(("advisor vs 3 vp", ["advisor", "vp", "vp", "vp"], "reported", min(vp_seeds, seeds)))
    print(
        f"## strength: random base boards, every seed in 4 seatings ({4 * seeds} games per line unless noted)"
    )
    for label, players, target, n in lineups:
        start_load = load_text()
        result = run_playtest(boards[:n], players, games=n, seed=11, rotate=True, workers=workers)
        seats = "  ".join(f"{s.name} {100 * s.rate.value:.1f}%" for s in result.seats)
        turns = result.turns_interval
        assert turns is not None
        print(
            f"{label:28s} {_pct(result)}  ({n} boards; target {target}; "
            f"{result.players[0].wins}/{result.games} wins, "
            f"mean VP {result.players[0].mean_vp:.2f}, {result.unfinished} unfinished, "
            f"turns {turns.value:.0f} [{turns.lo:.0f}, {turns.hi:.0f}], "
            f"{result.games_per_second:.1f} games/s; {start_load})"
        )
        print(f"{'':28s} by seat (all players): {seats}")


def scaling(games: int) -> None:
    boards = _boards(7, games)
    players = ["weighted"] * 4
    print(f"## scaling: {games} games of 4 weighted players on random boards")
    rates = {}
    records = {}
    for workers in (1, 2, 1, 2):
        load = load_text()
        cpu0 = cpu_seconds()
        result = run_playtest(boards, players, games=games, seed=5, workers=workers)
        cpu = cpu_seconds() - cpu0
        rates.setdefault(workers, []).append(result.games_per_second)
        records[workers] = result.records
        print(
            f"workers={workers}: {result.games_per_second:6.2f} games/s ({result.seconds:.1f} s wall, "
            f"{1000 * cpu / games:.1f} ms CPU per game, {cpu / result.seconds:.2f} cores obtained; {load})"
        )
    assert records[1] == records[2], "1 and 2 workers played different games"
    one = max(rates[1])
    two = max(rates[2])
    print(
        f"speed-up on 2 workers: {two / one:.2f}x (best of two runs each; target >= 1.8x; it needs 2 free "
        "cores: see 'cores obtained'); same games: yes"
    )


# -- overhead: two fresh processes, so the direct one never sees our random patch --------------------------


def _direct_block(specs: list[GameSpec]) -> tuple[float, float, list[tuple[Any, ...]]]:
    from catanatron import Color, Game
    from catanatron.players.weighted_random import WeightedRandomPlayer

    from boardeval.catan import to_catanatron_map

    maps: dict[str, Any] = {}
    out = []
    wall, cpu = time.perf_counter(), time.process_time()
    for spec in specs:
        catan_map = maps.get(spec.board)
        if catan_map is None:
            catan_map = maps[spec.board] = to_catanatron_map(Board.parse(spec.board))
        game = Game([WeightedRandomPlayer(c) for c in Color], seed=spec.seed, catan_map=catan_map)
        winner = game.play()
        state = game.state
        vps = tuple(int(state.player_state[f"P{i}_ACTUAL_VICTORY_POINTS"]) for i in range(4))
        out.append((None if winner is None else state.colors.index(winner), int(state.num_turns), vps))
    return time.perf_counter() - wall, time.process_time() - cpu, out


def _ours_block(specs: list[GameSpec]) -> tuple[float, float, list[tuple[Any, ...]]]:
    out = []
    wall, cpu = time.perf_counter(), time.process_time()
    for spec in specs:
        r = play_game(spec)
        out.append((r.winner_seat, r.turns, r.vps))
    return time.perf_counter() - wall, time.process_time() - cpu, out


def overhead(games: int, block: int) -> None:
    boards = _boards(3, games)
    specs = [
        s
        for b, seed in zip(boards, range(games), strict=True)
        for s in game_specs(b, ["weighted"] * 4, 1, seed)
    ]
    print(
        f"## overhead: {games} games of 4 weighted players, blocks of {block}, "
        "two fresh processes taking turns"
    )
    ctx = multiprocessing.get_context("spawn")
    cpu = {"direct": 0.0, "ours": 0.0}
    wall = {"direct": 0.0, "ours": 0.0}
    turns = {"direct": 0, "ours": 0}
    per_turn: dict[str, list[float]] = {"direct": [], "ours": []}
    load = load_text()
    with (
        ProcessPoolExecutor(1, mp_context=ctx) as direct_pool,
        ProcessPoolExecutor(1, mp_context=ctx) as ours_pool,
    ):
        # warm-up: imports and the node table in both
        direct_pool.submit(_direct_block, specs[:1]).result()
        ours_pool.submit(_ours_block, specs[:1]).result()
        for i in range(0, games, block):
            chunk = specs[i : i + block]
            order = [("direct", direct_pool, _direct_block), ("ours", ours_pool, _ours_block)]
            if (i // block) % 2:
                order.reverse()
            for name, pool, fn in order:
                w, c, out = pool.submit(fn, chunk).result()
                n_turns = sum(t for _, t, _ in out)
                wall[name] += w
                cpu[name] += c
                turns[name] += n_turns
                per_turn[name].append(c / n_turns)
    for name in ("direct", "ours"):
        print(
            f"{name:7s}: {1000 * wall[name] / games:6.2f} ms/game wall, "
            f"{1000 * cpu[name] / games:6.2f} ms/game CPU, {turns[name] / games:.1f} turns/game, "
            f"{1e6 * cpu[name] / turns[name]:.1f} us CPU/turn"
        )
    per_game = cpu["ours"] / cpu["direct"] - 1
    ratio = (cpu["ours"] / turns["ours"]) / (cpu["direct"] / turns["direct"]) - 1
    diffs = [o / d - 1 for o, d in zip(per_turn["ours"], per_turn["direct"], strict=True)]
    ci = mean_interval(diffs)
    print(
        f"wrapper overhead per turn: {100 * ratio:+.1f}% CPU (per-block mean {100 * ci.value:+.1f}% "
        f"[{100 * ci.lo:+.1f}, {100 * ci.hi:+.1f}]; target <= 10%); per game {100 * per_game:+.1f}% CPU "
        f"(games differ in length); {load}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=1000, help="game seeds per line (x4 seatings)")
    add_common_options(parser, workers=2)
    parser.add_argument(
        "--vp-seeds", type=int, default=None, help="seeds of the slow vp line (default --seeds)"
    )
    parser.add_argument("--scaling-games", type=int, default=300)
    parser.add_argument("--overhead-games", type=int, default=400)
    parser.add_argument("--only", choices=["strength", "vp", "scaling", "overhead"], default=None)
    args = parser.parse_args()
    print(load_text())
    if args.only in (None, "overhead"):
        overhead(args.overhead_games, 20)
    if args.only in (None, "scaling"):
        scaling(args.scaling_games)
    vp_seeds = args.seeds if args.vp_seeds is None else args.vp_seeds
    if args.only in (None, "strength", "vp"):
        strength(args.seeds, args.workers, vp_seeds, only_vp=args.only == "vp")
    print(load_text())


if __name__ == "__main__":
    main()
