"""Texel tuning of the Morris evaluation against ground truth (issue 13 section 3).

Data:

* **moving/flying** positions sampled from our endgame tablebase (:func:`sample_covered`), labelled with the
  tablebase value for the side to move (win 1, draw 0.5, loss 0). Most random positions are draws, so every
  sub-database is sampled to a fixed share of decided positions (``decided_share``); positions without a
  legal turn (losses at distance 0) are left out: the search never evaluates them.
* **placing** positions from searched self-play games (:func:`placing_positions`): each game opens with two
  random placements per side, then two depth-1 AIs with the tablebase play on; the game's result labels
  every placing position of it, and a game that reaches a covered position is resolved there by the
  tablebase (the value of that position, not the rest of the game).

Model: ``p = sigmoid(k * eval)``, with ``eval`` the evaluation of :mod:`._evaluate` (weights x the seed's
phase scales / the normalisation). ``k`` is fitted first for the seed weights (one-dimensional, on the
training set): the "before" figures. Then ``k`` and the weights are fitted together by bounded L-BFGS-B
(``scipy.optimize``; weights >= 0) on the mean cross-entropy plus a small pull towards the seed weights,
with ``material`` held at the seed's 10 as the anchor of the scale (:data:`ANCHOR`). Train/validation
split by position (moving/flying) and by game (placing: the positions of one game are not independent),
seeded. Figures on the held-out positions: log-loss and sign accuracy (``eval > 0`` <=> the side to move
wins).

The seed's open questions (section 7) are answered by refitting with one change at a time
(:func:`questions`): per-phase weights instead of shared weights x phase scales, a stricter moving-phase
``fork_threats`` (only threat points no opposing man can block by sliding onto them), and ring weights
(fork without the middle-ring bonus; mobility weighted by the destination's ring).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from boardeval.core import Interval, ParamsError, Progress, make_rng, report, score_interval
from boardeval.morris._engine import Engine, EngineOptions, coefficients
from boardeval.morris._evaluate import NORM, PHASE_SCALE, load_weights, make_weights
from boardeval.morris._features import FEATURES, PLACING_FEATURES, features, position_phase
from boardeval.morris.board import ADJ_MASK, RING, RING_WEIGHT, threat_points
from boardeval.morris.players import AlphaBetaPlayer, MorrisPlayer
from boardeval.morris.rules import Position

if TYPE_CHECKING:
    from boardeval.morris.rules import Turn
    from boardeval.morris.tablebase import Tablebase

__all__ = [
    "BLOCKADE_WINDOW",
    "FIT_FEATURES",
    "PLAY_NAMES",
    "Fit",
    "GameJob",
    "GameResult",
    "MatchScore",
    "PlayStep",
    "PlayTuneReport",
    "TuneData",
    "TuneReport",
    "build_data",
    "engine_match",
    "fit_weights",
    "placing_positions",
    "play_engine_game",
    "play_out",
    "questions",
    "sample_covered",
    "tablebase_turn",
    "tune_by_play",
    "tune_weights",
    "write_weights",
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
_PHASES: Final[tuple[str, ...]] = ("placing", "moving", "flying")
_RING_W: Final[tuple[float, ...]] = tuple(RING_WEIGHT[r] for r in RING)
_FULL: Final[int] = (1 << 24) - 1
_PULL: Final[float] = 1e-4  # pull towards the seed weights (per weight, squared, relative)
_SEED = load_weights("seed")
ANCHOR: Final[str] = "material"
"""The weight held at the seed's value: it fixes the scale (endgame data alone would even drive it to 0:
in 3v4 the flying side with fewer men wins), so the search's units and its mate bounds stay put."""


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


# ------------------------------------------------------------------------------------------ the fit


