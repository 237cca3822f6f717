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
    point_index,
    point_name,
    points_of,
    popcount,
)
from boardeval.morris.perft import perft
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
    "perft",
    "point_index",
    "point_name",
    "points_of",
    "popcount",
]
# ---- end of section (engine) ----

# ---- section: evaluation, search, why-panel, matches -- edit only inside this section ----
# ---- end of section (evaluation) ----
