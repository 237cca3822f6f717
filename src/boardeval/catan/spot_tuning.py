"""Tuning the spot evaluator's weights by play (issue 11 section 3): Optuna's TPE against three ``pips``.

The opening advisor (:mod:`boardeval.catan.advisor`) picks its settlements with the seed-000 spot score,
whose five metric weights (``eval_weights``: raw production, scarcity-weighted production, port, prime
variate, parity) came from the seed, plus the two weights of its second-pick rule (``diversity_weight``,
``harbour_weight``). :func:`tune_spots` searches those seven numbers for the advisor's win rate against
three ``pips`` openers (against catanatron's ``WeightedRandomPlayer`` the rate saturates near 86 %):

- **Sampler**: Optuna's TPE, seeded; trial 0 is always the default set (so the search starts from it and
  the default's training score is on the same games).
- **Common random numbers**: every trial plays the very same games (the same random base boards, game
  seeds and seatings; ``games_per_trial / 4`` seeds, each in all four seatings), so two trials differ by
  their weights, not by their luck. The games go through :func:`boardeval.core.map_jobs` (serial, process
  pool or Dask; same games whatever runs them).
- **Fresh-seed check**: the best trial's weights were picked *because* they did well on those games (the
  winner's curse), so its training rate is optimistic. The best set and the defaults are then re-measured
  on ``fresh_games`` games on boards and seeds no trial saw (again the same games for both), with Wilson
  intervals and the paired difference per game. :attr:`TuneResult.beats_default`: the tuned rate lies
  above the default's whole interval; only then is a tuned set worth shipping.
- **Importances**: Optuna's fANOVA importances (seeded) over the finished trials say which weights moved
  the win rate.

Ctrl-C keeps the finished trials and returns the best so far, flagged ``interrupted`` (no fresh-seed
check then, or a partial one if it was running). Everything is seeded: the same call gives the same
trials, best set and figures (apart from ``seconds``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardeval.catan import Board, SpotParams
from boardeval.catan.advisor import OpeningParams
from boardeval.catan.params import DEFAULT_SPOT_PARAMS_FILE, METRIC_NAMES
from boardeval.catan.playtest import GameRecord, GameSpec, _deterministic_catanatron, game_specs, run_games
from boardeval.core import (
    CatanError,
    Interval,
    ParamsError,
    Progress,
    mean_interval,
    near_name,
    report,
    spawn_seeds,
    wilson_interval,
)

__all__ = [
    "NAMED_PARAMS",
    "SEARCH_SPACE",
    "TUNED_PARAMS_FILE",
    "TrialResult",
    "TuneResult",
    "load_named_params",
    "tune_spots",
    "write_tuned",
]

LINEUP = ("advisor", "pips", "pips", "pips")
"""The tuned player (listed first) against three pip-count openers; every game in all four seatings."""

SEARCH_SPACE: dict[str, tuple[float, float]] = {
    **{f"w_{name}": (0.0, 3.0) for name in METRIC_NAMES},
    "diversity_weight": (0.0, 6.0),
    "harbour_weight": (0.0, 1.5),
}
"""Ranges searched (uniform): the five ``eval_weights`` (defaults 1, 1.5, 1, 1, 1) and the two opening
weights (defaults 3, 0.25). A harbour weight of 2 measured clearly worse (docs), hence its lower cap."""

TUNED_PARAMS_FILE = Path(__file__).parent / "data" / "spot_params_tuned.toml"
NAMED_PARAMS: dict[str, Path] = {"default": DEFAULT_SPOT_PARAMS_FILE, "tuned": TUNED_PARAMS_FILE}
"""Parameter sets known by name (``--params tuned``); anything else is read as a file path."""

MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class TrialResult:
    """One finished trial: its seven numbers and the advisor's wins on the common games."""

    number: int
    params: dict[str, float]
    wins: int
    games: int

    @property
    def rate(self) -> Interval:
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        r = self.rate
        return {
            "number": self.number,
            "params": self.params,
            "wins": self.wins,
            "games": self.games,
            "win_rate": r.value,
            "ci95": r.to_list(),
        }