def _design(
    data: TuneData, columns: Sequence[str], *, per_phase: bool, scales: bool = True
) -> npt.NDArray[np.float64]:
    """``Z`` with ``eval = Z @ w``: each column is raw diff x PHASE_SCALE / NORM of the row's phase (the
    seed's scales; 1 for a scale-free model); with ``per_phase`` one block of columns per phase."""
    names = FIT_FEATURES + EXTRA
    idx = [names.index(c) for c in columns]
    base_names = [c if c in FIT_FEATURES else _BASE_OF[c] for c in columns]
    factor = np.zeros((3, len(columns)))
    for p, ph in enumerate(_PHASES):
        for j, f in enumerate(base_names):
            s = PHASE_SCALE[ph][f] if scales else (1.0 if PHASE_SCALE[ph][f] else 0.0)
            factor[p, j] = s / NORM[ph][f]
    z = data.x[:, idx] * factor[data.phase]
    if not per_phase:
        return z
    out = np.zeros((len(z), 3 * len(columns)))
    for p in range(3):
        rows = data.phase == p
        out[rows, p * len(columns) : (p + 1) * len(columns)] = z[rows]
    return out


_BASE_OF: Final[dict[str, str]] = {
    "fork_strict": "fork_threats",
    "fork_uniform": "fork_threats",
    "mobility_ring": "mobility",
    "future_mobility_ring": "future_mobility",
    "cramped_single": "cramped",
}


