"""Reading untrusted files and text safely: size and depth limits, strict JSON and TOML, pydantic errors.

Every reader of JSON or TOML input (board files, weight and parameter files) goes through here, so the
same limits hold everywhere:

* **size**: at most :data:`MAX_INPUT_CHARS` characters, checked before parsing;
* **nesting**: at most :data:`MAX_DEPTH` levels of ``[``/``{``, found by a linear scan *before* the parser
  runs (the recursive parsers in the standard library raise ``RecursionError`` on a few thousand levels);
* **JSON**: no duplicate keys (the standard parser keeps the last one silently), no ``NaN`` /
  ``Infinity`` constants (not JSON), no integer longer than :data:`MAX_INT_DIGITS` digits (Python's
  4,300-digit limit raises a bare ``ValueError``). A float literal that overflows (``1e999``) reads as
  infinity and is refused by the field's range check, which names the field;
* **TOML**: TOML has no duplicate keys by definition (``tomllib`` refuses them); its ``inf`` / ``nan``
  are refused later by the range checks of :mod:`boardeval.core.numbers`.

:func:`validation_message` turns a pydantic ``ValidationError`` into one line in the house phrasing that
names the field (``$.hexes[3].number``, ``base_resource_strength[4]``) and quotes the bad value.
:func:`dumps_json` is the JSON writer of the front ends: a non-finite number is our error, never the
non-JSON ``Infinity``.
"""

from __future__ import annotations

import functools
import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardeval.core.errors import BoardevalError, ParamsError
from boardeval.core.numbers import quote

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from pydantic import ValidationError

__all__ = [
    "MAX_DEPTH",
    "MAX_INPUT_CHARS",
    "MAX_INT_DIGITS",
    "check_depth",
    "dumps_json",
    "loads_json",
    "loads_toml",
    "validation_message",
]

MAX_INPUT_CHARS = 1_000_000
"""Largest JSON/TOML text read (a board file is ~3 KB, a parameter file under 1 KB)."""
MAX_DEPTH = 32
"""Deepest ``[``/``{`` nesting read (board JSON needs 4 levels, parameter files 2)."""
MAX_INT_DIGITS = 30
"""Longest integer literal read from JSON (no value we read needs more than a few digits)."""


def check_depth(
    text: str,
    what: str,
    *,
    toml: bool = False,
    error: type[BoardevalError] = ParamsError,
    max_chars: int = MAX_INPUT_CHARS,
) -> None:
    """Raise ``error`` if ``text`` is longer than ``max_chars`` (:data:`MAX_INPUT_CHARS`) or nests
    ``[``/``{`` deeper than :data:`MAX_DEPTH` outside strings (and, for TOML, outside comments). No
    recursion. ``max_chars`` is larger only for formats whose real files are larger (Diplomacy saved
    games: a long game is several MB).

    JSON is checked without a Python loop over characters (:func:`_json_depth`; the character loop
    :func:`_scan_depth` spent ~7 s on an 11 MB JSONL file, issue 24); TOML, whose files are small, by the
    loop."""
    if len(text) > max_chars:
        raise error(
            f"{what} is too large: {len(text)} characters (at most {max_chars}), starting {quote(text, 30)}"
        )
    at = _scan_depth(text, toml=True) if toml else _json_depth(text)
    if at is not None:
        raise error(
            f"{what} nests deeper than {MAX_DEPTH} levels of brackets (at character {at}, near "
            f"{_near(text, at)})"
        )


def _scan_depth(text: str, *, toml: bool = False) -> int | None:
    """Index of the first ``[``/``{`` deeper than :data:`MAX_DEPTH` outside strings (TOML: and outside
    comments), or None: a linear scan, one character at a time (the reference for :func:`_json_depth`)."""
    depth = 0
    i, n = 0, len(text)
    quote_char = ""  # the string delimiter we are inside ('"', "'", '"""' or "'''"), or ""
    while i < n:
        c = text[i]
        if quote_char:
            if c == "\\" and quote_char[0] == '"':
                i += 2
                continue
            if text.startswith(quote_char, i):
                i += len(quote_char)
                quote_char = ""
                continue
            i += 1
            continue
        if c == '"' or (toml and c == "'"):
            triple = c * 3
            quote_char = triple if toml and text.startswith(triple, i) else c
            i += len(quote_char)
            continue
        if toml and c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl + 1
            continue
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return i
        elif c in "]}":
            depth -= 1
        i += 1
    return None


# A JSON string as the character loop reads one: from a '"' outside strings to the next unescaped '"' (a
# backslash takes the next character with it, whatever it is), or to the end of a text where it never
# closes. Unrolled ("normal* (escape normal*)*"): no backtracking. Used only for texts with a backslash
# outside strings (never valid JSON), where the vectorised reading of escapes in _json_depth could differ.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)


