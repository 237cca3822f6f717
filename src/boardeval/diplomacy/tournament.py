"""Bot games and tournaments on the ``diplomacy`` engine: seeded, rotated across powers, run by ``map_jobs``.

One game::

    game = play_bot_game(["dumb", "random", "random", "random", "random", "random", "random"], seed=7)

Many games (serially, on a process pool or a Dask cluster: the same call, the same games)::

    result = run_tournament("dumb,random*6", games=70, seed=1, workers=2, max_year=1910)
    result.to_json()   # {"games": 70, "bots": [{"name": "dumb", "seats": 70, ...}, ...]}

Game ``i`` of a tournament gets its own seed (``spawn_seeds(seed, games)[i]``) and the bot list rotated by
``i`` places (power ``p`` is played by ``bots[(p - i) mod P]``), so over ``P`` consecutive games every bot
kind sits at every power equally often.  Within a game one Generator drives every bot, asked in the map's
power order; so a game depends only on its seed and seats, not on which worker plays it.

Saved games are the engine's own format, replayable by ``diplomacy.utils.export.from_saved_game_format``;
the one change is that phase timestamps are numbered 1, 2, 3... instead of wall-clock microseconds, so
that the same seed writes the same bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardeval.core import (
    DiplomacyError,
    Interval,
    JobsInterrupted,
    ParamsError,
    Progress,
    make_rng,
    map_jobs,
    mean_interval,
    spawn_seeds,
)
from boardeval.diplomacy.bots import BotView, check_bot_map, make_bot, parse_bots

__all__ = [
    "BotSummary",
    "GameResult",
    "TournamentError",
    "TournamentResult",
    "bot_game",
    "phase_year",
    "play_bot_game",
    "run_tournament",
    "saved_bot_game",
]


class TournamentError(DiplomacyError):
    """Bad tournament input: games <= 0, workers < 1, a bad year, an unreachable Dask address..."""


def phase_year(phase: str) -> int:
    """The year of an engine phase name (``'F1905M'`` -> 1905)."""
    return int(phase[1:-1])


def _first_year(map_name: str) -> int:
    return phase_year(check_bot_map(map_name).first_phase)


def _check_year(map_name: str, max_year: int | None) -> int:
    first = _first_year(map_name)
    if max_year is None:
        return first + 9
    if isinstance(max_year, bool) or not isinstance(max_year, int) or max_year < first:
        raise TournamentError(f"max year must be an integer >= {first} (map {map_name!r}), got {max_year!r}")
    return max_year


def play_bot_game(
    bots: str | Sequence[str],
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    game_id: str | None = None,
) -> Any:
    """Play one seeded bot game with the engine and return the live ``diplomacy.Game``.

    ``bots``: one name per power in the map's power order (``'dumb,random*6'`` or a list; one name fills
    every seat).  Plays through the winter of ``max_year`` (default: the first ten years) or until a
    power wins; the record then ends on the next, unplayed phase, as the engine exports it.
    """
    from diplomacy import Game

    graph = check_bot_map(map_name)
    seats = parse_bots(bots, len(graph.powers))
    last = _check_year(map_name, max_year)
    rng = make_rng(seed)
    players = [make_bot(name) for name in seats]
    for player in players:
        player.new_game()
    game = Game(map_name=graph.name, game_id=game_id or f"bots-{graph.name}-{seed}")
    while not game.is_game_done and phase_year(game.get_current_phase()) <= last:
        possible = game.get_all_possible_orders()
        for power, player in zip(graph.powers, players, strict=True):
            if game.get_orderable_locations(power):
                game.set_orders(power, player.choose(BotView(game, power, possible), rng))
        game.process()
    return game


def saved_bot_game(game: Any) -> dict[str, Any]:
    """The engine's saved-game dict of ``game`` with phase timestamps numbered 1, 2, 3... (reproducible)."""
    from diplomacy.utils.export import to_saved_game_format

    saved: dict[str, Any] = to_saved_game_format(game)
    for i, phase in enumerate(saved.get("phases", []), start=1):
        if isinstance(phase.get("state"), dict) and "timestamp" in phase["state"]:
            phase["state"]["timestamp"] = i
    return saved


