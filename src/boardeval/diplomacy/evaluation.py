"""A fitted position evaluation for Diplomacy: each power's strength from that phase's measures.

Issue 14 §2.  Per power per phase, :data:`FEATURES` are read off the measures of
:func:`~boardeval.diplomacy.measures.compute_measures` (per-power measures as they are; the pair tables
aggregated per power).  Transparent models, fitted with scikit-learn on standardised features over a
corpus of bot games (:mod:`boardeval.diplomacy.corpus`), split train/test **by game**, predict:

=================  ==========================================================================  =========
target             what                                                                        model
=================  ==========================================================================  =========
``sc_change_1y``   the power's supply-centre change over the next game year                   Ridge
``sc_change_3y``   ... over the next three game years                                          Ridge
``eliminated_3y``  log-odds that the power is eliminated within three game years               logistic
=================  ==========================================================================  =========

The fitted numbers ship as data (``data/diplomacy_evaluation.json``: feature means and scales,
coefficients, intercepts, the corpus seed and size); :func:`evaluate_position` turns them into one
:class:`~boardeval.core.Breakdown` per power whose total *is* the score::

    term "<feature>"   raw = the measure's value, weight = standardised coefficient, scale = 1 / (its s.d.)
    term "intercept"   raw = 1, weight = intercept - sum(coefficient * mean / s.d.)

so ``contribution = raw * weight * scale`` and ``total = sum(contributions)`` equals the model's
decision value exactly (up to float rounding).  ``extras["vs_average"]`` gives each measure's
contribution relative to the corpus-average power (``coefficient * (value - mean) / s.d.``), the reading
that says which measure helped.

"Year ahead": the SC count at the same point of the year ``h`` years later, i.e. at the last phase of
the record at or before that point (centres change only at the end of autumn).  A target past the end
of the record is unknown (the row is left out) unless the game ended in a solo, whose final position
then stands for every later year.  A power is alive while it has a unit or a centre; eliminated powers
get an empty breakdown (their future is known: no centres).

Size: about 605 lines: one model's whole life (the features, the dataset, the fit, the fitted model
and its explained evaluation of a position or a game) with the two scores its report uses (Spearman,
ROC AUC); the parts change together when a feature is added.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from boardeval.core import Breakdown, DiplomacyError, Progress, Term, report
from boardeval.diplomacy.graph import FloatArray, load_map_graph
from boardeval.diplomacy.measures import GameMeasures, compute_measures
from boardeval.diplomacy.records import GameRecord

__all__ = [
    "FEATURES",
    "FEATURE_INFO",
    "TARGETS",
    "Dataset",
    "Evaluation",
    "EvaluationError",
    "FittedModel",
    "build_dataset",
    "default_evaluation",
    "evaluate_game",
    "evaluate_position",
    "fit_evaluation",
    "game_targets",
    "phase_key",
    "power_features",
    "roc_auc",
    "spearman",
    "split_games",
]


class EvaluationError(DiplomacyError):
    """Bad evaluation input: an unknown phase or target, a broken evaluation file, too little data."""


FEATURE_INFO: dict[str, str] = {
    "personal_progress": "SCs / R",
    "tempi": "sum of the units' tempo distances from home",
    "tempi_change": "change of tempi since the previous phase",
    "cohesion_1": "1 / mean distance to the nearest own unit",
    "cohesion_2": "1 / mean distance to the 2 nearest own units",
    "cohesion_3": "1 / mean distance to the 3 nearest own units",
    "stab_received": "own SCs that some other power reaches first (sum over powers)",
    "stab_given": "others' SCs this power reaches first (sum over powers)",
    "battle_tiedness": "share of units touching an enemy unit",
    "neighbour_effect": "mean SCs of the others - mean SCs of the neighbours",
    "fear_mutual_max": "largest mutual fear with one other power",
    "fear_mutual_sum": "mutual fear summed over the other powers",
    "fear_mutual_change": "change of the summed mutual fear since the previous phase",
}
"""The features, in model order, with what each one is."""

FEATURES: tuple[str, ...] = tuple(FEATURE_INFO)

TARGETS: dict[str, str] = {
    "sc_change_1y": "SC change over the next game year",
    "sc_change_3y": "SC change over the next three game years",
    "eliminated_3y": "log-odds of elimination within three game years",
}
"""The fitted targets (the keys of the evaluation file's ``models``)."""

_SEASONS = {"S": 0, "F": 1, "W": 2}
_TYPES = {"M": 0, "R": 1, "A": 2}


def phase_key(phase: str) -> tuple[int, int, int] | None:
    """``'F1905R'`` -> ``(1905, 1, 1)`` (year, season S/F/W, type M/R/A); ``None`` for other names."""
    if len(phase) < 3 or phase[0] not in _SEASONS or phase[-1] not in _TYPES or not phase[1:-1].isdigit():
        return None
    return int(phase[1:-1]), _SEASONS[phase[0]], _TYPES[phase[-1]]


# --------------------------------------------------------------------------------------------------------
# Features and targets of one game


def power_features(gm: GameMeasures) -> FloatArray:
    """``[T, P, F]`` the :data:`FEATURES` of every power at every phase (NaN = undefined)."""
    n_t, n_p = gm.personal_progress.shape
    off = ~np.eye(n_p, dtype=bool)
    stab = np.where(off, gm.stab_potential, 0.0)
    mutual = np.where(off, gm.fear_mutual, 0.0)
    mutual_sum = mutual.sum(axis=2)
    change = np.full((n_t, n_p), np.nan)
    change[1:] = mutual_sum[1:] - mutual_sum[:-1]
    columns = {
        "personal_progress": gm.personal_progress,
        "tempi": gm.tempi,
        "tempi_change": gm.tempi_change,
        "cohesion_1": gm.cohesion[0],
        "cohesion_2": gm.cohesion[1],
        "cohesion_3": gm.cohesion[2],
        "stab_received": stab.sum(axis=2),
        "stab_given": stab.sum(axis=1),
        "battle_tiedness": gm.battle_tiedness,
        "neighbour_effect": gm.neighbour_effect,
        "fear_mutual_max": mutual.max(axis=2),
        "fear_mutual_sum": mutual_sum,
        "fear_mutual_change": change,
    }
    out: FloatArray = np.stack([np.asarray(columns[name], dtype=np.float64) for name in FEATURES], axis=-1)
    return out


def _alive(gm: GameMeasures) -> np.ndarray:
    """``[T, P]`` a unit or a centre (``neighbour_effect`` is undefined exactly for eliminated powers)."""
    alive: np.ndarray = ~np.isnan(gm.neighbour_effect)
    return alive


@dataclass(frozen=True)
class GameTargets:
    """Per phase and power (``[T, P]``, NaN = unknown): the SC changes, and elimination within 3 years."""

    alive: np.ndarray
    sc_change_1y: FloatArray
    sc_change_3y: FloatArray
    eliminated_3y: FloatArray


def game_targets(gm: GameMeasures) -> GameTargets:
    """The targets of every (phase, power) of one game (see the module docstring for "year ahead")."""
    keys = [phase_key(p) for p in gm.phases]
    alive = _alive(gm)
    counts = gm.sc_counts.astype(np.float64)
    win = load_map_graph(gm.map_name).win
    solo = bool((gm.sc_counts[-1] >= win).any())
    known = [(k, t) for t, k in enumerate(keys) if k is not None]
    last_key = known[-1][0] if known else None

    def ahead(h: int) -> tuple[FloatArray, np.ndarray]:
        scs = np.full(counts.shape, np.nan)
        dead = np.zeros(counts.shape, dtype=bool)
        ok = np.zeros(len(keys), dtype=bool)
        for t, key in enumerate(keys):
            if key is None or last_key is None:
                continue
            target = (key[0] + h, key[1], key[2])
            if target > last_key and not solo:
                continue  # past the end of the record
            at = max(u for k, u in known if k <= target)
            scs[t], dead[t], ok[t] = counts[at], ~alive[at], True
        return scs, dead & ok[:, None]

    scs1, _ = ahead(1)
    scs3, dead3 = ahead(3)
    defined3 = ~np.isnan(scs3)
    elim = np.where(defined3, dead3.astype(np.float64), np.nan)
    live = np.where(alive, 1.0, np.nan)
    return GameTargets(
        alive=alive,
        sc_change_1y=(scs1 - counts) * live,
        sc_change_3y=(scs3 - counts) * live,
        eliminated_3y=elim * live,
    )


# --------------------------------------------------------------------------------------------------------
# A dataset of many games


@dataclass(frozen=True)
class Dataset:
    """Rows = (game, phase, power) with the power alive; ``X`` ``[N, F]`` (NaN = undefined feature)."""

    X: FloatArray
    targets: dict[str, FloatArray]
    game: np.ndarray
    """Game index of each row (into ``games``)."""
    phase: tuple[str, ...]
    power: tuple[str, ...]
    games: tuple[str, ...]
    """Game names (corpus keys or game ids)."""

    def __len__(self) -> int:
        return len(self.X)

    def rows(self, games: np.ndarray) -> np.ndarray:
        """Boolean row mask of the rows whose game is in the boolean game mask ``games``."""
        mask: np.ndarray = np.asarray(games, dtype=bool)[self.game]
        return mask


def build_dataset(
    records: Iterable[GameRecord | tuple[str, GameRecord]],
    *,
    progress: Progress | None = None,
    total: int = 0,
) -> Dataset:
    """Features and targets of every alive power at every phase of ``records``.

    Items are records (named by their game id) or ``(name, record)`` pairs.  Ctrl-C is not caught here:
    the caller decides (the benchmark stops; the CLI fit reports it).
    """
    xs: list[FloatArray] = []
    ys: dict[str, list[FloatArray]] = {name: [] for name in TARGETS}
    game_idx: list[np.ndarray] = []
    phases: list[str] = []
    powers: list[str] = []
    names: list[str] = []
    for k, item in enumerate(records):
        name, record = item if isinstance(item, tuple) else (item.game_id, item)
        gm = compute_measures(record)
        feats = power_features(gm)
        tg = game_targets(gm)
        t_idx, p_idx = np.nonzero(tg.alive)
        xs.append(feats[t_idx, p_idx])
        for target in TARGETS:
            ys[target].append(getattr(tg, target)[t_idx, p_idx])
        game_idx.append(np.full(len(t_idx), len(names), dtype=np.int64))
        phases.extend(gm.phases[t] for t in t_idx)
        powers.extend(gm.powers[p] for p in p_idx)
        names.append(name)
        report(progress, k + 1, total or k + 1, "games measured")
    if not names:
        raise EvaluationError("no games to build a dataset from")
    return Dataset(
        X=np.concatenate(xs),
        targets={t: np.concatenate(v) for t, v in ys.items()},
        game=np.concatenate(game_idx),
        phase=tuple(phases),
        power=tuple(powers),
        games=tuple(names),
    )


def split_games(n_games: int, test_fraction: float, seed: int) -> np.ndarray:
    """A seeded boolean mask of the test games (``round(n * fraction)`` of them, at least one each side)."""
    from boardeval.core import make_rng

    if n_games < 2:
        raise EvaluationError(f"need at least 2 games to split train/test, got {n_games}")
    if not 0.0 < test_fraction < 1.0:
        raise EvaluationError(f"test fraction must be between 0 and 1, got {test_fraction!r}")
    n_test = min(max(1, round(n_games * test_fraction)), n_games - 1)
    test = np.zeros(n_games, dtype=bool)
    test[make_rng(seed).permutation(n_games)[:n_test]] = True
    return test


# --------------------------------------------------------------------------------------------------------
# Fitted models as data


@dataclass(frozen=True)
class FittedModel:
    """One transparent model on standardised features: ``z = (x - mean) / scale``, value = coef . z + b.

    ``kind`` is ``"linear"`` (the value is the prediction) or ``"logistic"`` (the value is the log-odds).
    Undefined features (NaN) are replaced by ``mean`` (z = 0) before scoring.
    """

    target: str
    kind: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    penalty: float
    """Ridge alpha (linear) or inverse regularisation C (logistic)."""

    def _arrays(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        return np.asarray(self.mean), np.asarray(self.scale), np.asarray(self.coef)

    def decision(self, X: FloatArray) -> FloatArray:
        """The model's value for rows ``X`` ``[N, F]`` (vectorised; equals the breakdown totals)."""
        mean, scale, coef = self._arrays()
        filled = np.where(np.isnan(X), mean, X)
        out: FloatArray = ((filled - mean) / scale) @ coef + self.intercept
        return out

    @property
    def baseline(self) -> float:
        """The weight of the ``intercept`` term: the value when every raw measure is 0."""
        return self.intercept - math.fsum(
            c * m / s for c, m, s in zip(self.coef, self.mean, self.scale, strict=True)
        )

    def breakdown(self, x: Sequence[float], label: str = "") -> Breakdown:
        """The exact breakdown of one row: a term per feature plus ``intercept`` (see the module doc)."""
        terms = []
        vs_average = {}
        imputed = []
        for name, value, m, s, c in zip(self.features, x, self.mean, self.scale, self.coef, strict=True):
            raw = float(value)
            if math.isnan(raw):
                raw = m
                imputed.append(name)
            terms.append(Term(name, raw, c, 1.0 / s))
            vs_average[name] = c * (raw - m) / s
        terms.append(Term("intercept", 1.0, self.baseline))
        extras: dict[str, Any] = {
            "target": self.target,
            "vs_average": vs_average,
            "average": self.intercept,
            "imputed": imputed,
        }
        if self.kind == "logistic":
            total = math.fsum(t.contribution for t in terms)
            extras["probability"] = 1.0 / (1.0 + math.exp(-total)) if total > -700 else 0.0
        return Breakdown(tuple(terms), label, extras)

    def to_json(self) -> dict[str, Any]:
        """The model as plain JSON data."""
        return {
            "kind": self.kind,
            "penalty": self.penalty,
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
        }

    @classmethod
    def from_json(cls, target: str, data: Mapping[str, Any], source: str) -> FittedModel:
        """Read one model (:class:`EvaluationError` naming ``source`` for anything malformed)."""
        try:
            features = tuple(str(f) for f in data["features"])
            model = cls(
                target=target,
                kind=str(data["kind"]),
                features=features,
                mean=tuple(float(v) for v in data["mean"]),
                scale=tuple(float(v) for v in data["scale"]),
                coef=tuple(float(v) for v in data["coef"]),
                intercept=float(data["intercept"]),
                penalty=float(data["penalty"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EvaluationError(f"{source}: model {target!r} is malformed ({exc!r})") from None
        if model.kind not in ("linear", "logistic"):
            raise EvaluationError(f"{source}: model {target!r} has unknown kind {model.kind!r}")
        if features != FEATURES:
            raise EvaluationError(
                f"{source}: model {target!r} has features {list(features)}, not {list(FEATURES)}"
            )
        sizes = {len(model.mean), len(model.scale), len(model.coef)}
        if sizes != {len(FEATURES)}:
            raise EvaluationError(f"{source}: model {target!r} needs {len(FEATURES)} means, scales, coefs")
        values = [*model.mean, *model.scale, *model.coef, model.intercept]
        if not all(math.isfinite(v) for v in values) or min(model.scale) <= 0:
            raise EvaluationError(f"{source}: model {target!r} has non-finite values or a scale <= 0")
        return model


@dataclass(frozen=True)
class Evaluation:
    """The fitted models by target, and how they were fitted (corpus seed and size, split, penalties)."""

    models: dict[str, FittedModel]
    corpus: dict[str, Any] = field(default_factory=dict)

    def model(self, target: str) -> FittedModel:
        """The model of one target (:class:`EvaluationError` listing the targets)."""
        if target not in self.models:
            raise EvaluationError(f"unknown target {target!r}: choose from {', '.join(self.models)}")
        return self.models[target]

    def to_json(self) -> dict[str, Any]:
        """``{"version": 1, "features", "corpus", "models": {target: model}}``."""
        return {
            "version": 1,
            "features": list(FEATURES),
            "corpus": self.corpus,
            "models": {t: m.to_json() for t, m in self.models.items()},
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the evaluation as JSON."""
        try:
            Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise EvaluationError(f"cannot write {str(path)!r}: {exc}") from None

    @classmethod
    def from_json(cls, data: Any, source: str = "evaluation") -> Evaluation:
        """Read an evaluation document (:class:`EvaluationError` naming ``source``)."""
        if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
            raise EvaluationError(f"{source}: not an evaluation file (no 'models' object)")
        models = {str(t): FittedModel.from_json(str(t), m, source) for t, m in data["models"].items()}
        unknown = [t for t in models if t not in TARGETS]
        if unknown or not models:
            raise EvaluationError(f"{source}: unknown or missing targets {unknown}: expected {list(TARGETS)}")
        corpus = data.get("corpus", {})
        return cls(models, dict(corpus) if isinstance(corpus, dict) else {})

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Evaluation:
        """Read an evaluation JSON file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EvaluationError(f"cannot read evaluation file {str(path)!r}: {exc}") from None
        return cls.from_json(data, repr(str(path)))


_DATA_FILE = "diplomacy_evaluation.json"


@functools.lru_cache(maxsize=1)
def default_evaluation() -> Evaluation:
    """The shipped fit (``boardeval/diplomacy/data/diplomacy_evaluation.json``)."""
    text = resources.files("boardeval.diplomacy").joinpath("data", _DATA_FILE).read_text(encoding="utf-8")
    return Evaluation.from_json(json.loads(text), f"shipped {_DATA_FILE}")


def fit_evaluation(
    data: Dataset,
    train_games: np.ndarray,
    *,
    alpha: float = 1.0,
    c: float = 1.0,
    corpus: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Fit every target on the rows of the training games (a boolean mask over ``data.games``).

    Standardisation (mean, s.d.) comes from the training rows with the feature defined; undefined
    features are then set to the mean.  Rows whose target is unknown are left out of that target's fit.
    """
    from sklearn.linear_model import LogisticRegression, Ridge

    rows = data.rows(train_games)
    X = data.X[rows]
    if len(X) < 2 * len(FEATURES):
        raise EvaluationError(f"too few training rows to fit {len(FEATURES)} features: {len(X)}")
    with np.errstate(all="ignore"):
        mean = np.nanmean(X, axis=0)
        scale = np.nanstd(X, axis=0)
    mean = np.where(np.isfinite(mean), mean, 0.0)
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    Z = (np.where(np.isnan(X), mean, X) - mean) / scale
    models = {}
    for target in TARGETS:
        y = data.targets[target][rows]
        ok = ~np.isnan(y)
        if target == "eliminated_3y":
            labels = y[ok].astype(int)
            if len(set(labels.tolist())) < 2:
                raise EvaluationError(f"target {target!r}: the training rows hold one class only")
            clf = LogisticRegression(C=c, max_iter=2000)
            clf.fit(Z[ok], labels)
            coef, intercept, kind, penalty = clf.coef_[0], float(clf.intercept_[0]), "logistic", c
        else:
            reg = Ridge(alpha=alpha)
            reg.fit(Z[ok], y[ok])
            coef, intercept, kind, penalty = reg.coef_, float(reg.intercept_), "linear", alpha
        models[target] = FittedModel(
            target=target,
            kind=kind,
            features=FEATURES,
            mean=tuple(float(v) for v in mean),
            scale=tuple(float(v) for v in scale),
            coef=tuple(float(v) for v in coef),
            intercept=intercept,
            penalty=penalty,
        )
    info = dict(corpus or {})
    info.update(
        {
            "games": len(data.games),
            "train_games": int(np.sum(train_games)),
            "test_games": int(len(data.games) - np.sum(train_games)),
            "train_rows": int(rows.sum()),
        }
    )
    return Evaluation(models, info)


# --------------------------------------------------------------------------------------------------------
# Evaluating positions


def _phase_index(gm: GameMeasures, phase: str | None, game_id: str) -> int:
    if phase is None:
        return len(gm.phases) - 1
    # exact, as the web API and the record reader (power names) are: a near miss is named, not fixed up
    if phase not in gm.phases:
        near = phase.strip().upper()
        if near in gm.phases:
            raise EvaluationError(
                f"game {game_id!r} has no phase {phase!r} "
                f"(phase names are upper case, without spaces: {near!r})"
            )
        shown = ", ".join(gm.phases[:3]) + (" ..." if len(gm.phases) > 3 else "")
        raise EvaluationError(f"game {game_id!r} has no phase {phase!r} (phases: {shown})")
    return gm.phases.index(phase)


def evaluate_position(
    record: GameRecord,
    phase: str | None = None,
    *,
    target: str = "sc_change_1y",
    evaluation: Evaluation | None = None,
    measures: GameMeasures | None = None,
) -> dict[str, Breakdown]:
    """Per power, the breakdown of its score at ``phase`` (default: the record's last phase).

    The score is the fitted ``target`` (default: the predicted SC change over the next year); its
    breakdown adds up exactly to it.  An eliminated power gets an empty breakdown (total 0) with
    ``extras["eliminated"] = True``.  ``measures`` may pass the record's already computed measures.
    """
    model = (evaluation or default_evaluation()).model(target)
    gm = measures if measures is not None else compute_measures(record)
    t = _phase_index(gm, phase, record.game_id)
    feats = power_features(gm)[t]
    alive = _alive(gm)[t]
    out: dict[str, Breakdown] = {}
    for p, power in enumerate(gm.powers):
        label = f"{power} {gm.phases[t]}"
        if not alive[p]:
            out[power] = Breakdown((), label, {"target": target, "eliminated": True})
        else:
            out[power] = model.breakdown(feats[p].tolist(), label)
    return out


def evaluate_game(
    record: GameRecord,
    *,
    target: str = "sc_change_1y",
    evaluation: Evaluation | None = None,
    measures: GameMeasures | None = None,
) -> FloatArray:
    """``[T, P]`` the score of every power at every phase (NaN for eliminated powers), vectorised."""
    model = (evaluation or default_evaluation()).model(target)
    gm = measures if measures is not None else compute_measures(record)
    feats = power_features(gm)
    n_t, n_p, n_f = feats.shape
    scores = model.decision(feats.reshape(-1, n_f)).reshape(n_t, n_p)
    out: FloatArray = np.where(_alive(gm), scores, np.nan)
    return out


# --------------------------------------------------------------------------------------------------------
# Figures of merit


def spearman(x: FloatArray, y: FloatArray) -> float:
    """Spearman's rank correlation over the rows where both are defined (NaN if < 3 rows or constant)."""
    from scipy.stats import spearmanr

    ok = ~(np.isnan(x) | np.isnan(y))
    if ok.sum() < 3 or np.ptp(x[ok]) == 0 or np.ptp(y[ok]) == 0:
        return float("nan")
    return float(spearmanr(x[ok], y[ok]).statistic)


def roc_auc(score: FloatArray, label: FloatArray) -> float:
    """ROC AUC of ``score`` for the 0/1 ``label`` over defined rows (NaN with one class only)."""
    from sklearn.metrics import roc_auc_score

    ok = ~(np.isnan(score) | np.isnan(label))
    labels = label[ok].astype(int)
    if len(set(labels.tolist())) < 2:
        return float("nan")
    return float(roc_auc_score(labels, score[ok]))
