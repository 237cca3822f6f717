"""Texel tuning data (issue 13 section 3): labelled positions and their feature rows.

* **moving/flying** positions sampled from our endgame tablebase (:func:`sample_covered`), labelled with the
  tablebase value for the side to move (win 1, draw 0.5, loss 0). Most random positions are draws, so every
  sub-database is sampled to a fixed share of decided positions (``decided_share``); positions without a
  legal turn (losses at distance 0) are left out: the search never evaluates them.
* **placing** positions from searched self-play games (:func:`placing_positions`): each game opens with two
  random placements per side, then two depth-1 AIs with the tablebase play on; the game's result labels
  every placing position of it, and a game that reaches a covered position is resolved there by the
  tablebase (the value of that position, not the rest of the game).

:func:`build_data` turns them into a :class:`TuneData`: the raw features (own - opponent) per position, its
phase, label and game, plus the candidate feature variants of the seed's open questions (:data:`EXTRA`).
The fit itself is in :mod:`.texel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from boardeval.core import ParamsError, Progress, make_rng, report
from boardeval.morris._features import FEATURES, features, position_phase
from boardeval.morris.board import ADJ_MASK, RING, RING_WEIGHT, threat_points
from boardeval.morris.players import AlphaBetaPlayer, MorrisPlayer
from boardeval.morris.rules import Position

if TYPE_CHECKING:
    from boardeval.morris.rules import Turn
    from boardeval.morris.tablebase import Tablebase

__all__ = [
    "EXTRA",
    "FIT_FEATURES",
    "PHASES",
    "PHASE_INDEX",
    "TuneData",
    "build_data",
    "feature_rows",
    "placing_positions",
    "play_out",
    "sample_covered",
    "tablebase_turn",
]


FIT_FEATURES: Final[tuple[str, ...]] = tuple(f for f in FEATURES if f != "initiative")
"""The features whose weights are tuned (``initiative`` belongs to the other profile and stays 0)."""

EXTRA: Final[tuple[str, ...]] = (
    "fork_strict",
    "fork_uniform",
    "mobility_ring",
    "future_mobility_ring",
    "cramped_single",
)
"""Candidate feature variants for the seed's open questions (own - opponent, raw); the last two ask the
same questions of the placing-phase features: future mobility weighted by the destination's ring, and
``cramped`` counting only single men without a free neighbour instead of groups with at most one."""

PHASE_INDEX: Final[dict[str, int]] = {"placing": 0, "moving": 1, "flying": 2}
PHASES: Final[tuple[str, ...]] = ("placing", "moving", "flying")
_RING_W: Final[tuple[float, ...]] = tuple(RING_WEIGHT[r] for r in RING)
_FULL: Final[int] = (1 << 24) - 1


# ------------------------------------------------------------------------------------------ sampling


def sample_covered(
    tb: Tablebase, key: tuple[int, int], n: int, *, seed: int, decided_share: float = 0.5
) -> list[Position]:
    """``n`` random positions of sub-database ``key`` (side to move has ``key[0]`` men), a ``decided_share``
    of them decided (won or lost, not at distance 0), the rest drawn; side to move random. Seeded.

    A sub-database with too few positions of one kind fills up with the other kind.
    """
    if n < 0 or not 0.0 <= decided_share <= 1.0:
        raise ParamsError(f"need n >= 0 and 0 <= decided_share <= 1, got n={n!r}, {decided_share!r}")
    a, b = key
    rng = make_rng(seed)
    want_decided = round(n * decided_share)
    decided: list[tuple[int, int, int]] = []
    drawn: list[tuple[int, int, int]] = []
    batch = max(256, 8 * n)
    for _ in range(60):
        perm = rng.random((batch, 24)).argsort(axis=1)
        bits = np.left_shift(np.int64(1), perm.astype(np.int64))
        own = bits[:, :a].sum(axis=1)
        opp = bits[:, a : a + b].sum(axis=1)
        dist = tb.lookup_many(own, opp)
        sides = rng.integers(0, 2, batch)
        for o, p, d, s in zip(own.tolist(), opp.tolist(), dist.tolist(), sides.tolist(), strict=True):
            if d > 0 and len(decided) < n:
                decided.append((o, p, s))
            elif d < 0 and len(drawn) < n:
                drawn.append((o, p, s))
        if len(decided) >= want_decided and len(drawn) >= n - want_decided:
            break
    k = min(len(decided), max(want_decided, n - len(drawn)))
    chosen = decided[:k] + drawn[: n - k]
    out = []
    for o, p, s in chosen:
        men = [o, p] if s == 0 else [p, o]
        out.append(Position(men, (0, 0), s, validate=False))
    order = rng.permutation(len(out))
    return [out[int(i)] for i in order]


def tablebase_turn(tb: Tablebase, pos: Position, rng: np.random.Generator) -> Turn:
    """The tablebase's best turn (shortest win, longest loss, any draw), ties broken by ``rng``."""
    result = tb.probe(pos)
    best = result.turns[0]
    tied = [t.turn for t in result.turns if (t.value, t.distance) == (best.value, best.distance)]
    return tied[int(rng.integers(len(tied)))]


