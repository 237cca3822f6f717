"""Play-testing boards with catanatron: many seeded games, seat and player win rates with intervals.

One game is one job (:func:`play_game`, a module-level function of a picklable :class:`GameSpec`), so the
games run through :func:`boardeval.core.map_jobs`: in this process, on a process pool, or on a Dask
cluster, with the same results whatever runs them.

**Seeding.** Game ``j`` of a run with seed ``S`` uses catanatron seed ``spawn_seeds(S, games)[j] + 1``
(catanatron treats seed 0 as "no seed"). catanatron seeds Python's ``random`` module with it, which fixes
the dice, the decks, its bots' choices and the play order; our own players draw from numpy generators
seeded from the same game seed and their seat. The global ``random`` is shared by every thread of a
process (a threaded Dask worker, its event loop), and three of catanatron's action lists come out of
Python sets whose order depends on the process's hash seed, so :func:`_deterministic_catanatron` points
catanatron's modules at a generator per thread and sorts those lists: the caller's global ``random`` is
never touched, and a game is the same whatever process or thread plays it.

With ``rotate``, every game seed is played once per seating (the listed player ``k`` sits in seat
``(k + r) % n`` in rotation ``r``), so seat and player effects separate.

**Seats.** Seat 1 places first. catanatron shuffles the play order from the seed; the strategies are
bound to its colours after that shuffle, so seat ``i`` is always the ``i``-th colour to play.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from boardeval.catan import Board, SpotParams, node_to_spot, to_catanatron_map
from boardeval.catan.advisor import PLAYER_NAMES, CatanatronSeat, OpeningParams, make_player
from boardeval.catan.board import code_keys
from boardeval.core import (
    CatanError,
    Interval,
    JobsInterrupted,
    Progress,
    make_rng,
    map_jobs,
    mean_interval,
    pick_name,
    spawn_seeds,
    wilson_interval,
)

__all__ = [
    "GameRecord",
    "GameSpec",
    "PlaytestResult",
    "RateStats",
    "check_base_board",
    "game_specs",
    "play_game",
    "run_games",
    "run_playtest",
    "summarize",
]


@dataclass(frozen=True)
class GameSpec:
    """One game to play: the board's share code, the player name in each seat, the catanatron seed."""

    board: str
    players: tuple[str, ...]  # by seat (play order), after rotation
    seed: int
    rotation: int = 0
    seating: tuple[int, ...] = ()  # seat -> index of the listed player sitting there
    advisor: tuple[SpotParams, OpeningParams] | None = None  # the advisor's weights (None: the defaults)


@dataclass(frozen=True)
class GameRecord:
    """What one game did: the winning seat (``None`` if unfinished), turns, final VPs by seat."""

    seed: int
    rotation: int
    seating: tuple[int, ...]
    winner_seat: int | None
    turns: int
    vps: tuple[int, ...]
    turn_limit: bool
    openings: tuple[tuple[int, ...], ...] = ()  # by seat: the spots of its two opening settlements

    @property
    def winner_player(self) -> int | None:
        """Index (in the listed players) of the winner, or ``None``."""
        return None if self.winner_seat is None else self.seating[self.winner_seat]


@lru_cache(maxsize=64)
def _catan_map(code: str) -> Any:
    """catanatron map of a board, built once per process and board (catanatron treats maps as
    immutable); a study's or a benchmark's many boards keep only the latest 64."""
    return to_catanatron_map(Board.parse(code))


class _ThreadRandom(threading.local):
    """One ``random.Random`` per thread: catanatron's randomness, private to the thread playing."""

    def __init__(self) -> None:
        self.rng = random.Random()


_THREAD_RANDOM = _ThreadRandom()