_OPEN, _CLOSE, _QUOTE, _BACKSLASH = 1, 2, 3, 4


@functools.cache
def _byte_codes() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """(byte -> code: 1 ``[ {``, 2 ``] }``, 3 ``"``, 4 ``\\``, 0 other; code -> depth step). numpy loads
    on first use, not with ``boardeval.core``: ``boardeval --help`` stays quick."""
    import numpy as np

    codes = np.zeros(256, dtype=np.uint8)
    codes[[ord("["), ord("{")]] = _OPEN
    codes[[ord("]"), ord("}")]] = _CLOSE
    codes[ord('"')] = _QUOTE
    codes[ord("\\")] = _BACKSLASH
    steps = np.array([0, 1, -1, 0, 0], dtype=np.int8)
    return codes, steps


def _json_depth(text: str, *, escapes: bool = True) -> int | None:
    """:func:`_scan_depth` for JSON (the same index, or None), without a Python loop over characters.

    Vectorised (numpy) over the bytes that matter (quotes, backslashes, brackets): a quote is escaped when
    an odd run of backslashes ends right before it; the unescaped quotes toggle in/out of strings; the
    running depth is a cumulative sum over the brackets outside. A backslash outside strings (not JSON)
    makes the vectorised reading of escapes unsafe: such a text is read by one ``re.sub`` that replaces
    every string by ``""`` (tokenised exactly as the loop does), then counted the same way."""
    import numpy as np

    codes, steps = _byte_codes()
    raw = text.encode("utf-8", "surrogatepass")
    code = codes[np.frombuffer(raw, dtype=np.uint8)]
    pos = np.flatnonzero(code)
    code = code[pos]
    quote = code == _QUOTE
    if escapes and b"\\" in raw:
        # a backslash continues the run of the one before it when the two are adjacent in the text
        backslash = code == _BACKSLASH
        adjacent = np.zeros(len(pos), dtype=bool)
        adjacent[1:] = pos[1:] == pos[:-1] + 1
        k = np.arange(len(pos))
        run_start = np.maximum.accumulate(np.where(backslash & np.roll(backslash, 1) & adjacent, 0, k))
        odd_run = backslash & ((k - run_start) % 2 == 0)  # the run up to here has odd length
        escaped = np.zeros(len(pos), dtype=bool)
        escaped[1:] = odd_run[:-1] & adjacent[1:]
        quote &= ~escaped
        inside = np.cumsum(quote, dtype=np.int64) & 1
        if (backslash & ~escaped & (inside == 0)).any():  # a backslash outside strings: not JSON
            return _json_depth_regex(text)
    else:
        inside = np.cumsum(quote, dtype=np.int64) & 1
    depth = np.cumsum(steps[code] * (1 - inside))
    if depth.size == 0 or depth.max() <= MAX_DEPTH:
        return None
    at = int(pos[np.argmax(depth > MAX_DEPTH)])
    return len(raw[:at].decode("utf-8", "surrogatepass"))


def _json_depth_regex(text: str) -> int | None:
    """:func:`_json_depth` for a text with a backslash outside strings (module comment at _JSON_STRING)."""
    bare = _JSON_STRING.sub('""', text)
    at = _json_depth(bare, escapes=False)  # the backslashes left are outside strings: plain characters
    if at is None:
        return None
    # back to the original text: add what the strings before that point lost when replaced by ""
    shift = 0
    for m in _JSON_STRING.finditer(text):
        if m.start() - shift >= at:
            break
        shift += m.end() - m.start() - 2
    return at + shift


def _near(text: str, pos: int) -> str:
    """The input around character ``pos``, quoted, for messages."""
    return quote(text[max(0, pos - 12) : pos + 12]) if text else "''"


def _no_duplicates(what: str, error: type[BoardevalError]) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)  # at C speed; fewer keys than pairs means a key came twice
        if len(out) != len(pairs):
            seen: set[str] = set()
            for k, _ in pairs:
                if k in seen:
                    raise error(f"{what}: key {quote(k)} appears twice in one object")
                seen.add(k)
        return out

    return hook


def _int_literal(what: str, error: type[BoardevalError]) -> Any:
    def hook(s: str) -> int:
        if len(s) > MAX_INT_DIGITS and len(s.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{what}: integer {quote(s, 20)} is too long (at most {MAX_INT_DIGITS} digits)")
        return int(s)

    return hook


def _constant(what: str, error: type[BoardevalError]) -> Any:
    def hook(s: str) -> Any:
        raise error(f"{what}: {s} is not JSON (only finite numbers)")

    return hook


def loads_json(
    text: str, what: str, *, error: type[BoardevalError] = ParamsError, max_chars: int = MAX_INPUT_CHARS
) -> Any:
    """Parse JSON ``text`` within the limits (module docstring); problems raise ``error`` naming ``what``."""
    check_depth(text, what, error=error, max_chars=max_chars)
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates(what, error),
            parse_int=_int_literal(what, error),
            parse_constant=_constant(what, error),
        )
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc} (near {_near(text, exc.pos)})") from None
    except RecursionError:  # pragma: no cover - check_depth bounds the nesting first
        raise error(f"{what} nests too deeply") from None