@dataclass(frozen=True)
class GameResult:
    """One finished game: its seats, final centres and survivals per power, and the solo if any."""

    index: int
    seed: int
    powers: tuple[str, ...]
    seats: tuple[str, ...]
    """Bot name per power (same order as ``powers``)."""
    final_scs: tuple[int, ...]
    survived: tuple[bool, ...]
    """A power survives while it has a unit or a centre."""
    solo: str | None
    """The power holding the centres needed to win at the end, if any."""
    last_phase: str
    saved: dict[str, Any] = field(repr=False, compare=False)

    @property
    def solo_year(self) -> int | None:
        """The year of the winning autumn (the record ends on the following phase)."""
        if self.solo is None:
            return None
        phases = [p.get("name", "") for p in self.saved.get("phases", [])]
        # the last played phase is the one before the final (unplayed) phase name
        played = [p for p in phases[:-1] if p and p[0] in "SF"]
        return phase_year(played[-1]) if played else phase_year(self.last_phase)

    def row(self) -> dict[str, Any]:
        """A JSON row for ``results.json``."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": dict(zip(self.powers, self.seats, strict=True)),
            "final_scs": dict(zip(self.powers, self.final_scs, strict=True)),
            "survived": dict(zip(self.powers, self.survived, strict=True)),
            "solo": self.solo,
            "solo_year": self.solo_year,
            "last_phase": self.last_phase,
        }


@dataclass(frozen=True)
class _GameJob:
    index: int
    seed: int
    seats: tuple[str, ...]
    map_name: str
    max_year: int
    game_id: str


def bot_game(
    bots: str | Sequence[str],
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    game_id: str | None = None,
    index: int = 0,
) -> GameResult:
    """Play one seeded bot game (see :func:`play_bot_game`) and score it: centres, survivals, solo."""
    graph = check_bot_map(map_name)
    seats = parse_bots(bots, len(graph.powers))
    game = play_bot_game(seats, seed, map_name=map_name, max_year=max_year, game_id=game_id)
    centres = game.get_centers()
    units = game.get_units()
    final = tuple(len(centres.get(p, [])) for p in graph.powers)
    survived = tuple(bool(centres.get(p)) or bool(units.get(p)) for p in graph.powers)
    solo = next((p for p, n in zip(graph.powers, final, strict=True) if n >= graph.win), None)
    return GameResult(
        index=index,
        seed=seed,
        powers=graph.powers,
        seats=seats,
        final_scs=final,
        survived=survived,
        solo=solo,
        last_phase=str(game.get_current_phase()),
        saved=saved_bot_game(game),
    )


def _play_job(job: _GameJob) -> GameResult:
    """Play one tournament game (a module-level function: picklable for the pool and Dask)."""
    return bot_game(
        list(job.seats),
        job.seed,
        map_name=job.map_name,
        max_year=job.max_year,
        game_id=job.game_id,
        index=job.index,
    )


@dataclass(frozen=True)
class BotSummary:
    """One bot kind over a tournament: seats played, mean final centres (95 % interval), solos, survivals."""

    name: str
    seats: int
    mean_final_scs: Interval
    solos: int
    survivals: int

    def to_json(self) -> dict[str, Any]:
        """``{"name", "seats", "mean_final_scs", "ci95", "solos", "survivals"}``."""
        return {
            "name": self.name,
            "seats": self.seats,
            "mean_final_scs": self.mean_final_scs.value,
            "ci95": self.mean_final_scs.to_list(),
            "solos": self.solos,
            "survivals": self.survivals,
        }


@dataclass(frozen=True)
class TournamentResult:
    """The finished games (in game order) of a tournament, and whether it was interrupted."""

    bots: tuple[str, ...]
    seed: int
    map_name: str
    max_year: int
    requested: int
    games: tuple[GameResult, ...]
    interrupted: bool = False

    def summary(self) -> list[BotSummary]:
        """Per bot kind (in order of first appearance in ``bots``) over every seat it played."""
        out = []
        for name in dict.fromkeys(self.bots):
            scs = [n for g in self.games for s, n in zip(g.seats, g.final_scs, strict=True) if s == name]
            alive = [a for g in self.games for s, a in zip(g.seats, g.survived, strict=True) if s == name]
            solos = sum(
                1 for g in self.games if g.solo is not None and g.seats[g.powers.index(g.solo)] == name
            )
            interval = mean_interval([float(v) for v in scs]) if scs else Interval(0.0, 0.0, 0.0)
            out.append(BotSummary(name, len(scs), interval, solos, sum(alive)))
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"games": n, "bots": [BotSummary.to_json(), ...]}`` over the finished games."""
        return {"games": len(self.games), "bots": [b.to_json() for b in self.summary()]}

    def save(self, out_dir: str | os.PathLike[str]) -> Path:
        """Write ``games.jsonl`` (the saved games, replayable by the engine) and ``results.json``."""
        folder = Path(out_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / "games.jsonl", "w", encoding="utf-8") as fh:
                for g in self.games:
                    fh.write(json.dumps(g.saved) + "\n")
            results = {
                "bots": list(self.bots),
                "seed": self.seed,
                "map": self.map_name,
                "max_year": self.max_year,
                "requested": self.requested,
                "interrupted": self.interrupted,
                "summary": self.to_json(),
                "games": [g.row() for g in self.games],
            }
            (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise TournamentError(f"cannot write the tournament to {str(folder)!r}: {exc}") from None
        return folder


def _check_address(address: str) -> None:
    """A malformed scheduler address fails here with a clear error (Dask would raise a bare ValueError)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r}")
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError("need a host and a port in 1..65535")
    except (ValueError, TypeError) as exc:
        raise TournamentError(
            f"bad Dask scheduler address {address!r} ({exc}): expected e.g. 'tcp://host:8786'"
        ) from None


def run_tournament(
    bots: str | Sequence[str],
    games: int,
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play ``games`` seeded bot games with the seats rotated, through ``map_jobs``.

    Ctrl-C returns the finished games with ``interrupted=True``.  Bad input (unknown bots, ``games`` <= 0,
    ``workers`` < 1, a map the bots do not play, a malformed or unreachable Dask address) raises a
    :class:`~boardeval.core.DiplomacyError` subclass quoting it.
    """
    graph = check_bot_map(map_name)
    kinds = parse_bots(bots, len(graph.powers))
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise TournamentError(f"games must be a positive integer, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(f"workers must be an integer >= 1, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TournamentError(f"seed must be a non-negative integer, got {seed!r}")
    if address is not None:
        _check_address(address)
    last = _check_year(map_name, max_year)
    n = len(kinds)
    jobs = [
        _GameJob(
            index=i,
            seed=s,
            seats=tuple(kinds[(p - i) % n] for p in range(n)),
            map_name=graph.name,
            max_year=last,
            game_id=f"tournament-{seed}-{i:05d}",
        )
        for i, s in enumerate(spawn_seeds(seed, games))
    ]
    interrupted = False
    try:
        results = map_jobs(
            _play_job, jobs, workers=workers, address=address, progress=progress, label="games"
        )
    except JobsInterrupted as exc:
        results = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    except ParamsError as exc:  # the runner's own input errors (an unreachable scheduler)
        raise TournamentError(str(exc)) from None
    return TournamentResult(
        bots=kinds,
        seed=seed,
        map_name=graph.name,
        max_year=last,
        requested=games,
        games=tuple(results),
        interrupted=interrupted,
    )
