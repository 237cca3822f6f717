"""The fitted evaluation (issue 14 §2): features, targets, the fit, exact breakdowns, the shipped file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from boardeval.core import DiplomacyError
from boardeval.diplomacy import GameRecord, compute_measures
from boardeval.diplomacy.corpus import CorpusError, generate_corpus, iter_corpus, read_manifest
from boardeval.diplomacy.evaluation import (
    FEATURES,
    TARGETS,
    Dataset,
    Evaluation,
    EvaluationError,
    build_dataset,
    default_evaluation,
    evaluate_game,
    evaluate_position,
    fit_evaluation,
    game_targets,
    phase_key,
    power_features,
    roc_auc,
    spearman,
    split_games,
)


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four short bot games, one per default mix (to the end of 1903)."""
    folder = tmp_path_factory.mktemp("corpus")
    result = generate_corpus(folder, 4, 11, max_year=1903)
    assert result.total == 4 and not result.interrupted
    return folder


@pytest.fixture(scope="module")
def tiny_data(tiny_corpus: Path) -> Dataset:
    return build_dataset((g.key, g.record) for g in iter_corpus(tiny_corpus))


@pytest.fixture(scope="module")
def human_data(human_games: list[GameRecord]) -> Dataset:
    """The three human games as a dataset: long enough for eliminations within three years."""
    return build_dataset(human_games)


def test_phase_key_orders_the_year() -> None:
    keys = [phase_key(p) for p in ("S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M")]
    assert keys == sorted(keys)  # type: ignore[type-var]
    assert phase_key("F1905R") == (1905, 1, 1)
    assert phase_key("COMPLETED") is None


def test_corpus_manifest_and_allies(tiny_corpus: Path) -> None:
    manifest = read_manifest(tiny_corpus)
    assert manifest["seed"] == 11 and manifest["games"] == 4
    assert [m["games"] for m in manifest["mixes"]] == [1, 1, 1, 1]
    games = list(iter_corpus(tiny_corpus))
    assert len(games) == 4 and len({g.key for g in games}) == 4
    # the all-dumb mix seeds two allied pairs, the mostly-dumb one one pair, the others none
    assert [len(g.allies) for g in games] == [2, 1, 0, 0]
    assert games[0].record.phases[-1].phase == "S1904M"


def test_corpus_is_reproducible(tiny_corpus: Path, tmp_path: Path) -> None:
    generate_corpus(tmp_path, 4, 11, max_year=1903)
    for entry in read_manifest(tmp_path)["mixes"]:
        name = entry["dir"]
        assert (tmp_path / name / "games.jsonl").read_bytes() == (
            tiny_corpus / name / "games.jsonl"
        ).read_bytes()


def test_corpus_bad_input(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"got 3"):
        generate_corpus(tmp_path, 3, 1)  # fewer games than mixes
    with pytest.raises(CorpusError, match="-1"):
        generate_corpus(tmp_path, 8, -1)
    with pytest.raises(CorpusError, match="nowhere"):
        read_manifest(tmp_path / "nowhere")


def test_features_at_the_start_of_a_human_game(human_games: list[GameRecord]) -> None:
    gm = compute_measures(human_games[0])
    feats = power_features(gm)
    assert feats.shape == (len(gm.phases), 7, len(FEATURES))
    at = {name: feats[0, :, k] for k, name in enumerate(FEATURES)}
    np.testing.assert_allclose(at["personal_progress"], gm.personal_progress[0])
    np.testing.assert_allclose(at["battle_tiedness"], gm.battle_tiedness[0])
    # stab potential received by A = row sum, given = column sum, over the other powers
    stab = np.nan_to_num(gm.stab_potential[3])
    np.testing.assert_allclose(feats[3, :, FEATURES.index("stab_received")], stab.sum(axis=1))
    np.testing.assert_allclose(feats[3, :, FEATURES.index("stab_given")], stab.sum(axis=0))
    mutual = np.nan_to_num(gm.fear_mutual[3])
    np.testing.assert_allclose(feats[3, :, FEATURES.index("fear_mutual_max")], mutual.max(axis=1))
    assert np.isnan(at["fear_mutual_change"]).all()  # no previous phase


