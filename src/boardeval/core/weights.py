"""Weight sets and parameter files as data: TOML or JSON on disk, validated on load.

A :class:`WeightSet` is an immutable mapping of feature name to finite float. Games declare which names
they expect; loading a file with a missing, unknown or non-finite entry raises :class:`ParamsError`
naming the file and the entry, instead of silently using a default.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import tomli_w

from boardeval.core.errors import ParamsError

__all__ = ["WeightSet", "check_keys", "check_number", "dump_data_file", "load_data_file"]


def load_data_file(path: str | Path) -> dict[str, Any]:
    """Read a TOML (``.toml``) or JSON (anything else) file into a dict, with clear errors."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ParamsError(f"parameter file {str(p)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamsError(f"cannot read parameter file {str(p)!r}: {exc}") from None
    try:
        data: Any = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ParamsError(f"parameter file {str(p)!r} is not valid {_kind(p)}: {exc}") from None
    if not isinstance(data, dict):
        raise ParamsError(f"parameter file {str(p)!r} must hold a table/object, not {type(data).__name__}")
    return data


def dump_data_file(data: Mapping[str, Any], path: str | Path) -> None:
    """Write a dict as TOML (``.toml``) or pretty JSON (anything else)."""
    p = Path(path)
    if p.suffix.lower() == ".toml":
        p.write_text(tomli_w.dumps(dict(data)), encoding="utf-8")
    else:
        p.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def check_keys(data: Mapping[str, Any], expected: Sequence[str], source: str, noun: str) -> None:
    """Raise :class:`ParamsError` if ``data`` has keys outside ``expected`` or lacks some of them."""
    unknown = [k for k in data if k not in expected]
    if unknown:
        raise ParamsError(f"{source}: unknown {noun}(s) {unknown}; expected {list(expected)}")
    missing = [k for k in expected if k not in data]
    if missing:
        raise ParamsError(f"{source}: missing {noun}(s) {missing}")


def check_number(value: Any, where: str, *, nonnegative: bool = False) -> float:
    """``value`` as a finite float (>= 0 if asked); :class:`ParamsError` naming ``where`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParamsError(f"{where} must be a number, got {value!r}")
    f = float(value)
    if not math.isfinite(f):
        raise ParamsError(f"{where} must be finite, got {value!r}")
    if nonnegative and f < 0:
        raise ParamsError(f"{where} must be >= 0, got {value!r}")
    return f


def _kind(p: Path) -> str:
    return "TOML" if p.suffix.lower() == ".toml" else "JSON"


class WeightSet(Mapping[str, float]):
    """An immutable, validated ``name -> weight`` mapping.

    ``names`` fixes the expected keys (and their order); ``nonnegative`` lists names whose negative
    values would be meaningless.
    """

    __slots__ = ("_values",)

    def __init__(
        self,
        values: Mapping[str, Any],
        *,
        names: Iterable[str] | None = None,
        nonnegative: Iterable[str] = (),
        source: str = "weights",
    ) -> None:
        expected = list(names) if names is not None else list(values)
        check_keys(values, expected, source, "weight")
        nonneg = set(nonnegative)
        clean = {
            k: check_number(values[k], f"{source}: weight {k!r}", nonnegative=k in nonneg) for k in expected
        }
        self._values = clean

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        names: Iterable[str] | None = None,
        nonnegative: Iterable[str] = (),
        table: str | None = None,
    ) -> WeightSet:
        """Load from a TOML/JSON file, optionally from a sub-table ``table``."""
        data: Any = load_data_file(path)
        src = str(path)
        if table is not None:
            if table not in data or not isinstance(data[table], dict):
                raise ParamsError(f"{src!r}: no table {table!r}")
            data = data[table]
            src = f"{src}[{table}]"
        return cls(data, names=names, nonnegative=nonnegative, source=repr(src))

    def save(self, path: str | Path) -> None:
        dump_data_file(dict(self._values), path)

    def replace(self, **changes: float) -> WeightSet:
        """A copy with some weights changed (names must already exist)."""
        unknown = [k for k in changes if k not in self._values]
        if unknown:
            raise ParamsError(f"unknown weight name(s) {unknown}; expected {list(self._values)}")
        return WeightSet({**self._values, **changes}, names=list(self._values))

    def __getitem__(self, key: str) -> float:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"WeightSet({self._values!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._values) == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))
