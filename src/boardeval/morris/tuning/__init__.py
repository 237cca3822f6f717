"""Tuning the Morris evaluation, by file:

- :mod:`.data` -- labelled positions (tablebase samples, searched self-play openings) as feature rows;
- :mod:`.texel` -- Texel tuning: the logistic fit of the weights to those labels (issue 13 section 3);
- :mod:`.selfplay` -- tuning the placing-phase weights by engine matches (issue 12 section 2).

Tuning sits on top of the house: it uses the evaluation, the search, the tablebase and matches, and nothing
but ``boardeval.morris``'s public ``__init__`` uses it. Importing it needs numpy, scipy and numba;
``import boardeval.morris`` loads it on first use only.
"""

from boardeval.morris.tuning.data import (
    FIT_FEATURES,
    TuneData,
    build_data,
    placing_positions,
    play_out,
    sample_covered,
    tablebase_turn,
)
from boardeval.morris.tuning.selfplay import (
    BLOCKADE_WINDOW,
    PLAY_NAMES,
    GameJob,
    GameResult,
    MatchScore,
    PlayStep,
    PlayTuneReport,
    engine_match,
    play_engine_game,
    tune_by_play,
)
from boardeval.morris.tuning.texel import Fit, TuneReport, fit_weights, questions, tune_weights, write_weights

__all__ = [
    "BLOCKADE_WINDOW",
    "FIT_FEATURES",
    "PLAY_NAMES",
    "Fit",
    "GameJob",
    "GameResult",
    "MatchScore",
    "PlayStep",
    "PlayTuneReport",
    "TuneData",
    "TuneReport",
    "build_data",
    "engine_match",
    "fit_weights",
    "placing_positions",
    "play_engine_game",
    "play_out",
    "questions",
    "sample_covered",
    "tablebase_turn",
    "tune_by_play",
    "tune_weights",
    "write_weights",
]