def test_targets_read_the_same_point_a_year_later(human_games: list[GameRecord]) -> None:
    gm = compute_measures(human_games[0])
    tg = game_targets(gm)
    s1901, s1902, s1904 = (gm.phases.index(p) for p in ("S1901M", "S1902M", "S1904M"))
    np.testing.assert_array_equal(tg.sc_change_1y[s1901], gm.sc_counts[s1902] - gm.sc_counts[s1901])
    np.testing.assert_array_equal(tg.sc_change_3y[s1901], gm.sc_counts[s1904] - gm.sc_counts[s1901])
    # the record ends in 1913 without a solo: a year past its end is unknown
    last_autumn = gm.phases.index("F1912M")
    assert np.isnan(tg.sc_change_1y[last_autumn]).all()
    assert np.isnan(tg.eliminated_3y[gm.phases.index("S1911M")]).all()
    # eliminated powers have no target; elimination is 0/1 where known
    assert np.isnan(tg.sc_change_1y[~tg.alive]).all()
    known = tg.eliminated_3y[~np.isnan(tg.eliminated_3y)]
    assert set(known.tolist()) <= {0.0, 1.0} and 1.0 in known.tolist()


def test_dataset_rows_are_alive_powers(tiny_data: Dataset) -> None:
    assert tiny_data.X.shape[1] == len(FEATURES)
    assert len(tiny_data.games) == 4
    assert set(tiny_data.targets) == set(TARGETS)
    assert len(tiny_data.phase) == len(tiny_data.power) == len(tiny_data)
    # SC changes are whole numbers where known
    y = tiny_data.targets["sc_change_1y"]
    known = y[~np.isnan(y)]
    assert len(known) > 0 and np.all(known == np.round(known))


def test_split_is_by_game() -> None:
    test = split_games(10, 0.2, 3)
    assert test.sum() == 2 and np.array_equal(test, split_games(10, 0.2, 3))
    with pytest.raises(EvaluationError, match=r"got 1"):
        split_games(1, 0.2, 0)
    with pytest.raises(EvaluationError, match=r"1\.5"):
        split_games(10, 1.5, 0)


