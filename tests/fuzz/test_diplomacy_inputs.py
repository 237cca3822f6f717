"""Fuzz the Diplomacy record readers (issue 17): each input loads and round-trips, or raises OUR error.

Readers: ``record_from_saved`` (a saved-game object), ``load_records`` (JSON / JSONL text, bytes, files)
and ``Unit.parse``. A record that loads is written back in the canonical saved form (units and centres
per power) and read again: the same record. Anything but a ``BoardevalError`` quoting the input fails.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardeval.core import BoardevalError, DiplomacyError
from boardeval.core.numbers import quote
from boardeval.diplomacy import GameRecord, Unit, load_map_graph, load_records, record_from_saved
from tests.fuzz.diplomacy_strategies import record_docs, record_texts
from tests.fuzz.strategies import ODD_CHARS, assert_quotes_input, mutated_text

# Messages name where the problem is: a JSON path inside the record, or the phase.
PATHS = ("phases[", "state.", "state:", "phase '", "$.")


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="boardeval-fuzz-dip-") as d:
        yield Path(d)


def canonical(record: GameRecord) -> dict[str, Any]:
    """The record in the engine's saved-game form, with only what a record keeps."""
    powers = load_map_graph(record.map_name).powers
    return {
        "id": record.game_id,
        "map": record.map_name,
        "phases": [
            {
                "name": p.phase,
                "state": {
                    "units": {pw: [u.format() for u in us] for pw, us in zip(powers, p.units, strict=True)},
                    "centers": {pw: list(cs) for pw, cs in zip(powers, p.centers, strict=True)},
                },
            }
            for p in record.phases
        ],
    }


def _check_round_trip(record: GameRecord) -> None:
    again = record_from_saved(canonical(record))
    assert again == record
    assert load_records(json.dumps(canonical(record)))[0] == record
    names = [p.phase for p in record.phases]
    assert len(set(names)) == len(names)
    for p in record.phases:  # one unit a province (dislodged units apart)
        here = [(u.province, u.dislodged) for us in p.units for u in us]
        assert len(set(here)) == len(here)


def _text_of(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


@given(record_docs())
def test_saved_game_object_loads_round_trips_or_raises_ours(doc: Any) -> None:
    try:
        record = record_from_saved(doc)
    except DiplomacyError as exc:
        # the input as JSON, or as Python writes it (a message quotes a Python value: None, {...})
        got = f"got {quote(doc)}"  # "a saved game must be a JSON object, got []"
        field = getattr(
            exc, "field", None
        )  # "game 'g', map: unknown map ''": the field named, its value quoted
        where = (f"{field}: ",) if field else ()
        assert_quotes_input(str(exc), _text_of(doc) + "\n" + repr(doc)[:2000], extra=(*PATHS, got, *where))
        return
    _check_round_trip(record)


@given(record_texts())
def test_record_text_loads_round_trips_or_raises_ours(text: str) -> None:
    try:
        records = load_records(text)
    except DiplomacyError as exc:
        strings = re.findall(r'"([^"\\]{1,40})"', text[:100_000])
        # JSONL: a short line (a game given as {} or []) may be what is quoted
        lines = [ln.strip() for ln in text.splitlines()[:100] if len(ln) <= 60]
        field = getattr(exc, "field", None)  # the field named, its value quoted
        # a game of a list or a JSONL line is named by its place: "<text>[0]: a saved game ..., got []"
        markers = (*PATHS, "$: ", "the file is empty", "a saved game must be a JSON object, got ")
        where = (f"{field}: ",) if field else ()
        assert_quotes_input(str(exc), text, extra=(*markers, *where), pieces=strings + lines)
        return
    assert records, "load_records returned no game without an error"
    for record in records:
        _check_round_trip(record)


@given(record_texts(), st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_record_bytes_and_files_load_or_raise_ours(workdir: Path, text: str, encoding: str) -> None:
    data = text.encode(encoding, "replace")
    path = workdir / "game.json"
    path.write_bytes(data)
    for source in (data, path):
        try:
            records = load_records(source, name="game.json")
        except DiplomacyError as exc:
            assert str(exc)  # named after the file; the text checks above cover the quoting
            continue
        for record in records:
            _check_round_trip(record)


@given(st.sampled_from(["A BUD", "F STP/SC", "*F SEV", "A VIE"]).flatmap(lambda u: mutated_text(u))
       | st.text(alphabet=ODD_CHARS, max_size=10))  # fmt: skip
def test_unit_parses_round_trips_or_raises_ours(text: str) -> None:
    try:
        unit = Unit.parse(text)
    except BoardevalError as exc:
        assert_quotes_input(str(exc), text)
        return
    assert unit.format() == text
    assert Unit.parse(unit.format()) == unit
