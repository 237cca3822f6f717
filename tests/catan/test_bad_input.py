"""Issue 17's Catan examples, one by one: crashes and silent fix-ups that are now clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w

from boardeval.catan import Board, SpotParams, energy_weights, evaluate_spots, parse_rule
from boardeval.catan.board import BoardParseError
from boardeval.core import BoardevalError, CatanError, ParamsError

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
SPEC = Board.parse(SPEC_CODE)


def _doc() -> dict[str, Any]:
    return SPEC.to_json()


# -- share codes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("O10-", "O1_0-", "'1_0' is not a number"),
        ("O10-", "O+10-", "'+10' is not a number"),
        ("O10-", "O\uff11\uff10-", "is not a number"),  # full-width digits
        ("O10-", "O\u0661\u0660-", "is not a number"),  # Arabic-Indic digits
        ("O10-", "O" + "9" * 50 + "-", "out of range 0..99"),  # checked on length, before int()
        ("O10-", "O" + "9" * 5000 + "-", "is too long"),  # int() would raise a bare ValueError
        ("O10-", "O 10-", "' 10' is not a number"),
    ],
)
def test_share_code_numbers_are_ascii_digits_only(old: str, new: str, message: str) -> None:
    with pytest.raises(BoardParseError) as info:
        Board.parse(SPEC_CODE.replace(old, new, 1))
    assert message in str(info.value)


def test_share_code_outer_whitespace_only() -> None:
    assert Board.parse(f"  {SPEC_CODE}\r\n") == SPEC  # a pasted line, a file's final newline
    with pytest.raises(BoardParseError):
        Board.parse(f"\u00a0{SPEC_CODE}")  # not ASCII whitespace: refused
    with pytest.raises(BoardParseError, match="too long"):
        Board.parse(SPEC_CODE + " " * 1000)


def test_constructor_refuses_odd_values_with_our_error() -> None:
    for resources, numbers, ports in [
        ((["W"], *SPEC.resources[1:]), SPEC.numbers, SPEC.ports),  # unhashable letter
        (SPEC.resources, (10**5000, *SPEC.numbers[1:]), SPEC.ports),  # f"{n}" would raise ValueError
        (SPEC.resources, SPEC.numbers, (1, *SPEC.ports[1:])),  # `1 in "3WBSGO"` raises TypeError
        (SPEC.resources, SPEC.numbers, ("3W", *SPEC.ports[1:])),  # a substring, not a letter
    ]:
        with pytest.raises(BoardParseError):
            Board(tuple(resources), tuple(numbers), tuple(ports))  # type: ignore[arg-type]


# -- board JSON --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hexes", 0, "resource"), " ORE ", r"unknown resource ' ORE ' \(names are lower case"),
        (("hexes", 4, "resource"), "bRick", r"unknown resource 'bRick' \(names are lower case"),
        (("hexes", 0, "resource"), "Ore", "unknown resource 'Ore'"),
        (("hexes", 0, "resource"), "o", "unknown resource 'o'"),
        (("hexes", 0, "number"), 10.0, r"\$\.hexes\[0\]\.number must be an integer, got 10\.0"),
        (("hexes", 0, "number"), "10", r"\$\.hexes\[0\]\.number must be an integer, got '10'"),
        (("hexes", 0, "number"), True, r"\$\.hexes\[0\]\.number must be an integer, got True"),
        (("hexes", 0, "number"), 10**40, r"\$\.hexes\[0\]\.number must be <= 99"),
        (("hexes", 0, "id"), 1.0, r"\$\.hexes\[0\]\.id must be an integer"),
        (("ports", 0, "spots"), [37, 26], r"\$\.ports\[0\]\.spots \[37, 26\] do not match slot 0"),
        (("ports", 0, "spots"), [26.0, 37.0], r"\$\.ports\[0\]\.spots\[0\] must be an integer, got 26\.0"),
        (("ports", 0, "spots"), [26, "x"], r"\$\.ports\[0\]\.spots\[1\] must be an integer, got 'x'"),
        (("ports", 0, "spots"), [26, 37, 38], r"\$\.ports\[0\]\.spots must have at most 2 entries"),
        (("ports", 0, "kind"), 3, r"\$\.ports\[0\]\.kind must be one of"),
    ],
)
def test_board_json_strict_fields(path: tuple[str | int, ...], value: object, message: str) -> None:
    d: Any = _doc()
    target = d
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    with pytest.raises(BoardParseError, match=message):
        Board.from_json(d)
    if isinstance(value, int) and value > 10**30:
        return  # not writable as JSON text within the integer-length limit; the object path is tested
    with pytest.raises(BoardParseError, match=message.replace("10\\.0", "10(\\.0)?")):
        Board.from_json(json.dumps(d))


def test_board_json_misspelled_and_unknown_keys() -> None:
    d: Any = _doc()
    d["hexes"][3]["numbr"] = 5
    with pytest.raises(BoardParseError, match=r"\$\.hexes\[3\]: unknown field\(s\) \['numbr'\]"):
        Board.from_json(d)
    d = _doc()
    d["ports"][2]["spot"] = [1, 2]
    with pytest.raises(BoardParseError, match=r"\$\.ports\[2\]: unknown field\(s\) \['spot'\]"):
        Board.from_json(d)
    d = _doc()
    d["colour"] = "red"
    with pytest.raises(BoardParseError, match=r"unknown field\(s\) \['colour'\]"):
        Board.from_json(d)


def test_board_json_duplicate_keys() -> None:
    text = json.dumps(_doc()).replace('"number": 10', '"number": 3, "number": 10', 1)
    with pytest.raises(BoardParseError, match="key 'number' appears twice"):
        Board.from_json(text)


def test_board_json_deep_nesting_and_size() -> None:
    with pytest.raises(BoardParseError, match="nests deeper"):
        Board.from_text('{"hexes": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(BoardParseError, match="too large"):
        Board.from_text("{" * 2_000_000)
    with pytest.raises(BoardParseError, match="too long"):
        Board.from_text("[" * 1_000_000)  # not an object: read as a share code
    nested: Any = []
    for _ in range(5000):
        nested = [nested]
    d: Any = _doc()
    d["hexes"][0]["resource"] = nested  # a deep object (not text): the message still builds
    with pytest.raises(BoardParseError, match=r"\$\.hexes\[0\]\.resource must be text"):
        Board.from_json(d)


def test_board_json_code_field_is_checked() -> None:
    d: Any = {"code": SPEC_CODE, **_doc()}
    assert Board.from_json(d) == SPEC
    d["code"] = Board.random(1).code()
    with pytest.raises(BoardParseError, match=r"\$\.code .* does not match"):
        Board.from_json(d)


# -- rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("MAX-CLUSTER=2", "unknown rule 'MAX-CLUSTER=2' (rule names are lower case"),
        (" max-cluster=2", "unknown rule ' max-cluster=2' (rule names are lower case"),
        ("desert\r=any", "unknown rule 'desert\\r=any' (rule names are lower case"),
        ("desert=CENTRE", "desert must be one of any, centre, coast (lower case)"),
        ("desert=centre ", "desert must be one of"),
        ("max-cluster=+2", "'+2' is not an integer"),
        ("max-cluster=02", "'02' has a leading zero"),
        ("max-cluster=\uff12", "is not an integer"),
        ("max-spot-pips=1_2", "'1_2' is not an integer"),
        ("max-spot-pips=" + "9" * 50, "out of range 0..15"),
        ("max-spot-pips=" + "9" * 5000, "is too long"),
        ("resource-pips-band=9..1_4", "'1_4' is not an integer"),
        ("resource-pips-band=-0..14", "'-0' is not an integer"),
    ],
)
def test_rules_are_exact(text: str, message: str) -> None:
    with pytest.raises(CatanError) as info:
        parse_rule(text)
    assert message in str(info.value)


def test_desert_center_is_the_documented_alias() -> None:
    assert parse_rule("desert=center") == parse_rule("desert=centre")
    assert parse_rule("desert=center").text == "desert=centre"


# -- parameter and weight files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"base_resource_strength": [1000, 1, 1, 1, 1], "dampening_factor": 200},
         r"base_resource_strength\[0\] must be <= 100, got 1000"),
        ({"dampening_factor": 200}, "dampening_factor must be <= 4, got 200"),
        ({"port_bonus": 1e308}, "port_bonus must be <= 1000, got 1e\\+308"),
        ({"eval_weights": [1, 1, 1, 1, 10**400]}, r"eval_weights\[4\] must be a number in the float range"),
        ({"base_resource_strength": [1e-30, 1, 1, 1, 1]},
         r"base_resource_strength\[0\] must be 0 or >= 0\.001"),
        ({"parity_preference": True}, "parity_preference must be a number, got True"),
        ({"port_bonus": "1.5"}, "port_bonus must be a number, got '1.5'"),
        ({"eval_weights": [1, 1, 1, 1]}, "eval_weights must have 5 entries, got 4"),
    ],
)  # fmt: skip
def test_params_ranges_stop_overflow(tmp_path: Path, change: dict[str, object], message: str) -> None:
    d = {**SpotParams().to_dict(), **change}
    f = tmp_path / "p.toml"
    f.write_text(tomli_w.dumps(d))
    with pytest.raises(ParamsError, match=message):
        SpotParams.load(f)


def test_params_at_the_range_limits_stay_finite() -> None:
    extreme = SpotParams(
        base_resource_strength=(100.0, 0.001, 0.0, 100.0, 0.001),
        dampening_factor=4.0,
        port_bonus=1000.0,
        prime_variate_bonus=1000.0,
        parity_preference=1000.0,
        eval_weights=(1000.0,) * 5,
    )
    for seed in range(20):
        table = evaluate_spots(Board.random(seed), extreme)
        assert np.isfinite(table.scores).all() and np.isfinite(table.metrics).all()


def test_energy_weights_range(tmp_path: Path) -> None:
    f = tmp_path / "w.toml"
    for value, message in [
        (1e308, "must be <= 1e\\+06"),
        (10**400, "must be <= 1e\\+06"),
        (-1, "must be >= 0"),
    ]:
        f.write_text(f"same_resource_pairs = {value}\nhigh_number_pairs = 150\npip_variance = 10\n")
        with pytest.raises(ParamsError, match=f"'same_resource_pairs' {message}"):
            energy_weights(f)


def test_errors_are_ours() -> None:
    assert issubclass(BoardParseError, BoardevalError)
