"""Diplomacy position measures over game records, on the ``diplomacy`` engine.

The CLI and the web app import only the names listed in ``__all__`` here.

    >>> from boardeval.diplomacy import load_records, measures_table, shipped_game_paths
    >>> game = load_records(shipped_game_paths()[0])[0]
    >>> table = measures_table(game, ["progress", "battle_tiedness"])

Importing the package loads numpy only: the ``diplomacy`` engine is imported when a map is first loaded,
pandas when a tidy table is first built (:func:`measures_table`, :func:`games_table`, :func:`table_rows`)
and matplotlib when a chart is first drawn (:func:`chart_svg`, :func:`chart_measure`), so that the CLI
starts at once.  The reference implementation of the measures (``_plain.plain_measures``) and the figure
helpers (``charts.series_figure``, ...) are not part of this public face.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from boardeval.diplomacy._catalog import (
    MEASURE_INFO,
    MEASURES,
    MeasureInfo,
    UnknownMeasureError,
    validate_measures,
)
from boardeval.diplomacy._colours import power_colour
from boardeval.diplomacy.convoys import (
    MapNotPreparedError,
    convoy_table_ready,
    forbid_convoy_builds,
    prepare_map,
)
from boardeval.diplomacy.graph import MapGraph, UnknownMapError, available_maps, load_map_graph
from boardeval.diplomacy.measures import GameMeasures, compute_measures, static_fear, static_routes
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
    from boardeval.diplomacy._table import games_table, measures_table, table_rows
    from boardeval.diplomacy.alliances import detect_alliances
    from boardeval.diplomacy.bots import DumbBot, RandomBot, UnknownBotError, UnsupportedMapError
    from boardeval.diplomacy.charts import chart_measure, chart_svg
    from boardeval.diplomacy.corpus import (
        DEFAULT_MIXES,
        CorpusError,
        generate_corpus,
        iter_corpus,
        read_manifest,
    )
    from boardeval.diplomacy.evalbot import BOT_KINDS, EvalBot
    from boardeval.diplomacy.evaluation import (
        Evaluation,
        EvaluationError,
        build_dataset,
        evaluate_game,
        evaluate_position,
        fit_evaluation,
        split_games,
    )
    from boardeval.diplomacy.render import board_svg, saved_games
    from boardeval.diplomacy.tournament import (
        TournamentError,
        TournamentResult,
        bot_game,
        play_bot_game,
        run_tournament,
    )

_LAZY: dict[str, str] = {
    "games_table": "boardeval.diplomacy._table",
    "measures_table": "boardeval.diplomacy._table",
    "table_rows": "boardeval.diplomacy._table",
    "chart_measure": "boardeval.diplomacy.charts",
    "chart_svg": "boardeval.diplomacy.charts",
    "board_svg": "boardeval.diplomacy.render",
    "saved_games": "boardeval.diplomacy.render",
    "BOT_KINDS": "boardeval.diplomacy.evalbot",
    "EvalBot": "boardeval.diplomacy.evalbot",
    "DumbBot": "boardeval.diplomacy.bots",
    "RandomBot": "boardeval.diplomacy.bots",
    "UnknownBotError": "boardeval.diplomacy.bots",
    "UnsupportedMapError": "boardeval.diplomacy.bots",
    "TournamentError": "boardeval.diplomacy.tournament",
    "TournamentResult": "boardeval.diplomacy.tournament",
    "bot_game": "boardeval.diplomacy.tournament",
    "play_bot_game": "boardeval.diplomacy.tournament",
    "run_tournament": "boardeval.diplomacy.tournament",
    "Evaluation": "boardeval.diplomacy.evaluation",
    "EvaluationError": "boardeval.diplomacy.evaluation",
    "evaluate_position": "boardeval.diplomacy.evaluation",
    "evaluate_game": "boardeval.diplomacy.evaluation",
    "build_dataset": "boardeval.diplomacy.evaluation",
    "fit_evaluation": "boardeval.diplomacy.evaluation",
    "split_games": "boardeval.diplomacy.evaluation",
    "DEFAULT_MIXES": "boardeval.diplomacy.corpus",
    "CorpusError": "boardeval.diplomacy.corpus",
    "generate_corpus": "boardeval.diplomacy.corpus",
    "iter_corpus": "boardeval.diplomacy.corpus",
    "read_manifest": "boardeval.diplomacy.corpus",
    "detect_alliances": "boardeval.diplomacy.alliances",
}
"""Public names loaded on first use: their modules import pandas, matplotlib, or more than a measure needs."""


def __getattr__(name: str) -> Any:
    """Import the tidy-table (pandas) and chart (matplotlib) helpers only when first used."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'boardeval.diplomacy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__: list[str] = [
    # game records
    "GameRecord",
    "Position",
    "Unit",
    "load_records",
    "save_records",
    "record_from_saved",
    "record_from_game",
    "random_game",
    "start_position",
    "shipped_game_paths",
    # maps
    "MapGraph",
    "load_map_graph",
    "available_maps",
    "prepare_map",
    "convoy_table_ready",
    "forbid_convoy_builds",
    # measures
    "MEASURES",
    "MEASURE_INFO",
    "MeasureInfo",
    "validate_measures",
    "compute_measures",
    "GameMeasures",
    "measures_table",
    "games_table",
    "table_rows",
    "static_fear",
    "static_routes",
    # charts
    "chart_svg",
    "chart_measure",
    "power_colour",
    # the board drawn by the engine's renderer
    "board_svg",
    "saved_games",
    # bots and tournaments
    "BOT_KINDS",
    "RandomBot",
    "DumbBot",
    "EvalBot",
    "bot_game",
    "play_bot_game",
    "run_tournament",
    "TournamentResult",
    # the fitted evaluation, its corpus, alliances
    "Evaluation",
    "evaluate_position",
    "evaluate_game",
    "build_dataset",
    "fit_evaluation",
    "split_games",
    "DEFAULT_MIXES",
    "generate_corpus",
    "iter_corpus",
    "read_manifest",
    "detect_alliances",
    # errors (all DiplomacyError, a BoardevalError)
    "EvaluationError",
    "CorpusError",
    "TournamentError",
    "UnknownBotError",
    "UnsupportedMapError",
    "RecordError",
    "RecordFormatError",
    "RecordStateError",
    "UnknownPowerError",
    "UnknownProvinceError",
    "UnknownMapError",
    "MapNotPreparedError",
    "UnknownMeasureError",
]
