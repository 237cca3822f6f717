"""Shared helpers for the Diplomacy tests: hand-built positions on any map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from boardeval.diplomacy import GameRecord, load_records, record_from_saved, shipped_game_paths


def make_record(
    phases: Sequence[tuple[str, Mapping[str, Sequence[str]], Mapping[str, Sequence[str]]]],
    map_name: str = "standard",
    game_id: str = "hand",
) -> GameRecord:
    """A record from (phase name, units by power, centres by power) triples, via the saved-game reader."""
    saved: dict[str, Any] = {
        "id": game_id,
        "map": map_name,
        "phases": [
            {"name": name, "state": {"units": dict(units), "centers": dict(centres)}}
            for name, units, centres in phases
        ],
    }
    return record_from_saved(saved)


@pytest.fixture(scope="session")
def human_games() -> list[GameRecord]:
    """The three real human games shipped inside the installed ``diplomacy`` package (read in place)."""
    paths = shipped_game_paths()
    assert len(paths) == 3, "the diplomacy package should ship tests/network/{1,2,3}.json"
    return [load_records(p)[0] for p in paths]
