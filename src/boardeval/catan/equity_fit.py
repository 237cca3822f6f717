"""Fitting the seat-equity model on play, and measuring it (issue 26).

Data: boards played by four ``advisor`` openers (:mod:`.equity_play`): per board the wins of each seat over
its games. With equal advisors the opening is a function of the board, so each board gives four rows
(its seats' terms, :func:`~.equity.draft_features`) with ``wins`` successes out of ``games``.

Model: a conditional logit (the softmax over a board's seats of a linear score, :func:`~.equity.
predict_probabilities`): which of the four seats wins each game. Fitted by maximum likelihood with an L2
penalty (:data:`L2`, per game, on the terms centred per board and standardised over the training rows;
the coefficients are turned back into raw units) by scipy's L-BFGS, from a zero start: deterministic.

Measures, all on held-out boards (K-fold cross-validation over boards; each fold is one job of
:func:`boardeval.core.map_jobs`, so the folds run serially, on a pool or on Dask with the same result):

- log-loss per game (``-mean log p[winner]``) against "25 % each" (``ln 4``) and against the sum-of-scores
  baseline (``p_i`` proportional to the seat's summed seed-000 spot scores);
- calibration: seats binned by predicted probability, the mean prediction against the measured win rate;
- per board, predicted against measured best-minus-worst spread: Pearson correlation, and the share of the
  measured seat deviations from 25 % that the predictions explain (``1 - SS(measured - predicted) /
  SS(measured - 25 %)``), beside the share that binomial chance alone leaves unexplainable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import Board
from boardeval.catan.equity import FEATURES, SeatModel, centred, draft_features, predict_probabilities
from boardeval.catan.equity_play import BoardPlay
from boardeval.core import CatanError, Progress, map_jobs, spawn_seeds

__all__ = ["L2", "FitReport", "cross_validate", "features_of", "fit_model", "log_loss", "score_baseline"]

FloatArray = npt.NDArray[np.float64]
L2 = 0.03
"""L2 penalty of the fit, ``L2 / 2 * |beta|^2`` on standardised terms against the mean log-loss per game
(chosen by cross-validation over boards, 0.01-0.1 within 0.001 nats of each other)."""


def features_of(plays: Sequence[BoardPlay]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(x, wins, games)``: raw terms (B, 4, k), wins per seat (B, 4), finished games per board (B,)."""
    x = np.stack([draft_features(Board.parse(p.board)) for p in plays])
    wins = np.array([p.wins for p in plays], dtype=np.float64)
    games = wins.sum(axis=1)
    return x, wins, games


def fit_model(
    x: FloatArray, wins: FloatArray, games: FloatArray, meta: dict[str, Any] | None = None
) -> SeatModel:
    """The conditional-logit fit (module docstring) on boards ``x`` (B, seats, k) with their wins."""
    from scipy.optimize import minimize

    c = centred(x)
    scale = c.reshape(-1, c.shape[-1]).std(axis=0)
    scale[scale == 0] = 1.0
    z = c / scale
    total = float(games.sum())
    if total <= 0:
        raise CatanError("no finished games to fit the seat-equity model on")

    def loss(beta: FloatArray) -> tuple[float, FloatArray]:
        s = z @ beta
        s = s - s.max(axis=1, keepdims=True)
        logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        resid = wins - np.exp(logp) * games[:, None]  # observed minus expected wins per seat
        value = -float((wins * logp).sum()) / total + 0.5 * L2 * float(beta @ beta)
        grad = -np.einsum("bi,bik->k", resid, z) / total + L2 * beta
        return value, grad

    res = minimize(loss, np.zeros(z.shape[-1]), jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    coef = res.x / scale
    return SeatModel(FEATURES, tuple(float(v) for v in coef), dict(meta or {}))


def log_loss(p: FloatArray, wins: FloatArray) -> float:
    """Mean ``-log p[winner]`` per finished game."""
    return float(-(wins * np.log(np.clip(p, 1e-12, 1.0))).sum() / wins.sum())


def score_baseline(x: FloatArray) -> FloatArray:
    """The sum-of-scores baseline: each seat's share of the summed opening scores."""
    s = np.clip(x[..., 0], 1e-9, None)
    return np.asarray(s / s.sum(axis=-1, keepdims=True), dtype=np.float64)


@dataclass(frozen=True)
class _Fold:
    x: FloatArray
    wins: FloatArray
    games: FloatArray
    test: npt.NDArray[np.int64]


def _fit_fold(fold: _Fold) -> FloatArray:
    """One fold's job: fit on the other boards, predict the fold's."""
    train = np.setdiff1d(np.arange(len(fold.x)), fold.test)
    model = fit_model(fold.x[train], fold.wins[train], fold.games[train])
    return predict_probabilities(fold.x[fold.test], model)


@dataclass(frozen=True)
class FitReport:
    """Held-out (cross-validated) predictions and the figures computed from them."""

    folds: int
    boards: int
    games: int
    held_out: FloatArray  # (B, 4) out-of-fold probabilities
    log_loss: float
    log_loss_uniform: float
    log_loss_scores: float
    calibration: tuple[tuple[float, float, int], ...]  # (mean predicted, measured rate, seats) per bin
    spread_r: float
    explained: float
    explainable: float
    predicted_spread_mean: float
    measured_spread_mean: float

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "held_out"}
        out["calibration"] = [list(c) for c in self.calibration]
        return out