def loads_toml(text: str, what: str, *, error: type[BoardevalError] = ParamsError) -> dict[str, Any]:
    """Parse TOML ``text`` within the limits; every problem is ``error`` naming ``what``."""
    check_depth(text, what, toml=True, error=error)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} is not valid TOML: {exc}") from None
    except ValueError:  # an integer literal over Python's 4,300-digit limit
        import re

        run = max(re.findall(r"[0-9_]+", text), key=len, default="")
        raise error(f"{what}: integer {quote(run, 20)} is too long to be a number") from None
    except RecursionError:  # pragma: no cover - check_depth bounds the nesting first
        raise error(f"{what} nests too deeply") from None


def _path(loc: Sequence[int | str], root: str) -> str:
    out = root
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


_PHRASES: dict[str, str] = {
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "string_type": "must be text",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "bool_type": "must be true or false",
    "none_required": "must be null",
    "finite_number": "must be finite",
}


def validation_message(
    exc: ValidationError,
    *,
    root: str = "",
    fields: Sequence[str] = (),
    types: Mapping[str, str] | None = None,
) -> str:
    """The first error of a pydantic ``ValidationError`` as one line naming the field and its value.

    ``root`` prefixes the path (``"$"`` for JSON documents); ``fields`` lists the allowed field names of
    the top-level object, quoted when an unknown one is met; ``types`` describes top-level fields for
    wrong-type errors (``{"eval_weights": "a list of 5 numbers"}``). Phrasing: ``$.hexes[3].number must be an
    integer, got 'x'``, ``unknown field(s) ['colour']; expected [...]``, ``missing field(s) [...]``,
    ``x must be >= 0, got -1``.
    """
    errors = exc.errors(include_url=False)
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    e = errors[0]
    kind = e["type"]
    if kind in ("extra_forbidden", "missing"):
        parent = e["loc"][:-1]
        names = [str(x["loc"][-1]) for x in errors if x["type"] == kind and x["loc"][:-1] == parent]
        where = _path(parent, root)
        prefix = "" if where == "(top level)" else f"{where}: "
        if kind == "missing":
            return f"{prefix}missing field(s) {quote(names)} (no {quote(names[0])})"
        exp = f"; expected {list(fields)}" if fields and not parent else ""
        return f"{prefix}unknown field(s) {quote(names)}{exp}"
    where = _path(e["loc"], root)
    value = e.get("input")
    ctx = e.get("ctx") or {}
    if kind == "float_type" and isinstance(value, int) and not isinstance(value, bool):
        phrase = "must be a number in the float range"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        op = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<=", "less_than": "<"}[
            kind
        ]
        bound = next(iter(ctx.values()), "")
        phrase = f"must be {op} {bound:g}" if isinstance(bound, int | float) else f"must be {op} {bound}"
    elif kind in ("too_short", "too_long"):
        got = ctx.get("actual_length")
        want = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        at = "" if kind == "too_short" else "at most "
        return f"{where} must have {at}{want} entries, got {got}{more}"
    elif kind == "literal_error":
        phrase = f"must be one of {ctx.get('expected', '')}"
    elif kind.endswith("_type") and types and len(e["loc"]) == 1 and str(e["loc"][0]) in types:
        phrase = f"must be {types[str(e['loc'][0])]}"
    else:
        phrase = _PHRASES.get(kind, str(e.get("msg", "is invalid")).lower())
    return f"{where} {phrase}, got {quote(value)}{more}"


def _check_finite(value: Any, path: str) -> None:
    """Raise :class:`ParamsError` at the first non-finite float inside ``value`` (iteratively)."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            raise ParamsError(
                f"the result holds a non-finite number at {p} ({v!r}); JSON cannot carry it - check the "
                "weights or parameters (a value that large overflows)"
            )
        if isinstance(v, Mapping):
            stack.extend((x, f"{p}.{k}") for k, x in v.items())
        elif isinstance(v, list | tuple):
            stack.extend((x, f"{p}[{i}]") for i, x in enumerate(v))


def dumps_json(data: Any, **kwargs: Any) -> str:
    """``json.dumps`` that never writes ``NaN``/``Infinity``: a non-finite float raises
    :class:`ParamsError` naming where it is (``$.spots[3].score``)."""
    try:
        return json.dumps(data, allow_nan=False, **kwargs)
    except ValueError:
        _check_finite(data, "$")
        raise
