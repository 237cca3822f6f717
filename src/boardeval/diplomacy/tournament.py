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
from boardeval.diplomacy.bots import BotView, DumbBot, check_bot_map, make_bot, parse_bots
from boardeval.diplomacy.evalbot import BOT_KINDS

__all__ = [
    "ALLY_LABEL",
    "Alliance",
    "BotSummary",
    "GameResult",
    "TournamentError",
    "TournamentResult",
    "bot_game",
    "check_allies",
    "parse_allies",
    "phase_year",
    "play_bot_game",
    "play_players",
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


Alliance = tuple[str, str]
"""Two allied powers, in the map's power order."""

ALLY_LABEL = "+ally"
"""Suffix of the summary label of allied seats (``'dumb+ally'``)."""


def parse_allies(text: str | Sequence[Sequence[str]]) -> tuple[Alliance, ...]:
    """Pairs from ``'ENGLAND:FRANCE,ITALY:TURKEY'`` (or a list of pairs); checked by :func:`check_allies`."""
    items = ([p.split(":") for p in text.split(",")] if text else []) if isinstance(text, str) else text
    out = []
    for item in items:
        pair = [str(x) for x in item]  # exact power names (issue 24: 'england' was upper-cased silently)
        if len(pair) != 2 or not all(pair):
            raise TournamentError(
                f"bad alliance {':'.join(map(str, item))!r}: expected e.g. 'ENGLAND:FRANCE'"
            )
        out.append((pair[0], pair[1]))
    return tuple(out)


def check_allies(
    allies: str | Sequence[Sequence[str]], seats: Sequence[str], map_name: str = "standard"
) -> tuple[Alliance, ...]:
    """Validate alliances against the map and the seats: known powers, two different powers per pair,
    each power in at most one pair, both seats heuristic (``'dumb'``) bots.  Returns sorted pairs."""
    graph = check_bot_map(map_name)
    pairs = parse_allies(allies)
    seen: set[str] = set()
    out = []
    for a, b in pairs:
        for power in (a, b):
            graph.power(power)  # unknown power -> DiplomacyError naming the map's powers
            if power in seen:
                raise TournamentError(f"{power} is in more than one alliance in {_pairs_text(pairs)!r}")
            seen.add(power)
            if seats[graph.power_index[power]] != "dumb":
                raise TournamentError(
                    f"alliance {a}:{b}: {power} is played by {seats[graph.power_index[power]]!r}; "
                    "only 'dumb' bots keep alliances"
                )
        if a == b:
            raise TournamentError(f"alliance {a}:{b} needs two different powers")
        first, second = sorted((a, b), key=lambda p: graph.power_index[p])
        out.append((first, second))
    return tuple(sorted(out, key=lambda pair: graph.power_index[pair[0]]))


def _pairs_text(pairs: Sequence[Sequence[str]]) -> str:
    return ",".join(":".join(pair) for pair in pairs)


def play_bot_game(
    bots: str | Sequence[str],
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    game_id: str | None = None,
    allies: str | Sequence[Sequence[str]] = (),
) -> Any:
    """Play one seeded bot game with the engine and return the live ``diplomacy.Game``.

    ``bots``: one name per power in the map's power order (``'dumb,random*6'`` or a list; one name fills
    every seat).  Plays through the winter of ``max_year`` (default: the first ten years) or until a
    power wins; the record then ends on the next, unplayed phase, as the engine exports it.
    ``allies``: pairs of ``'dumb'`` powers that never attack each other (``'ENGLAND:FRANCE'``).
    """
    graph = check_bot_map(map_name)
    seats = parse_bots(bots, len(graph.powers), BOT_KINDS)
    pairs = check_allies(allies, seats, map_name)
    last = _check_year(map_name, max_year)
    partners: dict[str, list[str]] = {}
    for a, b in pairs:
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    players = [
        DumbBot(allies=partners[power]) if power in partners else make_bot(name, BOT_KINDS)
        for power, name in zip(graph.powers, seats, strict=True)
    ]
    return play_players(players, seed, map_name=graph.name, max_year=last, game_id=game_id)


def play_players(
    players: Sequence[Any],
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    game_id: str | None = None,
) -> Any:
    """Play one seeded game between bot objects (one per power, in map order); the live ``Game``.

    The loop of :func:`play_bot_game`, for callers that keep the bots (e.g. to read ``EvalBot.stats``):
    one Generator ``make_rng(seed)`` drives every bot, asked in the map's power order each phase.
    """
    from boardeval.diplomacy.convoys import engine_game

    graph = check_bot_map(map_name)
    if len(players) != len(graph.powers):
        raise TournamentError(f"{len(players)} bot(s) for the {len(graph.powers)} powers of map {map_name!r}")
    last = _check_year(map_name, max_year)
    rng = make_rng(seed)
    for player in players:
        player.new_game()
    game = engine_game(graph.name, game_id=game_id or f"bots-{graph.name}-{seed}")
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
    allies: tuple[Alliance, ...] = ()
    """The allied pairs of the game (powers)."""

    @property
    def labels(self) -> tuple[str, ...]:
        """Per power, the seat's label in summaries: the bot name, with ``+ally`` for an allied seat."""
        allied = {p for pair in self.allies for p in pair}
        return tuple(
            s + ALLY_LABEL if p in allied else s for p, s in zip(self.powers, self.seats, strict=True)
        )

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
            "allies": [list(pair) for pair in self.allies],
        }


