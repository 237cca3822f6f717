"""Fixtures of the Diplomacy tests: the real human games shipped with the engine."""

from __future__ import annotations

import pytest

from boardeval.diplomacy import GameRecord, load_records, shipped_game_paths


@pytest.fixture(scope="session")
def human_games() -> list[GameRecord]:
    """The three real human games shipped inside the installed ``diplomacy`` package (read in place)."""
    paths = shipped_game_paths()
    assert len(paths) == 3, "the diplomacy package should ship tests/network/{1,2,3}.json"
    return [load_records(p)[0] for p in paths]
