"""Parameters of the settlement-spot evaluator (seed 000), as validated data.

Defaults live in ``catan/data/spot_params.toml``; a user file must give every field (no silent defaults).
Per-resource lists follow the order of :data:`boardeval.catan.board.RESOURCES`: wood, brick, sheep,
grain, ore. Every value must be finite and non-negative: a negative strength, exponent, bonus or weight
has no meaning in the seed's model (and a negative strength would make ``raw ** dampening`` undefined).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boardeval.core import ParamsError, check_keys, check_number, load_data_file

__all__ = ["DEFAULT_SPOT_PARAMS_FILE", "METRIC_NAMES", "SpotParams"]

DEFAULT_SPOT_PARAMS_FILE = Path(__file__).parent / "data" / "spot_params.toml"

METRIC_NAMES: tuple[str, ...] = (
    "raw_production",
    "scarcity_production",
    "port",
    "prime_variate",
    "parity",
)
"""The five metrics of seed 000, in ``eval_weights`` order."""

_LISTS = ("base_resource_strength", "eval_weights")
_SCALARS = ("dampening_factor", "port_bonus", "prime_variate_bonus", "parity_preference")


@dataclass(frozen=True)
class SpotParams:
    """The six tunables of seed 000 (see ``docs/catan.md``); validated on construction."""

    base_resource_strength: tuple[float, ...] = (1.0, 1.0, 0.9, 1.1, 1.1)
    dampening_factor: float = 0.5
    port_bonus: float = 1.5
    prime_variate_bonus: float = 2.0
    parity_preference: float = 0.8
    eval_weights: tuple[float, ...] = (1.0, 1.5, 1.0, 1.0, 1.0)

    def __post_init__(self) -> None:
        self._check("spot parameters")

    def _check(self, source: str) -> None:
        for name in _LISTS:
            value = getattr(self, name)
            if isinstance(value, str) or not isinstance(value, list | tuple):
                raise ParamsError(f"{source}: {name} must be a list of 5 numbers, got {value!r}")
            if len(value) != 5:
                raise ParamsError(f"{source}: {name} must have 5 entries, got {len(value)}: {list(value)}")
            clean = tuple(_number(v, f"{source}: {name}[{i}]") for i, v in enumerate(value))
            object.__setattr__(self, name, clean)
        for name in _SCALARS:
            object.__setattr__(self, name, _number(getattr(self, name), f"{source}: {name}"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "spot parameters") -> SpotParams:
        """Build from a mapping with exactly the six fields; errors name ``source`` and the field."""
        expected = (*_LISTS[:1], *_SCALARS, _LISTS[1])
        check_keys(data, expected, source, "field")
        obj = cls.__new__(cls)
        for k in expected:
            object.__setattr__(obj, k, data[k])
        obj._check(source)
        return obj

    @classmethod
    def load(cls, path: str | Path) -> SpotParams:
        """Read a TOML (``.toml``) or JSON file; :class:`ParamsError` names the file and the field."""
        return cls.from_dict(load_data_file(path), source=f"parameter file {str(path)!r}")

    @classmethod
    def default(cls) -> SpotParams:
        """The packaged defaults (``catan/data/spot_params.toml``), read once."""
        return _default()

    def to_dict(self) -> dict[str, Any]:
        """JSON/TOML-able form (lists for the per-resource and weight tuples)."""
        d = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def _number(v: Any, where: str) -> float:
    return check_number(v, where, nonnegative=True)


@cache
def _default() -> SpotParams:
    return SpotParams.load(DEFAULT_SPOT_PARAMS_FILE)
