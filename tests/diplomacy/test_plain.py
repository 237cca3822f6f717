"""The vectorised measures equal the plain per-phase BFS implementation, value for value."""

from __future__ import annotations

import math

from boardeval.diplomacy import (
    GameRecord,
    measures_table,
    random_game,
    record_from_game,
    table_rows,
)
from boardeval.diplomacy._plain import plain_measures


def _assert_same(record: GameRecord) -> int:
    fast = {
        (r["phase"], r["power"], r["measure"], r["other"]): r["value"]
        for r in table_rows(measures_table(record))
    }
    slow = plain_measures(record)
    assert fast.keys() == slow.keys()
    for key, want in slow.items():
        got = fast[key]
        if want is None:
            assert got is None, key
        else:
            assert isinstance(got, float), (key, got, want)
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (key, got, want)
    return len(slow)


def test_human_game_phases_match(human_games: list[GameRecord]) -> None:
    for game in human_games:
        # A few phases of each game, spread over its length (retreat and adjustment phases included).
        picks = game.phases[:: max(1, len(game.phases) // 8)]
        sub = GameRecord(game.game_id, game.map_name, tuple(picks))
        assert _assert_same(sub) == 248 * len(picks)


def test_random_games_on_other_maps_match() -> None:
    for seed, name in [(1, "standard"), (2, "ancmed"), (3, "pure")]:
        record = record_from_game(random_game(seed, map_name=name, max_phases=12))
        assert _assert_same(record) > 0
