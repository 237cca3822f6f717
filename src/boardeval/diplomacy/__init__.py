"""Diplomacy position measures over game records, on the ``diplomacy`` engine.

The CLI and the web app import only the names listed in ``__all__`` here.

    >>> from boardeval.diplomacy import load_records, measures_table, shipped_game_paths
    >>> game = load_records(shipped_game_paths()[0])[0]
    >>> table = measures_table(game, ["progress", "battle_tiedness"])
"""

from typing import TYPE_CHECKING, Any

from boardeval.diplomacy.graph import (
    UNREACHABLE,
    MapGraph,
    UnknownMapError,
    available_maps,
    load_map_graph,
    province_of,
)
from boardeval.diplomacy.measures import (
    MEASURE_KINDS,
    MEASURES,
    GameMeasures,
    UnknownMeasureError,
    compute_measures,
    games_table,
    measures_table,
    static_fear,
    static_routes,
    table_rows,
    validate_measures,
)
from boardeval.diplomacy.plain import plain_measures
from boardeval.diplomacy.records import (
    GameRecord,
    Position,
    RecordError,
    RecordFormatError,
    RecordStateError,
    Unit,
    UnknownPowerError,
    UnknownProvinceError,
    load_records,
    random_game,
    record_from_game,
    record_from_saved,
    save_records,
    shipped_game_paths,
    start_position,
)

if TYPE_CHECKING:
    from boardeval.diplomacy.charts import (
        POWER_COLOURS,
        chart_measure,
        power_colour,
        save_chart,
        series_figure,
        table_figure,
    )

_CHART_NAMES = (
    "POWER_COLOURS",
    "chart_measure",
    "power_colour",
    "save_chart",
    "series_figure",
    "table_figure",
)


def __getattr__(name: str) -> Any:
    """Import the chart helpers (and matplotlib) only when first used: keeps ``boardeval --help`` fast."""
    if name in _CHART_NAMES:
        from boardeval.diplomacy import charts

        return getattr(charts, name)
    raise AttributeError(f"module 'boardeval.diplomacy' has no attribute {name!r}")


__all__: list[str] = [
    "POWER_COLOURS",
    "MEASURES",
    "MEASURE_KINDS",
    "UNREACHABLE",
    "GameMeasures",
    "GameRecord",
    "MapGraph",
    "Position",
    "RecordError",
    "RecordFormatError",
    "RecordStateError",
    "Unit",
    "UnknownMapError",
    "UnknownMeasureError",
    "UnknownPowerError",
    "UnknownProvinceError",
    "available_maps",
    "chart_measure",
    "compute_measures",
    "games_table",
    "load_map_graph",
    "load_records",
    "measures_table",
    "plain_measures",
    "power_colour",
    "province_of",
    "random_game",
    "record_from_game",
    "record_from_saved",
    "save_chart",
    "save_records",
    "series_figure",
    "shipped_game_paths",
    "start_position",
    "static_fear",
    "static_routes",
    "table_figure",
    "table_rows",
    "validate_measures",
]