@dataclass(frozen=True)
class TuneResult:
    """The search (every finished trial), the best set, the fresh-seed check and the importances."""

    seed: int
    trials: tuple[TrialResult, ...]
    best: TrialResult | None
    importances: dict[str, float]
    fresh_games: int  # games played per set in the fresh-seed check (0: not run)
    fresh_best: Interval | None
    fresh_default: Interval | None
    fresh_difference: Interval | None  # tuned minus default, paired per game
    seconds: float
    interrupted: bool = False
    planned_trials: int = 0

    @property
    def beats_default(self) -> bool:
        """The tuned set's fresh-seed win rate lies above the default's whole 95 % interval."""
        return (
            self.fresh_best is not None
            and self.fresh_default is not None
            and self.fresh_best.value > self.fresh_default.hi
        )

    def best_sets(self) -> tuple[SpotParams, OpeningParams] | None:
        """The best trial's weights as (spot parameters, opening weights), or ``None`` without trials."""
        return None if self.best is None else candidate(self.best.params)

    def to_json(self) -> dict[str, Any]:
        def iv(x: Interval | None) -> dict[str, Any] | None:
            return None if x is None else {"value": x.value, "ci95": x.to_list()}

        return {
            "seed": self.seed,
            "lineup": list(LINEUP),
            "trials": [t.to_json() for t in self.trials],
            "planned_trials": self.planned_trials,
            "best": None if self.best is None else self.best.to_json(),
            "default": DEFAULT_TRIAL,
            "importances": self.importances,
            "fresh": {
                "games": self.fresh_games,
                "best": iv(self.fresh_best),
                "default": iv(self.fresh_default),
                "difference": iv(self.fresh_difference),
                "beats_default": self.beats_default,
            },
            "seconds": self.seconds,
            "interrupted": self.interrupted,
        }


def _default_trial() -> dict[str, float]:
    spot, opening = SpotParams.default(), OpeningParams()
    out = {f"w_{n}": float(w) for n, w in zip(METRIC_NAMES, spot.eval_weights, strict=True)}
    return out | {"diversity_weight": opening.diversity_weight, "harbour_weight": opening.harbour_weight}


DEFAULT_TRIAL: dict[str, float] = {}  # filled on first use (reads the packaged parameter file)


def candidate(params: dict[str, float]) -> tuple[SpotParams, OpeningParams]:
    """A trial's seven numbers as the advisor's (spot parameters, opening weights); the spot evaluator's
    other fields stay at the packaged defaults."""
    try:
        weights = tuple(float(params[f"w_{n}"]) for n in METRIC_NAMES)
        spot = dataclasses.replace(SpotParams.default(), eval_weights=weights)
        opening = OpeningParams(float(params["diversity_weight"]), float(params["harbour_weight"]))
    except KeyError as exc:
        raise ParamsError(f"a tuned parameter set needs {exc.args[0]!r}; got {sorted(params)}") from None
    return spot, opening


def _check_count(value: object, what: str, *, multiple: int = 1, minimum: int = 1) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not minimum <= value <= MAX_GAMES
        or value % multiple
    ):
        need = f", a multiple of {multiple}," if multiple > 1 else ""
        raise CatanError(f"{what} must be an integer{need} from {minimum} to {MAX_GAMES:,}, got {value!r}")
    return value


def _specs(seed: int, games: int) -> list[GameSpec]:
    """``games`` rotated games of :data:`LINEUP` on random base boards (one per game seed)."""
    board_seed, game_seed = spawn_seeds(seed, 2)
    n = games // len(LINEUP)
    boards = [Board.random(seed=s) for s in spawn_seeds(board_seed, n)]
    return game_specs(boards, LINEUP, n, game_seed, rotate=True)


def _with(specs: Sequence[GameSpec], sets: tuple[SpotParams, OpeningParams]) -> list[GameSpec]:
    return [dataclasses.replace(s, advisor=sets) for s in specs]


