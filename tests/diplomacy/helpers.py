"""Helpers shared by the Diplomacy tests (imported by the test modules; fixtures stay in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import typer
from typer.testing import CliRunner

from boardeval.diplomacy import GameRecord, record_from_saved


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


def invoke_registered(
    register: Callable[[typer.Typer], None], *args: str
) -> tuple[int, str, BaseException | None]:
    """Run ``args`` on a throw-away Typer group that ``register`` filled: (exit code, stdout, exception)."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """A throw-away group, so that the commands keep their names."""

    register(app)
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.exception
