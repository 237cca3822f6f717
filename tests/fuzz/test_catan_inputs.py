"""Fuzz the Catan and core readers (issue 17): each input parses and round-trips, or raises OUR error.

The contract, for every reader: the input either parses, and then formatting the result gives the
canonical text and parsing that gives the same value back; or it raises a ``BoardevalError`` whose message
quotes (part of) the input. Any other exception (``ValueError``, ``TypeError``, ``RecursionError``,
``OverflowError``, ``UnicodeEncodeError``...) fails the test: hypothesis shrinks it and prints the input.

Profiles (``tests/conftest.py``): ``default`` runs each test on 100 inputs; ``--hypothesis-profile=deep``
on 10,000 (docs/reliability.md gives the figures of a deep run).
"""

from __future__ import annotations

import json
import math
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from boardeval.catan import Board, SpotParams, board_energy, energy_json, energy_weights, evaluate_spots
from boardeval.catan.constraints import parse_rule
from boardeval.core import (
    BoardevalError,
    WeightSet,
    check_float,
    dumps_json,
    load_data_file,
    parse_int,
)
from tests.fuzz.catan_strategies import boards, rule_texts, share_codes
from tests.fuzz.strategies import (
    HUGE_INTS,
    assert_quotes_input,
    deep_nesting,
    json_text_with_duplicate_key,
    mutated_json,
    mutated_text,
    odd_numbers,
)

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
SPEC = Board.parse(SPEC_CODE)
OUTER = " \t\r\n"


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """One folder for the files the tests write (hypothesis runs many inputs per test call)."""
    with tempfile.TemporaryDirectory(prefix="boardeval-fuzz-") as d:
        yield Path(d)


def _write(folder: Path, name: str, text: str) -> Path:
    """Write ``text`` as UTF-8 bytes (a lone surrogate stays in: the file is then not valid UTF-8)."""
    path = folder / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


# -- share codes --------------------------------------------------------------------------------


def _code_pieces(text: str) -> list[str]:
    """What a share-code error may quote: a cell, its digits, its letter, the port letters or one port."""
    hexes, _, ports = text.strip(OUTER).partition("~")
    cells = hexes.split("-")
    return [*cells, *(c[1:] for c in cells), *(c[:1] for c in cells), ports, *ports]


@given(share_codes())
def test_share_code_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        board = Board.parse(text)
    except BoardevalError as exc:
        assert_quotes_input(str(exc), text, pieces=_code_pieces(text))
        return
    assert board.code() == text.strip(OUTER)  # the canonical form: only outer whitespace is dropped
    assert Board.parse(board.code()) == board
    assert Board.from_text(text) == board


# -- board JSON --------------------------------------------------------------------------------


@st.composite
def board_docs(draw: st.DrawFn) -> Any:
    return draw(mutated_json(draw(boards).to_json(), max_ops=draw(st.integers(0, 3))))


def _check_board_json(value: Any, text: str) -> None:
    try:
        board = Board.from_json(value)
    except BoardevalError as exc:
        assert_quotes_input(str(exc), text, extra=("$.", "$:", "board JSON has no"))
        return
    assert Board.from_json(board.to_json()) == board
    assert Board.from_json(json.dumps(board.to_json())) == board
    assert Board.from_text(board.code()) == board


@given(board_docs())
def test_board_json_object_parses_round_trips_or_raises_ours(doc: Any) -> None:
    _check_board_json(doc, json.dumps(doc) if _dumpable(doc) else repr(doc))


@st.composite
def board_json_texts(draw: st.DrawFn) -> str:
    doc = draw(boards).to_json()
    kind = draw(st.sampled_from(["doc", "text", "duplicate", "deep", "constant"]))
    if kind == "doc":
        return json.dumps(draw(mutated_json(doc)))
    if kind == "text":
        return draw(mutated_text(json.dumps(doc), max_ops=2))
    if kind == "duplicate":
        return draw(json_text_with_duplicate_key(doc))
    if kind == "deep":
        return draw(deep_nesting())
    return json.dumps(doc).replace("10", draw(st.sampled_from(["NaN", "Infinity", "1e999", "9" * 5000])), 1)


@given(board_json_texts())
def test_board_json_text_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        board = Board.from_text(text)
    except BoardevalError as exc:
        # a message may quote a key or a string of the text ("key 'id' appears twice")
        strings = re.findall(r'"([^"\\]{1,40})"', text[:100_000])
        assert_quotes_input(str(exc), text, extra=("$.", "$:", "board JSON has no"), pieces=strings)
        return
    assert Board.from_text(json.dumps(board.to_json())) == board


@given(boards, st.data())
def test_board_json_duplicate_keys_are_refused(board: Board, data: st.DataObject) -> None:
    text = data.draw(json_text_with_duplicate_key(board.to_json()))
    with pytest.raises(BoardevalError, match="appears twice"):
        Board.from_text(text)


