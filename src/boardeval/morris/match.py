"""Matches between Morris players (AI at a depth or time budget, or random play), seeded and parallel.

Player specs are short strings: ``random``, ``ai`` (default depth), ``ai:depth=4``, ``ai:time=0.2``,
``ai:depth=3,profile=initiative`` (``profile`` is a shipped weight profile or a weight file path).

Every game gets its own seed derived from the match seed (:func:`boardeval.core.spawn_seeds`); the random
player and the AI's tie-breaking among equal root moves draw from it, so a match with fixed-depth players
is reproducible. (Time-limited players depend on machine speed and are not.) Games run through
:func:`boardeval.core.map_jobs`: serially, on a process pool (``workers``) or on a Dask cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardeval.core import ParamsError, Progress, make_rng, map_jobs, spawn_seeds
from boardeval.morris.evaluate import PROFILES, load_weights
from boardeval.morris.rules import STANDARD, WHITE, Position, Turn, Variant
from boardeval.morris.search import DEFAULT_DEPTH, MAX_DEPTH, Searcher, random_turn

__all__ = ["GameRecord", "MatchResult", "Player", "PlayerSpec", "play_game", "play_match"]


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player: ``kind`` "random" or "ai"; for the AI a depth and/or time budget and a weight profile."""

    kind: str
    depth: int | None = None
    time: float | None = None
    profile: str = "base"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Parse ``random`` | ``ai`` | ``ai:depth=N`` | ``ai:time=S`` | ``ai:...,profile=NAME``."""
        raw = text.strip()
        kind, _, opts = raw.partition(":")
        kind = kind.strip().lower()
        if kind == "random":
            if opts.strip():
                raise ParamsError(f"player {text!r}: 'random' takes no options")
            return cls("random")
        if kind != "ai":
            raise ParamsError(f"player {text!r}: expected 'random' or 'ai[:depth=N|time=S][,profile=P]'")
        depth: int | None = None
        secs: float | None = None
        profile = "base"
        for item in filter(None, (o.strip() for o in opts.split(","))):
            name, eq, value = item.partition("=")
            name, value = name.strip().lower(), value.strip()
            if not eq or not value:
                raise ParamsError(f"player {text!r}: option {item!r} must look like name=value")
            if name == "depth":
                try:
                    depth = int(value)
                except ValueError:
                    raise ParamsError(f"player {text!r}: depth must be an integer, got {value!r}") from None
                if not 1 <= depth <= MAX_DEPTH:
                    raise ParamsError(f"player {text!r}: depth must be in 1..{MAX_DEPTH}, got {depth}")
            elif name == "time":
                try:
                    secs = float(value)
                except ValueError:
                    raise ParamsError(f"player {text!r}: time must be seconds, got {value!r}") from None
                if not 0 < secs < 1e6:
                    raise ParamsError(f"player {text!r}: time must be a positive number of seconds")
            elif name == "profile":
                profile = value
            else:
                raise ParamsError(f"player {text!r}: unknown option {name!r} (depth, time, profile)")
        if depth is None and secs is None:
            depth = DEFAULT_DEPTH
        spec = cls("ai", depth, secs, profile)
        if profile not in PROFILES:
            load_weights(profile)  # fail early on a bad weight file
        return spec

    def __str__(self) -> str:
        if self.kind == "random":
            return "random"
        opts = []
        if self.depth is not None:
            opts.append(f"depth={self.depth}")
        if self.time is not None:
            opts.append(f"time={self.time:g}")
        if self.profile != "base":
            opts.append(f"profile={self.profile}")
        return "ai:" + ",".join(opts)

    def make(self, seed: int) -> Player:
        """A fresh player for one game, seeded."""
        return Player(self, seed)


class Player:
    """A stateful player for one game (keeps the AI's transposition table between its moves)."""

    def __init__(self, spec: PlayerSpec, seed: int) -> None:
        self.spec = spec
        self.rng = make_rng(seed)
        self.searcher = Searcher(load_weights(spec.profile)) if spec.kind == "ai" else None

    def choose(self, pos: Position) -> Turn:
        """The turn this player plays in ``pos`` (which must not be finished)."""
        if self.searcher is None:
            return random_turn(pos, self.rng)
        result = self.searcher.search(pos, self.spec.depth, self.spec.time, rng=self.rng)
        assert result.move is not None
        return result.move


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: players, outcome ("white" | "black" | "draw"), reason and the turns played."""

    white: str
    black: str
    outcome: str
    reason: str
    moves: tuple[str, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "white": self.white,
            "black": self.black,
            "outcome": self.outcome,
            "reason": self.reason,
            "turns": len(self.moves),
            "moves": " ".join(self.moves),
            "seed": self.seed,
        }


def play_game(
    white: PlayerSpec | str, black: PlayerSpec | str, seed: int, variant: Variant = STANDARD
) -> GameRecord:
    """Play one game to its end under ``variant`` (whose draw rules guarantee it ends)."""
    w = white if isinstance(white, PlayerSpec) else PlayerSpec.parse(white)
    b = black if isinstance(black, PlayerSpec) else PlayerSpec.parse(black)
    seeds = spawn_seeds(seed, 2)
    players = (w.make(seeds[0]), b.make(seeds[1]))
    pos = Position.start(variant)
    moves: list[str] = []
    while not pos.is_over():
        turn = players[0 if pos.side == WHITE else 1].choose(pos)
        pos.push(turn)
        moves.append(str(turn))
    status = pos.status()
    return GameRecord(str(w), str(b), status.outcome, status.reason, tuple(moves), seed)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Result of a match from player A's view (A = the ``--white`` player of the first game)."""

    player_a: str
    player_b: str
    wins: int
    draws: int
    losses: int
    games: tuple[GameRecord, ...]
    interrupted: bool = False

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def score(self) -> float:
        """A's points per game (win 1, draw 1/2)."""
        return (self.wins + 0.5 * self.draws) / self.played if self.games else 0.0

    def to_dict(self, *, with_games: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "player_a": self.player_a,
            "player_b": self.player_b,
            "games": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "interrupted": self.interrupted,
        }
        if with_games:
            d["records"] = [g.to_dict() for g in self.games]
        return d


def _job(args: tuple[str, str, int, Variant]) -> GameRecord:
    white, black, seed, variant = args
    return play_game(white, black, seed, variant)


def play_match(
    a: PlayerSpec | str,
    b: PlayerSpec | str,
    games: int,
    seed: int,
    *,
    alternate: bool = False,
    variant: Variant = STANDARD,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> MatchResult:
    """Play ``games`` games of A (White) against B; with ``alternate`` A takes Black in every second game.

    Ctrl-C returns the finished games with ``interrupted=True``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ParamsError(f"number of games must be an integer >= 1, got {games!r}")
    pa = a if isinstance(a, PlayerSpec) else PlayerSpec.parse(a)
    pb = b if isinstance(b, PlayerSpec) else PlayerSpec.parse(b)
    seeds = spawn_seeds(seed, games)
    a_white = [not (alternate and i % 2) for i in range(games)]
    jobs = [
        (str(pa), str(pb), s, variant) if aw else (str(pb), str(pa), s, variant)
        for s, aw in zip(seeds, a_white, strict=True)
    ]
    interrupted = False
    try:
        records = map_jobs(_job, jobs, workers=workers, address=address, progress=progress, label="games")
    except KeyboardInterrupt as exc:
        done: dict[int, GameRecord] = getattr(exc, "done", {})
        records = [done[i] for i in sorted(done)]
        a_white = [a_white[i] for i in sorted(done)]
        interrupted = True
    wins = draws = losses = 0
    for aw, rec in zip(a_white, records, strict=True):
        if rec.outcome == "draw":
            draws += 1
        elif (rec.outcome == "white") == aw:
            wins += 1
        else:
            losses += 1
    return MatchResult(str(pa), str(pb), wins, draws, losses, tuple(records), interrupted)