def play_out(
    pos: Position, ai: MorrisPlayer, tb: Tablebase, *, seed: int, ai_first: bool = True
) -> tuple[int | None, int]:
    """Play ``pos`` to its end: ``ai`` against the tablebase's own best play (seeded ties).

    ``ai_first``: the AI is the side to move in ``pos``. Returns the winning side (None for a draw) and
    the number of turns played. ``pos`` is left unchanged.
    """
    game = pos.copy()
    rng = make_rng(seed)
    ai_side = game.side if ai_first else 1 - game.side
    ai.new_game()
    turns = 0
    while (outcome := game.outcome()) is None:
        turn = ai.choose(game, rng) if game.side == ai_side else tablebase_turn(tb, game, rng)
        game.push(turn)
        turns += 1
    return outcome.winner, turns


def _self_play_job(args: tuple[int, str]) -> list[tuple[str, int, float]]:
    """One self-play game (see :func:`placing_positions`): (position text, turns, result for its mover)."""
    seed, tb_dir = args
    from boardeval.morris.match import _open_tablebase

    tb = _open_tablebase(tb_dir)
    rng = make_rng(seed)
    ai = AlphaBetaPlayer(depth=1, tablebase=tb, shuffle_ties=True)
    game = Position.start()
    placing: list[tuple[Position, int]] = []
    winner: int | None = None
    while True:
        outcome = game.outcome()
        if outcome is not None:
            winner = outcome.winner
            break
        if not (game.hand[0] or game.hand[1]):
            s = game.side
            if (game.men[s].bit_count(), game.men[s ^ 1].bit_count()) in set(tb.subdatabases):
                value, _ = tb.lookup(game)
                winner = None if value == "draw" else (s if value == "win" else 1 - s)
                break
        if game.hand[game.side]:
            placing.append((game.copy(), game.side))
        if game.turns < 4:
            turns = game.legal_turns()
            turn = turns[int(rng.integers(len(turns)))]
        else:
            turn = ai.choose(game, rng)
        game.push(turn)
    out = []
    for p, side in placing[4:]:  # the random opening placements are not searched play
        result = 0.5 if winner is None else (1.0 if winner == side else 0.0)
        out.append((p.text(), p.turns, result))
    return out


def placing_positions(
    tb_dir: str | Path, games: int, *, seed: int, workers: int = 1, progress: Progress | None = None
) -> tuple[list[list[tuple[Position, float]]], bool]:
    """Placing-phase positions of ``games`` searched self-play games, labelled by each game's result for
    the position's side to move (resolved by the tablebase once covered); one list per game, and whether
    Ctrl-C stopped the games (then the lists are those of the finished games)."""
    from boardeval.core import JobsInterrupted, map_jobs, spawn_seeds

    jobs = [(s, str(tb_dir)) for s in spawn_seeds(seed, games)]
    interrupted = False
    try:
        results = map_jobs(_self_play_job, jobs, workers=workers, progress=progress, label="self-play")
    except JobsInterrupted as exc:
        results = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    return [[(Position.parse(text), y) for text, _turns, y in rows] for rows in results], interrupted


# ------------------------------------------------------------------------------------------ features


def _ring_mobility(own: int, empty: int) -> float:
    """Sliding moves of the men in ``own`` to ``empty`` points, each weighted by its target's ring weight."""
    total = 0.0
    x = own
    while x:
        b = x & -x
        x ^= b
        y = ADJ_MASK[b.bit_length() - 1] & empty
        while y:
            c = y & -y
            y ^= c
            total += _RING_W[c.bit_length() - 1]
    return total


