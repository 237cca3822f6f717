"""Fuzz the Nine Men's Morris readers (issue 17): each input parses and round-trips, or raises OUR error.

Readers: position text (``Position.parse``), turn text (``Turn.parse``), move lists
(``Position.from_moves``), variant text (``Variant.parse``). The contract is the Catan suite's
(``tests/fuzz/test_catan_inputs.py``): parse then format gives the canonical text and parsing that gives
the same value; or a ``MorrisError`` whose message quotes the input; any other exception fails.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from boardeval.core import BoardevalError, MorrisError
from boardeval.morris import Position, Turn, Variant, VariantError
from tests.fuzz.morris_strategies import move_lists, position_texts, turn_texts, variant_texts
from tests.fuzz.strategies import assert_quotes_input

OUTER = " \t\r\n"


@given(position_texts())
def test_position_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        pos = Position.parse(text)
    except MorrisError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert pos.text() == text.strip(OUTER)  # canonical: only outer ASCII whitespace is dropped
    again = Position.parse(pos.text())
    assert again.text() == pos.text() and again.zobrist == pos.zobrist


@given(position_texts())
def test_position_parses_without_validation_or_raises_ours(text: str) -> None:
    """``validate=False`` reads positions that cannot arise; the text rules are the same."""
    try:
        pos = Position.parse(text, validate=False)
    except MorrisError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert pos.text() == text.strip(OUTER)
    assert Position.parse(pos.text(), validate=False).text() == pos.text()


@given(turn_texts())
def test_turn_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        turn = Turn.parse(text)
    except MorrisError as exc:
        # a short turn is quoted whole; the case of a quoted point may be normalised ('D2' -> 'd2')
        assert_quotes_input(str(exc), text, pieces=[text.lower(), text.strip(OUTER).lower()])
        return
    assert str(turn) == text.strip(OUTER).lower()  # canonical: lower case, no outer whitespace
    assert Turn.parse(str(turn)) == turn


@given(move_lists())
def test_move_list_plays_round_trips_or_raises_ours(text: str) -> None:
    try:
        pos = Position.from_moves(text)
    except MorrisError as exc:
        if "move list" not in str(exc):  # errors of one turn name it: "move 3 of the move list: ..."
            assert_quotes_input(str(exc), text)
        else:
            turns = text.split()  # "move 11 of the move list: illegal turn a4 in position ...": names it
            named = tuple(f"turn {t.lower()} " for t in turns)
            assert_quotes_input(str(exc), text, extra=named, pieces=[*turns, *(t.lower() for t in turns)])
        return
    canonical = " ".join(str(t) for t in pos.history)
    assert canonical == " ".join(text.split()).lower()
    again = Position.from_moves(canonical)
    assert again.text() == pos.text() and again.history == pos.history


@given(variant_texts())
def test_variant_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        variant = Variant.parse(text)
    except MorrisError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert Variant.parse(variant.text()) == variant
    assert Variant.parse(text) == variant  # deterministic


@given(position_texts(), variant_texts())
def test_position_under_a_variant_or_raises_ours(text: str, variant_text: str) -> None:
    """The readers combined (as the CLI's ``--variant`` and position argument are): our errors only."""
    try:
        Position.parse(text, Variant.parse(variant_text))
    except BoardevalError as exc:
        reader_input = variant_text if isinstance(exc, VariantError) else text
        assert_quotes_input(str(exc), reader_input)


@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(max_size=4), st.lists(st.integers())))
def test_non_text_is_refused_with_our_error(value: object) -> None:
    for reader in (Position.parse, Turn.parse, Variant.parse):
        try:
            reader(value)  # type: ignore[arg-type]
        except MorrisError as exc:
            assert str(exc)
        else:  # pragma: no cover - the test fails
            raise AssertionError(f"{reader.__qualname__} accepted {value!r}")
