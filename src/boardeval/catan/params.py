"""Parameters of the settlement-spot evaluator (seed 000), as validated data.

Defaults live in ``catan/data/spot_params.toml``; a user file must give every field (no silent defaults).
Per-resource lists follow the order of :data:`boardeval.catan.board.RESOURCES`: wood, brick, sheep,
grain, ore. Every value must be finite and non-negative: a negative strength, exponent, bonus or weight
has no meaning in the seed's model (and a negative strength would make ``raw ** dampening`` undefined).

Ranges (:data:`RANGES`), so that parameters that pass validation cannot overflow the evaluation:

    base_resource_strength   each 0, or 0.001..100
    dampening_factor         0..4
    port_bonus, prime_variate_bonus, parity_preference, eval_weights[i]     0..1000

Why: a resource's raw strength is ``base * scarcity * pairwise`` with scarcity <= 20 and pairwise in
[1/20, 20], so it lies in [8.6e-7, 4e4] for a base in 0.001..100; raised to at most the 4th power that
is [5.5e-25, 2.6e18], and the port ratio ``D[r] / second_highest(D)`` (D = total pips x strength, total
<= 58) stays below 3e44. ``base_resource_strength = [1000, ...]`` with ``dampening_factor = 200`` (issue
17) would be ``inf``; a positive base below 0.001 would underflow the denominator of that ratio.

Files are validated by a strict pydantic model (no unknown or missing fields, numbers only: ``"1"``,
``true`` are refused), read through :func:`boardeval.core.load_data_file` (size and nesting limits).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boardeval.core import ParamsError, load_data_file, quote, validation_message

__all__ = ["DEFAULT_SPOT_PARAMS_FILE", "METRIC_NAMES", "RANGES", "SpotParams"]

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
_FIELDS = (_LISTS[0], *_SCALARS, _LISTS[1])

RANGES: dict[str, tuple[float, float]] = {
    "base_resource_strength": (0.0, 100.0),
    "dampening_factor": (0.0, 4.0),
    "port_bonus": (0.0, 1000.0),
    "prime_variate_bonus": (0.0, 1000.0),
    "parity_preference": (0.0, 1000.0),
    "eval_weights": (0.0, 1000.0),
}
"""Allowed range of each field (of each entry for the lists); see the module docstring for why."""
MIN_POSITIVE_STRENGTH = 0.001
"""A ``base_resource_strength`` entry is 0 or at least this."""


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
        data = {k: list(v) if isinstance(v, tuple) else v for k in _FIELDS for v in (getattr(self, k),)}
        clean = _validated(data, source)
        for k in _FIELDS:
            object.__setattr__(self, k, clean[k])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "spot parameters") -> SpotParams:
        """Build from a mapping with exactly the six fields; errors name ``source`` and the field."""
        if not isinstance(data, Mapping):
            raise ParamsError(f"{source} must be a table/object, got {quote(data)}")
        clean = _validated(dict(data), source)
        obj = cls.__new__(cls)
        for k in _FIELDS:
            object.__setattr__(obj, k, clean[k])
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


@cache
def _schema() -> Any:
    """The strict pydantic model of a parameter file (built on first use: pydantic loads in ~50 ms)."""
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, Field

    def num(name: str) -> Any:
        lo, hi = RANGES[name]
        return Annotated[float, Field(ge=lo, le=hi, allow_inf_nan=False)]

    def five(name: str) -> Any:
        return Annotated[list[num(name)], Field(min_length=5, max_length=5)]  # type: ignore[misc]

    class SpotParamsFile(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        base_resource_strength: five("base_resource_strength")  # type: ignore[valid-type]
        dampening_factor: num("dampening_factor")  # type: ignore[valid-type]
        port_bonus: num("port_bonus")  # type: ignore[valid-type]
        prime_variate_bonus: num("prime_variate_bonus")  # type: ignore[valid-type]
        parity_preference: num("parity_preference")  # type: ignore[valid-type]
        eval_weights: five("eval_weights")  # type: ignore[valid-type]

    return SpotParamsFile


_TYPES = {name: "a list of 5 numbers" for name in _LISTS} | {name: "a number" for name in _SCALARS}


def _validated(data: dict[str, Any], source: str) -> dict[str, Any]:
    """``data`` checked against the schema and :data:`RANGES`: floats, and tuples for the lists."""
    from pydantic import ValidationError

    try:
        doc = _schema().model_validate(data)
    except ValidationError as exc:
        raise ParamsError(f"{source}: {validation_message(exc, fields=_FIELDS, types=_TYPES)}") from None
    out: dict[str, Any] = {k: getattr(doc, k) for k in _FIELDS}
    for i, v in enumerate(out["base_resource_strength"]):
        if 0 < v < MIN_POSITIVE_STRENGTH:
            raise ParamsError(
                f"{source}: base_resource_strength[{i}] must be 0 or >= {MIN_POSITIVE_STRENGTH}, got {v!r}"
            )
    for k in _LISTS:
        out[k] = tuple(out[k])
    return out


@cache
def _default() -> SpotParams:
    return SpotParams.load(DEFAULT_SPOT_PARAMS_FILE)