def _advisor_wins(records: Sequence[GameRecord]) -> list[int]:
    """Per game, 1 if the listed advisor (player 0) won, else 0."""
    return [1 if r.winner_player == 0 else 0 for r in records]


class _Stopped(Exception):
    """Ctrl-C during a trial's games (raised out of Optuna's optimise loop, which marks the trial failed)."""


def tune_spots(
    *,
    trials: int = 40,
    games_per_trial: int = 400,
    seed: int = 0,
    fresh_games: int = 2000,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> TuneResult:
    """Search the advisor's seven weights with seeded TPE on common games, then check the best on fresh ones.

    ``games_per_trial`` and ``fresh_games`` are numbers of games, multiples of 4 (each seed in every
    seating); ``fresh_games`` 0 skips the check. The training games come from ``spawn_seeds(seed, 2)[0]``'s
    children, the fresh ones from ``[1]``'s, so no fresh board or game seed is a training one.
    """
    import optuna

    trials = _check_count(trials, "trials")
    games_per_trial = _check_count(games_per_trial, "games per trial", multiple=len(LINEUP))
    fresh_games = _check_count(fresh_games, "fresh games", multiple=len(LINEUP), minimum=0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CatanError(f"seed must be a non-negative integer, got {seed!r}")
    if not DEFAULT_TRIAL:
        DEFAULT_TRIAL.update(_default_trial())
    start = time.perf_counter()
    train_seed, fresh_seed, sampler_seed = spawn_seeds(seed, 3)
    train = _specs(train_seed, games_per_trial)
    _deterministic_catanatron()  # import catanatron once here: forked pool workers of every trial inherit it
    total = trials * games_per_trial + 2 * fresh_games
    finished: list[TrialResult] = []

    def sub(offset: int, label: str) -> Callable[[int, int, str], None]:
        return lambda done, _total, _msg: report(progress, offset + done, total, label)

    def objective(trial: optuna.Trial) -> float:
        params = {name: trial.suggest_float(name, lo, hi) for name, (lo, hi) in SEARCH_SPACE.items()}
        offset = trial.number * games_per_trial
        records, stopped = run_games(
            _with(train, candidate(params)),
            workers=workers,
            address=address,
            progress=sub(offset, f"trial {trial.number + 1}/{trials}"),
        )
        if stopped:
            raise _Stopped
        wins = sum(_advisor_wins(records))
        finished.append(TrialResult(trial.number, params, wins, len(records)))
        return wins / len(records)

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # its per-trial lines (and Ctrl-C's failed trial)
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=sampler_seed % 2**31)
    )
    study.enqueue_trial(dict(DEFAULT_TRIAL))
    interrupted = False
    report(progress, 0, total, "trial 1")
    try:
        study.optimize(objective, n_trials=trials)
    except (_Stopped, KeyboardInterrupt):
        interrupted = True
    best = max(finished, key=lambda t: (t.wins, -t.number), default=None)
    importances: dict[str, float] = {}
    if len(finished) >= 2 and len({t.wins for t in finished}) > 1:
        evaluator = optuna.importance.FanovaImportanceEvaluator(seed=sampler_seed % 2**31)
        raw = optuna.importance.get_param_importances(study, evaluator=evaluator)
        importances = {k: float(raw[k]) for k in SEARCH_SPACE if k in raw}
    fresh_best = fresh_default = difference = None
    played = 0
    if best is not None and fresh_games and not interrupted:
        fresh = _specs(fresh_seed, fresh_games)
        # one batch, tuned and default interleaved game by game, so Ctrl-C leaves paired halves
        both = [
            s for spec in fresh for s in _with([spec], candidate(best.params)) + _with([spec], _default())
        ]
        records, interrupted = run_games(
            both, workers=workers, address=address, progress=sub(trials * games_per_trial, "fresh seeds")
        )
        pairs = len(records) // 2
        if pairs:
            tuned_w = _advisor_wins(records[0 : 2 * pairs : 2])
            default_w = _advisor_wins(records[1 : 2 * pairs : 2])
            played = pairs
            fresh_best = wilson_interval(sum(tuned_w), pairs)
            fresh_default = wilson_interval(sum(default_w), pairs)
            difference = (
                mean_interval([float(a - b) for a, b in zip(tuned_w, default_w, strict=True)])
                if pairs >= 2
                else None
            )
    return TuneResult(
        seed=seed,
        trials=tuple(finished),
        best=best,
        importances=importances,
        fresh_games=played,
        fresh_best=fresh_best,
        fresh_default=fresh_default,
        fresh_difference=difference,
        seconds=time.perf_counter() - start,
        interrupted=interrupted,
        planned_trials=trials,
    )