def test_fit_matches_scikit_learn_and_breakdowns_add_up(human_data: Dataset) -> None:
    from sklearn.linear_model import Ridge

    tiny_data = human_data
    train = ~split_games(len(tiny_data.games), 0.34, 0)
    ev = fit_evaluation(tiny_data, train, corpus={"seed": 11})
    assert ev.corpus["seed"] == 11 and ev.corpus["train_games"] == 2 and ev.corpus["test_games"] == 1
    rows = tiny_data.rows(train)
    # no game contributes rows to both sides
    assert not set(tiny_data.game[rows]) & set(tiny_data.game[~rows])
    model = ev.model("sc_change_1y")
    X = tiny_data.X[rows]
    mean, sd = np.nanmean(X, axis=0), np.nanstd(X, axis=0)
    sd[sd == 0] = 1.0
    Z = (np.where(np.isnan(X), mean, X) - mean) / sd
    y = tiny_data.targets["sc_change_1y"][rows]
    ok = ~np.isnan(y)
    reference = Ridge(alpha=1.0).fit(Z[ok], y[ok])
    np.testing.assert_allclose(model.coef, reference.coef_, rtol=1e-9, atol=1e-12)
    held = tiny_data.X[~rows]
    np.testing.assert_allclose(
        model.decision(held), reference.predict((np.where(np.isnan(held), mean, held) - mean) / sd), atol=1e-9
    )
    for k in range(0, len(held), max(1, len(held) // 7)):
        bd = model.breakdown(held[k].tolist())
        assert bd.total == pytest.approx(float(model.decision(held[k : k + 1])[0]), abs=1e-9)
        assert bd.names() == [*FEATURES, "intercept"]
        rel = bd.extras["vs_average"]
        assert math.fsum(rel.values()) + model.intercept == pytest.approx(bd.total, abs=1e-9)
    logistic = ev.model("eliminated_3y")
    assert logistic.kind == "logistic"
    bd = logistic.breakdown(held[0].tolist())
    assert 0.0 < bd.extras["probability"] < 1.0


def test_evaluation_file_round_trip_and_errors(human_data: Dataset, tmp_path: Path) -> None:
    ev = fit_evaluation(human_data, ~split_games(3, 0.34, 0))
    path = tmp_path / "ev.json"
    ev.save(path)
    again = Evaluation.load(path)
    assert again.to_json() == ev.to_json()
    data = json.loads(path.read_text())
    data["models"]["sc_change_1y"]["scale"][0] = 0.0
    path.write_text(json.dumps(data))
    with pytest.raises(EvaluationError, match="sc_change_1y"):
        Evaluation.load(path)
    data["models"]["sc_change_1y"]["features"] = ["tempi"]
    path.write_text(json.dumps(data))
    with pytest.raises(EvaluationError, match="tempi"):
        Evaluation.load(path)
    path.write_text("{not json")
    with pytest.raises(EvaluationError, match=str(path)):
        Evaluation.load(path)
    with pytest.raises(EvaluationError, match="'sc_change_9y'"):
        ev.model("sc_change_9y")


def test_shipped_evaluation_on_a_human_game(human_games: list[GameRecord]) -> None:
    ev = default_evaluation()
    assert set(ev.models) == set(TARGETS)
    assert ev.corpus["games"] >= 2000 and isinstance(ev.corpus["seed"], int)
    game = human_games[1]
    scores = evaluate_game(game)
    gm = compute_measures(game)
    t = gm.phases.index("F1905M")
    result = evaluate_position(game, "F1905M")
    assert list(result) == list(gm.powers)
    for p, (power, bd) in enumerate(result.items()):
        if gm.sc_counts[t, p] == 0 and np.isnan(gm.neighbour_effect[t, p]):
            assert bd.extras["eliminated"] and bd.total == 0 and np.isnan(scores[t, p])
            continue
        assert bd.label == f"{power} F1905M"
        assert bd.total == pytest.approx(scores[t, p], abs=1e-9)
        assert bd["personal_progress"].raw == pytest.approx(gm.personal_progress[t, p])
        contributions = [term.raw * term.weight * term.scale for term in bd.terms]
        assert bd.total == math.fsum(contributions)
    last = evaluate_position(game)
    assert next(iter(last.values())).label.endswith(gm.phases[-1])


def test_eliminated_power_gets_an_empty_breakdown(human_games: list[GameRecord]) -> None:
    game = human_games[0]
    gm = compute_measures(game)
    dead = np.isnan(gm.neighbour_effect[-1])
    assert dead.any()
    result = evaluate_position(game)
    for p, power in enumerate(gm.powers):
        assert bool(result[power].extras.get("eliminated", False)) == bool(dead[p])


def test_bad_phase_and_target_are_errors(human_games: list[GameRecord]) -> None:
    with pytest.raises(DiplomacyError, match="'X1999M'"):
        evaluate_position(human_games[0], "X1999M")
    upper = r"'f1905m' \(phase names are upper case, without spaces: 'F1905M'\)"
    with pytest.raises(DiplomacyError, match=upper):
        evaluate_position(human_games[1], "f1905m")
    with pytest.raises(DiplomacyError, match="' F1905M'"):
        evaluate_position(human_games[1], " F1905M")
    with pytest.raises(DiplomacyError, match="'best'"):
        evaluate_position(human_games[0], target="best")


def test_figures_of_merit() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0, np.nan])
    assert spearman(x, np.array([10.0, 20.0, 30.0, 45.0, 0.0])) == pytest.approx(1.0)
    assert spearman(x, -x) == pytest.approx(-1.0)
    assert math.isnan(spearman(x, np.ones(5)))
    assert roc_auc(x, np.array([0.0, 0.0, 1.0, 1.0, 1.0])) == 1.0
    assert roc_auc(x, np.array([1.0, 0.0, 0.0, 1.0, 1.0])) == pytest.approx(0.5)
    assert roc_auc(x, np.array([1.0, 0.0, 1.0, 0.0, 1.0])) == pytest.approx(0.25)
    assert math.isnan(roc_auc(x, np.zeros(5)))