def _calibration(
    p: FloatArray, rates: FloatArray, weights: FloatArray, bins: int
) -> tuple[tuple[float, float, int], ...]:
    flat_p, flat_r = p.reshape(-1), rates.reshape(-1)
    flat_w = np.repeat(weights, p.shape[1])
    edges = np.quantile(flat_p, np.linspace(0, 1, bins + 1))
    out = []
    for k in range(bins):
        m = (flat_p >= edges[k]) & ((flat_p < edges[k + 1]) if k < bins - 1 else (flat_p <= edges[k + 1]))
        if m.any():
            w = flat_w[m]
            out.append((float(flat_p[m].mean()), float((flat_r[m] * w).sum() / w.sum()), int(m.sum())))
    return tuple(out)


def cross_validate(
    plays: Sequence[BoardPlay],
    *,
    folds: int = 5,
    seed: int = 0,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    bins: int = 8,
) -> FitReport:
    """K-fold cross-validation over boards (seeded split), the folds through the job runner."""
    if len(plays) < 2 * folds:
        raise CatanError(
            f"need at least {2 * folds} boards for {folds}-fold cross-validation, got {len(plays)}"
        )
    x, wins, games = features_of(plays)
    order = np.random.default_rng(spawn_seeds(seed, 1)[0]).permutation(len(plays))
    parts = np.array_split(order, folds)
    jobs = [_Fold(x, wins, games, np.sort(t)) for t in parts]
    preds = map_jobs(_fit_fold, jobs, workers=workers, address=address, progress=progress, label="folds")
    p = np.zeros_like(wins)
    for job, pr in zip(jobs, preds, strict=True):
        p[job.test] = pr
    rates = wins / games[:, None]
    pred_spread = p.max(axis=1) - p.min(axis=1)
    meas_spread = rates.max(axis=1) - rates.min(axis=1)
    r = float(np.corrcoef(pred_spread, meas_spread)[0, 1]) if len(plays) > 2 else math.nan
    ss_tot = float(((rates - 0.25) ** 2).sum())
    ss_res = float(((rates - p) ** 2).sum())
    noise = float((p * (1 - p) / games[:, None]).sum())  # binomial chance alone, given the predictions
    return FitReport(
        folds,
        len(plays),
        int(games.sum()),
        p,
        log_loss(p, wins),
        math.log(4.0),
        log_loss(score_baseline(x), wins),
        _calibration(p, rates, games, bins),
        r,
        1.0 - ss_res / ss_tot,
        1.0 - noise / ss_tot,
        float(pred_spread.mean()),
        float(meas_spread.mean()),
    )
