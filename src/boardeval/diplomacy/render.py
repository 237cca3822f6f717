"""The board at one phase (units, orders, supply-centre owners) drawn by the ``diplomacy`` engine's own
SVG renderer (:class:`diplomacy.engine.renderer.Renderer`), recoloured with our power palette.

The engine's map SVG ships inside the installed package and references nothing outside itself, so the
drawing works offline.  A saved game's phase gives the units (``*`` = dislodged), the centres, the
influence and the orders submitted in that phase; the engine checks the orders as it would in play
(orders it rejects are not drawn).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any

from boardeval.core import DiplomacyError
from boardeval.diplomacy._colours import power_colour
from boardeval.diplomacy.records import (
    RecordFormatError,
    RecordSource,
    _iter_json_documents,
    _read_source,
    record_from_saved,
)

__all__ = ["board_svg", "saved_games"]

_LOCK = threading.Lock()  # a Renderer and its Game are reused per map: one drawing at a time
_RENDERERS: dict[str, Any] = {}


def saved_games(source: RecordSource, *, name: str | None = None) -> list[dict[str, Any]]:
    """The saved-game objects of a JSON / JSONL source, in the order :func:`load_records` numbers them."""
    text, label = _read_source(source, name)
    out: list[dict[str, Any]] = []
    for _, doc in _iter_json_documents(text, label):
        for item in doc if isinstance(doc, list) else [doc]:
            if not isinstance(item, dict):
                raise RecordFormatError(f"{label}: a saved game must be a JSON object")
            out.append(item)
    return out


def _tint(hex_colour: str, amount: float = 0.5) -> str:
    """The colour mixed with white (territory fills stay light enough for the black labels)."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def _svg_folder() -> str:
    import os

    from diplomacy import settings

    return os.path.join(settings.PACKAGE_DIR, "maps", "svg")


def _svg_file(map_name: str) -> str | None:
    """The SVG the engine's renderer uses for the map (its own, else its root map's), or None."""
    import os

    from boardeval.diplomacy.graph import load_map_graph

    graph = load_map_graph(map_name)  # an unknown map is UnknownMapError
    for stem in (graph.name, graph.root_map):
        path = os.path.join(_svg_folder(), f"{stem}.svg")
        if os.path.exists(path):
            return path
    return None


def _renderer(map_name: str) -> Any:
    if map_name not in _RENDERERS:
        from diplomacy.engine.renderer import Renderer

        from boardeval.diplomacy.convoys import engine_game

        if _svg_file(map_name) is None:  # checked before a Game: a map's first Game may cost minutes
            import os

            drawn = sorted(f[:-4] for f in os.listdir(_svg_folder()) if f.endswith(".svg"))
            raise DiplomacyError(
                f"the diplomacy engine has no drawing of map {map_name!r}; it draws "
                f"{', '.join(drawn)} and their variants"
            )
        game = engine_game(map_name)
        renderer = Renderer(game)
        for i, power in enumerate(game.map.powers):
            renderer.metadata["color"][power] = power_colour(power, i)  # order arrows
        _RENDERERS[map_name] = renderer
    return _RENDERERS[map_name]


def _recolour(svg: str, powers: list[str]) -> str:
    """Replace the map's power fills (territories, units) with the palette; drop the external DTD line."""
    svg = re.sub(r"<!DOCTYPE[^>]*>", "", svg, count=1)
    for i, power in enumerate(powers):
        colour = power_colour(power, i)
        low = power.lower()
        svg = re.sub(
            rf"\.{low}\s*\{{fill:[^;]+;",
            f".{low} {{fill:{_tint(colour)};",
            svg,
            count=1,
        )
        svg = re.sub(
            rf"\.unit{low}\s*\{{fill:[^;]+;\s*fill-opacity:[^;}}]+",
            f".unit{low} {{fill:{colour}; fill-opacity:1",
            svg,
            count=1,
        )
    return svg


def board_svg(saved: Mapping[str, Any], phase: str | int, *, orders: bool = True) -> str:
    """The engine's SVG of one phase of a saved game (the dict of ``to_saved_game_format``).

    ``phase`` is a phase name (``'F1901M'``) or an index into the game's phases.  The game is checked
    as :func:`record_from_saved` checks it (bad records raise a :class:`RecordError` subclass); an unknown
    phase raises :class:`RecordFormatError` naming it.
    """
    record = record_from_saved(saved, source=str(saved.get("id") or "game"))
    names = [p.phase for p in record.phases]
    if isinstance(phase, int):
        if not 0 <= phase < len(names):
            raise RecordFormatError(f"phase index {phase} is out of range: the game has {len(names)} phases")
        index = phase
    elif phase in names:
        index = names.index(phase)
    else:
        raise RecordFormatError(f"unknown phase {phase!r}: the game has {names[0]} .. {names[-1]}")
    entry = saved["phases"][index]
    state = entry.get("state") or {}
    with _LOCK:
        renderer = _renderer(record.map_name)
        game = renderer.game
        game.clear_units()
        game.clear_centers()
        game.clear_orders()
        game.set_current_phase(names[index])
        for power in game.powers.values():
            power.influence = []
        position = record.phases[index]
        powers = list(game.map.powers)
        for p, power in enumerate(record.graph.powers):
            game.set_units(power, [u.format() for u in position.units[p]], reset=True)
            game.set_centers(power, list(position.centers[p]), reset=True)
        influence = state.get("influence")
        if isinstance(influence, Mapping):
            for power, locs in influence.items():
                if str(power).upper() in game.powers and isinstance(locs, list):
                    game.powers[str(power).upper()].influence = [str(x).upper() for x in locs]
        given = entry.get("orders") if orders else None
        if isinstance(given, Mapping):
            for power, items in given.items():
                if str(power).upper() in game.powers and isinstance(items, list):
                    game.set_orders(str(power).upper(), [str(o) for o in items if isinstance(o, str)])
        game.error = []
        svg: str = renderer.render(incl_orders=orders)
    return _recolour(svg, powers)
