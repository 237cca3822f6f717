"""The endgame tablebase: build (K = 4 once per test run), files and manifest, probes, errors, Ctrl-C, CLI.

The 3v3 sub-database is compared with the plain solver on every position (slow test); every sub-database is
checked against the rules engine on seeded samples (each value must follow from the successors' values).
"""

from __future__ import annotations

import hashlib
import json
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from boardeval.core import BoardevalError, ParamsError
from boardeval.morris.board import point_index
from boardeval.morris.rules import Position, Variant
from boardeval.morris.tablebase import (
    MAX_MEN,
    MissingTablebaseError,
    Tablebase,
    TablebaseError,
    TablebaseRangeError,
    build_tablebase,
    subdatabase_pairs,
)
from boardeval.morris.tablebase.index import combos, rows, symmetry_classes
from boardeval.morris.tablebase.plain import check_position, plain_solve, rules_successors
from tests.cli.json_shapes import assert_same_fields
from tests.run_cache import made_once

KEYS = [(3, 3), (4, 3), (3, 4), (4, 4)]


def _pos(white: str, black: str, side: str = "w", variant: Variant | None = None) -> Position:
    board = ["."] * 24
    for name in white.split():
        board[point_index(name)] = "W"
    for name in black.split():
        board[point_index(name)] = "B"
    text = "".join(board) + f" {side} 0 0"
    return Position.parse(text) if variant is None else Position.parse(text, variant)


def _build_k4(folder: Path) -> dict[str, Any]:
    calls: list[tuple[int, int, str]] = []
    report = build_tablebase(4, folder, progress=lambda d, t, m: calls.append((d, t, m)))
    return {"built": report.built, "interrupted": report.interrupted, "calls": calls}


@pytest.fixture(scope="session")
def built() -> tuple[Tablebase, list[tuple[int, int, str]]]:
    """The K = 4 tablebase and its build's progress calls, built once per run (tests/run_cache.py)."""
    folder, note = made_once("tablebase-k4", _build_k4)
    assert note["built"] == ["3v3", "4v3", "3v4", "4v4"] and not note["interrupted"]
    return Tablebase.open(folder), [(d, t, m) for d, t, m in note["calls"]]


@pytest.fixture(scope="session")
def tb(built: tuple[Tablebase, list[tuple[int, int, str]]]) -> Tablebase:
    return built[0]


