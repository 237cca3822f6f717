"""Texel tuning (issue 13 section 3): sampling, the fit, the shipped ``tuned`` profile, the CLI."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from boardeval.core import ParamsError
from boardeval.morris import BASE_WEIGHTS, FEATURES, PROFILES, Evaluator, load_weights
from boardeval.morris.tablebase import Tablebase
from boardeval.morris.tuning.data import FIT_FEATURES, TuneData, feature_rows, sample_covered
from boardeval.morris.tuning.texel import ANCHOR, fit_k, fit_weights, seed_fit, tune_weights, write_weights


@pytest.fixture(scope="module")
def tb_dir(tablebase_3v3: Path) -> Path:
    return tablebase_3v3  # tests/conftest.py: built once per test process


@pytest.fixture(scope="module")
def tb(tb_dir: Path) -> Tablebase:
    return Tablebase.open(tb_dir)


def test_sample_covered_share_and_labels(tb: Tablebase) -> None:
    # 3v3 holds only 0.15% draws: a share of 20 drawn positions in 100 is found by sampling
    positions = sample_covered(tb, (3, 3), 100, seed=4, decided_share=0.8)
    values = [tb.lookup(p) for p in positions]
    decided = [v for v in values if v[0] != "draw"]
    assert len(positions) == 100 and len(decided) == 80
    assert all(d is not None and d > 0 for _, d in decided)  # no position without a legal turn
    assert all(p.outcome() is None for p in positions)
    assert {p.side for p in positions} == {0, 1}
    with pytest.raises(ParamsError, match="decided_share"):
        sample_covered(tb, (3, 3), 5, seed=0, decided_share=1.5)


def test_feature_rows_match_the_evaluator(tb: Tablebase) -> None:
    positions = sample_covered(tb, (3, 3), 30, seed=9)
    x, phase = feature_rows(positions)
    assert (phase == 2).all()  # 3 men, no hand: flying
    ev = Evaluator()
    data = TuneData(x, phase, np.full(len(x), 0.5), np.ones(len(x), dtype=bool), np.zeros(len(x), np.int8))
    fit = seed_fit(data, 1.0)
    from boardeval.morris.tuning.texel import _design

    z = _design(data, FIT_FEATURES, per_phase=False)
    np.testing.assert_allclose(z @ fit.coef, [ev.score(p) for p in positions], atol=1e-9)


def test_fit_recovers_a_planted_model() -> None:
    rng = np.random.default_rng(0)
    n = 4000
    x = np.zeros((n, len(FIT_FEATURES) + 3))
    x[:, : len(FIT_FEATURES)] = rng.integers(-3, 4, (n, len(FIT_FEATURES)))
    phase = np.ones(n, dtype=np.int8)  # moving
    data0 = TuneData(x, phase, np.zeros(n), rng.random(n) < 0.75, np.zeros(n, np.int8))
    from boardeval.morris.tuning.texel import _design

    z = _design(data0, FIT_FEATURES, per_phase=False)
    planted = np.array([BASE_WEIGHTS[f] for f in FIT_FEATURES])
    planted[FIT_FEATURES.index("mobility")] = 30.0  # far from the seed's 1
    planted[FIT_FEATURES.index("threats")] = 0.0
    p = 1 / (1 + np.exp(-0.5 * (z @ planted)))
    y = (rng.random(n) < p).astype(float)
    data = TuneData(x, phase, y, data0.train, data0.source)
    k = fit_k(data)
    before = seed_fit(data, k)
    after = fit_weights(data, k)
    assert after.validation["log_loss"] < before.validation["log_loss"] - 0.01
    w = after.weights()
    assert w[ANCHOR] == BASE_WEIGHTS[ANCHOR]
    assert w["mobility"] > 10.0 and w["threats"] < 1.0
    assert abs(after.k - 0.5) < 0.15


def test_tune_weights_on_3v3(tb_dir: Path, tmp_path: Path) -> None:
    report = tune_weights(tb_dir, per_subdatabase=400, games=0, seed=1, with_questions=True)
    assert report.positions == 400 and report.placing_positions == 0
    assert report.tuned.train["log_loss"] <= report.seed.train["log_loss"] + 1e-9
    names = [q.name for q in report.questions]
    assert "per-phase weights" in names and "fork strict (moving)" in names
    data = report.to_dict()
    json.dumps(data)
    assert set(data["tuned"]["weights"]) == set(FEATURES)
    again = tune_weights(tb_dir, per_subdatabase=400, games=0, seed=1, with_questions=False)
    assert again.tuned.weights() == report.tuned.weights()  # seeded
    path = write_weights(report.tuned.weights(), tmp_path / "w.toml", note="test")
    assert tomllib.loads(path.read_text())["tuned"]["material"] == BASE_WEIGHTS["material"]


def test_write_weights_rejects_bad_sets(tmp_path: Path) -> None:
    bad = dict(BASE_WEIGHTS)
    bad["mills"] = -1.0
    with pytest.raises(ParamsError, match="mills"):
        write_weights(bad, tmp_path / "bad.toml")


def test_shipped_tuned_profile() -> None:
    assert "tuned" in PROFILES
    tuned = load_weights("tuned")
    assert tuned[ANCHOR] == BASE_WEIGHTS[ANCHOR] and tuned["initiative"] == 0.0
    assert dict(tuned) != dict(BASE_WEIGHTS)
    Evaluator(tuned)


def test_cli_tune(tb_dir: Path, tmp_path: Path) -> None:
    from boardeval.cli.main import app

    out = tmp_path / "tuned.toml"
    res = CliRunner().invoke(
        app,
        ["morris", "tune", "--dir", str(tb_dir), "--positions", "200", "--games", "0", "--no-questions",
         "--out", str(out), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["positions"] == 200 and data["written"] == str(out)
    assert load_weights(out)["material"] == BASE_WEIGHTS["material"]
    bad = CliRunner().invoke(app, ["morris", "tune", "--dir", str(tb_dir), "--decided", "2"])
    assert bad.exit_code == 2 and "--decided" in bad.output
    missing = CliRunner().invoke(app, ["morris", "tune", "--dir", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "tablebase build" in missing.output


def test_ctrl_c_before_anything_was_sampled_keeps_nothing(
    tb_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the first sub-database's sampling leaves nothing to fit: an interrupt (the CLI's
    "interrupted: nothing to keep", exit 130), not the bad-input error "too few positions to tune"."""
    import boardeval.morris.tuning.data as data_module

    def stopped(*_args: object, **_kwargs: object) -> list[object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(data_module, "sample_covered", stopped)
    with pytest.raises(KeyboardInterrupt):
        tune_weights(tb_dir, per_subdatabase=400, games=0, seed=1)


def test_a_figure_with_nothing_to_measure_is_null_in_the_json() -> None:
    """A Ctrl-C after a game or two can leave a phase no decided positions: its sign accuracy is NaN,
    which JSON cannot carry (``morris tune --json`` then ended in an error instead of the kept fits)."""
    from boardeval.core import dumps_json
    from boardeval.morris.tuning.texel import Fit, TuneReport, metrics

    figures = metrics(np.array([0.3, -0.2]), np.array([0.5, 0.5]), 1.0)  # two draws: nothing decided
    assert np.isnan(figures["sign_accuracy_decided"]) and figures["sign_accuracy"] == 0.5
    fit = Fit("seed", (), False, np.zeros(0), 1.0, figures, figures, {"placing": figures})
    report = TuneReport(2, 0, 2, 1.0, fit, fit, [], 0.1, interrupted=True, profiles=[fit])
    data = json.loads(dumps_json(report.to_dict()))
    assert data["tuned"]["validation"]["sign_accuracy_decided"] is None
    assert data["profiles"][0]["by_phase"]["placing"] == {
        "positions": 2.0,
        "log_loss": round(figures["log_loss"], 4),
        "sign_accuracy": 0.5,
        "sign_accuracy_decided": None,
    }
