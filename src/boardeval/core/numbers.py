"""The one number reader for untrusted text and data: ASCII digits only, bounded length, explicit ranges.

Python's ``int()`` is generous: it accepts ``1_2``, ``+12``, ``012``, ``-0``, surrounding spaces and every
Unicode decimal digit (full-width ``１２``, Arabic-Indic ``١٢``), and it raises a bare ``ValueError`` on
strings of more than 4,300 digits. Every reader of numbers typed by a person (share codes, rule
parameters, hands, variants) goes through :func:`parse_int` instead, which accepts exactly::

    integer = ["-"] ( "0" | nonzero-digit { digit } )      digits are ASCII 0-9; "-0" is refused

checks the length before converting, and checks the range the caller names. Decimal numbers typed by a
person (``--fairness 0.5``, ``--time 1e-3``) go through :func:`parse_float`, the same grammar with an
optional fraction and exponent::

    decimal = integer [ "." digit { digit } ] [ ("e" | "E") ["-"] digit { digit } ]

Numbers that arrive already typed (from JSON or TOML) go through :func:`check_int` / :func:`check_float`,
which refuse ``bool``, compare huge integers with the range before any ``float()`` (no ``OverflowError``)
and refuse NaN and infinities.

Every error is the caller's :class:`~boardeval.core.BoardevalError` subclass (``ParamsError`` unless
told) and quotes the input (long inputs are shortened to their first characters and their length).
"""

from __future__ import annotations

import math
import re
from typing import Any

from boardeval.core.errors import BoardevalError, ParamsError

__all__ = ["check_float", "check_int", "parse_float", "parse_int", "quote"]

_DIGITS = frozenset("0123456789")
_QUOTE_CHARS = 60
_BIG_INT_BITS = 256
_DECIMAL_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE]-?[0-9]{1,3})?", re.ASCII)
_MAX_DECIMAL_CHARS = 40


def quote(value: Any, limit: int = _QUOTE_CHARS) -> str:
    """``repr(value)`` for messages, shortened: long text keeps its first ``limit`` characters and says
    how long it was; huge integers say how many digits they have (``repr`` of a 5,000-digit int raises);
    deeply nested containers are abbreviated (``reprlib``), so a message never fails to build."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > _BIG_INT_BITS:
            return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return repr(value)
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value)} characters)"
    import reprlib

    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxdict, r.maxstring, r.maxother, r.maxlong = 3, 6, 6, limit, limit, 40
    try:
        return r.repr(value)
    except Exception:  # a value whose own __repr__ fails: name its type instead
        return f"<{type(value).__name__}>"


def parse_int(
    text: str,
    where: str,
    *,
    lo: int,
    hi: int,
    error: type[BoardevalError] = ParamsError,
    noun: str = "an integer",
) -> int:
    """``text`` as an int in ``lo..hi``; anything else raises ``error`` naming ``where`` and quoting ``text``.

    Accepts only an optional ``-`` (when ``lo < 0``) and ASCII digits without a leading zero: no sign
    ``+``, no ``_``, no spaces, no other Unicode digits, no ``-0``. The digit count is compared with the
    range's before ``int()`` runs, so a 100,000-digit string costs nothing and raises our error.
    """
    if not isinstance(text, str):
        raise error(f"{where}: expected text holding {noun}, got {quote(text)}")
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    if not digits or not _DIGITS.issuperset(digits):
        sign = "an optional '-' and " if lo < 0 else ""
        hint = _number_hint(text, whole=True)
        rule = f"({sign}ASCII digits 0-9 only, in {lo}..{hi})"
        raise error(f"{where}: {quote(text)} is not {noun}{hint} {rule}")
    if len(digits) > 1 and digits[0] == "0":
        raise error(f"{where}: {quote(text)} has a leading zero; write the number without it")
    if negative and digits == "0":
        raise error(f"{where}: {quote(text)} is not {noun}; write 0")
    if negative and lo >= 0:
        raise error(f"{where}: {quote(text)} is out of range {lo}..{hi}")
    widest = max(len(str(abs(lo))), len(str(abs(hi))))
    if len(digits) > widest:
        raise error(f"{where}: {quote(text)} is out of range {lo}..{hi}")
    value = int(text)
    if not lo <= value <= hi:
        raise error(f"{where}: {quote(text)} is out of range {lo}..{hi}")
    return value


def parse_float(
    text: str,
    where: str,
    *,
    lo: float = -math.inf,
    hi: float = math.inf,
    lo_open: bool = False,
    hi_open: bool = False,
    error: type[BoardevalError] = ParamsError,
) -> float:
    """``text`` as a finite float in ``lo..hi`` (``lo`` excluded with ``lo_open``, ``hi`` with
    ``hi_open``); anything else raises
    ``error`` naming ``where`` and quoting ``text``.

    The grammar of the module docstring and nothing more: Python's ``float()`` also takes ``1_0``, ``+1``,
    `` 0.5``, ``.5``, ``5.``, ``nan``, ``inf``, ``１``; all refused here. ``-0`` and ``-0.0`` are refused
    (write 0). At most 40 characters and a 3-digit exponent, so the conversion is cheap; an exponent that
    overflows (``1e999``) is out of range.
    """
    if not isinstance(text, str):
        raise error(f"{where}: expected text holding a number, got {quote(text)}")
    span = _range_text(lo, hi, lo_open, hi_open)
    if len(text) > _MAX_DECIMAL_CHARS or not _DECIMAL_RE.fullmatch(text):
        hint = _number_hint(text, whole=False)
        rule = f"(ASCII digits as in 0.25, in {span})"
        raise error(f"{where}: {quote(text)} is not a decimal number{hint} {rule}")
    value = float(text)
    if not math.isfinite(value):
        raise error(f"{where}: {quote(text)} is out of range {span}")
    if text.startswith("-") and value == 0.0:
        raise error(f"{where}: {quote(text)} is not a number to write with a sign; write 0")
    if value < lo or value > hi or (lo_open and value == lo) or (hi_open and value == hi):
        raise error(f"{where}: {quote(text)} is out of range {span}")
    return value


def _range_text(lo: float, hi: float, lo_open: bool = False, hi_open: bool = False) -> str:
    """``0..1``, ``(0, 86400]``, ``>= 0``: the range a message names."""
    if math.isinf(hi):
        return "any number" if math.isinf(lo) else f"{'> ' if lo_open else '>= '}{_plain(lo)}"
    if lo_open or hi_open:
        return f"{'(' if lo_open else '['}{_plain(lo)}, {_plain(hi)}{')' if hi_open else ']'}"
    return f"{_plain(lo)}..{_plain(hi)}"


def _plain(x: float) -> str:
    """``1000000`` rather than ``1e+06`` for a whole bound; ``0.5`` as it is."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e16 else repr(float(x))


