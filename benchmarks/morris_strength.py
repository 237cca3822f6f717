"""Playing strength of the Morris AI against OpenSpiel's MCTS bot and against random play.

Target (task brief): >= 90% wins against ``MCTSBot`` (UCT c=2, 1,000 simulations, one random rollout per
leaf) and 100% wins against random play, 100 games each, colours alternating, under the OpenSpiel-compatible
rules (draw after 200 turns, no repetition rule). OpenSpiel is used here only, never in ``src``.

Both engines keep their own state; every turn is translated through OpenSpiel action ids (0..23 place or
remove, ``24 + from * 24 + to`` move), so a disagreement of the two rule sets would raise at once.

    .venv/bin/python benchmarks/morris_strength.py --opponent both --games 100 --workers 2 --depth 5
    .venv/bin/python benchmarks/morris_strength.py --measure      # per-move time of both players first
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from boardeval.core import JobsInterrupted, map_jobs, spawn_seeds
from boardeval.morris import OPENSPIEL, Evaluator, Position, Searcher, Turn, load_weights


@dataclass(frozen=True)
class Job:
    opponent: str  # "mcts" | "random"
    ai_white: bool
    seed: int
    depth: int | None
    time_limit: float | None
    sims: int
    profile: str


@dataclass(frozen=True)
class GameOutcome:
    job: Job
    result: str  # "win" | "draw" | "loss" for our AI
    reason: str
    turns: int
    ai_seconds: float
    ai_moves: int
    opp_seconds: float
    opp_moves: int


def _actions(turn: Turn) -> list[int]:
    first = turn.dst if turn.src is None else 24 + turn.src * 24 + turn.dst
    return [first] if turn.remove is None else [first, turn.remove]


def play(job: Job) -> GameOutcome:
    game = pyspiel.load_game("nine_mens_morris")
    state = game.new_initial_state()
    pos = Position.start(OPENSPIEL)
    rs = np.random.RandomState(job.seed % (2**32))
    rng = np.random.default_rng(job.seed)
    bot = (
        mcts.MCTSBot(game, 2.0, job.sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
        if job.opponent == "mcts"
        else None
    )
    searcher = Searcher(Evaluator(load_weights(job.profile)))
    ai_side = 0 if job.ai_white else 1
    ai_t = opp_t = 0.0
    ai_n = opp_n = 0
    while not pos.is_over():
        if state.is_terminal():
            raise RuntimeError(f"OpenSpiel ended the game but we did not: {pos.text()}")
        t0 = time.perf_counter()
        if pos.side == ai_side:
            res = searcher.search(pos, job.depth, job.time_limit, rng=rng)
            assert res.move is not None
            turn = res.move
            for a in _actions(turn):
                if a not in state.legal_actions():
                    raise RuntimeError(f"our turn {turn} (action {a}) is illegal in OpenSpiel: {pos.text()}")
                state.apply_action(a)
            ai_t += time.perf_counter() - t0
            ai_n += 1
        else:
            player = state.current_player()
            if bot is not None:
                a = bot.step(state)
            else:
                legal = state.legal_actions()
                a = legal[int(rng.integers(len(legal)))]
            state.apply_action(a)
            remove = None
            if not state.is_terminal() and state.current_player() == player:
                r = (
                    bot.step(state)
                    if bot is not None
                    else state.legal_actions()[int(rng.integers(len(state.legal_actions())))]
                )
                state.apply_action(r)
                remove = r
            src, dst = (None, a) if a < 24 else ((a - 24) // 24, (a - 24) % 24)
            turn = Turn(src, dst, remove)
            opp_t += time.perf_counter() - t0
            opp_n += 1
        pos.play(turn)
    outcome = pos.outcome()
    if outcome is None or not state.is_terminal():
        raise RuntimeError(f"we ended the game ({outcome}) but OpenSpiel did not: {pos.text()}")
    returns = state.returns()
    if outcome.winner is None:
        result = "draw"
        assert returns[0] == returns[1], (outcome, returns)
    else:
        assert returns[outcome.winner] > returns[1 - outcome.winner], (outcome, returns)
        result = "win" if outcome.winner == ai_side else "loss"
    return GameOutcome(job, result, outcome.reason, pos.turns, ai_t, ai_n, opp_t, opp_n)


def measure(args: argparse.Namespace) -> None:
    """Per-move times of both players on the first moves of one game."""
    game = pyspiel.load_game("nine_mens_morris")
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, args.sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    ts = []
    for _ in range(4):
        t0 = time.perf_counter()
        state.apply_action(bot.step(state))
        ts.append(time.perf_counter() - t0)
    print(f"MCTS {args.sims} sims: {np.mean(ts):.2f} s/move (placing, first 4 moves)")
    pos = Position.start(OPENSPIEL)
    searcher = Searcher(Evaluator(load_weights(args.profile)))
    rng = np.random.default_rng(0)
    ts = []
    nodes = []
    for _ in range(24):
        if pos.is_over():
            break
        t0 = time.perf_counter()
        res = searcher.search(pos, args.depth, args.time, rng=rng)
        ts.append(time.perf_counter() - t0)
        nodes.append(res.nodes)
        assert res.move is not None
        pos.push(res.move)
    print(
        f"our AI depth={args.depth} time={args.time}: mean {np.mean(ts):.3f} s/move, max {max(ts):.3f} s, "
        f"{np.mean(nodes):.0f} nodes/move over {len(ts)} self-play turns"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opponent", choices=["mcts", "random", "both"], default="both")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--time", type=float, default=None, help="seconds per AI move (instead of a depth)")
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--profile", default="base")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--measure", action="store_true", help="only measure per-move times")
    args = ap.parse_args()
    depth = None if args.time is not None else args.depth
    budget = f"time {args.time} s/move" if args.time is not None else f"depth {depth}"
    print(f"our AI: {budget}, profile {args.profile}; OpenSpiel rules (200 turns, no repetition)", flush=True)
    if args.measure:
        measure(args)
        return
    opponents = ["random", "mcts"] if args.opponent == "both" else [args.opponent]
    for opp in opponents:
        seeds = spawn_seeds(args.seed + (1 if opp == "mcts" else 0), args.games)
        jobs = [
            Job(opp, i % 2 == 0, s, depth, args.time, args.sims, args.profile) for i, s in enumerate(seeds)
        ]
        tally = {"win": 0, "draw": 0, "loss": 0}
        start = time.perf_counter()
        finished: list[GameOutcome] = []

        def progress(done: int, total: int, _msg: str, opp: str = opp, start: float = start) -> None:
            el = time.perf_counter() - start
            print(f"  [{opp}] {done}/{total} games, {el:.0f} s elapsed", file=sys.stderr, flush=True)

        try:
            finished = map_jobs(play, jobs, workers=args.workers, progress=progress, label=opp)
            interrupted = False
        except JobsInterrupted as exc:
            finished = [exc.done[i] for i in sorted(exc.done)]
            interrupted = True
        for o in finished:
            tally[o.result] += 1
        n = len(finished)
        el = time.perf_counter() - start
        label = f"MCTS ({args.sims} simulations, random rollouts)" if opp == "mcts" else "random play"
        print(f"vs {label}: {n} games{' (interrupted)' if interrupted else ''} in {el:.0f} s")
        if n:
            ai_t = sum(o.ai_seconds for o in finished) / max(1, sum(o.ai_moves for o in finished))
            op_t = sum(o.opp_seconds for o in finished) / max(1, sum(o.opp_moves for o in finished))
            print(
                f"  wins {tally['win']} ({100 * tally['win'] / n:.1f}%), draws {tally['draw']}, "
                f"losses {tally['loss']}; mean turns {np.mean([o.turns for o in finished]):.1f}; "
                f"AI {ai_t:.3f} s/move, opponent {op_t:.3f} s/move"
            )
            reasons: dict[str, int] = {}
            for o in finished:
                key = f"{o.result}: {o.reason}"
                reasons[key] = reasons.get(key, 0) + 1
            for k, v in sorted(reasons.items()):
                print(f"    {v:3d} x {k}")
        print(flush=True)


if __name__ == "__main__":
    main()
