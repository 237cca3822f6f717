"""Figures of issue 14 §2-§3: the fitted Diplomacy evaluation and alliance detection, on bot and human games.

    .venv/bin/python benchmarks/diplomacy_evaluation.py --corpus /tmp/corpus --games 2000 --seed 2026

Without ``CORPUS/corpus.json`` the corpus is generated first (``--games``, ``--seed``, ``--workers``: the
same as ``boardeval diplomacy corpus``).  Then, with the shipped fit's split (``--test-fraction``,
``--split-seed``), it refits the evaluation on the training games, checks that the refit equals the
shipped file (``src/boardeval/diplomacy/data/diplomacy_evaluation.json``) when the corpus is the one it
was fitted on, and prints:

* each measure's own predictive power on the held-out games: Spearman rho with the SC change over one
  and three years, ROC AUC for "gains a centre next year" and "eliminated within 3 years" (a measure's
  direction is taken from the training games; "(-)" marks a measure that predicts by being low);
* the combined evaluation against the best single measure, with 95 % bootstrap intervals over held-out
  games for the difference;
* the same on the three human games shipped with the engine;
* alliance detection on the held-out games of the mixes with seeded allies (precision, recall, the base
  rate of guessing), the variants of the rule, and the detections on the human games.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from _harness import add_common_options, load_text
from boardeval.diplomacy import compute_measures, load_records, shipped_game_paths
from boardeval.diplomacy.alliances import CALM_THRESHOLD, detect_alliances, score_detection
from boardeval.diplomacy.corpus import generate_corpus, iter_corpus, read_manifest
from boardeval.diplomacy.evaluation import (
    FEATURES,
    Dataset,
    Evaluation,
    build_dataset,
    default_evaluation,
    fit_evaluation,
    roc_auc,
    spearman,
    split_games,
)

COLUMNS = ("rho_1y", "rho_3y", "auc_gain_1y", "auc_elim_3y")
MODEL_OF = {
    "rho_1y": "sc_change_1y",
    "rho_3y": "sc_change_3y",
    "auc_gain_1y": "sc_change_1y",
    "auc_elim_3y": "eliminated_3y",
}


def _metric(column: str, score: np.ndarray, data: Dataset, rows: np.ndarray) -> float:
    t = data.targets
    if column == "rho_1y":
        return spearman(score, t["sc_change_1y"][rows])
    if column == "rho_3y":
        return spearman(score, t["sc_change_3y"][rows])
    if column == "auc_gain_1y":
        y = t["sc_change_1y"][rows]
        return roc_auc(score, np.where(np.isnan(y), np.nan, (y > 0).astype(float)))
    return roc_auc(score, t["eliminated_3y"][rows])


def _single_scores(data: Dataset, train: np.ndarray) -> dict[str, dict[str, float]]:
    """Per feature and column, the sign (+1/-1) that makes the feature predict on the training rows."""
    signs: dict[str, dict[str, float]] = {}
    for k, name in enumerate(FEATURES):
        x = data.X[train, k]
        signs[name] = {}
        for column in COLUMNS:
            value = _metric(column, x, data, train)
            centre = 0.0 if column.startswith("rho") else 0.5
            signs[name][column] = -1.0 if np.isfinite(value) and value < centre else 1.0
    return signs


def _table(
    title: str,
    data: Dataset,
    rows: np.ndarray,
    evaluation: Evaluation,
    signs: dict[str, dict[str, float]],
) -> dict[str, dict[str, float]]:
    """Print and return the per-measure and combined figures over ``rows``."""
    out: dict[str, dict[str, float]] = {}
    print(
        f"\n{title}: {int(rows.sum())} rows (alive power x phase), {len(set(data.game[rows].tolist()))} games"
    )
    print(f"{'measure':22s}" + "".join(f"{c:>14s}" for c in COLUMNS))
    for k, name in enumerate(FEATURES):
        x = data.X[rows, k]
        out[name] = {}
        cells = []
        for column in COLUMNS:
            sign = signs[name][column]
            value = _metric(column, sign * x, data, rows)
            if column.startswith("rho"):
                value *= sign  # rho keeps its own sign; AUCs are oriented by the training direction
            out[name][column] = value
            mark = " (-)" if sign < 0 and column.startswith("auc") else ""
            cells.append(f"{value:10.3f}{mark:4s}")
        print(f"{name:22s}" + "".join(cells))
    combined = {}
    for column in COLUMNS:
        score = evaluation.model(MODEL_OF[column]).decision(data.X[rows])
        combined[column] = _metric(column, score, data, rows)
    out["combined"] = combined
    print(f"{'COMBINED (fitted)':22s}" + "".join(f"{combined[c]:10.3f}    " for c in COLUMNS))
    best = {}
    for column in COLUMNS:
        strength = {n: abs(v[column]) for n, v in out.items() if n != "combined" and np.isfinite(v[column])}
        best[column] = max(strength, key=lambda n: strength[n])
    print(
        f"{'best single measure':22s}"
        + "".join(f"{abs(out[best[c]][c]):10.3f}    " for c in COLUMNS)
        + "   ("
        + ", ".join(f"{c}: {best[c]}" for c in COLUMNS)
        + ")"
    )
    return out


def _bootstrap(
    data: Dataset,
    rows: np.ndarray,
    evaluation: Evaluation,
    figures: dict[str, dict[str, float]],
    signs: dict[str, dict[str, float]],
    reps: int,
    seed: int,
) -> None:
    """95 % percentile intervals of (combined - best single measure) resampling held-out games."""
    rng = np.random.default_rng(seed)
    games = np.unique(data.game[rows])
    index = {g: np.flatnonzero(rows & (data.game == g)) for g in games.tolist()}
    print(f"\ncombined - best single measure on held-out games, {reps} bootstrap resamples of games:")
    for column in COLUMNS:
        singles = {
            n: abs(v[column]) for n, v in figures.items() if n != "combined" and np.isfinite(v[column])
        }
        best = max(singles, key=lambda n: singles[n])
        k = FEATURES.index(best)
        model = evaluation.model(MODEL_OF[column])
        diffs = []
        for _ in range(reps):
            pick = np.concatenate([index[g] for g in rng.choice(games, size=len(games)).tolist()])
            sub = Dataset(
                data.X[pick], {t: v[pick] for t, v in data.targets.items()}, data.game[pick], (), (), ()
            )
            mask = np.ones(len(pick), dtype=bool)
            comb = _metric(column, model.decision(sub.X), sub, mask)
            single = _metric(column, signs[best][column] * sub.X[:, k], sub, mask)
            diffs.append(abs(comb) - abs(single) if column.startswith("rho") else comb - single)
        lo, hi = np.nanpercentile(diffs, [2.5, 97.5])
        point = figures["combined"][column]
        point_best = figures[best][column]
        d0 = abs(point) - abs(point_best) if column.startswith("rho") else point - point_best
        print(f"  {column:12s} best single = {best:20s} difference {d0:+.3f}  [{lo:+.3f}, {hi:+.3f}]")


def _alliances(corpus: Path, test_keys: set[str], human: list, thresholds: list[float]) -> None:
    print("\nalliance detection on held-out games with seeded allied pairs (rule: mutual calmest partners)")
    results: dict[float, list] = {th: [] for th in thresholds}
    for game in iter_corpus(corpus):
        if not game.allies or game.key not in test_keys:
            continue
        gm = compute_measures(game.record)
        for th in thresholds:
            results[th].append((detect_alliances(game.record, threshold=th, measures=gm), game.allies))
    for th in thresholds:
        mark = "  <- default" if th == CALM_THRESHOLD else ""
        n = len(results[th])
        for label, years in (
            ("all years", None),
            ("1901-1904", range(1901, 1905)),
            ("1905-1911", range(1905, 1912)),
        ):
            s = score_detection(results[th], years=years)
            print(
                f"  threshold {th:4.2f} {label:10s} games {n:4d}  detected {s.detected:5d}  "
                f"known {s.known:5d}  precision {s.precision:.3f}  recall {s.recall:.3f}  "
                f"(guessing: precision {s.base_rate:.3f}){mark}"
            )
    print("\ndetected alliances on the human games (default rule):")
    for record in human:
        result = detect_alliances(record)
        print(f"  game {record.game_id}:")
        for year in result.years:
            pairs = ", ".join(f"{a[:3].title()}-{b[:3].title()}" for a, b in year.pairs) or "-"
            print(f"    {year.year}: {pairs}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, required=True, help="corpus folder (generated if missing)")
    add_common_options(
        parser,
        games=2000,
        seed=2026,
        workers=2,
        games_help="games to generate when the corpus is missing",
        seed_help="corpus seed when generating",
    )
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--split-seed", type=int, default=0)
    parser.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamples (0: none)")
    parser.add_argument("--skip", action="append", default=[], choices=["alliances", "humans", "bootstrap"])
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    if not (args.corpus / "corpus.json").exists():
        print(f"generating {args.games} games (seed {args.seed}) into {args.corpus} ...", flush=True)
        result = generate_corpus(args.corpus, args.games, args.seed, workers=args.workers, progress=_dots())
        print(f"\n  {result.total} games in {time.perf_counter() - t0:.0f} s")
    manifest = read_manifest(args.corpus)
    print(f"corpus {args.corpus}: seed {manifest['seed']}, {manifest['games']} games, mixes:")
    for m in manifest["mixes"]:
        print(f"  {m['bots']:18s} allied pairs {m['allies']}  games {m['games']}")
    t1 = time.perf_counter()
    total = sum(int(m["games"]) for m in manifest["mixes"])
    data = build_dataset(((g.key, g.record) for g in iter_corpus(args.corpus)), progress=_dots(), total=total)
    print(f"\nmeasured {len(data.games)} games, {len(data)} rows in {time.perf_counter() - t1:.0f} s")

    test = split_games(len(data.games), args.test_fraction, args.split_seed)
    train_rows, test_rows = data.rows(~test), data.rows(test)
    refit = fit_evaluation(data, ~test)
    shipped = default_evaluation()
    same_corpus = shipped.corpus.get("seed") == manifest["seed"] and shipped.corpus.get("games") == len(
        data.games
    )
    same = all(
        np.allclose(refit.model(t).coef, shipped.model(t).coef, rtol=1e-9, atol=1e-12)
        and np.isclose(refit.model(t).intercept, shipped.model(t).intercept, rtol=1e-9, atol=1e-12)
        for t in shipped.models
    )
    print(
        f"split by game: {int((~test).sum())} training games ({int(train_rows.sum())} rows), "
        f"{int(test.sum())} held out ({int(test_rows.sum())} rows)"
    )
    if same_corpus:
        print(f"shipped fit reproduced by this refit: {'yes' if same else 'NO'}")
    else:
        print("(not the shipped fit's corpus: the figures use this refit)")

    signs = _single_scores(data, train_rows)
    figures = _table("held-out bot games", data, test_rows, refit, signs)
    if "bootstrap" not in args.skip and args.bootstrap > 0:
        _bootstrap(data, test_rows, refit, figures, signs, args.bootstrap, args.split_seed)

    human = [load_records(p)[0] for p in shipped_game_paths()]
    if "humans" not in args.skip:
        hdata = build_dataset(human)
        _table("the three human games", hdata, np.ones(len(hdata), dtype=bool), refit, signs)
    if "alliances" not in args.skip:
        keys = {data.games[g] for g in np.flatnonzero(test).tolist()}
        _alliances(args.corpus, keys, human, [0.0, CALM_THRESHOLD, 0.2, 0.3])
    print(f"\ntotal {time.perf_counter() - t0:.0f} s ({load_text()})")
    return 0


def _dots() -> Callable[[int, int, str], None]:
    def progress(done: int, total: int, msg: str) -> None:
        if done % 100 == 0 or done == total:
            sys.stdout.write(f" {done}/{total}")
            sys.stdout.flush()

    return progress


if __name__ == "__main__":
    sys.exit(main())