@dataclass(frozen=True)
class _GameJob:
    index: int
    seed: int
    seats: tuple[str, ...]
    map_name: str
    max_year: int
    game_id: str
    allies: tuple[Alliance, ...] = ()


def bot_game(
    bots: str | Sequence[str],
    seed: int,
    *,
    map_name: str = "standard",
    max_year: int | None = None,
    game_id: str | None = None,
    index: int = 0,
    allies: str | Sequence[Sequence[str]] = (),
) -> GameResult:
    """Play one seeded bot game (see :func:`play_bot_game`) and score it: centres, survivals, solo."""
    graph = check_bot_map(map_name)
    seats = parse_bots(bots, len(graph.powers), BOT_KINDS)
    pairs = check_allies(allies, seats, map_name)
    game = play_bot_game(seats, seed, map_name=map_name, max_year=max_year, game_id=game_id, allies=pairs)
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
        allies=pairs,
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
        allies=job.allies,
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
    allies: int = 0
    """Allied pairs seeded per game."""

    def summary(self) -> list[BotSummary]:
        """Per bot kind (in order of first appearance in ``bots``; allied seats as ``'dumb+ally'`` after
        them) over every seat it played; kinds without a seat are left out."""
        out = []
        labels = [*dict.fromkeys(self.bots), *(b + ALLY_LABEL for b in dict.fromkeys(self.bots))]
        for name in labels:
            scs = [n for g in self.games for s, n in zip(g.labels, g.final_scs, strict=True) if s == name]
            if not scs:
                continue
            alive = [a for g in self.games for s, a in zip(g.labels, g.survived, strict=True) if s == name]
            solos = sum(
                1 for g in self.games if g.solo is not None and g.labels[g.powers.index(g.solo)] == name
            )
            out.append(BotSummary(name, len(scs), mean_interval([float(v) for v in scs]), solos, sum(alive)))
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"games": n, "bots": [BotSummary.to_json(), ...]}`` over the finished games, plus
        ``"interrupted": true`` (and ``"requested"``) when Ctrl-C or a dead worker cut it short."""
        out: dict[str, Any] = {"games": len(self.games), "bots": [b.to_json() for b in self.summary()]}
        if self.interrupted:
            out.update(interrupted=True, requested=self.requested)
        return out

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
                "allies_per_game": self.allies,
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
    allies: int = 0,
) -> TournamentResult:
    """Play ``games`` seeded bot games with the seats rotated, through ``map_jobs``.

    ``allies``: in every game, that many disjoint pairs of the ``'dumb'`` seats, drawn at random (seeded
    from the game's seed), play as allies that never attack each other (:class:`DumbBot` ``allies``);
    the pairs are recorded per game, and allied seats are summarised as ``'dumb+ally'``.

    Ctrl-C returns the finished games with ``interrupted=True``.  Bad input (unknown bots, ``games`` <= 0,
    ``workers`` < 1, a map the bots do not play, a malformed or unreachable Dask address) raises a
    :class:`~boardeval.core.DiplomacyError` subclass quoting it.
    """
    graph = check_bot_map(map_name)
    kinds = parse_bots(bots, len(graph.powers), BOT_KINDS)
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise TournamentError(f"games must be a positive integer, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(f"workers must be an integer >= 1, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TournamentError(f"seed must be a non-negative integer, got {seed!r}")
    if address is not None:
        _check_address(address)
    last = _check_year(map_name, max_year)
    dumb = kinds.count("dumb")
    if isinstance(allies, bool) or not isinstance(allies, int) or allies < 0 or 2 * allies > dumb:
        raise TournamentError(
            f"allies must be an integer from 0 to {dumb // 2} (pairs of the {dumb} 'dumb' seats of "
            f"{','.join(kinds)!r}), got {allies!r}"
        )
    n = len(kinds)
    jobs = []
    for i, s in enumerate(spawn_seeds(seed, games)):
        seats = tuple(kinds[(p - i) % n] for p in range(n))
        jobs.append(
            _GameJob(
                index=i,
                seed=s,
                seats=seats,
                map_name=graph.name,
                max_year=last,
                game_id=f"tournament-{seed}-{i:05d}",
                allies=_draw_allies(graph.powers, seats, allies, s, graph.name),
            )
        )
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
        allies=allies,
    )


def _draw_allies(
    powers: Sequence[str], seats: Sequence[str], pairs: int, game_seed: int, map_name: str
) -> tuple[Alliance, ...]:
    """``pairs`` disjoint random pairs of the game's ``'dumb'`` powers (seeded by the game's seed)."""
    if pairs == 0:
        return ()
    dumb = [p for p, s in zip(powers, seats, strict=True) if s == "dumb"]
    order = make_rng(spawn_seeds(game_seed, 1)[0]).permutation(len(dumb))
    chosen = [dumb[int(k)] for k in order[: 2 * pairs]]
    return check_allies([chosen[2 * k : 2 * k + 2] for k in range(pairs)], seats, map_name)
