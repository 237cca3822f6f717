"""Every measure: the standard start, hand-computed positions, the spec's invariants, other maps."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from boardeval.diplomacy import (
    MEASURES,
    GameRecord,
    UnknownMeasureError,
    compute_measures,
    games_table,
    measures_table,
    random_game,
    record_from_game,
    start_position,
    static_fear,
    static_routes,
    table_rows,
)
from tests.diplomacy.helpers import make_record

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def value(
    table: pd.DataFrame,
    measure: str,
    power: str | None = None,
    other: str | None = None,
    phase: str | None = None,
) -> float | None:
    sel = table[table["measure"] == measure]
    if phase is not None:
        sel = sel[sel["phase"] == phase]
    sel = sel[sel["power"].isna()] if power is None else sel[sel["power"] == power]
    sel = sel[sel["other"].isna()] if other is None else sel[sel["other"] == other]
    assert len(sel) == 1, (measure, power, other, phase, len(sel))
    v = float(sel["value"].iloc[0])
    return None if math.isnan(v) else v


# --------------------------------------------------------------------------------------------- the start


def test_standard_start_progress() -> None:
    t = measures_table([start_position("standard")])
    # 6 powers x 3^2 + Russia 4^2 = 70; R = 18.
    assert value(t, "progress") == pytest.approx(70 / 324)  # 21.6 %
    assert value(t, "progress_as_written") == pytest.approx(70 / 578)  # 12.1 %, the seed's literal formula
    assert value(t, "progress_from_zero") == 0.0
    assert value(t, "personal_progress", "RUSSIA") == pytest.approx(4 / 18)


def test_standard_start_battle_tiedness() -> None:
    t = measures_table([start_position("standard")], ["battle_tiedness"])
    got = {p: value(t, "battle_tiedness", p) for p in POWERS}
    # Trieste (F) borders Venice (A): one unit of three for Austria and Italy; nobody else touches.
    assert got == {
        "AUSTRIA": pytest.approx(1 / 3),
        "ENGLAND": 0.0,
        "FRANCE": 0.0,
        "GERMANY": 0.0,
        "ITALY": pytest.approx(1 / 3),
        "RUSSIA": 0.0,
        "TURKEY": 0.0,
    }


def test_standard_start_other_measures() -> None:
    gm = compute_measures([start_position("standard")])
    assert (gm.tempi == 0).all()  # every unit on a home centre
    assert np.isnan(gm.tempi_change).all()  # no previous phase
    assert (np.nan_to_num(gm.stab_potential) == 0).all()  # everyone reaches their own centres first
    # Dynamic fear at the start (units on homes, centres = homes) is the static table.
    np.testing.assert_array_equal(np.nan_to_num(gm.fear_dynamic[0]), static_fear("standard"))
    # Austria's three units: BUD-VIE 1, VIE-TRI 1, BUD-TRI 1 -> 1-incohesion 1, 2-incohesion 1.
    a = POWERS.index("AUSTRIA")
    assert gm.incohesion[0, 0, a] == 1.0 and gm.incohesion[1, 0, a] == 1.0
    assert math.isnan(gm.incohesion[2, 0, a])  # 3 units: 3-incohesion undefined
    r = POWERS.index("RUSSIA")
    assert not math.isnan(gm.incohesion[2, 0, r])  # Russia has 4 units


def test_static_fear_standard_table_properties() -> None:
    fear = static_fear("standard")
    assert fear.shape == (7, 7)
    assert (np.diag(fear) == 0).all()
    assert (fear >= 0).all() and (fear == np.round(fear)).all()
    e, i = POWERS.index("ENGLAND"), POWERS.index("ITALY")
    assert fear[e, i] == 0 and fear[i, e] == 0  # England and Italy are far apart


def test_static_routes_and_fear_entries_by_hand() -> None:
    routes = static_routes("standard")
    # R - |homes| = 15 (14 for Russia), plus ties at the cut-off: the spec's "up to 21" is Germany's.
    assert max(len(r) for r in routes.values()) == 21 == len(routes["GERMANY"])
    assert len(routes["ITALY"]) == 15 and len(routes["RUSSIA"]) == 20
    # Austria's fear of Italy: Italy's route holds TRI at 1, BUD at 2 (TRI-BUD), VIE at 2 (TYR-VIE):
    # (6 - 1) + (6 - 2) + (6 - 2) = 13.
    assert {c: routes["ITALY"][c] for c in ("TRI", "BUD", "VIE")} == {"TRI": 1, "BUD": 2, "VIE": 2}
    fear = static_fear("standard")
    assert fear[POWERS.index("AUSTRIA"), POWERS.index("ITALY")] == 13
    # Turkey's fear of Russia: SMY 2 on Russia's route (SEV-ARM-SMY), ANK 2, CON 2 -> 4 + 4 + 4 = 12.
    assert {c: routes["RUSSIA"][c] for c in ("ANK", "CON", "SMY")} == {"ANK": 2, "CON": 2, "SMY": 2}
    assert fear[POWERS.index("TURKEY"), POWERS.index("RUSSIA")] == 12


# ------------------------------------------------------------------------------------- hand positions


HAND_UNITS = {"AUSTRIA": ["A VIE", "A GAL", "F ION"], "RUSSIA": ["A UKR"], "ITALY": ["A VEN"]}
HAND_CENTRES = {
    "AUSTRIA": ["VIE", "BUD", "TRI"],
    "RUSSIA": ["MOS", "SEV", "WAR", "STP", "RUM"],
    "ITALY": ["VEN", "ROM", "NAP"],
    "ENGLAND": ["LON"],
}


@pytest.fixture(scope="module")
def hand() -> pd.DataFrame:
    return measures_table(make_record([("S1905M", HAND_UNITS, HAND_CENTRES)]))


def test_hand_progress(hand: pd.DataFrame) -> None:
    # SCs: Austria 3, England 1, Italy 3, Russia 5 -> 9 + 1 + 9 + 25 = 44.
    assert value(hand, "progress") == pytest.approx(44 / 324)
    assert value(hand, "progress_as_written") == pytest.approx(44 / 578)
    assert value(hand, "progress_from_zero") == pytest.approx((44 - 70) / (324 - 70))
    assert value(hand, "personal_progress", "RUSSIA") == pytest.approx(5 / 18)
    assert value(hand, "personal_progress", "FRANCE") == 0.0


def test_hand_tempi(hand: pd.DataFrame) -> None:
    # Austria: VIE 0 (home), GAL 1 (next to VIE/BUD), ION 2 (TRI-ADR-ION) -> 3.
    assert value(hand, "tempi", "AUSTRIA") == 3.0
    assert value(hand, "tempi", "RUSSIA") == 1.0  # UKR borders MOS, SEV and WAR
    assert value(hand, "tempi", "ITALY") == 0.0
    assert value(hand, "tempi", "FRANCE") == 0.0  # no units
    assert value(hand, "tempi_change", "AUSTRIA") is None  # first phase


def test_hand_incohesion(hand: pd.DataFrame) -> None:
    # Austria: VIE-GAL 1, VIE-ION 3 (VIE-TRI-ADR-ION), GAL-ION 4 (GAL-BUD-SER-ALB-ION).
    # 1-incohesion: nearest other unit: VIE 1, GAL 1, ION 3 -> 5/3.
    # 2-incohesion: mean of both others: VIE (1+3)/2, GAL (1+4)/2, ION (3+4)/2 -> (2 + 2.5 + 3.5)/3 = 8/3.
    assert value(hand, "incohesion_1", "AUSTRIA") == pytest.approx(5 / 3)
    assert value(hand, "cohesion_1", "AUSTRIA") == pytest.approx(3 / 5)
    assert value(hand, "incohesion_2", "AUSTRIA") == pytest.approx(8 / 3)
    assert value(hand, "cohesion_2", "AUSTRIA") == pytest.approx(3 / 8)
    assert value(hand, "incohesion_3", "AUSTRIA") is None  # 3 units <= n = 3
    assert value(hand, "incohesion_1", "RUSSIA") is None  # a single unit
    assert value(hand, "cohesion_1", "RUSSIA") is None


def test_hand_battle_tiedness(hand: pd.DataFrame) -> None:
    # GAL borders the Russian army in UKR; VIE and ION border no enemy unit -> 1/3.
    assert value(hand, "battle_tiedness", "AUSTRIA") == pytest.approx(1 / 3)
    assert value(hand, "battle_tiedness", "RUSSIA") == 1.0
    assert value(hand, "battle_tiedness", "ITALY") == 0.0  # VEN: TRI and ADR are empty
    assert value(hand, "battle_tiedness", "ENGLAND") is None  # no units


def test_hand_stab_potential(hand: pd.DataFrame) -> None:
    # NAP: Austria's fleet in ION is 1 move away, Italy's army in VEN is 2 (VEN-APU-NAP) -> 1.
    # ROM: ION-TYS-ROM 2 vs VEN-ROM 1 -> no.  VEN: Italy is on it.
    assert value(hand, "stab_potential", "ITALY", "AUSTRIA") == 1.0
    # England's LON has no English unit near: Austria's fleet can sail there (finite), but the
    # Italian and Russian armies cannot without convoys -> 1, 0, 0.
    assert value(hand, "stab_potential", "ENGLAND", "AUSTRIA") == 1.0
    assert value(hand, "stab_potential", "ENGLAND", "ITALY") == 0.0
    assert value(hand, "stab_potential", "ENGLAND", "RUSSIA") == 0.0
    # Ties do not count: GAL reaches WAR and RUM in 1, as does Russia's UKR.
    assert value(hand, "stab_potential", "RUSSIA", "AUSTRIA") == 0.0
    assert value(hand, "stab_potential", "AUSTRIA", "ITALY") == 0.0  # VEN-TRI 1 = VIE-TRI 1


def test_hand_neighbour_effect(hand: pd.DataFrame) -> None:
    # Survivors: Austria 3, England 1 (an SC, no unit), Italy 3, Russia 5.  France/Germany/Turkey: None.
    # Austria touches Russia (GAL-UKR) and Italy (TRI-VEN): mean others (1+3+5)/3 = 3, neighbours 4 -> -1.
    assert value(hand, "neighbour_effect", "AUSTRIA") == pytest.approx(-1.0)
    # Russia touches Austria only: others (3+1+3)/3 = 7/3, neighbours 3 -> -2/3.
    assert value(hand, "neighbour_effect", "RUSSIA") == pytest.approx(-2 / 3)
    # Italy touches Austria only: others (3+1+5)/3 = 3, neighbours 3 -> 0.
    assert value(hand, "neighbour_effect", "ITALY") == pytest.approx(0.0)
    assert value(hand, "neighbour_effect", "ENGLAND") == 0.0  # no neighbours
    assert value(hand, "neighbour_effect", "FRANCE") is None  # eliminated


def test_hand_tempi_change() -> None:
    t = measures_table(
        make_record(
            [
                ("S1901M", {"AUSTRIA": ["A VIE"]}, {"AUSTRIA": ["VIE"]}),
                ("F1901M", {"AUSTRIA": ["A GAL"]}, {"AUSTRIA": ["VIE"]}),
                ("S1902M", {"AUSTRIA": ["A UKR"]}, {"AUSTRIA": ["VIE"]}),
            ]
        ),
        ["tempi", "tempi_change"],
    )
    assert value(t, "tempi", "AUSTRIA", phase="S1902M") == 2.0  # UKR: GAL or RUM away from BUD/VIE
    assert value(t, "tempi_change", "AUSTRIA", phase="F1901M") == 1.0
    assert value(t, "tempi_change", "AUSTRIA", phase="S1902M") == 1.0
    assert value(t, "tempi_change", "AUSTRIA", phase="S1901M") is None


def test_static_fear_pure_map_by_hand() -> None:
    # Pure: 7 provinces all adjacent, one home each, R = 4.  Each route needs 3 of the 6 other centres,
    # all at distance 1: the tie at the cut-off brings in all 6, each scoring 6 - 1 = 5.
    fear = static_fear("pure")
    off = ~np.eye(7, dtype=bool)
    assert (fear[off] == 5).all()


def test_dynamic_fear_pure_map_by_hand() -> None:
    units = {"AUSTRIA": ["A VIE", "A LON"], "FRANCE": ["A PAR"]}
    centres = {"AUSTRIA": ["VIE", "LON"], "ENGLAND": ["BER"], "FRANCE": ["PAR", "ROM"]}
    record = make_record([("S1901M", units, centres)], map_name="pure")
    t = measures_table(record, ["fear_dynamic", "fear_mutual"])
    # Austria needs 4 - 2 = 2 more; every other centre is 1 away (all tied) -> all on its route, 5 each.
    assert value(t, "fear_dynamic", "ENGLAND", "AUSTRIA") == 5.0  # BER
    assert value(t, "fear_dynamic", "FRANCE", "AUSTRIA") == 10.0  # PAR + ROM
    # England has no unit: every distance is infinite, max(0, 6 - inf) = 0.
    assert value(t, "fear_dynamic", "AUSTRIA", "ENGLAND") == 0.0
    # France needs 2 more: VIE, LON, BER and the 3 neutrals are all 1 away -> Austria's 2 centres, 10.
    assert value(t, "fear_dynamic", "AUSTRIA", "FRANCE") == 10.0
    assert value(t, "fear_mutual", "AUSTRIA", "FRANCE") == 20.0
    # A power with R centres has no route left: nobody fears it.
    won = make_record(
        [("S1901M", {"AUSTRIA": ["A VIE"]}, {"AUSTRIA": ["VIE", "LON", "PAR", "ROM"], "ENGLAND": ["BER"]})],
        map_name="pure",
    )
    t2 = measures_table(won, ["fear_dynamic"])
    assert value(t2, "fear_dynamic", "ENGLAND", "AUSTRIA") == 0.0


def test_fear_mutual_change() -> None:
    p1 = ("S1901M", {"AUSTRIA": ["A VIE"], "FRANCE": ["A PAR"]}, {"AUSTRIA": ["VIE"], "FRANCE": ["PAR"]})
    p2 = (
        "F1901M",
        {"AUSTRIA": ["A VIE"], "FRANCE": ["A PAR"]},
        {"AUSTRIA": ["VIE", "LON"], "FRANCE": ["PAR"]},
    )
    t = measures_table(make_record([p1, p2], map_name="pure"), ["fear_mutual", "fear_mutual_change"])
    # S1901M: both need 3, all 6 others tied at 1 -> each fears the other 5: mutual 10.
    # F1901M: Austria holds LON too (on France's route) -> Austria fears France 10, France fears Austria 5.
    assert value(t, "fear_mutual", "AUSTRIA", "FRANCE", phase="S1901M") == 10.0
    assert value(t, "fear_mutual", "AUSTRIA", "FRANCE", phase="F1901M") == 15.0
    assert value(t, "fear_mutual_change", "AUSTRIA", "FRANCE", phase="F1901M") == 5.0
    assert value(t, "fear_mutual_change", "AUSTRIA", "FRANCE", phase="S1901M") is None


# ------------------------------------------------------------------------------------------ invariants


def test_invariants_on_the_human_games(human_games: list[GameRecord]) -> None:
    for game in human_games:
        gm = compute_measures(game)
        graph = game.graph
        held = np.array([[len(c) for c in pos.centers] for pos in game.phases])
        units = np.array([[len(u) for u in pos.units] for pos in game.phases])
        # Personal progress sums to SCs held / R.
        np.testing.assert_allclose(gm.personal_progress.sum(axis=1), held.sum(axis=1) / graph.win)
        # Stab potential is an integer from 0 to |SCs(A)|.
        stab = gm.stab_potential
        off = ~np.eye(7, dtype=bool)
        assert (stab[:, off] >= 0).all()
        assert (stab[:, off] == np.round(stab[:, off])).all()
        assert (stab <= held[:, :, None] + 1e-9)[:, off].all()
        # Battle-tiedness in [0, 1], undefined exactly when a power has no units.
        bt = gm.battle_tiedness
        assert np.array_equal(np.isnan(bt), units == 0)
        assert ((bt[units > 0] >= 0) & (bt[units > 0] <= 1)).all()
        # n-incohesion undefined exactly when units <= n; cohesion is its inverse.
        for k, n in enumerate((1, 2, 3)):
            assert np.array_equal(np.isnan(gm.incohesion[k]), units <= n)
            ok = units > n
            np.testing.assert_allclose(gm.cohesion[k][ok], 1 / gm.incohesion[k][ok])
            assert (gm.incohesion[k][ok] >= 1).all()  # distinct provinces are >= 1 apart
        # Fear is a non-negative integer; progress grows with concentration.
        assert (gm.fear_dynamic[:, off] >= 0).all()
        assert (gm.progress >= 0).all()
        np.testing.assert_allclose(gm.progress, (held**2).sum(axis=1) / graph.win**2)


def test_human_games_end_to_end(human_games: list[GameRecord]) -> None:
    for game in human_games:
        t = measures_table(game)
        assert list(t.columns) == ["phase", "power", "measure", "other", "value"]
        per_phase = 3 + 7 * 11 + 42 * 3 + 21 * 2  # 3 position, 11 power, 3 table and 2 pair measures
        assert len(t) == per_phase * len(game.phases)
        assert set(t["measure"]) == set(MEASURES)
        assert list(dict.fromkeys(t["phase"])) == [p.phase for p in game.phases]
        rows = table_rows(t.head(200))
        assert all(r["value"] is None or isinstance(r["value"], float) for r in rows)


def test_italy_wins_game_one(human_games: list[GameRecord]) -> None:
    t = measures_table(human_games[0], ["personal_progress", "progress"])
    last = human_games[0].phases[-1].phase
    assert value(t, "personal_progress", "ITALY", phase=last) == pytest.approx(16 / 18)
    assert value(t, "personal_progress", "FRANCE", phase=last) == 0.0


def test_other_map_random_game() -> None:
    game = record_from_game(random_game(4, map_name="modern", max_phases=10))
    gm = compute_measures(game)
    assert gm.powers == game.graph.powers and len(gm.powers) == 10
    assert gm.fear_dynamic.shape == (10, 10, 10)
    start = measures_table(
        [start_position("modern")], ["progress_from_zero", "battle_tiedness"], map_name="modern"
    )
    assert value(start, "progress_from_zero") == 0.0
    np.testing.assert_allclose(gm.personal_progress.sum(axis=1), gm.sc_counts.sum(axis=1) / game.graph.win)


def test_measure_selection_and_errors() -> None:
    t = measures_table([start_position()], ["battle_tiedness", "progress"])
    assert list(dict.fromkeys(t["measure"])) == ["battle_tiedness", "progress"]
    with pytest.raises(UnknownMeasureError, match="did you mean 'battle_tiedness'"):  # issue 24: exact
        measures_table([start_position()], ["Battle-Tiedness"])
    with pytest.raises(UnknownMeasureError, match="unknown measure 'happiness'"):
        measures_table([start_position()], ["happiness"])
    with pytest.raises(ValueError, match="no phases"):
        compute_measures([])


def test_games_table_reports_progress(human_games: list[GameRecord]) -> None:
    seen: list[tuple[int, int, str]] = []
    t = games_table(human_games, ["progress"], progress=lambda d, n, m: seen.append((d, n, m)))
    assert seen == [(i + 1, 3, g.game_id) for i, g in enumerate(human_games)]
    assert list(t.columns) == ["game", "phase", "power", "measure", "other", "value"]
    assert len(t) == sum(len(g.phases) for g in human_games)
    assert t.attrs["interrupted"] is False


def test_games_table_keeps_finished_games_on_ctrl_c(human_games: list[GameRecord]) -> None:
    def stop_after_first(done: int, total: int, message: str) -> None:
        if done == 1:
            raise KeyboardInterrupt

    t = games_table(human_games, ["progress"], progress=stop_after_first)
    assert t.attrs["interrupted"] is True
    assert set(t["game"]) == {human_games[0].game_id}
