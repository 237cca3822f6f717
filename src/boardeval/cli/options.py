"""The readers behind every numeric CLI option: one number reader, the input quoted (issue 24).

Typer converts ``int`` and ``float`` options itself (through pydantic, which, like Python's ``int()``,
takes ``0_1``, ``+3``, `` 3`` and full-width digits, and reads ``--fairness 0_1`` as 1.0). Every numeric
option of the ``boardeval`` command therefore names one of these readers as its ``parser=``:
:func:`int_option` reads through :func:`boardeval.core.parse_int`, :func:`float_option` through
:func:`boardeval.core.parse_float`, each with the option's range. A refused value is one red line naming
the command and the option and quoting the text (``error: boardeval morris match: --games: '0_1' is not
an integer; no '_' between digits (ASCII digits 0-9 only, in 1..1000000)``), exit 2.

``tests/cli/test_number_options.py`` walks the whole command tree and fails on a numeric option without
one of these readers, so a new option cannot bypass it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from typer._click.exceptions import UsageError
from typer._click.globals import get_current_context

from boardeval.core import BoardevalError, check_float, check_int, parse_float, parse_int

__all__ = [
    "GAME_INDEX",
    "MAX_SEED",
    "MAX_YEAR",
    "SEED",
    "WORKERS",
    "NumberReader",
    "float_option",
    "int_option",
]


@dataclass(frozen=True)
class NumberReader:
    """``parser=`` of a numeric option: the option's text through the shared reader, in ``lo..hi``.

    Typer also passes the option's default (already a number) through the parser: it is checked with
    :func:`~boardeval.core.check_int` / :func:`~boardeval.core.check_float`, the same range.
    """

    name: str
    kind: Literal["int", "float"]
    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False

    @property
    def __name__(self) -> str:
        """The help's metavar (``--top <int>``): Typer names a ``parser=`` type after the function's
        ``__name__``, which an instance lacks ("<function>")."""
        return self.kind

    def __call__(self, text: str | int | float) -> int | float:
        try:
            return self.read(text)
        except BoardevalError as exc:
            # Not a ValueError: Typer's conversion would wrap it and name the option twice.
            raise UsageError(str(exc), ctx=get_current_context(silent=True)) from None

    def read(self, text: str | int | float) -> int | float:
        """The number, or a :class:`~boardeval.core.ParamsError` naming the option and quoting ``text``."""
        if self.kind == "int":
            lo, hi = int(self.lo), int(self.hi)
            if isinstance(text, str):
                return parse_int(text, self.name, lo=lo, hi=hi)
            return check_int(text, self.name, lo=lo, hi=hi)
        if isinstance(text, str):
            return parse_float(
                text, self.name, lo=self.lo, hi=self.hi, lo_open=self.lo_open, hi_open=self.hi_open
            )
        value = check_float(text, self.name, lo=self.lo, hi=self.hi)
        if (self.lo_open and value == self.lo) or (self.hi_open and value == self.hi):
            raise BoardevalError(
                f"{self.name} must be strictly inside {self.lo:g}..{self.hi:g}, got {value!r}"
            )
        return value


def int_option(name: str, lo: int, hi: int) -> NumberReader:
    """The reader of an integer option ``name`` in ``lo..hi`` (ASCII digits, no sign unless ``lo < 0``)."""
    return NumberReader(name, "int", lo, hi)


def float_option(
    name: str, lo: float, hi: float = math.inf, *, lo_open: bool = False, hi_open: bool = False
) -> NumberReader:
    """The reader of a decimal option ``name`` in ``lo..hi`` (``lo_open``/``hi_open``: that end excluded)."""
    return NumberReader(name, "float", lo, hi, lo_open, hi_open)


MAX_SEED = 2**64 - 1
"""Largest ``--seed`` (numpy's generators take any non-negative integer; 64 bits is plenty)."""

SEED = int_option("--seed", 0, MAX_SEED)
"""``--seed``: same seed, same result."""

WORKERS = int_option("--workers", 1, 1024)
"""``--workers``: local worker processes."""

GAME_INDEX = int_option("--game-index", 0, 10**7)
"""``--game-index``: which game of a JSONL file, from 0 (the file's length is checked when it is read)."""

MAX_YEAR = int_option("--max-year", 1, 9999)
"""``--max-year``: a Diplomacy game year (the map's first year is checked by the library)."""