def _default() -> tuple[SpotParams, OpeningParams]:
    return SpotParams.default(), OpeningParams()


def write_tuned(result: TuneResult, path: str | Path) -> Path:
    """Write the best set as a parameter file: the spot evaluator's six fields (so
    :meth:`SpotParams.load` reads it) and, in an ``[advisor]`` table, the two opening weights, with the
    figures that chose it in comments."""
    import tomli_w

    sets = result.best_sets()
    if sets is None or result.best is None:
        raise CatanError("no finished trial: nothing to write")
    spot, opening = sets
    lines = [
        "# Spot-evaluator weights tuned by play: boardeval catan tune-spots (docs/catan-playtest.md).",
        f"# seed {result.seed}, {len(result.trials)} trials x {result.best.games} games vs 3 pips;"
        f" best trial {result.best.number}: {100 * result.best.rate.value:.1f}% on the training games.",
    ]
    if result.fresh_best is not None and result.fresh_default is not None:
        b, d = result.fresh_best, result.fresh_default
        lines.append(
            f"# fresh seeds ({result.fresh_games} games each): tuned {100 * b.value:.1f}% "
            f"[{100 * b.lo:.1f}, {100 * b.hi:.1f}], default {100 * d.value:.1f}% "
            f"[{100 * d.lo:.1f}, {100 * d.hi:.1f}]"
        )
    body = tomli_w.dumps(
        spot.to_dict()
        | {
            "advisor": {
                "diversity_weight": opening.diversity_weight,
                "harbour_weight": opening.harbour_weight,
            }
        }
    )
    out = Path(path)
    try:
        out.write_text("\n".join(lines) + "\n" + body, encoding="utf-8")
    except OSError as exc:
        raise CatanError(f"cannot write {str(path)!r}: {exc}") from None
    return out


def load_named_params(name_or_path: str | Path) -> tuple[SpotParams, OpeningParams]:
    """A parameter set by name (``default``, ``tuned``: :data:`NAMED_PARAMS`) or from a file: the spot
    parameters and, if the file has an ``[advisor]`` table (as :func:`write_tuned` writes), the opening
    weights (else the defaults)."""
    from boardeval.core import load_data_file

    key = str(name_or_path)
    path = NAMED_PARAMS.get(key, Path(key))
    near = near_name(key, NAMED_PARAMS)
    if key not in NAMED_PARAMS and near is not None and not path.exists():  # 'Default', ' tuned'
        raise ParamsError(
            f"no parameter set or file {key!r}: did you mean {near!r}? (set names are written exactly as "
            f"listed: {', '.join(NAMED_PARAMS)})"
        )
    if key in NAMED_PARAMS and not path.exists():
        raise ParamsError(
            f"no {key!r} parameter set is shipped (the tuned weights did not beat the defaults on fresh "
            "seeds; see docs/catan-playtest.md)"
        )
    data = load_data_file(path)
    source = f"parameter file {key!r}"
    if not isinstance(data, dict):
        raise ParamsError(f"{source} must hold a table/object")
    advisor = data.pop("advisor", None)
    spot = SpotParams.from_dict(data, source=source)
    if advisor is None:
        return spot, OpeningParams()
    if not isinstance(advisor, dict) or set(advisor) != {"diversity_weight", "harbour_weight"}:
        raise ParamsError(
            f"{source}: [advisor] must give exactly diversity_weight and harbour_weight, got {advisor!r}"
        )
    return spot, OpeningParams(advisor["diversity_weight"], advisor["harbour_weight"])