def _loss(p: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _sigmoid(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = 0.5 * (1.0 + np.tanh(0.5 * v))
    return out


def metrics(ev: npt.NDArray[np.float64], y: npt.NDArray[np.float64], k: float) -> dict[str, float]:
    """Log-loss of ``sigmoid(k * eval)``, sign accuracy (eval > 0 <=> win), and the same on decided ones."""
    decided = y != 0.5
    out = {
        "positions": float(len(y)),
        "log_loss": _loss(_sigmoid(k * ev), y) if len(y) else math.nan,
        "sign_accuracy": float(np.mean((ev > 0) == (y == 1.0))) if len(y) else math.nan,
    }
    out["sign_accuracy_decided"] = (
        float(np.mean((ev[decided] > 0) == (y[decided] == 1.0))) if decided.any() else math.nan
    )
    return out


@dataclass
class Fit:
    """A fitted model: coefficients per column (and phase block), ``k``, train/validation figures."""

    name: str
    columns: tuple[str, ...]
    per_phase: bool
    coef: npt.NDArray[np.float64]
    k: float
    train: dict[str, float]
    validation: dict[str, float]
    by_phase: dict[str, dict[str, float]] = field(default_factory=dict)

    def weights(self) -> dict[str, float]:
        """The shared weights as a full Morris weight set (shared-weight fits only)."""
        if self.per_phase:
            raise ParamsError(f"fit {self.name!r} has per-phase weights, not one weight set")
        w = {f: 0.0 for f in (*FIT_FEATURES, "initiative")}
        for c, v in zip(self.columns, self.coef.tolist(), strict=True):
            w[_BASE_OF.get(c, c)] = round(float(v), 4)
        return w


def _seed_coef(columns: Sequence[str], per_phase: bool) -> npt.NDArray[np.float64]:
    w = np.array([_SEED[_BASE_OF.get(c, c)] for c in columns])
    return np.tile(w, 3) if per_phase else w


def fit_k(data: TuneData, columns: Sequence[str] = FIT_FEATURES) -> float:
    """Texel's scale ``k`` for the seed weights on the training positions (one-dimensional minimum)."""
    from scipy.optimize import minimize_scalar

    z = _design(data, columns, per_phase=False)[data.train]
    ev = z @ _seed_coef(columns, False)
    y = data.y[data.train]
    res = minimize_scalar(lambda k: _loss(_sigmoid(k * ev), y), bounds=(1e-4, 20.0), method="bounded")
    return float(res.x)


def fit_weights(
    data: TuneData,
    k: float,
    *,
    columns: Sequence[str] = FIT_FEATURES,
    per_phase: bool = False,
    scales: bool = True,
    name: str = "tuned",
) -> Fit:
    """Minimise the training cross-entropy of ``sigmoid(k * Z @ w)`` over ``k > 0`` and ``w >= 0`` with
    ``material`` held at the seed's weight (the anchor of the scale, as in Texel tuning); L-BFGS-B from the
    seed weights and ``k``, with a small pull towards the seed weights. Figures on both sets.
    """
    from scipy.optimize import minimize

    z_all = _design(data, columns, per_phase=per_phase, scales=scales)
    z, y = z_all[data.train], data.y[data.train]
    w0 = _seed_coef(columns, per_phase)
    scale0 = np.maximum(w0, 1.0)
    names = list(columns) * (3 if per_phase else 1)
    fixed = np.array([c == ANCHOR for c in names])
    free = ~fixed
    anchor_part = z[:, fixed] @ w0[fixed]

    def fun(params: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        kk, w = params[0], params[1:]
        ev = anchor_part + z[:, free] @ w
        p = np.clip(_sigmoid(kk * ev), 1e-12, 1 - 1e-12)
        loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        d = (w - w0[free]) / scale0[free]
        grad = np.empty_like(params)
        grad[0] = float(np.mean((p - y) * ev))
        grad[1:] = kk * (z[:, free].T @ (p - y)) / len(y) + 2 * _PULL * d / scale0[free]
        return float(loss + _PULL * np.sum(d * d)), grad

    start = np.concatenate([[k], w0[free]])
    bounds = [(1e-4, 50.0)] + [(0.0, None)] * int(free.sum())
    best = [start.copy()]

    def keep(params: npt.NDArray[np.float64]) -> None:
        best[0] = params.copy()  # each iterate improves the objective: Ctrl-C keeps the last one

    try:
        params = minimize(fun, start, jac=True, method="L-BFGS-B", bounds=bounds, callback=keep).x
    except KeyboardInterrupt:
        params = best[0]
        data.interrupted = True  # Ctrl-C: the later fits are skipped (questions, tune_weights)
    k_fit = float(params[0])
    coef = w0.copy()
    coef[free] = params[1:]
    ev = z_all @ coef
    by_phase = {}
    for p, ph in enumerate(_PHASES):
        rows = (~data.train) & (data.phase == p)
        if rows.any():
            by_phase[ph] = metrics(ev[rows], data.y[rows], k_fit)
    return Fit(
        name,
        tuple(columns),
        per_phase,
        coef,
        k_fit,
        metrics(ev[data.train], data.y[data.train], k_fit),
        metrics(ev[~data.train], data.y[~data.train], k_fit),
        by_phase,
    )


def fixed_fit(data: TuneData, weights: Mapping[str, float], name: str, k: float | None = None) -> Fit:
    """A fixed weight set as a 'fit' (figures only): ``k`` fitted for it on the training positions unless
    given (the seed's ``k`` for the seed weights)."""
    from scipy.optimize import minimize_scalar

    z_all = _design(data, FIT_FEATURES, per_phase=False)
    coef = np.array([float(weights[f]) for f in FIT_FEATURES])
    ev = z_all @ coef
    if k is None:
        y_train = data.y[data.train]
        ev_train = ev[data.train]
        k = float(
            minimize_scalar(
                lambda kk: _loss(_sigmoid(kk * ev_train), y_train), bounds=(1e-4, 20.0), method="bounded"
            ).x
        )
    by_phase = {}
    for p, ph in enumerate(_PHASES):
        rows = (~data.train) & (data.phase == p)
        if rows.any():
            by_phase[ph] = metrics(ev[rows], data.y[rows], k)
    return Fit(
        name,
        FIT_FEATURES,
        False,
        coef,
        k,
        metrics(ev[data.train], data.y[data.train], k),
        metrics(ev[~data.train], data.y[~data.train], k),
        by_phase,
    )


def seed_fit(data: TuneData, k: float) -> Fit:
    """The seed weights as a 'fit' (figures only), for the before/after comparison."""
    return fixed_fit(data, _SEED, "seed", k)


def questions(data: TuneData, k: float) -> list[Fit]:
    """The seed's open questions as refits, one change at a time (held-out figures decide); the same
    questions for the placing-phase features, and the fit without them."""
    swap = {
        "fork strict (moving)": ("fork_threats", "fork_strict"),
        "fork without ring weights": ("fork_threats", "fork_uniform"),
        "mobility ring-weighted": ("mobility", "mobility_ring"),
        "future mobility ring-weighted": ("future_mobility", "future_mobility_ring"),
        "cramped: single men only": ("cramped", "cramped_single"),
    }
    plans: list[dict[str, Any]] = [
        {"per_phase": True, "name": "per-phase weights"},
        {"scales": False, "name": "no phase scales"},
        {
            "columns": tuple(c for c in FIT_FEATURES if c not in PLACING_FEATURES),
            "name": "no placing features",
        },
    ]
    for name, (old, new) in swap.items():
        plans.append({"columns": tuple(new if c == old else c for c in FIT_FEATURES), "name": name})
    out = []
    for plan in plans:
        if data.interrupted:  # Ctrl-C: the refits done so far only (issue 17: exit at once)
            break
        out.append(fit_weights(data, k, **plan))
    return out


# ------------------------------------------------------------------------------------------ driver


@dataclass
class TuneReport:
    """What :func:`tune` did: the data sizes, ``k``, the seed and tuned fits, the question refits."""

    positions: int
    tablebase_positions: int
    placing_positions: int
    k: float
    seed: Fit
    tuned: Fit
    questions: list[Fit]
    seconds: float
    interrupted: bool = False
    profiles: list[Fit] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (figures rounded)."""

        def fit(f: Fit) -> dict[str, Any]:
            return {
                "name": f.name,
                "k": round(f.k, 5),
                "validation": {k: round(v, 4) for k, v in f.validation.items()},
                "train": {k: round(v, 4) for k, v in f.train.items()},
                "by_phase": {p: {k: round(v, 4) for k, v in m.items()} for p, m in f.by_phase.items()},
            }

        return {
            "positions": self.positions,
            "tablebase_positions": self.tablebase_positions,
            "placing_positions": self.placing_positions,
            "k": round(self.k, 5),
            "seed": fit(self.seed),
            "tuned": {**fit(self.tuned), "weights": self.tuned.weights()},
            "questions": [fit(q) for q in self.questions],
            "profiles": [fit(p) for p in self.profiles],
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
        }


def tune_weights(
    tb_dir: str | Path,
    *,
    per_subdatabase: int = 2000,
    games: int = 200,
    seed: int = 0,
    decided_share: float = 0.5,
    workers: int = 1,
    with_questions: bool = True,
    progress: Progress | None = None,
) -> TuneReport:
    """Sample, fit ``k`` for the seed weights, fit the tuned weights (and the question refits).

    Ctrl-C while sampling or playing keeps what was gathered so far, and during a fit the best iterate so
    far (``interrupted``); the fits take seconds. After a Ctrl-C the question refits are skipped (those
    finished are kept), so that the command exits at once.
    """
    from boardeval.morris.match import _open_tablebase

    for name, v in (("per_subdatabase", per_subdatabase), ("games", games), ("seed", seed)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ParamsError(f"{name} must be a non-negative integer, got {v!r}")
    t0 = time.perf_counter()
    tb = _open_tablebase(str(tb_dir))
    data = build_data(
        tb,
        tb_dir,
        per_subdatabase=per_subdatabase,
        games=games,
        seed=seed,
        decided_share=decided_share,
        workers=workers,
        progress=progress,
    )
    if len(data) == 0 or not data.train.any() or data.train.all():
        if data.interrupted:  # Ctrl-C before there was anything to fit: nothing to keep, not a bad input
            raise KeyboardInterrupt
        raise ParamsError("too few positions to tune: raise per_subdatabase or games")
    interrupted = data.interrupted
    k = fit_k(data)
    seed_result = seed_fit(data, k)
    tuned = fit_weights(data, k)
    try:
        report(progress, 0, 1, "refits for the open questions")
        extra = questions(data, k) if with_questions and not data.interrupted else []
    except KeyboardInterrupt:
        interrupted = True
        extra = []
    interrupted = interrupted or data.interrupted
    make_weights(tuned.weights(), source="tuned fit")  # a valid weight set
    shipped = [fixed_fit(data, load_weights(name), f"shipped {name!r}") for name in ("tuned", "base")]
    return TuneReport(
        len(data),
        int((data.source == 0).sum()),
        int((data.source == 1).sum()),
        k,
        seed_result,
        tuned,
        extra,
        time.perf_counter() - t0,
        interrupted,
        shipped,
    )


def write_weights(
    weights: Mapping[str, float], path: str | Path, *, note: str = "", table: str = "tuned"
) -> Path:
    """Write a weight set as a ``[tuned]`` (or ``[table]``) profile TOML file (validated first)."""
    ws = make_weights(dict(weights), source="tuned weights")
    lines = ["# Nine Men's Morris weights tuned by `boardeval morris tune` / `tune-play`."]
    lines += [f"# {line}" for line in note.splitlines()]
    lines += ["", f"[{table}]"]
    lines += [f"{f} = {ws[f]!r}" for f in (*FIT_FEATURES, "initiative")]
    out = Path(path)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


# ------------------------------------------------------------------------- tuning by play (issue 12 §2)

PLAY_NAMES: Final[tuple[str, ...]] = PLACING_FEATURES
"""The weights tuned by play: the placing-phase features (every other weight stays where it is)."""

BLOCKADE_WINDOW: Final[int] = 10
"""A loss by "no legal move" within this many turns after placing ended counts as a blockade loss."""


@dataclass(frozen=True)
class GameJob:
    """One engine game of weight set ``a`` against ``b`` from a random opening (``seed``: two random
    placements per side; a pair of games shares it with colours swapped)."""

    seed: int
    a_white: bool
    a: tuple[tuple[str, float], ...]
    b: tuple[tuple[str, float], ...]
    depth: int | None
    time_limit: float | None


@dataclass(frozen=True)
class GameResult:
    """How a game went for ``a``: "win" / "draw" / "loss", the termination, turns played, and the turns
    between the end of placing and a blockade loss (None unless the game ended by "no legal move")."""

    result: str
    reason: str
    turns: int
    blockade_after: int | None


def _engine_for(weights: Mapping[str, float]) -> Engine:
    ws = make_weights(dict(weights), source="match weights")
    return Engine(coefficients(ws, PHASE_SCALE, NORM), EngineOptions(tt_bits=18))


def play_engine_game(job: GameJob) -> GameResult:
    """Play one game with the compiled engine (standard rules: threefold repetition, 200 turns)."""
    pos = Position.start()
    rng = make_rng(job.seed)
    for _ in range(4):  # two random placements per side
        turns = pos.legal_turns()
        pos.push(turns[int(rng.integers(len(turns)))])
    engines = (_engine_for(dict(job.a)), _engine_for(dict(job.b)))
    white, black = (engines[0], engines[1]) if job.a_white else (engines[1], engines[0])
    placing_end: int | None = None
    while (outcome := pos.outcome()) is None:
        if placing_end is None and not (pos.hand[0] or pos.hand[1]):
            placing_end = pos.turns
        eng = white if pos.side == 0 else black
        res = eng.search(pos, depth=job.depth, time_limit=job.time_limit)
        assert res.move is not None
        pos.push(res.move)
    a_side = 0 if job.a_white else 1
    result = "draw" if outcome.winner is None else ("win" if outcome.winner == a_side else "loss")
    reason = outcome.termination.value
    after = None
    if outcome.termination.value == "no_legal_move" and placing_end is not None:
        after = pos.turns - placing_end
    return GameResult(result, reason, pos.turns, after)


@dataclass
class MatchScore:
    """W/D/L of ``a`` against ``b`` with the score's 95% interval, the terminations, and blockade losses
    (``a`` / ``b`` lost by "no legal move" within :data:`BLOCKADE_WINDOW` turns after placing)."""

    wins: int
    draws: int
    losses: int
    interval: Interval
    reasons: dict[str, int]
    blockades_a: int
    blockades_b: int
    seconds: float
    interrupted: bool = False

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """(W + D/2) / games."""
        return self.interval.value

    def text(self) -> str:
        """One line: W/D/L, score [interval]."""
        iv = self.interval
        note = " (interrupted)" if self.interrupted else ""
        return (
            f"W {self.wins} / D {self.draws} / L {self.losses}, "
            f"score {iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]{note}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        iv = self.interval
        return {
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(iv.value, 4),
            "interval": [round(iv.lo, 4), round(iv.hi, 4)],
            "reasons": dict(sorted(self.reasons.items())),
            "blockades_a": self.blockades_a,
            "blockades_b": self.blockades_b,
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
        }


def engine_match(
    a: Mapping[str, float],
    b: Mapping[str, float],
    *,
    games: int,
    seed: int,
    depth: int | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    label: str = "match",
) -> MatchScore:
    """``games`` engine games of ``a`` against ``b`` through :func:`~boardeval.core.map_jobs`: every random
    opening (two random placements per side, from ``seed``) is played twice with colours swapped.

    Fixed ``depth`` is reproducible; a ``time_limit`` per move depends on the machine. Ctrl-C keeps the
    finished games (``interrupted``).
    """
    from boardeval.core import JobsInterrupted, map_jobs, spawn_seeds

    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ParamsError(f"games must be an even integer >= 2 (pairs of colours), got {games!r}")
    if depth is None and time_limit is None:
        raise ParamsError("an engine match needs a depth or a time limit per move")
    wa = tuple((f, float(make_weights(dict(a), source="weights a")[f])) for f in FEATURES)
    wb = tuple((f, float(make_weights(dict(b), source="weights b")[f])) for f in FEATURES)
    seeds = spawn_seeds(seed, games // 2)
    jobs = [GameJob(seeds[i // 2], i % 2 == 0, wa, wb, depth, time_limit) for i in range(games)]
    t0 = time.perf_counter()
    interrupted = False
    try:
        results = map_jobs(play_engine_game, jobs, workers=workers, progress=progress, label=label)
    except JobsInterrupted as exc:
        results = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    w = sum(r.result == "win" for r in results)
    d = sum(r.result == "draw" for r in results)
    lo = sum(r.result == "loss" for r in results)
    reasons: dict[str, int] = {}
    for r in results:
        key = f"{r.result}: {r.reason}"
        reasons[key] = reasons.get(key, 0) + 1

    def blockades(kind: str) -> int:
        return sum(
            r.result == kind and r.blockade_after is not None and r.blockade_after <= BLOCKADE_WINDOW
            for r in results
        )

    return MatchScore(
        w,
        d,
        lo,
        score_interval(w, d, lo),
        reasons,
        blockades("loss"),
        blockades("win"),
        time.perf_counter() - t0,
        interrupted,
    )


@dataclass
class PlayStep:
    """One round of :func:`tune_by_play`: the SPSA probe (``plus`` against ``minus``), the proposal and
    its acceptance match against the current weights."""

    round: int
    plus: dict[str, float]
    minus: dict[str, float]
    probe: MatchScore
    proposal: dict[str, float]
    check: MatchScore | None
    accepted: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "round": self.round,
            "plus": self.plus,
            "minus": self.minus,
            "probe": self.probe.to_dict(),
            "proposal": self.proposal,
            "check": None if self.check is None else self.check.to_dict(),
            "accepted": self.accepted,
        }


@dataclass
class PlayTuneReport:
    """What :func:`tune_by_play` did: the start, every round, the final weights."""

    start: dict[str, float]
    steps: list[PlayStep]
    final: dict[str, float]
    seconds: float
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "start": self.start,
            "steps": [s.to_dict() for s in self.steps],
            "final": self.final,
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
        }


def tune_by_play(
    start: Mapping[str, float],
    *,
    rounds: int,
    games: int,
    seed: int,
    depth: int | None = None,
    time_limit: float | None = None,
    names: Sequence[str] = PLAY_NAMES,
    perturbation: float = 0.5,
    learning_rate: float = 2.0,
    margin: float = 0.0,
    workers: int = 1,
    progress: Progress | None = None,
    log: Callable[[str], None] | None = None,
) -> PlayTuneReport:
    """SPSA over the weights ``names`` (relative steps; every weight >= 0) with seeded engine matches.

    Each round draws random signs ``delta`` (+-1 per weight), plays ``theta * (1 + c delta)`` against
    ``theta * (1 - c delta)`` (``c`` = ``perturbation``; a weight at 0 is perturbed by ``c`` absolutely),
    proposes ``theta + a (score - 1/2) delta * scale`` (``a`` = ``learning_rate``, ``scale`` = the weight
    or 1 at 0) and plays the proposal against the current weights: it is accepted when it scores above
    ``1/2 + margin``. Every match of a round uses fresh openings (``seed`` + round). Ctrl-C stops after the
    finished rounds (``interrupted``).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ParamsError(f"rounds must be a non-negative integer, got {rounds!r}")
    theta = dict(make_weights(dict(start), source="start weights"))
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ParamsError(f"unknown weight name(s) to tune: {unknown}; expected names from {list(FEATURES)}")
    rng = make_rng(seed)
    t0 = time.perf_counter()
    steps: list[PlayStep] = []
    say = log if log is not None else (lambda _msg: None)
    interrupted = False
    try:
        for r in range(rounds):
            signs = {n: float(s) for n, s in zip(names, rng.choice([-1, 1], len(names)), strict=True)}
            scale = {n: theta[n] if theta[n] > 0 else 1.0 for n in names}
            plus = dict(theta)
            minus = dict(theta)
            for n in names:
                plus[n] = max(0.0, theta[n] + perturbation * scale[n] * signs[n])
                minus[n] = max(0.0, theta[n] - perturbation * scale[n] * signs[n])
            probe = engine_match(
                plus, minus, games=games, seed=seed * 1000 + 2 * r, depth=depth, time_limit=time_limit,
                workers=workers, progress=progress, label=f"round {r + 1}: probe",
            )  # fmt: skip
            proposal = dict(theta)
            for n in names:
                step = learning_rate * (probe.score - 0.5) * scale[n] * signs[n]
                proposal[n] = round(max(0.0, theta[n] + step), 4)
            check = None
            accepted = False
            if any(proposal[n] != theta[n] for n in names):
                check = engine_match(
                    proposal, theta, games=games, seed=seed * 1000 + 2 * r + 1, depth=depth,
                    time_limit=time_limit, workers=workers, progress=progress, label=f"round {r + 1}: check",
                )  # fmt: skip
                accepted = check.score > 0.5 + margin
            steps.append(PlayStep(r + 1, plus, minus, probe, proposal, check, accepted))
            moved = ", ".join(f"{n} {theta[n]:g} -> {proposal[n]:g}" for n in names)
            say(
                f"round {r + 1}: probe {probe.text()}; proposal {moved}; "
                + (
                    f"check {check.text()} -> {'accepted' if accepted else 'rejected'}"
                    if check
                    else "no change"
                )
            )
            if accepted:
                theta = proposal
            if probe.interrupted or (check is not None and check.interrupted):
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    return PlayTuneReport(
        {n: float(start[n]) for n in FEATURES}, steps, theta, time.perf_counter() - t0, interrupted
    )
