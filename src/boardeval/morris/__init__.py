"""Nine Men's Morris: rules engine, explainable evaluation, alpha-beta search, players, why-panel, matches.

The public face is ``__all__`` below; the CLI and the web app import nothing else. The house, by file and
folder (imports flow down this list, never up; ``tests/test_layering.py`` enforces it):

- the game: ``board.py`` (points, lines, sides, bitboards, Zobrist keys) · ``variants.py`` (rule options)
  · ``turns.py`` (the move type, its notation) · ``outcome.py`` (how a game ends) · ``rules.py``
  (``Position``: legal turns, push/pop, the game's end) · ``_perft.py`` (the move generator's check);
- the evaluation: ``_features.py`` (named raw features) · ``_evaluate.py`` (weights, phases, the score);
- ``_search/`` -- the search: ``searcher.py`` (``Searcher``, the Python reference), ``compiled/`` (the
  numba engine), ``endgame.py`` and ``opening.py`` (the interfaces to a tablebase and to an opening book),
  ``clock.py`` (time use over a game), ``plain.py`` (random play);
- ``tablebase/`` -- the endgame tablebase: ``index.py``, ``files.py``, ``retrograde.py`` (compiled solver),
  ``build.py``, ``probe.py``, ``plain.py`` (the second solver of the tests); it knows only the rules;
- ``book/`` -- the placing-phase opening book (``store.py``, ``build.py``), searched offline;
- ``why.py`` (the why-panel) · ``players.py`` · ``match.py`` -- play, over the search and the tablebase;
- ``tuning/`` -- ``data.py``, ``texel.py`` (Texel tuning), ``selfplay.py`` (tuning by engine matches).

Modules and folders whose names would clash with an exported function (``_search``, ``_features``,
``_evaluate``, ``_perft``) are private. The geometry tables and bit tricks (``ADJACENT``, ``MILLS``,
``mill_closers``, ``zobrist_of``, ...) are in :mod:`boardeval.morris.board` and the rules internals
(``make_turn``, ...) importable from :mod:`boardeval.morris.rules`, for code that works on bitboards.
"""

from typing import TYPE_CHECKING, Any

from boardeval.morris._evaluate import (
    BASE_WEIGHTS,
    PROFILES,
    WIN_SCORE,
    Evaluator,
    evaluate,
    load_weights,
    make_weights,
)
from boardeval.morris._features import FEATURES, SideFeatures, features
from boardeval.morris._perft import perft, perft_divide
from boardeval.morris._search.plain import random_position
from boardeval.morris._search.searcher import (
    DEFAULT_DEPTH,
    MAX_DEPTH,
    MoveScore,
    Searcher,
    SearchResult,
    search,
    top_moves,
)
from boardeval.morris.board import POINT_NAMES, NotationError, point_index, point_name
from boardeval.morris.match import GameRecord, MatchResult, PlayerSpec, play_game, play_match
from boardeval.morris.players import STRENGTHS, AlphaBetaPlayer, HumanPlayer, MorrisPlayer, RandomPlayer
from boardeval.morris.rules import (
    BLACK,
    OPENSPIEL,
    STANDARD,
    WHITE,
    IllegalMoveError,
    Outcome,
    Phase,
    Position,
    PositionError,
    Termination,
    Turn,
    Variant,
    VariantError,
)
from boardeval.morris.why import FEATURE_LABELS, game_verdict, turn_verdict, white_view, why_panel

if TYPE_CHECKING:
    from boardeval.morris.book import (
        BOOK_MAX_DEPTH,
        DEFAULT_BOOK,
        Book,
        BookEntry,
        BookError,
        build_book,
        default_book,
    )
    from boardeval.morris.tablebase import (
        MissingTablebaseError,
        Tablebase,
        TablebaseError,
        TBResult,
        build_tablebase,
        default_tablebase_dir,
    )
    from boardeval.morris.tablebase.packed import prefetch_tablebase
    from boardeval.morris.tuning import (
        MatchScore,
        PlayTuneReport,
        TuneReport,
        engine_match,
        tune_by_play,
        tune_weights,
        write_weights,
    )

# The endgame tablebase needs numpy and builds index tables when imported: its names load on first use.
_LAZY = {
    name: "boardeval.morris.tablebase"
    for name in (
        "Tablebase",
        "TBResult",
        "TablebaseError",
        "MissingTablebaseError",
        "build_tablebase",
        "default_tablebase_dir",
    )
}
_LAZY["prefetch_tablebase"] = "boardeval.morris.tablebase.packed"
# The opening book reads a data file: loaded on first use too
_LAZY.update(
    {
        name: "boardeval.morris.book"
        for name in (
            "Book",
            "BookEntry",
            "BookError",
            "DEFAULT_BOOK",
            "BOOK_MAX_DEPTH",
            "default_book",
            "build_book",
        )
    }
)
# Texel tuning needs numpy and scipy: loaded on first use too
_LAZY.update(
    {
        name: "boardeval.morris.tuning"
        for name in (
            "tune_weights",
            "TuneReport",
            "write_weights",
            "tune_by_play",
            "PlayTuneReport",
            "engine_match",
            "MatchScore",
        )
    }
)

__all__ = [
    # the game: positions, turns, rules variants, outcomes, point names
    "Position", "Turn", "Variant", "STANDARD", "OPENSPIEL", "WHITE", "BLACK", "Phase", "Outcome",
    "Termination", "POINT_NAMES", "point_index", "point_name",
    # errors (all are boardeval.core.MorrisError, a ValueError)
    "NotationError", "IllegalMoveError", "PositionError", "VariantError",
    # move-generator check
    "perft", "perft_divide",
    # evaluation
    "evaluate", "Evaluator", "features", "SideFeatures", "FEATURES", "load_weights", "make_weights",
    "BASE_WEIGHTS", "PROFILES", "WIN_SCORE",
    # search and the why-panel
    "search", "top_moves", "Searcher", "SearchResult", "MoveScore", "DEFAULT_DEPTH", "MAX_DEPTH",
    "random_position", "why_panel", "turn_verdict", "game_verdict", "white_view", "FEATURE_LABELS",
    # players (boardeval.core.Player) and matches
    "MorrisPlayer", "RandomPlayer", "AlphaBetaPlayer", "HumanPlayer", "STRENGTHS", "PlayerSpec",
    "play_game", "play_match", "GameRecord", "MatchResult",
    # the endgame tablebase (loaded on first use)
    "Tablebase", "TBResult", "TablebaseError", "MissingTablebaseError", "build_tablebase",
    "default_tablebase_dir", "prefetch_tablebase",
    # the placing-phase opening book (loaded on first use)
    "Book", "BookEntry", "BookError", "DEFAULT_BOOK", "BOOK_MAX_DEPTH", "default_book", "build_book",
    # Texel tuning against the tablebase (loaded on first use)
    "tune_weights", "TuneReport", "write_weights",
    # tuning the placing-phase weights by engine self-play (loaded on first use)
    "tune_by_play", "PlayTuneReport", "engine_match", "MatchScore",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    """Load the tablebase and tuning names on first use (PEP 562), so ``import boardeval.morris`` stays
    light."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
