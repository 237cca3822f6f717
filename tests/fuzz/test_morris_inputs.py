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


_JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), st.floats(allow_nan=False), st.text(max_size=30)
)
_JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _a_book_row() -> list[object]:
    """One real entry of the shipped book (a proven line-ply entry: all seven fields)."""
    import json

    from boardeval.morris.book import DEFAULT_BOOK

    rows = json.loads(DEFAULT_BOOK.read_text(encoding="utf-8"))["entries"]
    return list(rows[-1])


_ODD = st.sampled_from([True, False, 12.7, 12.0, "12", -1, 0, 1e308, float("inf"), [], {}, "d2", ["d2"]])


@given(st.integers(0, 6), st.one_of(_ODD, _JSON), st.booleans())
def test_a_damaged_book_entry_reads_or_raises_ours(field: int, value: object, check: bool) -> None:
    """A book file (``--book FILE``, ``--from-book FILE``) with one field of an entry replaced by any JSON
    value: read (checked or trusted) into a book whose probe answers legal turns only, or a ``BookError``
    naming the file and the entry; never another exception."""
    import json
    import tempfile
    from pathlib import Path

    from boardeval.morris.book import Book, BookError

    row = _a_book_row()
    row[field] = value
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "book.json"
        path.write_text(json.dumps({"format": "boardeval-morris-book/2", "entries": [row]}), encoding="utf-8")
        try:
            book = Book.read(path, check=check)
        except BookError as exc:
            assert str(path) in str(exc) and "entry 0" in str(exc)
            return
    (text,) = book.entries
    (entry,) = book.entries.values()
    # what was read is what the file says: no number rounded or converted from text or a boolean
    assert [entry.depth, entry.score, entry.nodes] == row[2:5] and str(entry.move) == row[1]
    assert [str(t) for t in entry.pv] == row[5]
    assert type(row[2]) is int and type(row[4]) is int and type(row[3]) in (int, float), row[2:5]
    try:
        pos = Position.parse(text)
    except MorrisError:
        assert not check  # a checked read parses every position
        return
    entry = book.probe(pos)
    assert entry is None or entry.move in pos.legal_turns()
