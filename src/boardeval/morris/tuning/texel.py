"""Texel tuning of the Morris evaluation against ground truth (issue 13 section 3).

Data: labelled moving/flying positions sampled from our endgame tablebase and placing positions from
searched self-play games, as feature rows (:mod:`.data`, which says how they are drawn and labelled).

Model: ``p = sigmoid(k * eval)``, with ``eval`` the evaluation of :mod:`boardeval.morris._evaluate` (weights x
the seed's phase scales / the normalisation). ``k`` is fitted first for the seed weights (one-dimensional, on
the training set): the "before" figures. Then ``k`` and the weights are fitted together by bounded L-BFGS-B
(``scipy.optimize``; weights >= 0) on the mean cross-entropy plus a small pull towards the seed weights, with
``material`` held at the seed's 10 as the anchor of the scale (:data:`ANCHOR`). Train/validation split by
position (moving/flying) and by game (placing: the positions of one game are not independent), seeded. Figures
on the held-out positions: log-loss and sign accuracy (``eval > 0`` <=> the side to move wins).

The seed's open questions (section 7) are answered by refitting with one change at a time
(:func:`questions`): per-phase weights instead of shared weights x phase scales, a stricter moving-phase
``fork_threats`` (only threat points no opposing man can block by sliding onto them), and ring weights
(fork without the middle-ring bonus; mobility weighted by the destination's ring).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from boardeval.core import ParamsError, Progress, report
from boardeval.morris._evaluate import NORM, PHASE_SCALE, load_weights, make_weights
from boardeval.morris._features import PLACING_FEATURES
from boardeval.morris.tuning.data import EXTRA, FIT_FEATURES, PHASES, TuneData, build_data

__all__ = [
    "ANCHOR",
    "Fit",
    "TuneReport",
    "fit_k",
    "fit_weights",
    "fixed_fit",
    "metrics",
    "questions",
    "seed_fit",
    "tune_weights",
    "write_weights",
]


_PULL: Final[float] = 1e-4  # pull towards the seed weights (per weight, squared, relative)
_SEED = load_weights("seed")
ANCHOR: Final[str] = "material"
"""The weight held at the seed's value: it fixes the scale (endgame data alone would even drive it to 0:
in 3v4 the flying side with fewer men wins), so the search's units and its mate bounds stay put."""


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
    for p, ph in enumerate(PHASES):
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
    for p, ph in enumerate(PHASES):
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
    for p, ph in enumerate(PHASES):
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
        """JSON-able form (figures rounded; a figure with nothing to measure, e.g. the sign accuracy of
        decided positions when a Ctrl-C left the placing phase none, is null: JSON has no NaN)."""

        def figure(v: float) -> float | None:
            return None if math.isnan(v) else round(v, 4)

        def fit(f: Fit) -> dict[str, Any]:
            return {
                "name": f.name,
                "k": round(f.k, 5),
                "validation": {k: figure(v) for k, v in f.validation.items()},
                "train": {k: figure(v) for k, v in f.train.items()},
                "by_phase": {p: {k: figure(v) for k, v in m.items()} for p, m in f.by_phase.items()},
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