def _extra(pos: Position, side: int, phase: str) -> tuple[float, float, float, float, float]:
    """The candidate variants of one side: strict fork (moving), uniform-ring fork, ring-weighted mobility
    (moving), ring-weighted future mobility and single cramped men (placing stage)."""
    own, opp = pos.men[side], pos.men[1 - side]
    empty = _FULL & ~(own | opp)
    threat_bits, _ = threat_points(own, empty, phase)
    n_threats = threat_bits.bit_count()
    fork_uniform = float(n_threats) if n_threats >= 2 else 0.0
    fork_strict = 0.0
    if n_threats >= 2:
        x = threat_bits
        while x:
            b = x & -x
            x ^= b
            p = b.bit_length() - 1
            if phase != "moving" or not ADJ_MASK[p] & opp:
                fork_strict += _RING_W[p]
    mob_ring = _ring_mobility(own, empty) if phase == "moving" else 0.0
    fut_ring = 0.0
    single = 0.0
    if pos.hand[0] or pos.hand[1]:
        fut_ring = _ring_mobility(own, empty)
        x = opp
        while x:
            b = x & -x
            x ^= b
            if not ADJ_MASK[b.bit_length() - 1] & empty:
                single += 1.0
    return fork_strict, fork_uniform, mob_ring, fut_ring, single


def _side_phase(pos: Position, side: int) -> str:
    if pos.hand[side]:
        return "placing"
    return "flying" if pos.men[side].bit_count() == 3 and pos.variant.flying else "moving"


def feature_rows(positions: Sequence[Position]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int8]]:
    """Raw own - opponent differences (side to move's view) of :data:`FIT_FEATURES` + :data:`EXTRA`, and
    each position's phase index (placing 0, moving 1, flying 2)."""
    x = np.zeros((len(positions), len(FIT_FEATURES) + len(EXTRA)))
    ph = np.zeros(len(positions), dtype=np.int8)
    for i, pos in enumerate(positions):
        both = features(pos)
        me = pos.side
        own, opp = both[me].to_dict(), both[1 - me].to_dict()
        x[i, : len(FIT_FEATURES)] = [own[f] - opp[f] for f in FIT_FEATURES]
        ex_own = _extra(pos, me, _side_phase(pos, me))
        ex_opp = _extra(pos, 1 - me, _side_phase(pos, 1 - me))
        x[i, len(FIT_FEATURES) :] = [a - b for a, b in zip(ex_own, ex_opp, strict=True)]
        ph[i] = PHASE_INDEX[position_phase(pos)]
    return x, ph


@dataclass
class TuneData:
    """Features (:func:`feature_rows`), phases, labels (1 win, 0.5 draw, 0 loss) and the train mask."""

    x: npt.NDArray[np.float64]
    phase: npt.NDArray[np.int8]
    y: npt.NDArray[np.float64]
    train: npt.NDArray[np.bool_]
    source: npt.NDArray[np.int8]  # 0 tablebase, 1 self-play
    interrupted: bool = False  # Ctrl-C stopped the gathering

    def __len__(self) -> int:
        return len(self.y)


def build_data(
    tb: Tablebase,
    tb_dir: str | Path,
    *,
    per_subdatabase: int,
    games: int,
    seed: int,
    decided_share: float = 0.5,
    validation: float = 0.25,
    workers: int = 1,
    progress: Progress | None = None,
) -> TuneData:
    """Sample the tablebase (every built sub-database, ``per_subdatabase`` positions each) and play
    ``games`` self-play games; split train/validation (by position; by game for placing)."""
    rng = make_rng(seed)
    keys = list(tb.subdatabases)
    positions: list[Position] = []
    labels: list[float] = []
    train: list[bool] = []
    source: list[int] = []
    interrupted = False
    try:
        for i, key in enumerate(keys):
            sampled = sample_covered(
                tb, key, per_subdatabase, seed=seed + 1000 + i, decided_share=decided_share
            )
            values = [{"win": 1.0, "draw": 0.5, "loss": 0.0}[tb.lookup(pos)[0]] for pos in sampled]
            split = [bool(rng.random() >= validation) for _ in sampled]
            # a sub-database is kept whole or not at all (four equal-length lists)
            positions.extend(sampled)
            labels.extend(values)
            train.extend(split)
            source.extend([0] * len(sampled))
            report(progress, i + 1, len(keys) + 1, f"sampled {len(positions)} tablebase positions")
    except KeyboardInterrupt:
        interrupted = True  # Ctrl-C while sampling: the sub-databases sampled so far, no games
    if games and not interrupted:
        played, interrupted = placing_positions(tb_dir, games, seed=seed, workers=workers, progress=progress)
        for rows in played:
            in_train = bool(rng.random() >= validation)
            for pos, y in rows:
                positions.append(pos)
                labels.append(y)
                train.append(in_train)
                source.append(1)
    x, ph = feature_rows(positions)
    report(progress, len(keys) + 1, len(keys) + 1, f"{len(positions)} positions")
    return TuneData(
        x, ph, np.array(labels), np.array(train, dtype=bool), np.array(source, dtype=np.int8), interrupted
    )
