"""Playing strength of the Morris AI against OpenSpiel's MCTS bot and against random play.

Target (task brief): >= 90% wins against ``MCTSBot`` (UCT c=2, 1,000 simulations, one random rollout per
leaf) and 100% wins against random play, 100 games each, colours alternating, under the OpenSpiel-compatible
rules (draw after 200 turns, no repetition rule). OpenSpiel is used here only, never in ``src``.

Both engines keep their own state; every turn is translated through OpenSpiel action ids (0..23 place or
remove, ``24 + from * 24 + to`` move), so a disagreement of the two rule sets would raise at once.

    .venv/bin/python benchmarks/morris_strength.py --opponent both --games 100 --workers 2 --depth 5
    .venv/bin/python benchmarks/morris_strength.py --measure      # per-move time of both players first

Issue 12 section 3 (standard rules): the new AI (the compiled search) against today's AI (the Python
``Searcher``, ``engine="python"``):

    nice .venv/bin/python benchmarks/morris_strength.py --versus-old --games 200 --time 0.1 --old-time 0.1
    nice .venv/bin/python benchmarks/morris_strength.py --versus-old --games 200 --time 0.1 --old-depth 5
        each random opening (two random placements per side) is played twice with colours swapped; W/D/L
        of the new AI with boardeval.core.score_interval (target: >= 90% at equal time), the reasons, and
        the blockade losses (no legal move) within 10 turns after the placing phase (target: none).
    The MCTS floor above runs the new AI too (``--engine python`` for today's).
    nice .venv/bin/python benchmarks/morris_strength.py --versus-old --old-engine compiled \
        --old-profile base --games 100 --time 0.1 --old-time 1
        how close to "cannot be beaten at equal time": the new AI against itself with 10x the time (a
        stronger searcher of the same kind, ~2 plies deeper), same openings and tallies.

Issue 25 (standard rules): "new" is the AI as shipped now (``AlphaBetaPlayer``: the compiled search with
tablebase probes in its tree, the opening book, the game clock); "today" is the AI as on main before issue
25 (commit bd38aad: the same compiled search with ``EngineOptions(tb_probe=False)``, no book, every move its
plain time; with a tablebase it is used at the root only, as then):

    python benchmarks/morris_strength.py --versus-old --old-engine new --time 0.1 --old-time 1 \
        --games 200 --tablebase DEFAULT --save runs/odds
        the AI at 0.1 s against itself at 1 s (issue 25 target >= 0.45; before: 0.345 [0.280, 0.410]);
    python benchmarks/morris_strength.py --versus-old --old-engine today --time 1 --old-time 1 \
        --games 200 --tablebase DEFAULT --save runs/today1
        the new AI against today's at equal time (target >= 0.60 at 1 s; also at 0.1 s);
    --new-off book,clock,tb_probe   switches the new AI's features off one by one (a feature's own match);
    --new-set blockade_extension=2  sets an EngineOptions value of the new AI (an option's own match);
                                    clock_advance=N and clock_max_factor=F set its game clock's advance
                                    (moves' time) and hard limit (settings);
    --old-set blockade_extension=2  the same for the opponent when it is the new AI (``--old-engine new``:
                                    a time-odds match with the option on both sides);
    --boundary-nodes F              node budgets spent by turn on both sides (``_NodeSchedule``): F x a
                                    move's share on turns 10-27, half of it before, the game's average kept;
    --nodes N / --old-nodes N       node-limited sides instead of a clock (fair on a loaded machine);
    --openings-plies K              K random placements per side open each pair of games (default 2);
    --save DIR                      every finished game is written there by its worker: a rerun with the
                                    same options and DIR skips them (Ctrl-C or a kill loses no game);
                                    Ctrl-C or SIGTERM prints the finished games' figures, flagged
                                    "(interrupted)". ``benchmarks/morris_losses.py DIR --seed S
                                    --tablebase T`` then says of each lost game whether the opening
                                    dealt it or the new AI's own move lost it (and which move).
    The colour-swapped pairs line: pairs where the new AI scored more, the same, or less over both colours
    of one opening (a decided opening, lost by any player as one colour, makes a level pair).

Issue 13 section 4 (standard rules, no OpenSpiel):

    nice .venv/bin/python benchmarks/morris_strength.py --tuned --games 400 --depth 2 --time 0.02
        tuned vs seed ("base") weights, once at equal depth and once at equal time per move: each random
        opening (two random placements per side) is played twice with colours swapped; W/D/L of the tuned
        weights with boardeval.core.score_interval (target: tuned >= 55%).
    nice .venv/bin/python benchmarks/morris_strength.py --tb-check --positions 1000 --tablebase DIR
        sampled tablebase-covered positions (K <= 5; decided and drawn) played out by the AI with the
        tablebase against the tablebase's own best defence; counts the AI's turns that change the game's
        value (target: zero), wins not converted, drawn positions lost.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from _harness import add_common_options, load_text, print_endings, run_jobs, score_line
from boardeval.core import make_rng, spawn_seeds
from boardeval.morris import (
    OPENSPIEL,
    AlphaBetaPlayer,
    Evaluator,
    Position,
    Searcher,
    Turn,
    load_weights,
    random_position,
)

if TYPE_CHECKING:
    from boardeval.morris import Tablebase


@dataclass(frozen=True)
class Job:
    opponent: str  # "mcts" | "random"
    ai_white: bool
    seed: int
    depth: int | None
    time_limit: float | None
    sims: int
    profile: str
    engine: str = "compiled"
    tablebase: str | None = None  # our AI's tables ("DEFAULT": the default folder); MCTS has none


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


@cache
def _tables(folder: str | None) -> Tablebase | None:
    """The tables in ``folder`` ("DEFAULT": the default folder; None: none), opened once per process, for
    every mode of this script. Under OpenSpiel's rules the search scores a tablebase win whose end lies
    past the 200-turn limit as the draw the limit makes of it."""
    if folder is None:
        return None
    from boardeval.morris import Tablebase, default_tablebase_dir

    return Tablebase.open(default_tablebase_dir() if folder == "DEFAULT" else folder)


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
    searcher = Searcher(
        Evaluator(load_weights(job.profile)), engine=job.engine, tablebase=_tables(job.tablebase)
    )
    ai_side = 0 if job.ai_white else 1
    ai_t = opp_t = 0.0
    ai_n = opp_n = 0
    while not pos.is_over():
        if state.is_terminal():
            raise RuntimeError(f"OpenSpiel ended the game but we did not: {pos.text()}")
        t0 = time.perf_counter()
        if pos.side == ai_side:
            res = searcher.search(pos, job.depth, job.time_limit, rng=rng)
            if res.interrupted:  # Ctrl-C inside the search: stop the game, not play its cut-short move
                raise KeyboardInterrupt
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


PLACING_TURNS = 18
"""Turns of the placing phase (9 men a side, one placement a turn): it ends after turn 18."""


def early_blockade(result: str, reason: str, turns: int) -> bool:
    """A loss by having no legal move within 10 turns after the placing phase ended (issue 12 section 3)."""
    return result == "loss" and "no legal" in reason and turns <= PLACING_TURNS + 10


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


# ------------------------------------------------------------------ issue 12: the new AI vs today's AI


@dataclass(frozen=True)
class OldJob:
    seed: int  # the opening's seed (shared by the two games of a pair)
    new_white: bool
    time_limit: float | None  # the new AI's budget
    old_depth: int | None  # the opponent's budget
    old_time: float | None
    profile: str
    new_depth: int | None = None  # the new AI at a fixed depth instead of a time (a check of the search)
    new_options: str = ""  # features the new AI switches off: EngineOptions names, "book", "clock"
    old_profile: str | None = None  # the opponent's weights (default: the same as the new AI's)
    old_engine: str = "python"  # python (issue 12's old AI) | compiled / today (bd38aad) | new (the new AI)
    tablebase: str | None = None  # tablebase folder for both sides ("DEFAULT": the default folder)
    new_nodes: int | None = None  # node limits instead of a clock
    old_nodes: int | None = None
    openings_plies: int = 2
    index: int = 0
    save: str | None = None
    new_set: str = ""  # EngineOptions the new AI sets: "name=value,..." (e.g. blockade_extension=2)
    old_set: str = ""  # EngineOptions the opponent sets when it is the new AI (``old_engine="new"``)
    boundary: float = 0.0  # > 0: node budgets spent by the boundary schedule (_NodeSchedule) on both sides


def _options(off: str, on: str = "") -> Any:
    """EngineOptions with the named techniques switched off ("book" and "clock" are the player's) and the
    ``name=value`` settings of ``on`` (e.g. ``blockade_extension=2``, ``lmr_divisor=2.5``, ``null_move=0``,
    ``tt=exact``), each read as its option's type."""
    from dataclasses import replace

    from boardeval.morris._search.compiled.engine import EngineOptions

    defaults = EngineOptions()

    names = [n for n in off.split(",") if n and n not in ("book", "clock")]
    change: dict[str, object] = {name: False for name in names}
    if "tt" in change:
        change["tt"] = "off"  # the table's option is a mode, not a switch
    if "blockade_extension" in change:
        change["blockade_extension"] = 0
    for item in (i for i in on.split(",") if i):  # after the switches: a setting is not switched off again
        name, _, value = item.partition("=")
        kind = type(getattr(defaults, name))
        change[name] = bool(int(value)) if kind is bool else kind(value)
    return replace(defaults, **change)  # type: ignore[arg-type]


class _NodeSchedule:
    """A game's node budget for one side, ``per_move`` nodes a move on average, spent by the turn: half a
    move's share before turn 10 (early placing), ``factor`` times it on turns 10-27 (the end of placing and
    the first moving turns, where the weaker side of a time-odds match loses its games), the share after;
    the share is ``per_move`` plus a quarter of the bank (what the plans so far saved, or overran, against
    ``per_move``), so the game's planned total stays near ``moves x per_move``."""

    def __init__(self, per_move: int, factor: float) -> None:
        self.per_move, self.factor = per_move, factor
        self.bank = 0.0
        self.spent = self.planned = self.moves = 0

    def limit(self, turn: int) -> int:
        share = max(0.05 * self.per_move, self.per_move + 0.25 * self.bank)
        scale = 0.5 if turn < 10 else self.factor if turn < 28 else 1.0
        return max(1000, int(scale * share))

    def record(self, limit: int, nodes: int) -> None:
        """A move searched ``nodes`` of its ``limit``: the bank keeps the plan's difference to ``per_move``
        (a move under the plain budget that needs fewer nodes, a tablebase or book move, saves none
        either), so the schedule moves nodes between turns without adding any."""
        self.bank += self.per_move - limit
        self.planned += limit
        self.spent += nodes
        self.moves += 1


class _Side:
    """One side of a match game: ``search(pos, rng) -> SearchResult`` under its own budget."""

    def __init__(
        self,
        kind: str,
        ev: Evaluator,
        depth: int | None,
        seconds: float | None,
        nodes: int | None,
        tb: Any,
        off: str = "",
        on: str = "",
        boundary: float = 0.0,
    ) -> None:
        from boardeval.morris._search.compiled.engine import EngineOptions

        self.depth, self.seconds, self.nodes = depth, seconds, nodes
        self.schedule = _NodeSchedule(nodes, boundary) if boundary > 0 and nodes is not None else None
        self.player: AlphaBetaPlayer | None = None
        self.searcher: Searcher | None = None
        if kind == "new":  # the AI as shipped, features switched off by name
            book: Any = None if "book" in off else "default"
            clock = "clock" not in off and nodes is None
            # clock_advance=N: the game clock starts with N moves' time in the bank (TimeManager's advance);
            # clock_max_factor=F: its hard limit, F settings (each keeps the player's own value when unset)
            # clock_spend=F: the share of its bank a move adds to the setting (TimeManager's spend)
            clock_keys = {
                "clock_advance": "advance",
                "clock_max_factor": "max_factor",
                "clock_spend": "spend",
            }
            items = [i.partition("=") for i in on.split(",") if i]
            clock_items = {clock_keys[k]: float(v) for k, _, v in items if k in clock_keys}
            on = ",".join(k + eq + v for k, eq, v in items if k not in clock_keys)
            self.player = AlphaBetaPlayer(
                ev,
                depth=depth,
                time=seconds,
                tablebase=tb,
                book=book,
                manage_time=clock,
                options=_options(off, on),
            )
            if clock_items and self.player.clock is not None:
                from boardeval.morris._search.clock import TimeManager

                was = self.player.clock
                self.player.clock = TimeManager(
                    was.per_move,
                    advance=clock_items.get("advance", was.advance),
                    max_factor=clock_items.get("max_factor", was.max_factor),
                    spend=clock_items.get("spend", was.spend),
                )
            self.searcher = self.player._searcher
        elif kind in ("today", "compiled"):  # bd38aad: no tree probes, no book, every move its plain time
            before = EngineOptions(tb_probe=False, reuse_table=False)
            self.searcher = Searcher(ev, tablebase=tb, options=before)
        else:  # issue 12's old AI: the Python search
            self.searcher = Searcher(ev, engine="python")

    def search(self, pos: Position, rng: Any) -> Any:
        if self.schedule is not None:
            assert self.searcher is not None
            limit = self.schedule.limit(pos.turns)
            res = self.searcher.search(pos, self.depth, None, rng=rng, node_limit=limit)
            self.schedule.record(limit, res.nodes)
            return res
        if self.nodes is not None:
            assert self.searcher is not None
            return self.searcher.search(pos, self.depth, None, rng=rng, node_limit=self.nodes)
        if self.player is not None:
            return self.player.search(pos, rng)
        assert self.searcher is not None
        return self.searcher.search(pos, self.depth, self.seconds, rng=rng)


def _saved(job: OldJob) -> Path | None:
    return None if job.save is None else Path(job.save) / f"game-{job.index:05d}.json"


def play_versus_old(job: OldJob) -> tuple[Any, ...]:
    """One game of the new AI against an opponent from a random opening: (result for the new AI, reason,
    turns, new s/move, old s/move, new AI's mean depth x 100, new AI's book moves; under a node schedule
    also both sides' mean node limit a move). Written to ``job.save`` when given (a rerun skips it), with the
    game's moves beside it (``game-N.moves.json``: each move's turn, side, wall seconds and
    ``SearchResult.to_dict()``)."""
    import json

    saved = _saved(job)
    if saved is not None and saved.is_file():
        return tuple(json.loads(saved.read_text()))
    pos = random_position(job.seed, 2 * job.openings_plies)  # random placements per side
    ev = Evaluator(load_weights(job.profile))
    old_ev = ev if job.old_profile in (None, job.profile) else Evaluator(load_weights(job.old_profile))
    tb = _tables(job.tablebase)
    new = _Side(
        "new",
        ev,
        job.new_depth,
        job.time_limit,
        job.new_nodes,
        tb,
        job.new_options,
        job.new_set,
        job.boundary,
    )
    old_kind = "new" if job.old_engine == "new" else job.old_engine
    old = _Side(
        old_kind,
        old_ev,
        job.old_depth,
        job.old_time,
        job.old_nodes,
        tb,
        on=job.old_set,
        boundary=job.boundary,
    )
    new_side = 0 if job.new_white else 1
    rngs = [make_rng(s) for s in spawn_seeds(job.seed + 1, 2)]
    record: list[dict[str, Any]] = []  # every move: its turn, side, wall seconds and SearchResult.to_dict()
    while (outcome := pos.outcome()) is None:
        t0 = time.perf_counter()
        who = "new" if pos.side == new_side else "old"
        res = (new if who == "new" else old).search(pos, rngs[pos.side])
        if res.interrupted:
            # Ctrl-C / SIGTERM inside a search: the engine keeps its last depth, but a game must not go on
            # with a move its budget did not pay for: the game stops unsaved, the match keeps the finished
            raise KeyboardInterrupt
        record.append({"turn": pos.turns, "side": who, "wall": time.perf_counter() - t0, **res.to_dict()})
        assert res.move is not None
        pos.push(res.move)
    ours = [m for m in record if m["side"] == "new"]
    theirs = [m for m in record if m["side"] == "old"]
    result = "draw" if outcome.winner is None else ("win" if outcome.winner == new_side else "loss")
    row = (
        result,
        outcome.reason,
        pos.turns,
        sum(m["wall"] for m in ours) / max(1, len(ours)),
        sum(m["wall"] for m in theirs) / max(1, len(theirs)),
        round(100 * sum(m["depth"] for m in ours) / max(1, len(ours))),
        sum(m["book"] is not None for m in ours),
        *(
            [
                round(side.schedule.planned / max(1, side.schedule.moves))
                for side in (new, old)
                if side.schedule is not None
            ]
            if new.schedule is not None and old.schedule is not None
            else []
        ),
    )
    if saved is not None:
        # the moves beside the row (depth, seconds and score of every move), so that an outlier can be read;
        # written first: a row on disk means a finished game, and a rerun skips it
        saved.with_name(saved.stem + ".moves.json").write_text(json.dumps(record))
        tmp = saved.with_name(saved.name + ".tmp")
        tmp.write_text(json.dumps(row))
        tmp.replace(saved)
    return row


def _budget(depth: int | None, seconds: float | None, nodes: int | None) -> str:
    if nodes is not None:
        return f"{nodes:,} nodes/move"
    return f"depth {depth}" if depth is not None else f"{seconds} s/move"


def _warm_tablebase(folder: str) -> None:
    """Read the packed tables once, front to back, before any game: a probe of a page not in memory reads
    the disk inside a search's time (133 MB/s on the twentieth session's disk), so on a cold page cache
    (after a reboot, or once the kernel reclaimed an idle file) a run's first games pay for it: the
    twenty-first session measured a cold game at 0.2-1.3 M nodes a second instead of 3-4 M
    (``boardeval.morris.tablebase.packed``, docs/morris-search.md). Prints the seconds and gigabytes read."""
    import time

    tb = _tables(folder)
    assert tb is not None
    tb.packed()  # packs once if needed
    t0 = time.perf_counter()
    size = 0
    buf = bytearray(8 << 20)
    for path in sorted(tb.directory.glob("packed-*.bin")):
        with path.open("rb", buffering=0) as fh:
            while n := fh.readinto(buf):
                size += n
    print(
        f"  tablebase read into memory: {size / 1e9:.2f} GB in {time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )


def versus_old(args: argparse.Namespace) -> None:
    old_budget = _budget(args.old_depth, args.old_time, args.old_nodes)
    new_budget = _budget(args.new_depth, args.time, args.nodes)
    off = f" (off: {args.new_off})" if args.new_off else ""
    off += f" (set: {args.new_set})" if args.new_set else ""
    off += f" (boundary schedule x{args.boundary_nodes:g})" if args.boundary_nodes else ""
    old_weights = f" ({args.old_profile} weights)" if args.old_profile else ""
    names = {"python": "old (Python)", "compiled": "today", "today": "today", "new": "new"}
    old_name = names[args.old_engine] + (f" (set: {args.old_set})" if args.old_set else "")
    label = f"new {new_budget}{off} vs {old_name} {old_budget}{old_weights}"
    if args.tablebase:
        label += " (tablebase)"
    seeds = spawn_seeds(args.seed, (args.games + 1) // 2)
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    if args.tablebase:
        _warm_tablebase(args.tablebase)
    jobs = [
        OldJob(
            seeds[i // 2],
            i % 2 == 0,
            args.time,
            args.old_depth,
            args.old_time,
            args.profile,
            args.new_depth,
            args.new_off,
            args.old_profile,
            args.old_engine,
            args.tablebase,
            args.nodes,
            args.old_nodes,
            args.openings_plies,
            i,
            args.save,
            args.new_set,
            args.old_set,
            args.boundary_nodes,
        )
        for i in range(args.games)
    ]
    resumed = sum(1 for j in jobs if (p := _saved(j)) is not None and p.is_file())
    if resumed:
        print(f"  [{label}] {resumed} games from {args.save}", file=sys.stderr, flush=True)
    done = run_jobs(play_versus_old, jobs, workers=args.workers, label=label, show_load=True)
    results = done.results
    blocked = sum(early_blockade(r[0], r[1], r[2]) for r in results)
    books = sum(r[6] for r in results if len(r) > 6)
    print(
        f"{label} (standard rules, profile {args.profile}): {len(results)} games{done.note} in "
        f"{done.seconds:.0f} s ({load_text()}): {score_line(results)}"
        f"; new {np.mean([r[3] for r in results]) if results else 0:.3f} s/move (mean depth "
        f"{np.mean([r[5] for r in results]) / 100 if results else 0:.1f}, {books} book moves), old "
        f"{np.mean([r[4] for r in results]) if results else 0:.3f} s/move; blockade losses of the new AI "
        f"within 10 turns after placing: {blocked}",
        flush=True,
    )
    if any(len(r) > 8 for r in results):
        print(
            f"  mean node limit a move under the schedule: new {np.mean([r[7] for r in results]):,.0f}, "
            f"old {np.mean([r[8] for r in results]):,.0f}"
        )
    print_endings(results)
    print_blockades(results)
    if done.interrupted:  # its results are not in job order: no pairs
        raise SystemExit(130)  # the finished games' figures are printed above, flagged "(interrupted)"
    print_pairs(results)


def print_blockades(results: Sequence[Sequence[Any]]) -> None:
    """Blockades within 10 turns after placing suffered by each side, with Wilson 95% intervals (issue 25:
    the new AI's target is 0; the opponent's count says whether the new AI shuts the other side in)."""
    from boardeval.core import wilson_interval

    n = len(results)
    for who, result in (("the new AI's", "loss"), ("the opponent's", "win")):
        k = sum(early_blockade("loss", r[1], r[2]) and r[0] == result for r in results)
        iv = wilson_interval(k, n)
        print(f"  early blockades, {who} losses: {k}/{n} [{iv.lo:.3f}, {iv.hi:.3f}] (Wilson 95%)")


def print_pairs(results: Sequence[Sequence[Any]]) -> None:
    """The colour-swapped pairs (games 2k and 2k + 1 share an opening): the new AI ahead, level or behind
    over both colours. A random opening can be decided (won for one colour with best play), and then a
    perfect player loses it as that colour and wins it as the other: level. A pair behind is one where the
    opponent scored more from the same opening: a loss from a position that was not lost (what "a strong
    engine cannot beat it" asks to be 0, issue 25), or a won opening the new AI did not convert as the
    favoured colour while losing it as the other. ``benchmarks/morris_losses.py`` tells which."""
    from boardeval.core import wilson_interval

    points = {"win": 2, "draw": 1, "loss": 0}
    sums = [points[a[0]] + points[b[0]] for a, b in zip(results[0::2], results[1::2], strict=False)]
    n = len(sums)
    if n == 0:
        return
    ahead, behind = sum(x > 2 for x in sums), sum(x < 2 for x in sums)
    iv = wilson_interval(behind, n)
    print(
        f"  colour-swapped pairs: new ahead {ahead} / level {n - ahead - behind} / behind {behind} of {n}; "
        f"behind {behind}/{n} [{iv.lo:.3f}, {iv.hi:.3f}] (Wilson 95%)"
    )


# ------------------------------------------------------------------------ issue 13: tuned vs seed weights


@dataclass(frozen=True)
class PairJob:
    seed: int  # the opening's seed (shared by the two games of a pair)
    tuned_white: bool
    depth: int | None
    time_limit: float | None
    tuned: str
    base: str


def play_pair_game(job: PairJob) -> tuple[str, str, int]:
    """One game of ``tuned`` against ``base`` from a random opening: (result for tuned, reason, turns)."""
    pos = random_position(job.seed, 4)  # two random placements per side
    searchers = {name: Searcher(Evaluator(load_weights(name))) for name in (job.tuned, job.base)}
    white, black = (job.tuned, job.base) if job.tuned_white else (job.base, job.tuned)
    rngs = [make_rng(s) for s in spawn_seeds(job.seed + 1, 2)]
    while (outcome := pos.outcome()) is None:
        name = white if pos.side == 0 else black
        res = searchers[name].search(pos, job.depth, job.time_limit, rng=rngs[pos.side])
        if res.interrupted:  # Ctrl-C inside the search: stop the game, not play its cut-short move
            raise KeyboardInterrupt
        assert res.move is not None
        pos.push(res.move)
    tuned_side = 0 if job.tuned_white else 1
    result = "draw" if outcome.winner is None else ("win" if outcome.winner == tuned_side else "loss")
    return result, outcome.reason, pos.turns


def tuned_match(args: argparse.Namespace) -> None:
    budgets = [("equal depth", args.depth, None)]
    if args.time is not None:
        budgets.append(("equal time", None, args.time))
    for label, depth, limit in budgets:
        seeds = spawn_seeds(args.seed, (args.games + 1) // 2)
        jobs = [
            PairJob(seeds[i // 2], i % 2 == 0, depth, limit, args.tuned_profile, args.profile)
            for i in range(args.games)
        ]
        done = run_jobs(play_pair_game, jobs, workers=args.workers, label=label, every=20)
        results = done.results
        budget = f"depth {depth}" if depth is not None else f"{limit} s/move"
        print(
            f"{args.tuned_profile} vs {args.profile}, {label} ({budget}): {len(results)} games{done.note} "
            f"in {done.seconds:.0f} s ({load_text()}): {score_line(results)}",
            flush=True,
        )
        print_endings(results)


# ------------------------------------------------------------------ issue 13: perfect covered endgames


@dataclass(frozen=True)
class TBJob:
    text: str
    seed: int
    tb_dir: str
    depth: int


def tb_play_out(job: TBJob) -> tuple[str, int, int, str]:
    """Play one covered position out: the AI (side to move, with the tablebase) against the tablebase's
    best defence. Returns (start value, AI turns that changed the value, AI turns, final result for AI)."""
    from boardeval.morris.match import _open_tablebase
    from boardeval.morris.tuning import tablebase_turn

    tb = _open_tablebase(job.tb_dir)
    pos = Position.parse(job.text)
    rng = make_rng(job.seed)
    ai = AlphaBetaPlayer(depth=job.depth, tablebase=tb)
    ai_side = pos.side
    start_value = tb.lookup(pos)[0]
    changed = ai_turns = 0
    while (outcome := pos.outcome()) is None:
        if pos.side == ai_side:
            before = tb.lookup(pos)[0]
            pos.push(ai.choose(pos, rng))
            ai_turns += 1
            if pos.outcome() is None:
                after_opp = tb.lookup(pos)[0]
                after = {"win": "loss", "loss": "win", "draw": "draw"}[after_opp]
            else:
                after = "win" if pos.outcome().winner == ai_side else "draw"  # type: ignore[union-attr]
            if after != before and not (before == "loss" and after != "loss"):
                changed += 1
        else:
            pos.push(tablebase_turn(tb, pos, rng))
    final = "draw" if outcome.winner is None else ("win" if outcome.winner == ai_side else "loss")
    return start_value, changed, ai_turns, final


def tb_check(args: argparse.Namespace) -> None:
    from boardeval.morris import Tablebase
    from boardeval.morris.tuning import sample_covered

    tb = Tablebase.open(args.tablebase)
    keys = [k for k in tb.subdatabases if max(k) <= 5]
    per = -(-args.positions // len(keys))
    texts: list[str] = []
    for i, key in enumerate(keys):
        texts += [p.text() for p in sample_covered(tb, key, per, seed=args.seed + i, decided_share=0.7)]
    seeds = spawn_seeds(args.seed, len(texts))
    jobs = [TBJob(t, s, str(args.tablebase), args.depth) for t, s in zip(texts, seeds, strict=True)]
    done = run_jobs(tb_play_out, jobs, workers=args.workers, label="tb-check", every=100)
    results = done.results
    by_value: dict[str, dict[str, int]] = {}
    for value, _changed, _n, final in results:
        by_value.setdefault(value, {"win": 0, "draw": 0, "loss": 0})[final] += 1
    changed = sum(r[1] for r in results)
    ai_turns = sum(r[2] for r in results)
    print(
        f"tablebase check ({', '.join(f'{a}v{b}' for a, b in keys)}; AI depth {args.depth} with the "
        f"tablebase vs the tablebase's best defence): {len(results)} positions{done.note} in "
        f"{done.seconds:.0f} s ({load_text()}); {ai_turns} AI turns, {changed} changed the game's value"
    )
    for value, tally in sorted(by_value.items()):
        print(f"  start {value:4s}: AI won {tally['win']}, drew {tally['draw']}, lost {tally['loss']}")


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM handler: stop like Ctrl-C (``run_jobs`` keeps the finished games, flagged interrupted)."""
    raise KeyboardInterrupt


def main() -> None:
    # a job started in the background by a non-interactive shell inherits SIGINT ignored: take it back,
    # so `kill -INT` (Ctrl-C) stops a long match with its partial results printed
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # SIGTERM too (the way a time-boxed run is stopped): the games finished so far are printed, flagged
    # interrupted, instead of the process dying with its tallies unprinted
    signal.signal(signal.SIGTERM, _terminate)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opponent", choices=["mcts", "random", "both"], default="both")
    add_common_options(ap, games=100, seed=2026, workers=2)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--time", type=float, default=None, help="seconds per AI move (instead of a depth)")
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--profile", default="base")
    ap.add_argument("--measure", action="store_true", help="only measure per-move times")
    ap.add_argument("--tuned", action="store_true", help="issue 13: tuned vs seed weights (standard rules)")
    ap.add_argument("--tuned-profile", default="tuned")
    ap.add_argument("--tb-check", action="store_true", help="issue 13: covered positions played out")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--versus-old", action="store_true", help="issue 12: the new AI vs today's (Python)")
    ap.add_argument("--old-depth", type=int, default=None, help="today's AI: depth per move")
    ap.add_argument("--old-time", type=float, default=None, help="today's AI: seconds per move")
    ap.add_argument("--old-profile", default=None, help="today's AI's weights (default: --profile)")
    ap.add_argument(
        "--old-engine",
        choices=["python", "compiled", "today", "new"],
        default="python",
        help="the opponent: python (issue 12's old AI), today / compiled (the AI of bd38aad, before issue "
        "25), new (the new AI itself: a time-odds match)",
    )
    ap.add_argument("--nodes", type=int, default=None, help="the new AI: nodes per move instead of a clock")
    ap.add_argument("--old-nodes", type=int, default=None, help="the opponent: nodes per move")
    ap.add_argument("--openings-plies", type=int, default=2, help="random placements per side to open")
    ap.add_argument("--save", default=None, help="folder for finished games (a rerun skips them)")
    ap.add_argument("--new-depth", type=int, default=None, help="the new AI at a fixed depth (a check)")
    ap.add_argument("--new-off", default="", help="EngineOptions the new AI switches off: lmr,null_move,...")
    ap.add_argument(
        "--new-set",
        default="",
        help="EngineOptions the new AI sets: name=value,... (blockade_extension=2); clock_advance=N: its "
        "game clock starts with N moves' time in the bank; clock_max_factor=F: its hard limit, F settings",
    )
    ap.add_argument(
        "--old-set",
        default="",
        help="EngineOptions the opponent sets when it is the new AI (--old-engine new): name=value,...",
    )
    ap.add_argument(
        "--boundary-nodes",
        type=float,
        default=0.0,
        help="node budgets (--nodes/--old-nodes) spent by turn on both sides: this factor on turns 10-27, "
        "half before, the game's average kept (an allocation experiment; 0: every move the same)",
    )
    ap.add_argument("--engine", choices=["compiled", "python"], default="compiled", help="our AI's engine")
    ap.add_argument(
        "--tablebase",
        default=None,
        help=(
            "tablebase folder: every built sub-database, for both sides with --versus-old and for our AI "
            "against MCTS or random play (--tb-check samples K <= 5 ones)"
        ),
    )
    args = ap.parse_args()
    if args.tuned:
        tuned_match(args)
        return
    if args.tb_check:
        tb_check(args)
        return
    if args.versus_old:
        if (args.time is None) == (args.new_depth is None and args.nodes is None) or (
            args.old_depth is None and args.old_nodes is None
        ) == (args.old_time is None):
            ap.error(
                "--versus-old needs one of --time / --new-depth / --nodes and one of --old-depth / "
                "--old-time / --old-nodes"
            )
        if args.boundary_nodes and (args.boundary_nodes < 0 or args.nodes is None or args.old_nodes is None):
            ap.error("--boundary-nodes needs a positive factor and node budgets (--nodes and --old-nodes)")
        if args.old_nodes is not None and args.old_depth is None and args.old_engine == "python":
            # the Python search has no node budget: without a depth it searched on forever (no game in
            # 600 s, noticed in issue 25's twenty-seventh session)
            ap.error(
                "--old-nodes needs a compiled opponent (--old-engine compiled, today or new) or --old-depth"
            )
        if args.old_set and args.old_engine != "new":
            ap.error("--old-set sets the opponent's EngineOptions: it needs --old-engine new")
        versus_old(args)
        return
    depth = None if args.time is not None else args.depth
    budget = f"time {args.time} s/move" if args.time is not None else f"depth {depth}"
    print(
        f"our AI ({args.engine}): {budget}, profile {args.profile}"
        f"{'' if args.tablebase is None else ', tablebase ' + args.tablebase}; "
        "OpenSpiel rules (200 turns, no repetition)",
        flush=True,
    )
    if args.measure:
        measure(args)
        return
    opponents = ["random", "mcts"] if args.opponent == "both" else [args.opponent]
    for opp in opponents:
        seeds = spawn_seeds(args.seed + (1 if opp == "mcts" else 0), args.games)
        jobs = [
            Job(opp, i % 2 == 0, s, depth, args.time, args.sims, args.profile, args.engine, args.tablebase)
            for i, s in enumerate(seeds)
        ]
        done = run_jobs(play, jobs, workers=args.workers, label=opp, every=1)
        finished = done.results
        rows = [(o.result, o.reason, o.turns) for o in finished]
        n = len(finished)
        label = f"MCTS ({args.sims} simulations, random rollouts)" if opp == "mcts" else "random play"
        print(f"vs {label}: {n} games{done.note} in {done.seconds:.0f} s")
        if n:
            ai_t = sum(o.ai_seconds for o in finished) / max(1, sum(o.ai_moves for o in finished))
            op_t = sum(o.opp_seconds for o in finished) / max(1, sum(o.opp_moves for o in finished))
            wins = sum(o.result == "win" for o in finished)
            print(
                f"  {score_line(rows)}; wins {100 * wins / n:.1f}%; "
                f"AI {ai_t:.3f} s/move, opponent {op_t:.3f} s/move"
            )
            print_endings(rows)
            blocked = sum(early_blockade(o.result, o.reason, o.turns) for o in finished)
            print(f"  blockade losses within 10 turns after placing: {blocked}; {load_text()}")
        print(flush=True)
        if done.interrupted:
            raise SystemExit(130)  # the next opponent is not played after a Ctrl-C / SIGTERM


if __name__ == "__main__":
    main()
