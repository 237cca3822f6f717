"""Play data for seat equity: boards of several kinds, each played by four ``advisor`` openers.

One job is one board (:func:`play_board`): it makes the board from its kind and seed (``random``: a
uniform shuffle; ``anneal``: the annealer with the fairness dial; ``equity``: the seat-equity generator),
plays ``games`` seeded games on it with an ``advisor`` in every seat, and returns the wins per seat. With
four equal advisors every seating plays the very same game (the openings are a function of the board, the
strategies' generators are seeded by seat), so the games are distinct seeds, not rotations.

:func:`collect` runs the jobs through :func:`boardeval.core.map_jobs` (serial, process pool or Dask: the
same records whatever runs them) in small chunks and appends every finished board to a JSON-lines file at
once, so a long run can be stopped (Ctrl-C keeps what finished, flagged) and resumed: boards already in
the file are not played again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from boardeval.catan.board import Board
from boardeval.core import CatanError, JobsInterrupted, Progress, map_jobs, report, spawn_seeds

__all__ = ["BoardJob", "BoardPlay", "CollectResult", "board_jobs", "collect", "load_plays", "play_board"]

ADVISORS = ("advisor", "advisor", "advisor", "advisor")
KINDS = ("random", "anneal", "equity")


@dataclass(frozen=True)
class BoardJob:
    """One board to make and play: its kind, fairness level (``anneal``) or weight (``equity``), seed,
    the number of games, and the seed of those games."""

    kind: str
    level: float
    seed: int
    games: int
    game_seed: int

    @property
    def key(self) -> str:
        """Identifies the board and its games in a results file."""
        return f"{self.kind}:{self.level:g}:{self.seed}:{self.games}:{self.game_seed}"


@dataclass(frozen=True)
class BoardPlay:
    """What the games on one board did: wins per seat (seat 1 places first), unfinished games, turns,
    and whether every game opened as the draft says (it must: a check of the draft against catanatron)."""

    key: str
    kind: str
    level: float
    seed: int
    board: str
    games: int
    wins: tuple[int, ...]
    unfinished: int
    mean_turns: float
    draft_matches: bool
    winners: tuple[int, ...] = ()  # per game in seed order: the winning seat (0-based), -1 if unfinished

    def first(self, games: int) -> tuple[int, ...]:
        """Wins per seat over the board's first ``games`` games (the same seeds a shorter run plays)."""
        if games > len(self.winners):
            raise CatanError(f"board {self.key} has {len(self.winners)} recorded games, not {games}")
        return tuple(sum(1 for w in self.winners[:games] if w == i) for i in range(len(self.wins)))

    @property
    def rates(self) -> tuple[float, ...]:
        return tuple(w / self.games for w in self.wins)

    @property
    def spread(self) -> float:
        """Best minus worst seat win rate on this board."""
        r = self.rates
        return max(r) - min(r)

    def truncated(self, games: int) -> BoardPlay:
        """This board's record over its first ``games`` games: the record a run of ``games`` games
        would have written (game seeds are spawned as a prefix), except for the mean game length, which
        stays the longer run's."""
        wins = self.first(games)
        key = self.key.rsplit(":", 2)[0] + f":{games}:" + self.key.rsplit(":", 1)[1]
        return BoardPlay(
            key,
            self.kind,
            self.level,
            self.seed,
            self.board,
            games,
            wins,
            games - sum(wins),
            self.mean_turns,
            self.draft_matches,
            self.winners[:games],
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardPlay:
        return cls(**{**data, "wins": tuple(data["wins"]), "winners": tuple(data.get("winners", ()))})


def make_board(kind: str, level: float, seed: int) -> Board:
    """The board of a job (module docstring)."""
    from boardeval.catan import generate

    if kind == "random":
        return generate("random", seed).board
    if kind == "anneal":
        return generate("anneal", seed, fairness=level).board
    if kind == "equity":
        from boardeval.catan.equity_generate import equity_anneal

        return equity_anneal(seed, energy_weight=level).board
    raise CatanError(f"unknown board kind {kind!r}; known: {', '.join(KINDS)}")


def play_board(job: BoardJob) -> BoardPlay:
    """Make the job's board and play its games with four advisors (same job, same record anywhere)."""
    from boardeval.catan.draft import opening_draft
    from boardeval.catan.playtest import game_specs, play_game

    board = make_board(job.kind, job.level, job.seed)
    seats = opening_draft(board).seats
    wins = [0, 0, 0, 0]
    unfinished = 0
    turns = 0
    matches = True
    winners = []
    for spec in game_specs(board, ADVISORS, job.games, job.game_seed):
        record = play_game(spec)
        turns += record.turns
        winners.append(-1 if record.winner_seat is None else record.winner_seat)
        if record.winner_seat is None:
            unfinished += 1
        else:
            wins[record.winner_seat] += 1
        matches &= record.openings == seats
    return BoardPlay(
        job.key,
        job.kind,
        job.level,
        job.seed,
        board.code(),
        job.games,
        tuple(wins),
        unfinished,
        turns / job.games,
        matches,
        tuple(winners),
    )


def board_jobs(kinds: Sequence[tuple[str, float]], boards: int, games: int, seed: int) -> list[BoardJob]:
    """``boards`` jobs per (kind, level), interleaved (board 1 of every kind, then board 2, ...) so that a
    partial run covers every kind evenly. Board seeds and game seeds are spawned from ``seed``."""
    if not kinds:
        raise CatanError("give at least one board kind")
    for kind, _ in kinds:
        if kind not in KINDS:
            raise CatanError(f"unknown board kind {kind!r}; known: {', '.join(KINDS)}")
    seeds = spawn_seeds(seed, 2 * len(kinds) * boards)
    jobs = []
    for b in range(boards):
        for k, (kind, level) in enumerate(kinds):
            i = 2 * (k * boards + b)
            jobs.append(BoardJob(kind, float(level), seeds[i], games, seeds[i + 1]))
    return jobs


def load_plays(path: str | Path) -> list[BoardPlay]:
    """The boards in a results file (a missing file has none; a torn last line is ignored)."""
    p = Path(path)
    if not p.exists():
        return []
    out = []
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            out.append(BoardPlay.from_json(json.loads(line)))
        except (json.JSONDecodeError, TypeError, KeyError):
            continue  # a line cut by a kill mid-write: that board is played again
    return out


@dataclass(frozen=True)
class CollectResult:
    """The boards of a collection (those found in the file plus those played now), whether it was
    stopped early, and how many boards it was asked for."""

    plays: tuple[BoardPlay, ...]
    planned: int
    played_now: int
    seconds: float
    interrupted: bool = False


def collect(
    jobs: Sequence[BoardJob],
    path: str | Path,
    *,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    chunk: int = 0,
) -> CollectResult:
    """Play every job not yet in ``path`` and append each finished board to it (module docstring).

    Jobs go to :func:`map_jobs` ``chunk`` at a time (default: twice the workers, at least 4), and a chunk's
    boards are written as soon as it ends; on Ctrl-C the chunk's finished boards are written too and the
    result is flagged ``interrupted``.
    """
    start = time.perf_counter()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    have = {p.key: p for p in load_plays(out)}
    todo = [j for j in jobs if j.key not in have]
    size = chunk or max(4, 2 * workers)
    played = 0
    interrupted = False
    total = len(jobs)
    done_before = total - len(todo)
    report(progress, done_before, total, "boards")
    with out.open("a", encoding="utf-8") as fh:
        for lo in range(0, len(todo), size):
            part = todo[lo : lo + size]
            try:
                results = map_jobs(play_board, part, workers=workers, address=address, label="boards")
            except JobsInterrupted as exc:
                results = [exc.done[i] for i in sorted(exc.done)]
                interrupted = True
            for r in results:
                fh.write(json.dumps(r.to_json()) + "\n")
                have[r.key] = r
            fh.flush()
            played += len(results)
            report(progress, done_before + played, total, "boards")
            if interrupted:
                break
    plays = tuple(have[j.key] for j in jobs if j.key in have)
    return CollectResult(plays, total, played, time.perf_counter() - start, interrupted)
