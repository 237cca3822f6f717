"""Catan: board model and share codes, the spot evaluator, the fairness energy, generators, rendering.

The CLI and the web app import only the names listed in ``__all__`` here.
"""

__all__: list[str] = []

# ---- section: board model, evaluation, rendering (issue 3) -- edit only inside this section ----
from boardeval.catan.board import (
    CENTRE_HEX,
    CORNER_HEXES,
    DESERT,
    DESERT_INDEX,
    EDGE_HEXES,
    HEX_EDGES,
    HEX_NEIGHBOURS,
    N_HEXES,
    N_PORTS,
    N_SPOTS,
    NUMBER_TOKENS,
    PIPS,
    PORT_KINDS,
    PORT_SPOTS,
    RESOURCE_NAMES,
    RESOURCES,
    ROADS,
    SPOT_HEX_MATRIX,
    SPOT_HEXES,
    SPOT_NEIGHBOURS,
    TILE_COUNTS,
    Board,
    BoardParseError,
    Topology,
)

__all__ += [
    "CENTRE_HEX",
    "CORNER_HEXES",
    "DESERT",
    "DESERT_INDEX",
    "EDGE_HEXES",
    "HEX_EDGES",
    "HEX_NEIGHBOURS",
    "NUMBER_TOKENS",
    "N_HEXES",
    "N_PORTS",
    "N_SPOTS",
    "PIPS",
    "PORT_KINDS",
    "PORT_SPOTS",
    "RESOURCE_NAMES",
    "RESOURCES",
    "ROADS",
    "SPOT_HEX_MATRIX",
    "SPOT_HEXES",
    "SPOT_NEIGHBOURS",
    "TILE_COUNTS",
    "Board",
    "BoardParseError",
    "Topology",
]
from boardeval.catan.energy import (
    ENERGY_TERMS,
    board_energy,
    energy_from_terms,
    energy_terms_arrays,
    energy_weights,
)
from boardeval.catan.params import METRIC_NAMES, SpotParams
from boardeval.catan.spots import (
    SpotTable,
    evaluate_spot,
    evaluate_spots,
    port_strengths,
    resource_strengths,
    spot_metrics_from_production,
    spot_scores_batch,
)

__all__ += [
    "ENERGY_TERMS",
    "METRIC_NAMES",
    "SpotParams",
    "SpotTable",
    "board_energy",
    "energy_from_terms",
    "energy_terms_arrays",
    "energy_weights",
    "evaluate_spot",
    "evaluate_spots",
    "port_strengths",
    "resource_strengths",
    "spot_metrics_from_production",
    "spot_scores_batch",
]
from boardeval.catan.catanatron_io import (
    from_catanatron_map,
    node_to_spot,
    spot_to_node,
    to_catanatron_map,
)
from boardeval.catan.render import TERRAIN_COLOURS, board_svg
from boardeval.catan.terminal import board_renderable

__all__ += [
    "TERRAIN_COLOURS",
    "board_renderable",
    "board_svg",
    "from_catanatron_map",
    "node_to_spot",
    "spot_to_node",
    "to_catanatron_map",
]
# ---- end of section (issue 3) ----

# ---- section: constraints and generators (issue 4) -- edit only inside this section ----
from boardeval.catan.blogmodel import (
    BLOG_BOARD,
    BLOG_T22_MARKERS,
    BlogModelError,
    MarkerCount,
    count_markers,
    count_markers_cpsat,
    count_tiles,
    count_tiles_cpsat,
    format_staggered,
    iter_markers,
    iter_tiles,
    parse_staggered,
)
from boardeval.catan.constraints import (
    RULES,
    Rule,
    RuleError,
    check_rules,
    parse_rule,
    parse_rules,
    rule_violations,
)
from boardeval.catan.generate.anneal import anneal, forge_anneal
from boardeval.catan.generate.common import (
    METHODS,
    GenerationResult,
    Swap,
    energy_json,
    energy_lower_bound,
)
from boardeval.catan.generate.cp import Optimum, count_boards, optimum, satisfy
from boardeval.catan.generate.fairness import check_fairness, generate
from boardeval.catan.generate.tournament import DEFAULT_TOURNAMENT_RULES, plan_swaps, tournament

__all__ += [
    "BLOG_BOARD",
    "BLOG_T22_MARKERS",
    "DEFAULT_TOURNAMENT_RULES",
    "METHODS",
    "RULES",
    "BlogModelError",
    "GenerationResult",
    "MarkerCount",
    "Optimum",
    "Rule",
    "RuleError",
    "Swap",
    "anneal",
    "check_fairness",
    "check_rules",
    "count_boards",
    "count_markers",
    "count_markers_cpsat",
    "count_tiles",
    "count_tiles_cpsat",
    "energy_json",
    "energy_lower_bound",
    "forge_anneal",
    "format_staggered",
    "generate",
    "iter_markers",
    "iter_tiles",
    "optimum",
    "parse_rule",
    "parse_rules",
    "parse_staggered",
    "plan_swaps",
    "rule_violations",
    "satisfy",
    "tournament",
]
# ---- end of section (issue 4) ----
