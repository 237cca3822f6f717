"""Weight sets and parameter files as data: TOML or JSON on disk, validated on load.

A :class:`WeightSet` is an immutable mapping of feature name to finite float. Games declare which names
they expect (and, optionally, the range each weight must lie in); loading a file with a missing, unknown,
non-finite or out-of-range entry raises :class:`ParamsError` naming the file and the entry, instead of
silently using a default. Files are read through :mod:`boardeval.core.inputs` (size and nesting limits,
no duplicate JSON keys, no ``NaN``/``Infinity``, no over-long integers).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import tomli_w

from boardeval.core.errors import ParamsError
from boardeval.core.inputs import MAX_INPUT_CHARS, loads_json, loads_toml
from boardeval.core.numbers import check_float, quote

__all__ = ["WeightSet", "check_keys", "check_number", "dump_data_file", "load_data_file"]


def load_data_file(path: str | Path) -> dict[str, Any]:
    """Read a TOML (``.toml``) or JSON (anything else) file into a dict, with clear errors."""
    p = Path(path)
    try:
        if p.stat().st_size > 4 * MAX_INPUT_CHARS:  # refuse before reading a huge file into memory
            raise ParamsError(f"parameter file {str(p)!r} is too large ({p.stat().st_size} bytes)")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ParamsError(f"parameter file {str(p)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamsError(f"cannot read parameter file {str(p)!r}: {exc}") from None
    what = f"parameter file {str(p)!r}"
    data: Any = loads_toml(text, what) if p.suffix.lower() == ".toml" else loads_json(text, what)
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
        raise ParamsError(f"{source}: unknown {noun}(s) {quote(unknown)}; expected {list(expected)}")
    missing = [k for k in expected if k not in data]
    if missing:
        raise ParamsError(f"{source}: missing {noun}(s) {missing}")


def check_number(
    value: Any,
    where: str,
    *,
    nonnegative: bool = False,
    lo: float = -math.inf,
    hi: float = math.inf,
) -> float:
    """``value`` as a finite float (>= 0 if asked, within ``lo..hi``); :class:`ParamsError` naming
    ``where`` otherwise (the shared reader :func:`boardeval.core.numbers.check_float`)."""
    return check_float(value, where, lo=max(lo, 0.0) if nonnegative else lo, hi=hi)


class WeightSet(Mapping[str, float]):
    """An immutable, validated ``name -> weight`` mapping.

    ``names`` fixes the expected keys (and their order); ``nonnegative`` lists names whose negative
    values would be meaningless; ``bounds`` (``(lo, hi)``) is the range every weight must lie in (a
    weight that passes validation must not overflow the evaluation later).
    """

    __slots__ = ("_bounds", "_values")

    def __init__(
        self,
        values: Mapping[str, Any],
        *,
        names: Iterable[str] | None = None,
        nonnegative: Iterable[str] = (),
        source: str = "weights",
        bounds: tuple[float, float] = (-math.inf, math.inf),
    ) -> None:
        expected = list(names) if names is not None else list(values)
        check_keys(values, expected, source, "weight")
        nonneg = set(nonnegative)
        lo, hi = bounds
        clean = {
            k: check_number(values[k], f"{source}: weight {k!r}", nonnegative=k in nonneg, lo=lo, hi=hi)
            for k in expected
        }
        self._values = clean
        self._bounds = bounds

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        names: Iterable[str] | None = None,
        nonnegative: Iterable[str] = (),
        table: str | None = None,
        bounds: tuple[float, float] = (-math.inf, math.inf),
    ) -> WeightSet:
        """Load from a TOML/JSON file, optionally from a sub-table ``table``."""
        data: Any = load_data_file(path)
        src = str(path)
        if table is not None:
            if table not in data or not isinstance(data[table], dict):
                raise ParamsError(f"{src!r}: no table {table!r}")
            data = data[table]
            src = f"{src}[{table}]"
        return cls(data, names=names, nonnegative=nonnegative, source=repr(src), bounds=bounds)

    def save(self, path: str | Path) -> None:
        dump_data_file(dict(self._values), path)

    def replace(self, **changes: float) -> WeightSet:
        """A copy with some weights changed (names must already exist)."""
        unknown = [k for k in changes if k not in self._values]
        if unknown:
            raise ParamsError(f"unknown weight name(s) {unknown}; expected {list(self._values)}")
        return WeightSet({**self._values, **changes}, names=list(self._values), bounds=self._bounds)

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
