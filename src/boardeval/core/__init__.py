"""Shared vocabulary: breakdowns, weight sets, seeded RNG, the job runner, players, intervals, errors."""

from boardeval.core.breakdown import Breakdown, Term
from boardeval.core.errors import (
    BoardevalError,
    CatanError,
    DiplomacyError,
    InfeasibleError,
    MorrisError,
    ParamsError,
)
from boardeval.core.players import Player
from boardeval.core.progress import Progress, report
from boardeval.core.rng import SeedLike, make_rng, spawn_seeds
from boardeval.core.runner import JobsInterrupted, map_jobs
from boardeval.core.stats import Interval, mean_interval, score_interval, wilson_interval
from boardeval.core.weights import WeightSet, check_keys, check_number, dump_data_file, load_data_file

__all__ = [
    "BoardevalError",
    "Breakdown",
    "CatanError",
    "DiplomacyError",
    "InfeasibleError",
    "Interval",
    "JobsInterrupted",
    "MorrisError",
    "ParamsError",
    "Player",
    "Progress",
    "SeedLike",
    "Term",
    "WeightSet",
    "check_keys",
    "check_number",
    "dump_data_file",
    "load_data_file",
    "make_rng",
    "mean_interval",
    "map_jobs",
    "report",
    "score_interval",
    "spawn_seeds",
    "wilson_interval",
]
