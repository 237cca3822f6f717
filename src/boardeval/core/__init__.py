"""Shared evaluation vocabulary: breakdowns, weight sets, seeded RNG, the job runner, errors."""

from boardeval.core.breakdown import Breakdown, Term
from boardeval.core.errors import (
    BoardevalError,
    CatanError,
    DiplomacyError,
    InfeasibleError,
    MorrisError,
    ParamsError,
)
from boardeval.core.progress import Progress, report
from boardeval.core.rng import SeedLike, make_rng, spawn_seeds
from boardeval.core.runner import JobsInterrupted, map_jobs
from boardeval.core.weights import WeightSet, check_keys, check_number, dump_data_file, load_data_file

__all__ = [
    "BoardevalError",
    "Breakdown",
    "CatanError",
    "DiplomacyError",
    "InfeasibleError",
    "JobsInterrupted",
    "MorrisError",
    "ParamsError",
    "Progress",
    "SeedLike",
    "Term",
    "WeightSet",
    "check_keys",
    "check_number",
    "dump_data_file",
    "load_data_file",
    "make_rng",
    "map_jobs",
    "report",
    "spawn_seeds",
]