class _RandomProxy:
    """Stands for the ``random`` module inside catanatron's modules: every ``random.x`` they call is the
    calling thread's own generator, which ``Game(seed=...)`` seeds."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_THREAD_RANDOM.rng, name)


_CATANATRON_RANDOM_USERS = (
    "catanatron.game",
    "catanatron.state",
    "catanatron.state_functions",
    "catanatron.models.map",
    "catanatron.models.player",
    "catanatron.players.weighted_random",
    "catanatron.players.search",
)
_installed = False


def _sorted_actions(fn: Callable[..., list[Any]], key: Callable[[Any], Any]) -> Callable[..., list[Any]]:
    """``fn`` with its list of actions sorted by ``key`` (see :func:`_deterministic_catanatron`)."""

    def wrapper(*args: Any, **kwargs: Any) -> list[Any]:
        return sorted(fn(*args, **kwargs), key=key)

    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def _trade_key(action: Any) -> tuple[int, str, str]:
    # A maritime trade (r, r[, r, r], None.., wanted) is unique by (rate, given, wanted): cheap to sort.
    value = action.value
    return value.count(None), value[0], value[-1]


def _yop_key(action: Any) -> tuple[str, ...]:
    return tuple(action.value)  # one or two resource names


def _robber_key(action: Any) -> tuple[Any, str]:
    coordinate, victim, _ = action.value
    return coordinate, "" if victim is None else victim.value


def _deterministic_catanatron() -> None:
    """Make catanatron's games depend on the seed alone (once per process).

    Two things would otherwise change a seeded game:

    - catanatron draws dice, decks, its play order and its bots' choices from the global ``random``
      module, seeded in ``Game(seed=...)``. Other threads of the same process (a threaded Dask worker,
      its event loop) may draw from it mid-game. So catanatron's modules get a proxy that forwards to a
      generator per thread; the caller's global ``random`` is never touched.
    - three of its action lists come out of Python sets of strings or enums (maritime trades, Year of
      Plenty picks, whom the robber robs), whose order depends on the process's hash seed
      (``PYTHONHASHSEED``). A bot that picks "the i-th action" then plays differently in another process
      (a spawned pool worker, a Dask worker). Those three lists are sorted.
    """
    global _installed
    if _installed:
        return
    import importlib

    proxy = _RandomProxy()
    saved = random.getstate()  # importing catanatron shuffles a map with the global random: undo that
    try:
        modules = [importlib.import_module(name) for name in _CATANATRON_RANDOM_USERS]
        actions = importlib.import_module("catanatron.models.actions")
    finally:
        random.setstate(saved)
    for name, module in zip(_CATANATRON_RANDOM_USERS, modules, strict=True):
        if getattr(module, "random", None) is not random:
            raise RuntimeError(
                f"{name}.random is not the random module: catanatron changed, check playtest.py"
            )
        module.random = proxy  # type: ignore[attr-defined]
    for fn_name, key in (
        ("maritime_trade_possibilities", _trade_key),
        ("year_of_plenty_possibilities", _yop_key),
        ("robber_possibilities", _robber_key),
    ):
        setattr(actions, fn_name, _sorted_actions(getattr(actions, fn_name), key))
    _installed = True


def play_game(spec: GameSpec) -> GameRecord:
    """Play one seeded game with catanatron and record it (same spec, same record, in any process or
    thread)."""
    _deterministic_catanatron()
    from catanatron import Color, Game
    from catanatron.game import TURNS_LIMIT

    n = len(spec.players)
    strategies = [make_player(name, spec.advisor) for name in spec.players]
    rngs = [make_rng(s) for s in spawn_seeds(spec.seed, n)]
    seats = [CatanatronSeat(c) for c in list(Color)[:n]]
    by_color = {s.color: s for s in seats}
    game = Game(seats, seed=spec.seed, catan_map=_catan_map(spec.board))  # seeds this thread's generator
    for i, color in enumerate(game.state.colors):
        by_color[color].bind(strategies[i], rngs[i])
    winner = game.play()
    state = game.state
    ps = state.player_state
    vps = tuple(int(ps[f"P{i}_ACTUAL_VICTORY_POINTS"]) for i in range(n))
    winner_seat = None if winner is None else state.colors.index(winner)
    n2s = node_to_spot()
    openings: list[list[int]] = [[] for _ in range(n)]
    for action in state.actions[: 4 * n]:  # the opening: a settlement and a road per seat, twice
        if action.action_type.name == "BUILD_SETTLEMENT":
            openings[state.colors.index(action.color)].append(n2s[action.value])
    return GameRecord(
        seed=spec.seed,
        rotation=spec.rotation,
        seating=spec.seating or tuple(range(n)),
        winner_seat=winner_seat,
        turns=int(state.num_turns),
        vps=vps,
        turn_limit=winner is None and state.num_turns >= TURNS_LIMIT,
        openings=tuple(tuple(o) for o in openings),
    )


def check_base_board(board: Board) -> None:
    """Play-tests need the base (3-4 player) board: catanatron has no 5-6 player map."""
    layout = board.layout
    if layout != "base":
        raise CatanError(
            f"play-testing needs a base board: catanatron has no 5-6 player map (this board's layout is "
            f"{layout!r})"
        )


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str):
        players = players.split(",")
    names = tuple(players)
    if not 2 <= len(names) <= 4:
        raise CatanError(f"need 2 to 4 players, got {len(names)}: {','.join(map(str, players))!r}")
    # exact names, as listed (issue 24: 'WEIGHTED' and ' weighted' were folded silently)
    return tuple(pick_name(name, PLAYER_NAMES, "player", error=CatanError) for name in names)


def game_specs(
    boards: Board | Sequence[Board],
    players: Sequence[str],
    games: int,
    seed: int,
    *,
    rotate: bool = False,
) -> list[GameSpec]:
    """The games of a play-test: ``games`` seeds (each on its own board if a list of ``games`` boards is
    given), each played in every rotation of the seating if ``rotate``."""
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise CatanError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CatanError(f"seed must be a non-negative integer, got {seed!r}")
    names = _check_players(players)
    for b in [boards] if isinstance(boards, Board) else boards:
        check_base_board(b)
    if isinstance(boards, Board):
        codes = [boards.code()] * games
    else:
        codes = [b.code() for b in boards]
        if len(codes) != games:
            raise CatanError(f"got {len(codes)} boards for {games} games: give one board or one per game")
    n = len(names)
    rotations = range(n) if rotate else range(1)
    specs = []
    for code, s in zip(codes, spawn_seeds(seed, games), strict=True):
        for r in rotations:
            seating = tuple((i - r) % n for i in range(n))  # seat i holds listed player (i - r) mod n
            specs.append(GameSpec(code, tuple(names[k] for k in seating), s + 1, r, seating))
    return specs


def run_games(
    specs: Sequence[GameSpec],
    *,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> tuple[list[GameRecord], bool]:
    """Play every spec through the job runner: (records in spec order, interrupted?). On Ctrl-C the
    finished games are kept (in spec order) and ``interrupted`` is True."""
    try:
        return map_jobs(
            play_game, list(specs), workers=workers, address=address, progress=progress, label="games"
        ), False
    except JobsInterrupted as exc:
        return [exc.done[i] for i in sorted(exc.done)], True


@dataclass(frozen=True)
class RateStats:
    """Wins of one player (or seat) over its games, the Wilson 95 % interval, and its mean final VPs."""

    name: str
    games: int
    wins: int
    rate: Interval
    mean_vp: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.rate.value,
            "ci95": self.rate.to_list(),
            "mean_vp": self.mean_vp,
        }


@dataclass(frozen=True)
class PlaytestResult:
    """A play-test's summary: per listed player and per seat, game length, unfinished games, time."""

    board: str
    players: tuple[RateStats, ...]
    seats: tuple[RateStats, ...]
    records: tuple[GameRecord, ...]
    seconds: float
    interrupted: bool = False
    planned: int = 0

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def unfinished(self) -> int:
        return sum(1 for r in self.records if r.winner_seat is None)

    @property
    def turns(self) -> dict[str, float]:
        """Game length in turns: mean, median and 90th percentile (linear interpolation)."""
        t = np.array([r.turns for r in self.records], dtype=np.float64)
        if t.size == 0:
            return {"mean": 0.0, "median": 0.0, "p90": 0.0}
        return {"mean": float(t.mean()), "median": float(np.median(t)), "p90": float(np.percentile(t, 90))}

    @property
    def turns_interval(self) -> Interval | None:
        """Mean game length with its 95 % interval (``None`` without games)."""
        return mean_interval([float(r.turns) for r in self.records]) if self.records else None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The stable shape: ``{"code", "board" (the same code, deprecated), "games", "players": [{"name",
        "games", "wins", "win_rate", "ci95": [lo, hi], "mean_vp"}], "seats": [...], "turns": {"mean",
        "median", "p90"}, "unfinished", "seconds"}``, plus ``"interrupted": true`` and ``"planned"`` after
        a Ctrl-C (or a dead worker): the figures are then over the finished games."""
        out: dict[str, Any] = {
            **code_keys(self.board),
            "games": self.games,
            "players": [p.to_json() for p in self.players],
            "seats": [s.to_json() for s in self.seats],
            "turns": self.turns,
            "unfinished": self.unfinished,
            "seconds": self.seconds,
        }
        if self.interrupted:
            out.update(interrupted=True, planned=self.planned)
        return out


def _rate(name: str, wins: int, vps: list[int]) -> RateStats:
    n = len(vps)
    return RateStats(name, n, wins, wilson_interval(wins, n), float(np.mean(vps)) if n else 0.0)


def summarize(
    records: Sequence[GameRecord],
    players: Sequence[str],
    *,
    board: str,
    seconds: float,
    interrupted: bool = False,
    planned: int = 0,
) -> PlaytestResult:
    """Aggregate game records per listed player and per seat (Wilson 95 % intervals on win rates)."""
    n = len(players)
    by_player = []
    for k, name in enumerate(players):
        wins = sum(1 for r in records if r.winner_player == k)
        by_player.append(_rate(name, wins, [r.vps[r.seating.index(k)] for r in records]))
    by_seat = []
    for i in range(n):
        wins = sum(1 for r in records if r.winner_seat == i)
        by_seat.append(_rate(f"seat {i + 1}", wins, [r.vps[i] for r in records]))
    return PlaytestResult(
        board, tuple(by_player), tuple(by_seat), tuple(records), seconds, interrupted, planned or len(records)
    )


def run_playtest(
    board: Board | Sequence[Board],
    players: Sequence[str] = ("weighted", "weighted", "weighted", "weighted"),
    *,
    games: int = 100,
    seed: int = 0,
    rotate: bool = False,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    advisor: tuple[SpotParams, OpeningParams] | None = None,
) -> PlaytestResult:
    """Play ``games`` seeded games (times the number of seats with ``rotate``) and summarise them.

    ``board`` is one board, or a list of ``games`` boards (game ``j`` on board ``j``: the JSON's ``board``
    then says how many). ``players`` are names from :data:`PLAYER_NAMES`, listed in seat order (2 to 4).
    ``advisor`` (spot parameters, opening weights) replaces the ``advisor`` players' defaults.
    Ctrl-C keeps the finished games (``interrupted`` is set on the result).
    """
    specs = game_specs(board, players, games, seed, rotate=rotate)
    if advisor is not None:
        specs = [dataclasses.replace(s, advisor=advisor) for s in specs]
    names = _check_players(players)
    label = board.code() if isinstance(board, Board) else f"{games} boards"
    start = time.perf_counter()
    records, interrupted = run_games(specs, workers=workers, address=address, progress=progress)
    seconds = time.perf_counter() - start
    return summarize(
        records, names, board=label, seconds=seconds, interrupted=interrupted, planned=len(specs)
    )
