"""Hypothesis strategies shared by the fuzz tests: mutations of valid inputs, odd numbers, deep nesting.

Random text rarely gets past the first check of a parser; mutating a valid input (dropping, duplicating or
replacing characters, swapping JSON types, planting huge numbers, odd Unicode digits or deep nesting)
reaches the later checks, where the crashes were (issue 17). Every strategy here draws from a valid
input and then perhaps breaks it, so a share of the cases stay valid and exercise the round trip.

:func:`assert_quotes_input` is the contract's second half: an error's message quotes part of the input.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

# Characters that parsers get wrong: signs, separators, whitespace and controls, other digits (full-width,
# Arabic-Indic, Devanagari, superscript), case variants, quotes and brackets, a lone surrogate.
ODD_CHARS = (
    "0123456789+-_.~,= \t\r\n\x00\x0b\u00a0\u2003"
    "\uff10\uff11\uff12\u0660\u0661\u0662\u0966\u0967\u00b2\u00b9\u2070"
    "WBSGODwbsgod3xX'\"[]{}:\\\ud800é"
)

HUGE_INTS = st.sampled_from([10**30, 10**400, -(10**400), 2**63, 2**64 + 1, 10**4000])
HUGE_NUMBER_TEXT = st.sampled_from(["9" * 31, "9" * 4301, "1" + "0" * 5000, "1e999", "-1e999", "1e308"])


def odd_numbers() -> st.SearchStrategy[str]:
    """Number-looking text: valid ones, and every spelling ``int()`` accepts but we must not."""
    plain = st.integers(-20, 200).map(str)
    odd = st.sampled_from(
        ["1_2", "+12", "012", "-0", "00", " 12", "12 ", "\uff11\uff12", "\u0661\u0662", "\u0967\u0968",
         "12\r", "1e1", "1.0", "0x1", "", "-", "²", "9" * 30, "9" * 4400]
    )  # fmt: skip
    return st.one_of(plain, odd, HUGE_NUMBER_TEXT)


def odd_decimals() -> st.SearchStrategy[str]:
    """Decimal-looking text: valid ones, and every spelling ``float()`` accepts but we must not (issue 24:
    ``--fairness 0_1`` was read as 1.0)."""
    plain = st.floats(-1e6, 1e6, allow_nan=False).map(repr) | st.integers(-50, 50).map(str)
    odd = st.sampled_from(
        ["0_1", "0_5", "1_0.5", " 0.5", "0.5 ", "+0.5", "-0", "-0.0", ".5", "5.", "0.", "00.5", "1e+3",
         "1E-2", "1e", "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "0x1", "\uff10.\uff15", "\u0660.5",
         "0,5", "1/2", "\u00bd", "0.5\r", "", "-", "e1"]
    )  # fmt: skip
    return st.one_of(plain, odd, odd_numbers(), HUGE_NUMBER_TEXT)


@st.composite
def mutated_text(draw: st.DrawFn, base: str, max_ops: int = 3) -> str:
    """``base`` after 0..``max_ops`` edits: delete, duplicate or replace a slice, insert odd characters or
    a huge number, change case, pad with whitespace."""
    text = base
    for _ in range(draw(st.integers(0, max_ops))):
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 8)))
        op = draw(st.sampled_from(["delete", "duplicate", "replace", "insert", "huge", "case", "pad"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "replace":
            text = text[:i] + draw(st.text(alphabet=ODD_CHARS, min_size=1, max_size=3)) + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(alphabet=ODD_CHARS, min_size=1, max_size=3)) + text[i:]
        elif op == "huge":
            text = text[:i] + draw(HUGE_NUMBER_TEXT) + text[j:]
        elif op == "case":
            text = text[:i] + text[i:j].swapcase() + text[j:]
        else:
            pad = draw(st.sampled_from([" ", "\t", "\r", "\n", "\u00a0"]))
            text = pad + text if draw(st.booleans()) else text + pad
    return text


def deep_nesting() -> st.SearchStrategy[str]:
    """JSON-ish text nested far deeper than any parser's recursion limit."""
    return st.builds(
        lambda n, opener, wrap: wrap[0] + (opener * n) + wrap[1],
        st.integers(30, 200_000),
        st.sampled_from(["[", '{"a":', '[{"x":']),
        st.sampled_from([("", ""), ('{"hexes": ', "}"), ("a = ", "")]),
    )