def _number_hint(text: str, *, whole: bool) -> str:
    """Why a text is not a number, when one reason is plain (the message quotes the text anyway)."""
    if "_" in text:
        return "; no '_' between digits"
    if any(c.isspace() for c in text):
        return "; no spaces"
    if text.startswith("+"):
        return "; no '+' sign"
    if text.startswith(".") or text.startswith("-."):
        return "; write a 0 before the '.'"
    if text.endswith("."):
        return "; write a digit after the '.'"
    if any(c.isdigit() and c not in _DIGITS for c in text):
        return "; ASCII digits only"
    if whole and "." in text:
        return "; a whole number: no fraction"
    if whole and "e" in text.lower() and any(c in _DIGITS for c in text):
        return "; a whole number: no exponent"
    return ""


def check_int(value: Any, where: str, *, lo: int, hi: int, error: type[BoardevalError] = ParamsError) -> int:
    """An already-typed integer (from JSON/TOML) in ``lo..hi``; ``bool`` and floats are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{where} must be an integer in {lo}..{hi}, got {quote(value)}")
    if not lo <= value <= hi:
        raise error(f"{where} must be in {lo}..{hi}, got {quote(value)}")
    return int(value)


def check_float(
    value: Any,
    where: str,
    *,
    lo: float = -math.inf,
    hi: float = math.inf,
    error: type[BoardevalError] = ParamsError,
) -> float:
    """An already-typed number (int or float, not ``bool``) as a finite float in ``lo..hi``.

    Integers are compared with the range before they are converted, so ``10**400`` is "out of range",
    not an ``OverflowError``. Messages keep the house phrasing ``must be a number`` / ``must be finite``
    / ``must be >= lo`` / ``must be <= hi``.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(f"{where} must be a number, got {quote(value)}")
    if isinstance(value, int):
        if value < lo:
            raise error(f"{where} must be >= {lo:g}, got {quote(value)}")
        if value > hi:
            raise error(f"{where} must be <= {hi:g}, got {quote(value)}")
        if value.bit_length() > 1023:  # beyond any float, even with an infinite range
            raise error(f"{where} must be a finite number, got {quote(value)}")
        return float(value)
    f = float(value)
    if not math.isfinite(f):
        raise error(f"{where} must be finite, got {value!r}")
    if f < lo:
        raise error(f"{where} must be >= {lo:g}, got {value!r}")
    if f > hi:
        raise error(f"{where} must be <= {hi:g}, got {value!r}")
    return f
