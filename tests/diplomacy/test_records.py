"""Game records: the shipped human games, JSON/JSONL, live games, seeded random games, bad records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardeval.core import DiplomacyError
from boardeval.diplomacy import (
    GameRecord,
    RecordError,
    RecordFormatError,
    RecordStateError,
    Unit,
    UnknownPowerError,
    UnknownProvinceError,
    load_records,
    random_game,
    record_from_game,
    record_from_saved,
    save_records,
    shipped_game_paths,
    start_position,
)


def test_human_games_load(human_games: list[GameRecord]) -> None:
    assert [len(g.phases) for g in human_games] == [57, 53, 52]
    first = human_games[0].phases[0]
    assert first.phase == "S1901M"
    assert Unit("F", "STP/SC") in first.units[5]  # Russia
    # Retreat phases keep dislodged units, flagged.
    dislodged = [u for g in human_games for p in g.phases for us in p.units for u in us if u.dislodged]
    assert len(dislodged) == 38 + 36 + 19
    # Game 1 ends with Italy on 16 centres.
    assert len(human_games[0].phases[-1].centers[4]) == 16


def test_shipped_games_are_read_in_place() -> None:
    for path in shipped_game_paths():
        assert "site-packages" in str(path) or "dist-packages" in str(path)


@pytest.mark.parametrize("text", ["A BUD", "F STP/SC", "*F SEV"])
def test_unit_round_trip(text: str) -> None:
    assert Unit.parse(text).format() == text


def test_unit_parse_errors() -> None:
    with pytest.raises(ValueError, match="malformed unit"):
        Unit.parse("X BUD")
    with pytest.raises(ValueError, match="malformed unit"):
        Unit.parse("A")


def test_start_position() -> None:
    start = start_position("standard")
    assert start.phase == "S1901M"
    assert sum(len(c) for c in start.centers) == 22
    assert sum(len(u) for u in start.units) == 22


def _saved(units: dict[str, list[str]] | None = None, centers: Any = None, **extra: Any) -> dict[str, Any]:
    state = {"units": units or {"AUSTRIA": ["A VIE"]}, "centers": centers or {"AUSTRIA": ["VIE"]}}
    saved: dict[str, Any] = {"id": "g1", "map": "standard", "phases": [{"name": "S1901M", "state": state}]}
    saved.update(extra)
    return saved


def test_unknown_power_names_game_phase_field() -> None:
    with pytest.raises(UnknownPowerError) as info:
        record_from_saved(_saved(units={"PRUSSIA": ["A BER"]}))
    message = str(info.value)
    assert "game 'g1'" in message and "phase 'S1901M'" in message and "state.units.PRUSSIA" in message
    assert isinstance(info.value, DiplomacyError)


def test_unknown_province() -> None:
    with pytest.raises(UnknownProvinceError, match=r"state\.units\.AUSTRIA\[1\]: unknown province 'XYZ'"):
        record_from_saved(_saved(units={"AUSTRIA": ["A VIE", "A XYZ"]}))
    with pytest.raises(UnknownProvinceError, match="not a supply centre"):
        record_from_saved(_saved(centers={"AUSTRIA": ["GAL"]}))


def test_units_where_they_cannot_stand() -> None:
    with pytest.raises(UnknownProvinceError, match="an army cannot stand at 'NTH'"):
        record_from_saved(_saved(units={"ENGLAND": ["A NTH"]}))
    with pytest.raises(UnknownProvinceError, match="a fleet cannot stand at 'SPA'"):
        record_from_saved(_saved(units={"FRANCE": ["F SPA"]}))  # needs a coast
    with pytest.raises(UnknownProvinceError, match="a fleet cannot stand at 'MUN'"):
        record_from_saved(_saved(units={"GERMANY": ["F MUN"]}))


def test_phase_without_state() -> None:
    saved = {"id": "g2", "map": "standard", "phases": [{"name": "S1901M"}]}
    with pytest.raises(RecordStateError, match="game 'g2', phase 'S1901M', state: phase has no state"):
        record_from_saved(saved)
    saved = {"id": "g2", "map": "standard", "phases": [{"name": "F1901M", "state": {"units": {}}}]}
    with pytest.raises(RecordStateError, match=r"phase 'F1901M', state\.centers"):
        record_from_saved(saved)


def test_bad_structure() -> None:
    with pytest.raises(RecordFormatError, match="no phases"):
        record_from_saved({"id": "g3", "map": "standard", "phases": []})
    with pytest.raises(RecordFormatError, match="unknown map 'narnia'"):
        record_from_saved({"id": "g3", "map": "narnia", "phases": []})
    with pytest.raises(RecordFormatError, match="must be a JSON object"):
        record_from_saved([1, 2])
    with pytest.raises(RecordStateError, match="owned by both"):
        record_from_saved(_saved(centers={"AUSTRIA": ["VIE"], "ITALY": ["VIE"]}))
    with pytest.raises(RecordStateError, match=r"state\.units\.AUSTRIA must be a list, got 'A VIE'"):
        record_from_saved(_saved(units={"AUSTRIA": "A VIE"}))  # type: ignore[dict-item]


def test_truncated_json_file(tmp_path: Path) -> None:
    text = shipped_game_paths()[2].read_text(encoding="utf-8")
    broken = tmp_path / "truncated.json"
    broken.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(RecordFormatError, match=r"truncated\.json is not valid JSON"):
        load_records(broken)
    with pytest.raises(RecordFormatError, match="no such file"):
        load_records(tmp_path / "missing.json")
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(RecordFormatError, match="empty"):
        load_records(empty)


def test_truncated_pretty_printed_json(tmp_path: Path) -> None:
    text = json.dumps(_saved(), indent=2)
    path = tmp_path / "pretty.json"
    path.write_text(text[:-20], encoding="utf-8")
    with pytest.raises(RecordFormatError, match=r"pretty\.json is not valid JSON: .*: line \d+ column \d+"):
        load_records(path)
    path.write_text(text, encoding="utf-8")
    assert load_records(path)[0].game_id == "g1"


def test_jsonl_with_a_broken_line(tmp_path: Path) -> None:
    good = json.dumps(_saved())
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n" + good[:-5] + "\n", encoding="utf-8")
    with pytest.raises(RecordFormatError, match=r"games\.jsonl line 2 is not valid JSON"):
        load_records(path)


def test_random_games_are_seeded(tmp_path: Path) -> None:
    a = record_from_game(random_game(11, max_phases=12))
    b = record_from_game(random_game(11, max_phases=12))
    c = record_from_game(random_game(12, max_phases=12))
    assert len(a.phases) == 12
    assert a.phases == b.phases
    assert a.phases != c.phases
    # JSONL round trip, several games a file.
    path = tmp_path / "two.jsonl"
    assert save_records([random_game(11, max_phases=12), random_game(12, max_phases=5)], path) == 2
    loaded = load_records(path)
    assert [g.game_id for g in loaded] == ["random-standard-11", "random-standard-12"]
    assert loaded[0].phases == a.phases
    assert len(loaded[1].phases) == 5


def test_random_game_on_another_map() -> None:
    game = record_from_game(random_game(3, map_name="ancmed", max_phases=6))
    assert game.map_name == "ancmed" and len(game.phases) == 6
    assert game.phases[0].phase == "S0001M"


def test_load_records_reads_text_bytes_and_paths(tmp_path: Path, human_games: list[GameRecord]) -> None:
    """The same game from its path, its text, its bytes and a bytearray; JSONL text holds several games."""
    path = shipped_game_paths()[2]
    data = path.read_bytes()
    from_path = load_records(path)
    assert from_path[0].phases == human_games[2].phases
    assert load_records(str(path)) == from_path
    assert load_records(data) == from_path
    assert load_records(bytearray(data)) == from_path
    assert load_records(data.decode("utf-8")) == from_path
    jsonl = "\n".join(json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in shipped_game_paths())
    games = load_records("  " + jsonl)
    assert [len(g.phases) for g in games] == [57, 53, 52]
    assert load_records(jsonl.encode("utf-8")) == games


def test_load_records_names_the_input_in_errors(tmp_path: Path) -> None:
    broken = b'{"id": "x", "phases": ['
    with pytest.raises(RecordFormatError, match=r"^upload\.json is not valid JSON: .*line 1 column 24"):
        load_records(broken, name="upload.json")
    with pytest.raises(RecordFormatError, match=r"^<bytes> is not valid JSON"):
        load_records(broken)
    with pytest.raises(RecordFormatError, match=r"^<text> is not valid JSON"):
        load_records(broken.decode())
    with pytest.raises(RecordFormatError, match=r"^game\.json: cannot read the file: 'utf-8' codec"):
        load_records(bytes(range(256)), name="game.json")
    with pytest.raises(RecordFormatError, match=r"^<text>: the file is empty"):
        load_records("   ")
    # A string that does not start with '{' or '[' is a path.
    with pytest.raises(RecordFormatError, match=r"^no-such-game\.json: no such file"):
        load_records("no-such-game.json")
    # A game without an id is named after the input and the line.
    bad = json.dumps(_saved(units={"ATLANTIS": []})).replace('"id": "g1", ', "")
    with pytest.raises(UnknownPowerError, match=r"^game 'mine\.jsonl:1', phase 'S1901M'"):
        load_records(bad, name="mine.jsonl")


def test_line_ends_do_not_change_records_or_error_lines(tmp_path: Path) -> None:
    """CRLF and CR text reads like LF text, as a file read in text mode does: same games, same lines."""
    good = json.dumps(_saved())
    lf = good + "\n" + good + "\n"
    pretty = json.dumps(_saved(), indent=2)[:-20]  # a broken pretty-printed document
    with pytest.raises(RecordFormatError) as want:
        load_records(pretty)
    assert "at line 1 " not in str(want.value)
    for ending in ("\r\n", "\r"):
        assert load_records(lf.replace("\n", ending).encode()) == load_records(lf)
        with pytest.raises(RecordFormatError) as got:
            load_records(pretty.replace("\n", ending).encode())
        assert str(got.value).replace("<bytes>", "<text>") == str(want.value)
        path = tmp_path / "pretty.json"
        path.write_bytes(pretty.replace("\n", ending).encode())
        with pytest.raises(RecordFormatError) as from_file:
            load_records(path)
        assert str(from_file.value) == str(want.value).replace("<text>", str(path))


# -- issue 17: the strict saved-game format -----------------------------------------------------------------


def _two_phases(first: str, second: str) -> dict[str, Any]:
    saved = _saved()
    saved["phases"].append({"name": second, "state": saved["phases"][0]["state"]})
    saved["phases"][0]["name"] = first
    return saved


@pytest.mark.parametrize(
    ("saved", "error", "pattern"),
    [
        (
            _saved(units={"AUSTRIA": ["A VIE"], "ITALY": ["A VIE"]}),
            RecordStateError,
            r"two units in province 'VIE'",
        ),
        (_saved(units={"RUSSIA": ["F STP/NC", "A STP"]}), RecordStateError, r"two units in province 'STP'"),
        (
            _saved(units={"AUSTRIA": ["A VIE"], "austria": ["A BUD"]}),
            UnknownPowerError,
            r"'austria' \(power names are upper case\)",
        ),
        (_saved(units={"AUSTRIA": ["a vie"]}), RecordStateError, r"malformed unit 'a vie' \(upper case"),
        (_saved(units={"AUSTRIA": [" A VIE"]}), RecordStateError, r"malformed unit ' A VIE'"),
        (_saved(centers={"AUSTRIA": ["VIE", "VIE"]}), RecordStateError, r"'VIE' is listed twice for AUSTRIA"),
        (
            _two_phases("S1901M", "S1901M"),
            RecordFormatError,
            r"phases\[1\].name: phase #1: 'S1901M' appears twice",
        ),
        (_two_phases("F1901M", "S1901M"), RecordFormatError, r"'S1901M' comes after 'F1901M'"),
        (_two_phases("S1901M", "X1901M"), RecordFormatError, r"'X1901M' is not a phase name"),
        (_two_phases("S1901M", "W1901M"), RecordFormatError, r"'W1901M' is not a phase name"),
        (_two_phases("S1901M", "s1901r"), RecordFormatError, r"'s1901r' is not a phase name"),
        (_two_phases("COMPLETED", "S1901M"), RecordFormatError, r"comes after COMPLETED"),
        (_saved(colour="red"), RecordFormatError, r"unknown field\(s\) \['colour'\]"),
        (_saved(id=7), RecordFormatError, r"id must be text, got 7"),
        (_saved(rules="NO_PRESS"), RecordFormatError, r"rules must be a list, got 'NO_PRESS'"),
    ],
)
def test_malformed_records_are_refused_quoting_the_input(
    saved: dict[str, Any], error: type[RecordError], pattern: str
) -> None:
    with pytest.raises(error, match=pattern):
        record_from_saved(saved)


def test_phase_and_state_fields_are_typed() -> None:
    saved = _saved()
    saved["phases"][0]["orders"] = {"AUSTRIA": "A VIE H"}
    with pytest.raises(RecordFormatError, match=r"phases\[0\].orders.AUSTRIA must be a list, got 'A VIE H'"):
        record_from_saved(saved)
    saved = _saved()
    saved["phases"][0]["state"]["timestamp"] = "12"
    with pytest.raises(RecordStateError, match=r"state.timestamp must be an integer, got '12'"):
        record_from_saved(saved)
    saved = _saved()
    saved["phases"][0]["state"]["name"] = "F1901M"
    with pytest.raises(RecordFormatError, match=r"named 'S1901M' but its state says 'F1901M'"):
        record_from_saved(saved)


def test_a_dislodged_unit_shares_its_province() -> None:
    record = record_from_saved(_saved(units={"AUSTRIA": ["A VIE"], "ITALY": ["*A VIE"]}))
    assert [u.dislodged for u in record.phases[0].units[4]] == [True]  # ITALY, the 5th power


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("[]", r"holds no game"),
        ('{"id": "g", "id": "h", "phases": []}', r"key 'id' appears twice"),
        (
            '{"id": "g", "phases": [{"name": "S1901M", "state": {"timestamp": ' + "9" * 5000 + "}}]}",
            r"too long",
        ),
        ("[" * 100_000, r"nests deeper than 32"),
        ('{"id": NaN}', r"NaN is not JSON"),
    ],
)
def test_load_records_refuses_bad_text(text: str, pattern: str) -> None:
    with pytest.raises(RecordFormatError, match=pattern):
        load_records(text, name="up.json")


def test_the_shipped_games_pass_the_strict_format(human_games: list[GameRecord]) -> None:
    """The engine's own files (with orders, results, press, builds...) are read by the strict models."""
    assert [len(g.phases) for g in human_games] == [57, 53, 52]
    from diplomacy.utils.export import to_saved_game_format

    random_record = load_records(json.dumps(to_saved_game_format(random_game(5, max_phases=8))))
    assert len(random_record[0].phases) == 8


def test_a_string_that_is_no_file_name_is_our_error() -> None:
    """Found by the deep fuzz: text not starting with '{' or '[' is a path; a lone surrogate or a NUL in it
    raised UnicodeEncodeError / ValueError from the OS call."""
    for text in ("\ud800{}", "a\x00b.json"):
        with pytest.raises(RecordFormatError, match="not a file name the system accepts"):
            load_records(text)