ODD_JSON_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    HUGE_INTS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -0.0, 2.5, 10.0]),
    st.text(alphabet=ODD_CHARS, max_size=6),
    st.sampled_from(["wood", " ORE ", "bRick", "Wood", "W", "w", "3:1", "2:1", "desert", "lumber"]),
    st.lists(st.integers(0, 60), max_size=3),
    st.just([37, 26]),
    st.just([26.0, 37.0]),
    st.just({}),
    st.recursive(st.just([]), lambda inner: st.lists(inner, max_size=1), max_leaves=60),
)


@st.composite
def mutated_json(draw: st.DrawFn, base: Any, max_ops: int = 2) -> Any:
    """``base`` (a JSON-able dict) after 0..``max_ops`` structural edits at random paths: replace a value
    by one of another type, delete a key, add a misspelled key, shorten or lengthen a list."""
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(0, max_ops))):
        # walk to a random container
        node: Any = doc
        for _depth in range(draw(st.integers(0, 4))):
            if isinstance(node, dict) and node:
                child = node[draw(st.sampled_from(sorted(node)))]
            elif isinstance(node, list) and node:
                child = node[draw(st.integers(0, len(node) - 1))]
            else:
                break
            if not isinstance(child, dict | list):
                break
            node = child
        op = draw(st.sampled_from(["replace", "replace", "delete", "misspell", "extend", "shrink"]))
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if op == "delete":
                del node[key]
            elif op == "misspell":
                node[key + draw(st.sampled_from(["s", "_", "X", " "]))] = node[key]
            else:  # a copy: st.just() hands out one shared object, which later edits would change
                node[key] = copy.deepcopy(draw(ODD_JSON_VALUES))
        elif isinstance(node, list) and node:
            k = draw(st.integers(0, len(node) - 1))
            if op == "shrink":
                del node[k]
            elif op == "extend":
                node.append(node[k])
            else:
                node[k] = copy.deepcopy(draw(ODD_JSON_VALUES))
    return doc


@st.composite
def json_text_with_duplicate_key(draw: st.DrawFn, doc: dict[str, Any]) -> str:
    """JSON text of ``doc`` where one object repeats one of its keys (the standard parser keeps the last)."""
    text = json.dumps(doc)
    key = draw(st.sampled_from(['"number": ', '"resource": ', '"kind": ', '"hexes": ', '"spots": ']))
    at = text.find(key)
    if at < 0:
        return text
    return text[:at] + key + "null, " + text[at:]


def _grams(text: str, n: int) -> set[str]:
    return {text[i : i + n] for i in range(max(1, len(text) - n + 1))}


def assert_quotes_input(
    message: str, text: str, *, extra: tuple[str, ...] = (), pieces: Iterable[str] = ()
) -> None:
    """Assert that ``message`` quotes part of ``text``: a run of 4 characters of it (the whole of a
    shorter input), as typed or as ``repr`` escapes it; or one of the ``pieces`` of the input (a share
    code's cells), quoted (``'W04'``); or one of the ``extra`` markers (e.g. a JSON path)."""
    assert message, "an error without a message"
    if any(marker in message for marker in extra):
        return
    if any(p and repr(p) in message for p in pieces):
        return
    core = text.strip(" \t\r\n")
    if not core:  # empty or whitespace only: quoted as such, or called empty
        assert repr(text) in message or "''" in message or "empty" in message, (message, text)
        return
    for s in (text, core):
        if len(s) < 4:  # a short input must be quoted whole
            if repr(s) in message or s in message:
                return
            continue
        escaped = repr(s)[1:-1]
        if (_grams(s, 4) | _grams(escaped, 4)) & _grams(message, 4):
            return
    raise AssertionError(f"the message does not quote the input: {message!r} for {text[:200]!r}")
