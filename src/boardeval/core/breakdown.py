"""Explained evaluations: every score in boardeval is a :class:`Breakdown`, never a bare float.

A breakdown lists each named term with its raw value, the weight applied to it, an optional hidden scale
(e.g. Morris phase scaling, engine-internal), and the resulting contribution. The total is the sum of the
contributions. ``extras`` carries supporting figures (per-resource strengths, per-side features...) that
explain the raw values but are not summed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Breakdown", "Term"]


@dataclass(frozen=True, slots=True)
class Term:
    """One named ingredient of a score: ``contribution = raw * weight * scale``."""

    name: str
    raw: float
    weight: float
    scale: float = 1.0

    @property
    def contribution(self) -> float:
        return self.raw * self.weight * self.scale

    def to_dict(self, *, include_scale: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "raw": self.raw, "weight": self.weight}
        if include_scale:
            d["scale"] = self.scale
        d["contribution"] = self.contribution
        return d


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Named terms, their weights and contributions, and the total they sum to."""

    terms: tuple[Term, ...]
    label: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [t.name for t in self.terms]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate term names in breakdown {self.label!r}: {names}")

    @classmethod
    def from_values(
        cls,
        raw: Mapping[str, float],
        weights: Mapping[str, float],
        *,
        scales: Mapping[str, float] | None = None,
        label: str = "",
        extras: Mapping[str, Any] | None = None,
    ) -> Breakdown:
        """Build from raw values and weights keyed by the same names (order follows ``raw``)."""
        missing = [k for k in raw if k not in weights]
        if missing:
            raise ValueError(f"no weight for term(s) {missing} in breakdown {label!r}")
        terms = tuple(
            Term(k, float(v), float(weights[k]), float(scales.get(k, 1.0)) if scales else 1.0)
            for k, v in raw.items()
        )
        return cls(terms, label, dict(extras or {}))

    @property
    def total(self) -> float:
        return math.fsum(t.contribution for t in self.terms)

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __getitem__(self, name: str) -> Term:
        for t in self.terms:
            if t.name == name:
                return t
        raise KeyError(name)

    def names(self) -> list[str]:
        return [t.name for t in self.terms]

    def raw(self) -> dict[str, float]:
        return {t.name: t.raw for t in self.terms}

    def contributions(self) -> dict[str, float]:
        return {t.name: t.contribution for t in self.terms}

    def ranked(self) -> list[Term]:
        """Terms by absolute contribution, largest first: what mattered most."""
        return sorted(self.terms, key=lambda t: abs(t.contribution), reverse=True)

    def to_dict(self, *, include_scale: bool = True) -> dict[str, Any]:
        """JSON-able form. ``include_scale=False`` hides engine-internal scales (why-panels)."""
        return {
            "label": self.label,
            "terms": [t.to_dict(include_scale=include_scale) for t in self.terms],
            "total": self.total,
            "extras": _jsonable(self.extras),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Breakdown:
        terms = tuple(
            Term(str(t["name"]), float(t["raw"]), float(t["weight"]), float(t.get("scale", 1.0)))
            for t in data["terms"]
        )
        return cls(terms, str(data.get("label", "")), dict(data.get("extras", {})))


def _jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays and tuples inside ``extras`` to plain JSON types."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    return value
