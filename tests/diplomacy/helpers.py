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


def start_saved_game(map_name: str, game_id: str | None = None) -> dict[str, Any]:
    """A one-phase saved game (the engine's format) at the start of ``map_name``: uploadable anywhere."""
    from boardeval.diplomacy import load_map_graph

    graph = load_map_graph(map_name)
    state = {
        "units": {p: list(u) for p, u in zip(graph.powers, graph.start_units, strict=True)},
        "centers": {p: list(c) for p, c in zip(graph.powers, graph.start_centers, strict=True)},
    }
    return {
        "id": game_id or f"start-{map_name}",
        "map": map_name,
        "phases": [{"name": graph.first_phase, "state": state}],
    }
