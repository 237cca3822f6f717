"""The vectorised JSON nesting check gives the character loop's answer (issue 24, section 4)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardeval.core import ParamsError
from boardeval.core.inputs import MAX_DEPTH, _json_depth, _scan_depth, check_depth, loads_json

# the characters that matter (brackets, quotes, backslashes), a letter, a newline and a 2-byte character
_TEXT = st.text(alphabet='[]{}"\\a\né', max_size=120)


@given(prefix=st.integers(0, MAX_DEPTH + 2), body=_TEXT)
def test_vectorised_depth_agrees_with_the_character_loop(prefix: int, body: str) -> None:
    text = "[" * prefix + body
    assert _json_depth(text) == _scan_depth(text)


@pytest.mark.parametrize(
    "text",
    [
        '["\\"[' + "[" * 40 + '"]',  # an escaped quote: the brackets stay inside the string
        '["\\\\"' + "[" * 40,  # an escaped backslash: the quote closes the string
        '"abc\\' + "[" * 40,  # a lone backslash at the end, in a string that never closes
        '\\"' + "[" * 40,  # a backslash outside strings (not JSON): the quote opens a string
        '\\[\\"é' + "[" * 40 + '"' + "{" * 40,  # ... and closes it; the index counts characters
        "é" * 5 + "[" * 40,
    ],
)
def test_escapes_and_strange_texts(text: str) -> None:
    assert _json_depth(text) == _scan_depth(text)


def test_the_error_names_the_character_in_the_original_text() -> None:
    text = json.dumps({"key": '[[[ é \\" ['}) + "[" * (MAX_DEPTH + 5)
    at = _scan_depth(text)
    assert at is not None and _json_depth(text) == at
    message = f"nests deeper than {MAX_DEPTH} levels of brackets \\(at character {at},"
    with pytest.raises(ParamsError, match=message):
        check_depth(text, "doc")
    # 32 levels pass, brackets inside strings never count
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "doc") is not None
    assert loads_json(json.dumps(["[" * 100]), "doc") == ["[" * 100]


def test_duplicate_keys_still_refused_anywhere() -> None:
    with pytest.raises(ParamsError, match="key 'b' appears twice"):
        loads_json('{"a": [{"b": 1, "c": 2, "b": 3}]}', "doc")
    assert loads_json('{"a": {"b": 1}, "b": {"a": 2}}', "doc") == {"a": {"b": 1}, "b": {"a": 2}}
