"""Tuning the placing-phase weights by engine self-play (issue 12 section 2) and the weight profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardeval.core import ParamsError
from boardeval.morris import FEATURES, PROFILES, load_weights
from boardeval.morris._features import PLACING_FEATURES
from boardeval.morris.tuning.selfplay import (
    BLOCKADE_WINDOW,
    GameJob,
    PlayTuneReport,
    engine_match,
    play_engine_game,
    tune_by_play,
)
from boardeval.morris.tuning.texel import write_weights
from tests.cli.json_shapes import assert_same_fields

SEED = dict(load_weights("seed"))
PLACING = dict(load_weights("base"))


def test_profiles_seed_and_base() -> None:
    """``base`` (the default) is the seed's set plus the placing-phase weights and ``liberties``, with
    ``blocked`` raised by play (issue 25)."""
    assert {"seed", "base"} <= set(PROFILES)
    added = (*PLACING_FEATURES, "liberties")
    assert all(SEED[f] == 0.0 for f in added)
    assert any(PLACING[f] > 0.0 for f in PLACING_FEATURES) and PLACING["liberties"] > 0.0
    assert {f for f in FEATURES if f not in added and PLACING[f] != SEED[f]} == {"blocked"}
    assert PLACING["blocked"] > SEED["blocked"]


def test_an_old_weight_file_names_the_missing_placing_features(tmp_path: Path) -> None:
    old = tmp_path / "old.toml"
    lines = [f"{f} = 1.0" for f in FEATURES if f not in PLACING_FEATURES]
    old.write_text("[tuned]\n" + "\n".join(lines) + "\n")
    with pytest.raises(ParamsError, match="future_mobility"):
        load_weights(old)


def test_engine_game_is_reproducible_at_fixed_depth() -> None:
    wa = tuple(PLACING.items())
    wb = tuple(SEED.items())
    one = play_engine_game(GameJob(5, True, wa, wb, 1, None))
    two = play_engine_game(GameJob(5, True, wa, wb, 1, None))
    assert one == two
    assert one.result in ("win", "draw", "loss") and one.turns > 4
    assert (one.blockade_after is None) == (one.reason != "no_legal_move")


def test_engine_match_pairs_colours_and_counts() -> None:
    m = engine_match(PLACING, SEED, games=4, seed=3, depth=1)
    assert m.games == 4 and not m.interrupted
    assert m.interval.lo <= m.score <= m.interval.hi
    assert sum(m.reasons.values()) == 4
    assert m.blockades_a + m.blockades_b <= 4 and BLOCKADE_WINDOW == 10
    json.dumps(m.to_dict())
    # the same weights on both sides from colour-swapped openings: a symmetric result
    even = engine_match(SEED, SEED, games=4, seed=3, depth=1)
    assert even.wins == even.losses
    with pytest.raises(ParamsError, match="even"):
        engine_match(PLACING, SEED, games=3, seed=3, depth=1)
    with pytest.raises(ParamsError, match="depth or a time limit"):
        engine_match(PLACING, SEED, games=2, seed=3)
    with pytest.raises(ParamsError, match="mills"):
        engine_match(PLACING | {"mills": -1.0}, SEED, games=2, seed=3, depth=1)


def test_tune_by_play_rounds_are_reported_and_seeded() -> None:
    lines: list[str] = []
    rep = tune_by_play(PLACING, rounds=1, games=2, seed=4, depth=1, log=lines.append)
    assert len(rep.steps) == 1 and len(lines) == 1 and lines[0].startswith("round 1: probe")
    step = rep.steps[0]
    for n in PLACING_FEATURES:  # plus and minus straddle the start
        assert min(step.plus[n], step.minus[n]) <= PLACING[n] <= max(step.plus[n], step.minus[n])
    assert rep.final == (step.proposal if step.accepted else rep.start)
    again = tune_by_play(PLACING, rounds=1, games=2, seed=4, depth=1)

    def games_of(r: PlayTuneReport) -> list[tuple[object, ...]]:  # everything but the wall-clock seconds
        return [(s.plus, s.minus, s.proposal, s.accepted, s.probe.reasons, s.probe.interval) for s in r.steps]

    assert games_of(again) == games_of(rep)
    with pytest.raises(ParamsError, match="unknown weight name"):
        tune_by_play(PLACING, rounds=1, games=2, seed=4, depth=1, names=("speed",))


def test_write_weights_as_a_base_profile(tmp_path: Path) -> None:
    path = write_weights(PLACING, tmp_path / "p.toml", table="base")
    assert dict(load_weights(path)) == PLACING


def test_cli_tune_play(tmp_path: Path) -> None:
    from boardeval.cli.main import app

    out = tmp_path / "w.toml"
    res = CliRunner().invoke(
        app,
        ["morris", "tune-play", "--rounds", "1", "--games", "2", "--depth", "1", "--against", "seed",
         "--final-games", "2", "--final-depth", "1", "--out", str(out), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["steps"]) == 1 and data["final_match"]["against"] == "seed"
    assert_same_fields("morris tune-play", data)
    assert data["final_match"]["wins"] + data["final_match"]["draws"] + data["final_match"]["losses"] == 2
    assert set(dict(load_weights(out))) == set(FEATURES)
    bad = CliRunner().invoke(app, ["morris", "tune-play", "--start", "nosuch", "--rounds", "0"])
    assert bad.exit_code == 2 and "nosuch" in bad.output
