"""The shared number reader and the safe JSON/TOML input helpers (issue 17)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from boardeval.core import (
    MAX_DEPTH,
    MAX_INPUT_CHARS,
    BoardevalError,
    ParamsError,
    WeightSet,
    check_float,
    check_int,
    check_number,
    dumps_json,
    load_data_file,
    loads_json,
    loads_toml,
    parse_int,
    quote,
)


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), ("12", 12), ("-3", -3), ("100", 100)])
def test_parse_int_reads_plain_ascii_integers(text: str, value: int) -> None:
    assert parse_int(text, "n", lo=-10, hi=100) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1_2", "'1_2' is not an integer"),
        ("+12", "'+12' is not an integer"),
        ("012", "'012' has a leading zero"),
        ("-0", "'-0' is not an integer; write 0"),
        ("\uff11\uff12", "is not an integer"),  # full-width
        ("\u0661\u0662", "is not an integer"),  # Arabic-Indic
        (" 12", "' 12' is not an integer"),
        ("12\r", "'12\\r' is not an integer"),
        ("", "'' is not an integer"),
        ("-", "'-' is not an integer"),
        ("101", "'101' is out of range -10..100"),
        ("-11", "'-11' is out of range -10..100"),
    ],
)
def test_parse_int_refuses_what_int_accepts(text: str, message: str) -> None:
    with pytest.raises(ParamsError) as info:
        parse_int(text, "n", lo=-10, hi=100)
    assert message in str(info.value)


def test_parse_int_checks_length_before_converting() -> None:
    # int() raises a bare ValueError on more than 4,300 digits; we refuse on length, quoting the start
    with pytest.raises(ParamsError, match=r"'9999.*\(5000 characters\) is out of range 0..99"):
        parse_int("9" * 5000, "n", lo=0, hi=99)
    with pytest.raises(ParamsError, match=r"out of range 0\.\.5"):
        parse_int("-1", "n", lo=0, hi=5)


def test_parse_int_uses_the_callers_error() -> None:
    class MyError(BoardevalError):
        pass

    with pytest.raises(MyError):
        parse_int("x", "n", lo=0, hi=1, error=MyError)


def test_check_float_and_int_ranges() -> None:
    assert check_float(3, "w", lo=0, hi=10) == 3.0
    with pytest.raises(ParamsError, match=r"w must be <= 10, got <an integer of about 401 digits>"):
        check_float(10**400, "w", lo=0, hi=10)
    with pytest.raises(ParamsError, match="w must be a finite number"):
        check_float(10**400, "w")  # no OverflowError from float()
    with pytest.raises(ParamsError, match="w must be finite"):
        check_float(math.inf, "w")
    with pytest.raises(ParamsError, match="w must be a number, got True"):
        check_float(True, "w")
    assert check_int(5, "k", lo=0, hi=9) == 5
    for bad in (True, 5.0, "5", 10):
        with pytest.raises(ParamsError, match="k must be"):
            check_int(bad, "k", lo=0, hi=9)
    with pytest.raises(ParamsError, match="must be finite"):
        check_number(float("nan"), "x")


def test_quote_never_fails() -> None:
    assert quote("a" * 100).endswith("(100 characters)")
    assert "digits" in quote(10**5000)
    nested: list[object] = []
    for _ in range(10_000):
        nested = [nested]
    assert quote(nested).startswith("[[")


def test_loads_json_limits_and_strictness() -> None:
    assert loads_json('{"a": [1, 2.5, null]}', "doc") == {"a": [1, 2.5, None]}
    for text, message in [
        ('{"a": 1, "a": 2}', "key 'a' appears twice"),
        ("[" * 100_000 + "]" * 100_000, f"nests deeper than {MAX_DEPTH} levels"),
        ('{"a": NaN}', "NaN is not JSON"),
        ('{"a": -Infinity}', "-Infinity is not JSON"),
        ('{"a": ' + "9" * 5000 + "}", "too long"),
        ("{", "not valid JSON"),
        (" " * (MAX_INPUT_CHARS + 1), "too large"),
    ]:
        with pytest.raises(ParamsError, match=message):
            loads_json(text, "doc")
    # brackets inside strings do not count towards the depth
    assert loads_json(json.dumps({"s": "[" * 1000}), "doc") == {"s": "[" * 1000}


def test_loads_toml_limits() -> None:
    text = 'a = "' + "[" * 40 + '"  # ' + "[" * 40 + "\n"  # brackets in a string and a comment
    assert loads_toml(text, "doc") == {"a": "[" * 40}
    with pytest.raises(ParamsError, match="nests deeper"):
        loads_toml("a = " + "[" * 5000 + "]" * 5000, "doc")
    with pytest.raises(ParamsError, match="too long to be a number"):
        loads_toml("a = 1" + "0" * 5000, "doc")
    with pytest.raises(ParamsError, match="not valid TOML"):
        loads_toml("a = 1\na = 2\n", "doc")  # TOML itself has no duplicate keys


def test_load_data_file_refuses_duplicates_and_deep_nesting(tmp_path: Path) -> None:
    f = tmp_path / "w.json"
    f.write_text('{"a": 1, "a": 2}')
    with pytest.raises(ParamsError, match=r"w\.json.*'a' appears twice"):
        load_data_file(f)
    f.write_text("[" * 50_000)
    with pytest.raises(ParamsError, match="nests deeper"):
        load_data_file(f)
    f.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ParamsError, match="cannot read"):
        load_data_file(f)


def test_weight_set_bounds() -> None:
    ws = WeightSet({"a": 1, "b": 2}, bounds=(0, 10))
    assert ws.replace(a=3)["a"] == 3.0
    with pytest.raises(ParamsError, match="'a' must be <= 10"):
        ws.replace(a=11)
    with pytest.raises(ParamsError, match="'a' must be <= 1e\\+06, got <an integer"):
        WeightSet({"a": 10**400}, bounds=(0, 1e6))
    with pytest.raises(ParamsError, match="'a' must be a finite number"):
        WeightSet({"a": 10**400})  # no range given: still no OverflowError


def test_dumps_json_refuses_non_finite_numbers() -> None:
    assert dumps_json({"a": [1.5]}) == '{"a": [1.5]}'
    with pytest.raises(ParamsError, match=r"non-finite number at \$\.spots\[1\]\.score \(inf\)"):
        dumps_json({"spots": [{"score": 1.0}, {"score": math.inf}]})
