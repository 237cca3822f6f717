"""Nine Men's Morris: board and rules engine, explainable evaluation, alpha-beta search, why-panel.

The CLI and the web app import only the names listed in ``__all__`` here.
"""

__all__: list[str] = []

# ---- section: engine (board, rules, notation, perft) -- edit only inside this section ----
from boardeval.morris.board import (
    ADJ_MASK,
    ADJACENT,
    BIT,
    FULL_MASK,
    MILL_MASKS,
    MILLS,
    N_POINTS,
    POINT_MILL_MASKS,
    POINT_MILLS,
    POINT_NAMES,
    RING,
    RING_MASKS,
    RING_WEIGHT,
    NotationError,
    in_mills,
    iter_bits,
    mill_closers,
    neighbours,
    point_index,
    point_name,
    points_of,
    popcount,
)
from boardeval.morris.perft import perft, perft_divide, perft_generic
from boardeval.morris.rules import (
    BLACK,
    OPENSPIEL,
    SIDE_NAMES,
    STANDARD,
    WHITE,
    IllegalMoveError,
    Outcome,
    Phase,
    Position,
    PositionError,
    Status,
    Turn,
    Variant,
    VariantError,
    make_turn,
    zobrist_of,
)

__all__ += [
    "ADJACENT",
    "ADJ_MASK",
    "BIT",
    "BLACK",
    "FULL_MASK",
    "MILLS",
    "MILL_MASKS",
    "N_POINTS",
    "OPENSPIEL",
    "POINT_MILLS",
    "POINT_MILL_MASKS",
    "POINT_NAMES",
    "RING",
    "RING_MASKS",
    "RING_WEIGHT",
    "SIDE_NAMES",
    "STANDARD",
    "WHITE",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "Phase",
    "Position",
    "PositionError",
    "Status",
    "Turn",
    "Variant",
    "VariantError",
    "in_mills",
    "iter_bits",
    "make_turn",
    "mill_closers",
    "neighbours",
    "perft",
    "perft_divide",
    "perft_generic",
    "point_index",
    "point_name",
    "points_of",
    "popcount",
    "zobrist_of",
]
# ---- end of section (engine) ----

# ---- section: evaluation, search, why-panel, matches -- edit only inside this section ----
from boardeval.morris.evaluate import (
    BASE_WEIGHTS,
    CLUSTER,
    NORM,
    PHASE_SCALE,
    PROFILES,
    WIN_SCORE,
    Evaluator,
    evaluate,
    load_weights,
    make_weights,
    terminal_score,
)
from boardeval.morris.features import (
    FEATURES,
    PHASES,
    SideFeatures,
    features,
    position_phase,
    side_features,
    side_phase,
)
from boardeval.morris.match import GameRecord, MatchResult, Player, PlayerSpec, play_game, play_match
from boardeval.morris.search import (
    DEFAULT_DEPTH,
    MAX_DEPTH,
    MoveScore,
    Searcher,
    SearchResult,
    alphabeta,
    random_position,
    random_turn,
    search,
    top_moves,
)
from boardeval.morris.why import FEATURE_LABELS, why_panel

__all__ += [
    "FEATURES", "PHASES", "SideFeatures", "features", "position_phase", "side_features", "side_phase",
    "BASE_WEIGHTS", "CLUSTER", "NORM", "PHASE_SCALE", "PROFILES", "WIN_SCORE", "Evaluator", "evaluate",
    "load_weights", "make_weights", "terminal_score",
    "DEFAULT_DEPTH", "MAX_DEPTH", "MoveScore", "Searcher", "SearchResult", "alphabeta", "random_position",
    "random_turn", "search", "top_moves",
    "FEATURE_LABELS", "why_panel",
    "GameRecord", "MatchResult", "Player", "PlayerSpec", "play_game", "play_match",
]
# ---- end of section (evaluation) ----
