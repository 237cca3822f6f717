"""Alliance detection from mutual fear (issue 14 §3): the rule, its scoring, and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardeval.core import DiplomacyError
from boardeval.diplomacy import GameRecord, compute_measures, record_from_saved
from boardeval.diplomacy.alliances import (
    CALM_THRESHOLD,
    AllianceResult,
    PairSignal,
    YearAlliances,
    attacks,
    detect_alliances,
    score_detection,
)
from boardeval.diplomacy.tournament import bot_game
from tests.diplomacy.helpers import make_record


def test_calm_detections_follow_the_rule(human_games: list[GameRecord]) -> None:
    game = human_games[0]
    gm = compute_measures(game)
    result = detect_alliances(game, rule="calm")
    assert result.rule == "calm"
    years = [y.year for y in result.years]
    assert years == list(range(1901, 1914))
    order = {p: i for i, p in enumerate(gm.powers)}
    for year in result.years:
        assert len(year.signals) == 21  # every pair of the seven powers
        seen: set[str] = set()
        for a, b in year.pairs:
            assert order[a] < order[b]
            assert a not in seen and b not in seen  # mutual best partners: one pair per power
            seen |= {a, b}
        for s in year.signals:
            assert s.detected == ((s.a, s.b) in year.pairs)
            if s.detected:
                assert s.alive and s.calm >= CALM_THRESHOLD
                # each is the other's calmest partner
                mine = [t.calm for t in year.signals if s.a in (t.a, t.b) and np.isfinite(t.calm)]
                theirs = [t.calm for t in year.signals if s.b in (t.a, t.b) and np.isfinite(t.calm)]
                assert s.calm == max(mine) == max(theirs)
    assert any(y.pairs for y in result.years)


def test_calm_is_the_fall_of_the_pairs_share(human_games: list[GameRecord]) -> None:
    game = human_games[2]
    gm = compute_measures(game)
    result = detect_alliances(game, measures=gm)
    mutual = np.nan_to_num(gm.fear_mutual)
    a, b = gm.powers.index("ENGLAND"), gm.powers.index("FRANCE")

    def share(t: int) -> float:
        return float(mutual[t, a, b] / (mutual[t, a].sum() + mutual[t, b].sum()))

    moves = [t for t, p in enumerate(gm.phases) if p[1:5] == "1904" and p.endswith("M")]
    expected = (share(0) - np.mean([share(t) for t in moves])) / share(0)
    signal = next(s for s in result.years[3].signals if (s.a, s.b) == ("ENGLAND", "FRANCE"))
    assert result.years[3].year == 1904
    assert signal.calm == pytest.approx(expected)
    previous = [t for t, p in enumerate(gm.phases) if p[1:5] == "1903" and p.endswith("M")][-1]
    assert signal.change == pytest.approx(mutual[moves[-1], a, b] - mutual[previous, a, b])


def test_threshold_bounds_the_detections(human_games: list[GameRecord]) -> None:
    game = human_games[1]
    loose = detect_alliances(game, threshold=-10.0, rule="calm")
    strict = detect_alliances(game, threshold=10.0, rule="calm")
    assert all(not y.pairs for y in strict.years)
    default = detect_alliances(game, rule="calm")
    for lo, mid in zip(loose.years, default.years, strict=True):
        assert set(mid.pairs) <= set(lo.pairs)
    with pytest.raises(DiplomacyError, match="nan"):
        detect_alliances(game, threshold=float("nan"))
    with pytest.raises(DiplomacyError, match="'friendly'"):
        detect_alliances(game, rule="friendly")


def test_unfought_and_peace_detections_follow_their_rules(human_games: list[GameRecord]) -> None:
    game = human_games[0]
    gm = compute_measures(game)
    unfought = detect_alliances(game, rule="unfought", measures=gm)
    peace = detect_alliances(game, measures=gm)
    assert peace.rule == "peace" and [y.year for y in peace.years] == list(range(1901, 1914))
    fought: set[tuple[str, str]] = set()
    for wide, year in zip(unfought.years, peace.years, strict=True):
        for s in wide.signals:
            if (s.a, s.b) in fought:
                assert s.attacked  # once attacked, attacked for the rest of the game
            if s.attacked:
                fought.add((s.a, s.b))
            assert s.detected == (s.alive and s.mutual > 0 and not s.attacked)
            assert s.detected == ((s.a, s.b) in wide.pairs)
        assert set(year.pairs) <= set(wide.pairs)
        seen: set[str] = set()
        for a, b in year.pairs:  # each is the other's unfought partner of largest mutual fear
            assert a not in seen and b not in seen
            seen |= {a, b}
            mine = [s.mutual for s in wide.signals if s.detected and a in (s.a, s.b)]
            theirs = [s.mutual for s in wide.signals if s.detected and b in (s.a, s.b)]
            pair = next(s for s in wide.signals if (s.a, s.b) == (a, b))
            assert pair.mutual == max(mine) == max(theirs)
    assert any(y.pairs for y in peace.years) and fought
    assert len(unfought.years[-1].pairs) < len(unfought.years[0].pairs)


def test_attacks_are_taken_centres_and_entered_provinces() -> None:
    record = make_record(
        [
            ("S1901M", {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}, {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}),
            ("F1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}, {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}),
            ("F1901R", {"FRANCE": ["A MUN"], "GERMANY": ["*A MUN"]}, {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}),
            ("W1901A", {"FRANCE": ["A MUN"]}, {"FRANCE": ["MUN", "PAR"]}),
        ]
    )
    hits = attacks(record)
    fra, ger = 2, 3
    assert not hits[1].any()  # a move next to the German army is no attack
    assert hits[2, fra, ger] and not hits[2, ger, fra]  # France dislodged the army in Munich
    assert hits[3, fra, ger] and hits[3].sum() == 1  # and took the centre


def _signal(a: str, b: str, detected: bool, alive: bool = True) -> PairSignal:
    return PairSignal(a, b, 10.0, 0.0, 0.1, 0.05, 0.5, alive, detected)


def test_score_counts_true_and_false_detections() -> None:
    year = YearAlliances(
        1905,
        (("AUSTRIA", "ITALY"), ("ENGLAND", "FRANCE")),
        (
            _signal("AUSTRIA", "ITALY", True),
            _signal("ENGLAND", "FRANCE", True),
            _signal("GERMANY", "RUSSIA", False),
            _signal("RUSSIA", "TURKEY", False, alive=False),
        ),
    )
    result = AllianceResult("g", (year,), CALM_THRESHOLD)
    score = score_detection([(result, [["ITALY", "AUSTRIA"], ["GERMANY", "RUSSIA"], ["RUSSIA", "TURKEY"]])])
    assert (score.true_positives, score.detected, score.known, score.candidates) == (1, 2, 2, 3)
    assert score.precision == 0.5 and score.recall == 0.5 and score.base_rate == pytest.approx(2 / 3)
    assert score_detection([(result, [])], years=[1906]).detected == 0
    assert result.pairs_in(1905) == year.pairs and result.pairs_in(1900) == ()


def test_a_seeded_bot_game_is_scored_without_the_seeding() -> None:
    played = bot_game("dumb", 4, max_year=1904, allies="ENGLAND:FRANCE,AUSTRIA:ITALY")
    record = record_from_saved(played.saved)
    result = detect_alliances(record)
    assert [y.year for y in result.years] == [1901, 1902, 1903, 1904, 1905]
    score = score_detection([(result, played.allies)])
    assert score.known == 2 * 5  # both pairs survive every year (1905 holds its spring only)
    for year in result.years:  # the peace rule's premise: seeded allies never attack each other
        for s in year.signals:
            if (s.a, s.b) in {("AUSTRIA", "ITALY"), ("ENGLAND", "FRANCE")}:
                assert not s.attacked, (year.year, s.a, s.b)
    unallied = detect_alliances(record_from_saved(bot_game("dumb", 4, max_year=1904).saved))
    assert any(s.attacked for y in unallied.years for s in y.signals)
    assert 0 <= score.true_positives <= score.detected
    data = json.loads(json.dumps(result.to_json(signals=True)))
    assert data["game"] == record.game_id and len(data["years"][0]["signals"]) == 21


def test_through_a_phase_uses_only_the_phases_up_to_it(human_games: list[GameRecord]) -> None:
    """Issue 23 §3.1: at a phase, alliances come from the phases up to it, exactly as if the record ended
    there; each year names the phases its verdict uses, and a phase not in the game is refused."""
    game = human_games[0]
    gm = compute_measures(game)
    names = list(gm.phases)
    for phase in ("S1901M", "F1901M", "W1901A", "S1905M", "F1905R", names[-1]):
        k = names.index(phase)
        cut = GameRecord(game.game_id, game.map_name, game.phases[: k + 1])
        for rule in ("peace", "calm"):
            early = detect_alliances(game, measures=gm, through=phase, rule=rule)
            alone = detect_alliances(cut, rule=rule)
            assert [(y.year, y.pairs) for y in early.years] == [(y.year, y.pairs) for y in alone.years]
        last = early.years[-1]
        assert last.year == int(phase[1:5]) and last.first_phase == "S1901M"
        assert last.last_phase == phase and names.index(last.fear_phase) <= k
    assert detect_alliances(game, measures=gm, through="S1901M").years[0].pairs == ()  # nothing resolved
    full = detect_alliances(game, measures=gm)
    assert [y.pairs for y in full.years] == [y.pairs for y in detect_alliances(game, through=names[-1]).years]
    with pytest.raises(DiplomacyError, match="S1999M"):
        detect_alliances(game, measures=gm, through="S1999M")