@given(st.binary(max_size=200) | share_codes().map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_board_file_parses_or_raises_ours(workdir: Path, raw: bytes) -> None:
    path = workdir / "board.txt"
    path.write_bytes(raw)
    try:
        Board.load(path)
    except BoardevalError as exc:
        assert "board file" in str(exc) and str(path) in str(exc)


# -- parameter and weight files ----------------------------------------------------------------------------


def _dumpable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


@st.composite
def data_file_texts(draw: st.DrawFn, base: dict[str, Any]) -> tuple[str, str]:
    """(suffix, text) of a parameter/weight file: a mutated dict as TOML or JSON, or mutated file text."""
    doc = draw(mutated_json(base))
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(base)))
        doc[key] = draw(HUGE_INTS | st.sampled_from([1e308, -1e308, 1e-320, 200, 1000, 4.0001, 0.0005]))
    suffix = draw(st.sampled_from([".toml", ".json"]))
    try:
        text = tomli_w.dumps(doc) if suffix == ".toml" else json.dumps(doc)
    except (TypeError, ValueError):  # None, NaN ... have no TOML spelling: write the JSON instead
        suffix, text = ".json", json.dumps(doc)
    kind = draw(st.sampled_from(["doc", "doc", "text", "deep"]))
    if kind == "text":
        text = draw(mutated_text(text, max_ops=2))
    elif kind == "deep":
        text = draw(deep_nesting())
    return suffix, text


@given(data_file_texts(SpotParams().to_dict()), boards)
def test_spot_params_file_loads_and_evaluates_finitely_or_raises_ours(
    workdir: Path, file: tuple[str, str], board: Board
) -> None:
    suffix, text = file
    path = _write(workdir, "params" + suffix, text)
    try:
        params = SpotParams.load(path)
    except BoardevalError as exc:
        assert str(path) in str(exc)
        return
    assert SpotParams.from_dict(params.to_dict()) == params
    table = evaluate_spots(board, params)
    assert all(math.isfinite(x) for x in table.scores.tolist())
    json.loads(dumps_json(table.to_json()))  # finite all through: no Infinity, no NaN


@given(data_file_texts(dict(energy_weights())), boards)
def test_energy_weights_file_loads_and_scores_finitely_or_raises_ours(
    workdir: Path, file: tuple[str, str], board: Board
) -> None:
    suffix, text = file
    path = _write(workdir, "weights" + suffix, text)
    try:
        weights = energy_weights(path)
    except BoardevalError as exc:
        assert str(path) in str(exc)
        return
    assert WeightSet(dict(weights), names=list(weights)) == weights
    b = board_energy(board, weights)
    assert math.isfinite(b.total)
    json.loads(dumps_json(energy_json(b)))


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), HUGE_INTS | st.floats() | st.integers() | st.text()))
def test_weight_set_values_are_finite_in_range_or_raise_ours(values: dict[str, Any]) -> None:
    try:
        ws = WeightSet(values, names=["a", "b"], bounds=(-1e6, 1e6))
    except BoardevalError as exc:
        assert "weight" in str(exc)
        return
    assert all(math.isfinite(v) and -1e6 <= v <= 1e6 for v in ws.values())


@given(
    st.one_of(
        data_file_texts({"a": 1, "b": [1, 2], "t": {"x": 1.5}}), st.tuples(st.just(".toml"), deep_nesting())
    )
)
def test_load_data_file_reads_a_dict_or_raises_ours(workdir: Path, file: tuple[str, str]) -> None:
    suffix, text = file
    path = _write(workdir, "data" + suffix, text)
    try:
        data = load_data_file(path)
    except BoardevalError as exc:
        assert str(path) in str(exc)
        return
    assert isinstance(data, dict)


# -- numbers --------------------------------------------------------------------------------


@given(
    odd_numbers() | mutated_text("12") | st.text(max_size=12), st.integers(-100, 100), st.integers(0, 10**6)
)
def test_parse_int_accepts_only_the_canonical_spelling(text: str, lo: int, width: int) -> None:
    hi = lo + width
    try:
        value = parse_int(text, "value", lo=lo, hi=hi)
    except BoardevalError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert str(value) == text and lo <= value <= hi


@given(HUGE_INTS | st.floats() | st.integers() | st.booleans() | st.text(max_size=3))
def test_check_float_gives_a_finite_float_in_range_or_raises_ours(value: Any) -> None:
    try:
        f = check_float(value, "x", lo=-1e9, hi=1e9)
    except BoardevalError as exc:
        assert str(exc).startswith("x must be")
        return
    assert isinstance(f, float) and math.isfinite(f) and -1e9 <= f <= 1e9


# -- rules --------------------------------------------------------------------------------


@given(rule_texts())
def test_rule_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        rule = parse_rule(text)
    except BoardevalError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert rule.text == text.replace("desert=center", "desert=centre")  # the one documented alias
    assert parse_rule(rule.text) == rule
    rule.violations(SPEC)  # a parsed rule can be checked on a board
