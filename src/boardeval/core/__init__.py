"""Shared vocabulary: breakdowns, weight sets, seeded RNG, the job runner, players, intervals, errors.

Importing this package does not import numpy (the CLI starts in a fraction of a second): the seeded-RNG
names (``SeedLike``, ``make_rng``, ``spawn_seeds``) load :mod:`boardeval.core.rng`, and numpy with it, on
first use.
"""

from typing import TYPE_CHECKING, Any

from boardeval.core.breakdown import Breakdown, Term
from boardeval.core.errors import (
    BoardevalError,
    CatanError,
    DiplomacyError,
    InfeasibleError,
    MorrisError,
    ParamsError,
)
from boardeval.core.inputs import (
    MAX_DEPTH,
    MAX_INPUT_CHARS,
    check_depth,
    dumps_json,
    loads_json,
    loads_toml,
    validation_message,
)
from boardeval.core.names import near_name, pick_name
from boardeval.core.numbers import check_float, check_int, parse_float, parse_int, quote
from boardeval.core.players import Player
from boardeval.core.progress import Progress, report
from boardeval.core.runner import JobsFailed, JobsInterrupted, map_jobs, sigint_held, worker_failures
from boardeval.core.stats import Interval, mean_interval, score_interval, wilson_interval
from boardeval.core.weights import WeightSet, check_keys, check_number, dump_data_file, load_data_file

if TYPE_CHECKING:
    from boardeval.core.rng import SeedLike, make_rng, spawn_seeds

_LAZY_RNG = ("SeedLike", "make_rng", "spawn_seeds")

__all__ = [
    "BoardevalError",
    "Breakdown",
    "CatanError",
    "DiplomacyError",
    "InfeasibleError",
    "Interval",
    "JobsFailed",
    "JobsInterrupted",
    "MAX_DEPTH",
    "MAX_INPUT_CHARS",
    "MorrisError",
    "ParamsError",
    "Player",
    "Progress",
    "SeedLike",
    "Term",
    "WeightSet",
    "check_depth",
    "check_float",
    "check_int",
    "check_keys",
    "check_number",
    "dump_data_file",
    "dumps_json",
    "load_data_file",
    "loads_json",
    "loads_toml",
    "make_rng",
    "mean_interval",
    "near_name",
    "map_jobs",
    "parse_float",
    "pick_name",
    "parse_int",
    "quote",
    "report",
    "score_interval",
    "sigint_held",
    "spawn_seeds",
    "validation_message",
    "wilson_interval",
    "worker_failures",
]


def __getattr__(name: str) -> Any:
    """Load the numpy-backed names on first use (PEP 562)."""
    if name in _LAZY_RNG:
        from boardeval.core import rng

        value = getattr(rng, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
