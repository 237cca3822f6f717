"""Catan: board model and share codes, the spot evaluator, the fairness energy, rules, generators, formats.

The public face (what the CLI and the web app may import, and what a library user needs) is ``__all__``;
everything else lives in modules a user need not know (``_generate/`` holds the generators behind
:func:`generate`). Reference implementations and internals (the pure-Python spot evaluator, the CP-SAT
cross-checks of the blog model, the catan-forge annealer port, raw tables) stay importable from their
modules for tests and benchmarks, but are not exported here.

``import boardeval.catan`` stays light (numpy; no OR-Tools, catanatron, matplotlib or pandas): it loads the
board model and the evaluators, and every other exported name (generators, rules, blog models, formats,
rendering) on first access, through the module-level ``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from boardeval.catan.board import (
    N_HEXES,
    N_PORTS,
    N_SPOTS,
    PIPS,
    RESOURCE_NAMES,
    RESOURCES,
    Board,
    BoardError,
    BoardParseError,
)
from boardeval.catan.energy import board_energy, energy_json, energy_weights
from boardeval.catan.params import METRIC_NAMES, SpotParams
from boardeval.catan.spots import SpotTable, evaluate_spots, spot_scores_batch
from boardeval.catan.topology import BASE_TOPOLOGY, Topology

if TYPE_CHECKING:
    from boardeval.catan._generate.common import DEFAULT_TOURNAMENT_RULES, METHODS, GenerationResult, Swap
    from boardeval.catan._generate.cp import CountInterrupted, Optimum, count_boards, optimum
    from boardeval.catan._generate.fairness import check_fairness, generate
    from boardeval.catan._generate.harbours import PORTS_MODES, check_ports_mode
    from boardeval.catan.advisor import PLAYER_NAMES, Advice, advise, parse_taken
    from boardeval.catan.blogmodel import (
        BLOG_BOARD,
        BlogModelError,
        MarkerCount,
        count_markers,
        count_tiles,
        format_staggered,
        iter_markers,
        iter_tiles,
    )
    from boardeval.catan.catanatron_io import (
        from_catanatron_map,
        node_to_spot,
        spot_to_node,
        to_catanatron_map,
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
    from boardeval.catan.draft import Draft, opening_draft
    from boardeval.catan.equity import SEAT_EQUITY_TERMS, SeatEquity, seat_equity
    from boardeval.catan.equity_generate import (
        ENERGY_WEIGHT,
        OBJECTIVES,
        equity_anneal,
        equity_summary,
        equity_tournament,
    )
    from boardeval.catan.playtest import PlaytestResult, RateStats, run_playtest
    from boardeval.catan.render import DISPLAY_DIGITS, board_svg
    from boardeval.catan.spot_tuning import TuneResult, load_named_params, tune_spots, write_tuned
    from boardeval.catan.study import StudyResult, run_study, write_study

__all__ = [
    # model
    "BASE_TOPOLOGY",
    "N_HEXES",
    "N_PORTS",
    "N_SPOTS",
    "PIPS",
    "RESOURCES",
    "RESOURCE_NAMES",
    "Board",
    "Topology",
    # evaluation
    "METRIC_NAMES",
    "SpotParams",
    "SpotTable",
    "board_energy",
    "energy_json",
    "energy_weights",
    "evaluate_spots",
    "spot_scores_batch",
    # rules
    "RULES",
    "Rule",
    "check_rules",
    "parse_rule",
    "parse_rules",
    "rule_violations",
    # generation
    "DEFAULT_TOURNAMENT_RULES",
    "METHODS",
    "GenerationResult",
    "Optimum",
    "CountInterrupted",
    "Swap",
    "PORTS_MODES",
    "check_fairness",
    "check_ports_mode",
    "count_boards",
    "generate",
    "optimum",
    # seed 004's blog models
    "BLOG_BOARD",
    "MarkerCount",
    "count_markers",
    "count_tiles",
    "format_staggered",
    "iter_markers",
    "iter_tiles",
    # play-testing on catanatron
    "PLAYER_NAMES",
    "Advice",
    "PlaytestResult",
    "RateStats",
    "advise",
    "parse_taken",
    "run_playtest",
    "StudyResult",
    "run_study",
    "write_study",
    "TuneResult",
    "load_named_params",
    "tune_spots",
    "write_tuned",
    # seat equity (issue 26)
    "Draft",
    "ENERGY_WEIGHT",
    "OBJECTIVES",
    "SEAT_EQUITY_TERMS",
    "SeatEquity",
    "equity_anneal",
    "equity_summary",
    "equity_tournament",
    "opening_draft",
    "seat_equity",
    # errors
    "BlogModelError",
    "BoardError",
    "BoardParseError",
    "RuleError",
    # formats and rendering
    "DISPLAY_DIGITS",
    "board_svg",
    "from_catanatron_map",
    "node_to_spot",
    "spot_to_node",
    "to_catanatron_map",
]

_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "boardeval.catan._generate.common": ("DEFAULT_TOURNAMENT_RULES", "METHODS", "GenerationResult", "Swap"),
    "boardeval.catan._generate.cp": ("CountInterrupted", "Optimum", "count_boards", "optimum"),
    "boardeval.catan._generate.fairness": ("check_fairness", "generate"),
    "boardeval.catan._generate.harbours": ("PORTS_MODES", "check_ports_mode"),
    "boardeval.catan.blogmodel": (
        "BLOG_BOARD",
        "BlogModelError",
        "MarkerCount",
        "count_markers",
        "count_tiles",
        "format_staggered",
        "iter_markers",
        "iter_tiles",
    ),
    "boardeval.catan.advisor": ("PLAYER_NAMES", "Advice", "advise", "parse_taken"),
    "boardeval.catan.playtest": ("PlaytestResult", "RateStats", "run_playtest"),
    "boardeval.catan.study": ("StudyResult", "run_study", "write_study"),
    "boardeval.catan.draft": ("Draft", "opening_draft"),
    "boardeval.catan.equity": ("SEAT_EQUITY_TERMS", "SeatEquity", "seat_equity"),
    "boardeval.catan.equity_generate": (
        "ENERGY_WEIGHT",
        "OBJECTIVES",
        "equity_anneal",
        "equity_summary",
        "equity_tournament",
    ),
    "boardeval.catan.spot_tuning": ("TuneResult", "load_named_params", "tune_spots", "write_tuned"),
    "boardeval.catan.catanatron_io": (
        "from_catanatron_map",
        "node_to_spot",
        "spot_to_node",
        "to_catanatron_map",
    ),
    "boardeval.catan.constraints": (
        "RULES",
        "Rule",
        "RuleError",
        "check_rules",
        "parse_rule",
        "parse_rules",
        "rule_violations",
    ),
    "boardeval.catan.render": ("DISPLAY_DIGITS", "board_svg"),
}
_LAZY: dict[str, str] = {name: module for module, names in _LAZY_MODULES.items() for name in names}
"""Exported names loaded on first access, not with the package: the generators (OR-Tools, for ``optimum``
and ``count_boards`` at once, for ``generate`` when a CP-SAT method runs), rules, the blog models,
play-testing and catanatron conversion (catanatron), and SVG rendering.
``import boardeval.catan`` loads only the model and the evaluators, so a command that scores one board
starts quickly."""


def __getattr__(name: str) -> Any:
    """Load a lazily exported name (see :data:`_LAZY`) and keep it as a package attribute."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
