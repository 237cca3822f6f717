"""Matches between Morris players (AI at a depth or time budget, or random play), seeded and parallel.

Player specs are short strings: ``random``, ``ai`` (default depth), ``ai:depth=4``, ``ai:time=0.2``,
``ai:depth=3,profile=initiative`` (``profile`` is a shipped weight profile or a weight file path),
``ai:depth=3,tablebase=/path`` (perfect play where that endgame tablebase covers the position),
``ai:depth=5,engine=python`` (the Python reference search, today's AI before issue 12; default: compiled).

Every game gets its own seed derived from the match seed (:func:`boardeval.core.spawn_seeds`); the random
player and the AI's tie-breaking among equal root moves draw from it, so a match with fixed-depth players
is reproducible. (Time-limited players depend on machine speed and are not.) Games run through
:func:`boardeval.core.map_jobs`: serially, on a process pool (``workers``) or on a Dask cluster.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardeval.core import ParamsError, Progress, map_jobs, near_name, parse_float, parse_int, quote
from boardeval.morris._evaluate import PROFILES, Evaluator, load_weights
from boardeval.morris._search.searcher import DEFAULT_DEPTH, ENGINES, MAX_DEPTH
from boardeval.morris.players import AlphaBetaPlayer, MorrisPlayer, RandomPlayer, _budget_name
from boardeval.morris.rules import STANDARD, WHITE, Position, Variant

if TYPE_CHECKING:
    from boardeval.morris.tablebase import Tablebase

__all__ = ["GameRecord", "MatchResult", "PlayerSpec", "play_game", "play_match"]


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player as text: ``kind`` "random" or "ai"; for the AI a depth and/or time budget, weights and an
    optional endgame tablebase folder.

    :meth:`make` builds the :class:`~boardeval.morris.players.RandomPlayer` or
    :class:`~boardeval.morris.players.AlphaBetaPlayer` it describes.
    """

    kind: str
    depth: int | None = None
    time: float | None = None
    profile: str = "base"
    tablebase: str | None = None
    engine: str = "compiled"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Parse ``random`` | ``ai`` | ``ai:depth=N`` | ``ai:time=S`` | ``ai:...,profile=P,tablebase=DIR``.

        Exactly so (issue 24): lower-case names, no spaces, each option once; ``AI:depth=1``, ``ai: depth=1``
        and ``ai:Depth=1`` are refused, naming the spelling meant. Numbers go through the shared readers:
        ``depth`` an integer 1..64, ``time`` a decimal number of seconds in (0, 1000000].
        """
        if not isinstance(text, str):
            raise ParamsError(f"player {quote(text)}: expected text such as 'random' or 'ai:depth=4'")
        kind, colon, opts = text.partition(":")
        if kind not in ("random", "ai"):
            near = near_name(kind, ("random", "ai"))
            hint = f"; did you mean {near!r}? (names are lower case, without spaces)" if near else ""
            raise ParamsError(
                f"player {text!r}: expected 'random' or 'ai[:depth=N|time=S][,profile=P]'{hint}"
            )
        if kind == "random":
            if colon:
                raise ParamsError(f"player {text!r}: 'random' takes no options")
            return cls("random")
        if colon and not opts:
            raise ParamsError(f"player {text!r}: no option after ':' (e.g. 'ai:depth=4')")
        depth: int | None = None
        secs: float | None = None
        profile = "base"
        tablebase: str | None = None
        engine = "compiled"
        seen: set[str] = set()
        for item in opts.split(",") if opts else []:
            name, eq, value = item.partition("=")
            if not eq or not value:
                raise ParamsError(f"player {text!r}: option {item!r} must look like name=value")
            if name not in _SPEC_OPTIONS:
                near = near_name(name, _SPEC_OPTIONS)
                hint = f"; did you mean {near!r}?" if near else ""
                raise ParamsError(
                    f"player {text!r}: unknown option {name!r}{hint} ({', '.join(_SPEC_OPTIONS)})"
                )
            if name in seen:
                raise ParamsError(f"player {text!r}: option {name!r} is given twice")
            seen.add(name)
            if name == "depth":
                depth = parse_int(value, f"player {text!r}: depth", lo=1, hi=MAX_DEPTH)
            elif name == "time":
                secs = parse_float(value, f"player {text!r}: time", lo=0.0, hi=1e6, lo_open=True)
            elif name == "profile":
                profile = value
            elif name == "tablebase":
                tablebase = value
            elif value in ENGINES:
                engine = value
            else:
                raise ParamsError(
                    f"player {text!r}: engine must be one of {', '.join(ENGINES)}, got {value!r}"
                )
        if depth is None and secs is None:
            depth = DEFAULT_DEPTH
        spec = cls("ai", depth, secs, profile, tablebase, engine)
        if profile not in PROFILES:
            load_weights(profile)  # fail early on a bad weight file
        if tablebase is not None:
            _open_tablebase(tablebase)  # fail early on a folder without a tablebase
        return spec

    def __str__(self) -> str:
        if self.kind == "random":
            return "random"
        text = _budget_name(self.depth, self.time)
        if self.profile != "base":
            text += f",profile={self.profile}"
        if self.engine != "compiled":
            text += f",engine={self.engine}"
        return text if self.tablebase is None else f"{text},tablebase={self.tablebase}"

    def make(self) -> MorrisPlayer:
        """A fresh player for one game (its randomness comes from the generator given to ``choose``)."""
        if self.kind == "random":
            return RandomPlayer()
        tb = None if self.tablebase is None else _open_tablebase(self.tablebase)
        return AlphaBetaPlayer(
            Evaluator(load_weights(self.profile)),
            depth=self.depth,
            time=self.time,
            name=str(self),
            tablebase=tb,
            engine=self.engine,
        )


@functools.cache
def _open_tablebase(directory: str) -> Tablebase:
    """One open tablebase per folder and process (its tables load once, on first use, and stay)."""
    from boardeval.morris.tablebase import Tablebase  # numpy on first use, not at import

    return Tablebase.open(directory)


_SPEC_OPTIONS = ("depth", "time", "profile", "tablebase", "engine")
"""The options of an ``ai`` player spec, as written."""


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


def _player(player: MorrisPlayer | PlayerSpec | str) -> MorrisPlayer:
    if isinstance(player, str):
        return PlayerSpec.parse(player).make()
    return player.make() if isinstance(player, PlayerSpec) else player


def play_game(
    white: MorrisPlayer | PlayerSpec | str,
    black: MorrisPlayer | PlayerSpec | str,
    seed: int,
    variant: Variant = STANDARD,
) -> GameRecord:
    """Play one game to its end under ``variant`` (whose draw rules guarantee it ends).

    Each colour draws from its own generator, both derived from ``seed``.
    """
    players = (_player(white), _player(black))
    for p in players:
        p.new_game()
    from boardeval.core import make_rng, spawn_seeds  # numpy on first use, not at import

    rngs = [make_rng(s) for s in spawn_seeds(seed, 2)]
    pos = Position.start(variant)
    moves: list[str] = []
    while (outcome := pos.outcome()) is None:
        side = 0 if pos.side == WHITE else 1
        turn = players[side].choose(pos, rngs[side])
        pos.push(turn)
        moves.append(str(turn))
    return GameRecord(players[0].name, players[1].name, outcome.result, outcome.reason, tuple(moves), seed)


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
    from boardeval.core import spawn_seeds  # numpy on first use, not at import

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