def test_manifest_counts_add_up_and_checksums_match(built: tuple[Tablebase, list[Any]]) -> None:
    tb, calls = built
    manifest = json.loads((tb.directory / "manifest.json").read_text())
    assert manifest["variant"] == "standard"
    assert tb.subdatabases == KEYS and tb.max_men == 4
    for entry in tb.stats():
        a, b = entry["mover_men"], entry["opponent_men"]
        assert entry["positions"] == comb(24, a) * comb(24 - a, b)
        assert entry["wins"] + entry["losses"] + entry["draws"] == entry["positions"]
        assert entry["symmetry_classes"] == symmetry_classes(a, b)
        assert (
            entry["classes_won"] + entry["classes_lost"] + entry["classes_drawn"] == entry["symmetry_classes"]
        )
        data = (tb.directory / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert entry["longest_win"] % 2 == 1 and entry["longest_loss"] % 2 == 0
        table = np.load(tb.directory / entry["file"])
        assert table.shape == (len(rows(a).masks), comb(24 - a, b)) and table.dtype == np.uint8
    # progress: monotone, ends at the total
    done = [d for d, _, _ in calls]
    assert done == sorted(done) and calls[-1][0] == calls[-1][1] > 0


def test_3v3_totals(tb: Tablebase) -> None:
    """The figures in docs/morris-tablebase.md (the plain solver reproduces them in the slow test)."""
    s = {(e["mover_men"], e["opponent_men"]): e for e in tb.stats()}[(3, 3)]
    assert (s["positions"], s["wins"], s["losses"], s["draws"]) == (2_691_920, 2_232_160, 455_648, 4_112)
    assert (s["longest_win"], s["longest_loss"], s["symmetry_classes"]) == (25, 26, 169_626)


@pytest.mark.slow
def test_3v3_agrees_with_the_plain_solver_on_every_position(tb: Tablebase) -> None:
    plain = plain_solve(3)[(3, 3)]
    own = np.repeat(combos(3), comb(24, 3))
    opp = np.tile(combos(3), comb(24, 3))
    ok = (own & opp) == 0
    assert ok.sum() == 2_691_920
    ours = tb.lookup_many(own[ok], opp[ok])
    np.testing.assert_array_equal(ours, plain[ok])


@pytest.mark.parametrize("key", KEYS)
def test_sampled_values_follow_from_the_rules(tb: Tablebase, key: tuple[int, int]) -> None:
    """Each sampled value agrees with its successors, whose turns come from rules.Position."""
    a, b = key
    rng = np.random.default_rng(sum(key))
    decided = {"win": 0, "loss": 0, "draw": 0}
    for _ in range(150):
        points = rng.permutation(24)
        side = int(rng.integers(2))
        own, opp = points[:a], points[a : a + b]
        white, black = (own, opp) if side == 0 else (opp, own)
        pos = _pos(" ".join(_name(p) for p in white), " ".join(_name(p) for p in black), "wb"[side])
        result = tb.probe(pos)
        decided[result.value] += 1
        succ = rules_successors(tb, pos)
        assert check_position(result.value, result.distance, succ) is None, pos.text()
        if result.turns:
            best = result.turns[0]
            assert best.value == result.value
            if result.value != "draw":
                assert best.distance == result.distance
    assert sum(decided.values()) == 150


def _name(p: int) -> str:
    from boardeval.morris.board import POINT_NAMES

    return POINT_NAMES[int(p)]


def test_known_positions(tb: Tablebase) -> None:
    # White flies c4-g7 closing a7-d7-g7 and takes a man: Black is left with 2
    r = tb.probe(_pos("a7 d7 c4", "e4 f4 d3"))
    assert (r.value, r.distance) == ("win", 1) and r.summary() == "white wins in 1"
    assert r.best is not None and str(r.best.turn).startswith("c4-g7x")
    # White's four men are boxed in: no legal turn, lost now (rules agree)
    boxed = _pos("a7 d7 g7 g4", "a4 d6 f4 g1")
    assert boxed.legal_turns() == [] and boxed.status().outcome == "black"
    r = tb.probe(boxed)
    assert (r.value, r.distance, r.turns) == ("loss", 0, ())
    # the same board with Black to move is the 4v4 sub-database seen from Black
    assert tb.lookup(_pos("a7 d7 g7 g4", "a4 d6 f4 g1", "b"))[0] in ("win", "loss", "draw")


def test_best_line_wins_in_exactly_the_distance(tb: Tablebase) -> None:
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 5:
        points = rng.permutation(24)
        pos = _pos(" ".join(_name(p) for p in points[:3]), " ".join(_name(p) for p in points[3:6]))
        first = tb.probe(pos)
        if first.value != "win" or (first.distance or 0) < 5:
            continue
        winner = pos.side
        for step in range(first.distance or 0, 0, -1):
            res = tb.probe(pos)
            assert res.distance == step and res.best is not None
            pos.play(res.best.turn)
            if not tb.covers(pos):
                break
        assert pos.status().winner == winner
        checked += 1


def test_bad_input_errors(tb: Tablebase, tmp_path: Path) -> None:
    placing = Position.parse("WWW" + "." * 6 + "BBB" + "." * 12 + " w 3 3")
    with pytest.raises(TablebaseRangeError, match="moving/flying phases only"):
        tb.probe(placing)
    assert not tb.covers(placing)
    with pytest.raises(TablebaseRangeError, match="flying"):
        tb.probe(_pos("a7 d7 c4 e4", "e5 f4 d3", variant=Variant.parse("standard,flying=no")))
    five = _pos("a7 d7 c4 e4 b2", "e5 f4 d3 g1")
    assert not tb.covers(five)
    with pytest.raises(MissingTablebaseError, match=r"5v4.*boardeval morris tablebase build --max-men 5"):
        tb.probe(five)
    with pytest.raises(MissingTablebaseError, match="boardeval morris tablebase build"):
        Tablebase.open(tmp_path / "nothing")
    assert MAX_MEN == 9  # every moving position of the game: a 9-men side needs a build, not another tool
    with pytest.raises(MissingTablebaseError, match=r"9v4.*build --max-men 9"):
        tb.probe(_pos("a7 d7 g7 c4 e4 b2 f2 b6 d6", "e5 f4 d3 g1"))
    with pytest.raises(ParamsError, match="--max-men"):
        build_tablebase(MAX_MEN + 1, tmp_path)
    assert issubclass(TablebaseError, BoardevalError)


def test_corrupt_file_is_reported(tb: Tablebase, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    for name in ("manifest.json", "3v3.npy"):
        (folder / name).write_bytes((tb.directory / name).read_bytes())
    data = bytearray((folder / "3v3.npy").read_bytes())
    data[-1] ^= 0x40
    (folder / "3v3.npy").write_bytes(bytes(data))
    with pytest.raises(TablebaseError, match="corrupt"):
        Tablebase.open(folder).probe(_pos("a7 d7 c4", "e4 f4 d3"))


def test_ctrl_c_keeps_finished_subdatabases(tb: Tablebase, tmp_path: Path) -> None:
    def progress(done: int, total: int, message: str) -> None:
        if message.startswith("4v3"):
            raise KeyboardInterrupt

    report = build_tablebase(4, tmp_path, progress=progress)
    assert report.interrupted and report.built == ["3v3"]
    partial = Tablebase.open(tmp_path)
    assert partial.subdatabases == [(3, 3)] and partial.max_men == 3
    pos = _pos("a7 d7 c4", "e4 f4 d3")
    assert partial.probe(pos) == tb.probe(pos)
    with pytest.raises(MissingTablebaseError, match="4v3"):
        partial.probe(_pos("a7 d7 c4 b2", "e4 f4 d3"))
    again = build_tablebase(3, tmp_path)
    assert again.skipped == ["3v3"] and again.built == []


def _k4_but_4v4(tb: Tablebase, folder: Path) -> None:
    """A copy of the K = 4 tables without 4v4 (not built yet) in ``folder``."""
    manifest = json.loads((tb.directory / "manifest.json").read_text())
    del manifest["subdatabases"]["4v4"]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    for name in ("3v3", "4v3", "3v4"):
        (folder / f"{name}.npy").write_bytes((tb.directory / f"{name}.npy").read_bytes())


def test_side_by_side_build_reports_cells_of_the_total(tb: Tablebase, tmp_path: Path) -> None:
    """With two workers, 5v3 + 3v5 and 4v4 (8 men each) are solved side by side; the progress counts cells
    (the unit of its total) and says which groups run while the workers are silent."""
    _k4_but_4v4(tb, tmp_path)
    calls: list[tuple[int, int, str]] = []

    def progress(done: int, total: int, message: str) -> None:
        calls.append((done, total, message))
        if done > 0:  # the batch of 8 men is stored: stop before 5v4 + 4v5 and 5v5
            raise KeyboardInterrupt

    report = build_tablebase(5, tmp_path, progress=progress, workers=2)
    assert report.interrupted and sorted(report.built) == ["3v5", "4v4", "5v3"]
    cells = {name: e["stored_slots"] for name, e in json.loads((tmp_path / "manifest.json").read_text())[
        "subdatabases"].items()}  # fmt: skip
    keys = [(4, 4), (5, 3), (3, 5), (5, 4), (4, 5), (5, 5)]
    total = sum(len(rows(a).masks) * comb(24 - a, b) for a, b in keys)
    assert calls[0] == (0, total, "5v3+3v5, 4v4 side by side: 0 of 2 finished")
    assert calls[-1] == (cells["4v4"] + cells["5v3"] + cells["3v5"], total, "5v3+3v5+4v4")
    assert all(done <= total for done, _, _ in calls)


def test_a_killed_side_by_side_build_keeps_its_finished_groups(tb: Tablebase, tmp_path: Path) -> None:
    """A pool worker's finished group leaves its entries beside its tables; a build killed before the parent
    recorded them (no Ctrl-C to catch) adopts them next time, when the checksums match, and rebuilds them
    when not."""
    from boardeval.morris.tablebase.build import _build_group_job

    _k4_but_4v4(tb, tmp_path)
    entries = _build_group_job(([(4, 4)], str(tmp_path)))  # what a worker does; the parent never records it
    assert "4v4" not in json.loads((tmp_path / "manifest.json").read_text())["subdatabases"]
    record = tmp_path / "4v4.finished.json"
    assert json.loads(record.read_text()) == entries

    args = ["tablebase", "build", "--max-men", "4", "--dir", str(tmp_path)]
    res = CliRunner().invoke(_tablebase_app(), args)
    assert res.exit_code == 0, res.output
    assert "recorded from a stopped build (finished, checksums match): 4v4" in " ".join(res.output.split())
    assert "nothing new" in res.output and not record.exists()
    assert json.loads((tmp_path / "manifest.json").read_text())["subdatabases"]["4v4"] == entries[0]
    assert Tablebase.open(tmp_path).probe(_pos("a7 d7 c4 b2", "e4 f4 d3 g1")) == tb.probe(
        _pos("a7 d7 c4 b2", "e4 f4 d3 g1")
    )

    # a record whose table changed since is not adopted: the group is built again
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["subdatabases"]["4v4"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    record.write_text(json.dumps([{**entries[0], "sha256": "0" * 64}]))
    report = build_tablebase(4, tmp_path)
    assert report.adopted == [] and report.built == ["4v4"] and not record.exists()


def _tablebase_app() -> typer.Typer:
    from boardeval.cli.morris_tablebase import register

    app = typer.Typer()
    register(app)
    return app


def test_cli_stats_probe_build(tb: Tablebase, tmp_path: Path) -> None:
    app = _tablebase_app()
    runner = CliRunner()
    res = runner.invoke(app, ["tablebase", "stats", "--dir", str(tb.directory), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [(s["mover_men"], s["opponent_men"]) for s in data["subdatabases"]] == KEYS
    assert_same_fields("morris tablebase stats", data)
    # every figure whole, in a pipe's 80 columns (two tables) and a wide terminal (one): was "12,113,…"
    from boardeval.cli.common import console

    saved = console._width
    try:
        for width, tables in ((80, 2), (200, 1)):
            console.width = width
            res = runner.invoke(app, ["tablebase", "stats", "--dir", str(tb.directory)])
            assert res.exit_code == 0 and "…" not in res.output, res.output
            assert res.output.count("sub-db ┃") == tables, res.output
            for s in data["subdatabases"]:
                for field in ("positions", "wins", "losses", "draws", "symmetry_classes"):
                    assert f"{s[field]:,}" in res.output, (width, field, s)
                assert f"{s['mover_men']}v{s['opponent_men']}" in res.output
    finally:
        console._width = saved
    text = _pos("a7 d7 c4", "e4 f4 d3").text()
    res = runner.invoke(app, ["tablebase", "probe", text, "--dir", str(tb.directory), "--json"])
    assert res.exit_code == 0, res.output
    probe = json.loads(res.output)
    assert_same_fields("morris tablebase probe", probe)
    assert (
        probe["value"] == "win" and probe["distance"] == 1 and probe["turns"][0]["turn"].startswith("c4-g7x")
    )
    res = runner.invoke(app, ["tablebase", "probe", text, "--dir", str(tb.directory)])
    assert res.exit_code == 0 and "white wins in 1" in res.output and "best line: c4-g7x" in res.output
    res = runner.invoke(app, ["tablebase", "build", "--max-men", "3", "--dir", str(tmp_path)])
    assert res.exit_code == 0 and "built 3v3" in res.output
    # packed at once for the compiled search (not by the first search, e.g. a web request)
    assert "packed for the search" in res.output and len(list(tmp_path.glob("packed-*.bin"))) == 1
    assert (tmp_path / "3v3.npy").read_bytes() == (tb.directory / "3v3.npy").read_bytes()
    # the CLI writes its --max-men range out (no numpy at registration): it must be the library's
    res = runner.invoke(app, ["tablebase", "build", "--max-men", str(MAX_MEN + 1), "--dir", str(tmp_path)])
    assert res.exit_code == 2 and "--max-men" in res.output and f"3..{MAX_MEN}" in res.output
    assert f"(3..{MAX_MEN};" in runner.invoke(app, ["tablebase", "build", "--help"]).output
    res = runner.invoke(app, ["tablebase", "probe", text.replace(" 0 0", " 3 3"), "--dir", str(tb.directory)])
    assert isinstance(res.exception, BoardevalError)


def test_build_order_puts_capture_targets_first() -> None:
    assert subdatabase_pairs(4) == [[(3, 3)], [(4, 3), (3, 4)], [(4, 4)]]
    seen: set[tuple[int, int]] = set()
    for group in subdatabase_pairs(5):
        for a, b in group:
            assert b - 1 < 3 or (b - 1, a) in seen
        seen.update(group)
    assert len(seen) == 9


@pytest.mark.parametrize("key", KEYS)
def test_lookup_many_agrees_with_single_lookups(tb: Tablebase, key: tuple[int, int]) -> None:
    a, b = key
    rng = np.random.default_rng(11)
    own, opp = [], []
    for _ in range(300):
        points = rng.permutation(24)
        own.append(sum(1 << int(p) for p in points[:a]))
        opp.append(sum(1 << int(p) for p in points[a : a + b]))
    many = tb.lookup_many(np.array(own), np.array(opp))
    for o, p, d in zip(own, opp, many, strict=True):
        value, distance = tb.lookup_sides(o, p)
        assert (value, distance) == (("draw", None) if d == -1 else ("win" if d % 2 else "loss", int(d)))
    with pytest.raises(TablebaseRangeError):
        tb.lookup_many(np.array(own[:2]), np.array(own[:2]))


def test_long_distances_are_stored_in_two_bytes() -> None:
    from boardeval.morris.tablebase.files import encode

    short, shift = encode(np.array([[-1, 0, 1, 63]], dtype=np.int16))
    assert short.dtype == np.uint8 and shift == 6
    assert short.tolist() == [[0, 2 << 6, (1 << 6) | 1, (1 << 6) | 63]]
    dist = np.array([[-1, 0, 1, 64, 167, 166]], dtype=np.int16)
    code, shift = encode(dist)
    assert code.dtype == np.uint16 and shift == 14
    value = code.astype(np.int32) >> shift
    assert value.tolist() == [[0, 2, 1, 2, 1, 2]]
    assert (code & ((1 << shift) - 1)).tolist() == [[0, 0, 1, 64, 167, 166]]


@pytest.mark.parametrize("cell_type", [np.int32, np.int64])
def test_capture_schedule_is_a_stable_sort_by_level(cell_type: Any) -> None:
    from boardeval.morris.tablebase.build import capture_schedule
    from boardeval.morris.tablebase.retrograde import level_counts

    rng = np.random.default_rng(5)
    levels = rng.integers(-1, 40, size=5_000).astype(np.int16)
    levels[rng.random(5_000) < 0.5] = 0  # most cells schedule nothing
    cells, bounds = capture_schedule(levels, cell_type)
    assert cells.dtype == cell_type and len(bounds) == int(levels.max()) + 2
    idx = np.flatnonzero(levels > 0)
    expected = idx[np.argsort(levels[idx], kind="stable")]  # the solver's former schedule
    assert cells.tolist() == expected.tolist()
    for v in range(1, len(bounds) - 1):
        assert (levels[cells[bounds[v] : bounds[v + 1]]] == v).all()
    assert level_counts(np.array([0, -1], dtype=np.int16)).tolist() == [0]
    empty_cells, empty_bounds = capture_schedule(np.array([0, -1], dtype=np.int16), cell_type)
    assert empty_cells.size == 0 and empty_bounds.tolist() == [0, 0]


def test_the_packed_index_hands_its_rows_to_the_python_probes(
    tb: Tablebase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Python probes (the root, the time manager's safe-turn check) read the reduced rows from the
    packed index instead of computing them inside a move (about 1 s for 7 men)."""
    from boardeval.morris.tablebase import index as index_module
    from boardeval.morris.tablebase.packed import prime_rows

    packed_index = tb.packed()[0]
    monkeypatch.setattr(index_module, "_ROW_LISTS", {})
    assert prime_rows(packed_index) == [3, 4]
    for a in (3, 4):
        r = rows(a)
        lists = (r.row_of_rank.tolist(), r.sym_of_rank.tolist(), r.masks.tolist())
        assert index_module._ROW_LISTS[a] == lists

    def refuse(a: int) -> None:
        raise AssertionError(f"rows({a}) computed again")

    monkeypatch.setattr(index_module, "rows", refuse)
    pos = _pos("a1 d1 g1 b2", "a7 d7 g7")
    assert tb.probe(pos).value in ("win", "loss", "draw")
