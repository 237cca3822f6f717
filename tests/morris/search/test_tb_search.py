"""Perfect endgames (issue 13 section 2): the search probes the tablebase, plays its best turn, says it.

A session-scoped tablebase holds 3v3, 4v3 and 3v4 (the build is stopped after that pair, the documented
Ctrl-C path that keeps finished sub-databases). Sampled covered positions are played out against the
tablebase's own best defence: the AI must win every won one in exactly the tablebase's distance and never
lose a drawn one. The >= 1,000 position run is ``benchmarks/morris_strength.py --tb-check``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from boardeval.morris import (
    WIN_SCORE,
    AlphaBetaPlayer,
    PlayerSpec,
    Position,
    Searcher,
    play_game,
    random_position,
    why_panel,
)
from boardeval.morris.tablebase import Tablebase, build_tablebase
from boardeval.morris.tuning.data import play_out, sample_covered
from tests.run_cache import made_once


def _build_to_4v3(folder: Path) -> dict[str, Any]:
    def stop_after_4v3(done: int, total: int, msg: str) -> None:
        if "4v3+3v4 stored" in msg:
            raise KeyboardInterrupt

    report = build_tablebase(4, folder, progress=stop_after_4v3)
    return {"built": report.built, "interrupted": report.interrupted}


@pytest.fixture(scope="session")
def tb_dir() -> Path:
    """3v3, 4v3 and 3v4 (a K = 4 build stopped after 4v3), built once per run (tests/run_cache.py)."""
    folder, note = made_once("tablebase-to-4v3", _build_to_4v3)
    assert note["interrupted"] and note["built"] == ["3v3", "4v3", "3v4"]
    return folder


@pytest.fixture(scope="session")
def tb(tb_dir: Path) -> Tablebase:
    return Tablebase.open(tb_dir)


@pytest.mark.parametrize("key", [(3, 3), (4, 3), (3, 4)])
def test_ai_plays_covered_endgames_perfectly(tb: Tablebase, key: tuple[int, int]) -> None:
    positions = sample_covered(tb, key, 12, seed=7, decided_share=0.75)
    assert len(positions) == 12
    values = {tb.lookup(p)[0] for p in positions}
    assert "win" in values or "loss" in values
    ai = AlphaBetaPlayer(depth=2, tablebase=tb)
    for i, pos in enumerate(positions):
        value, distance = tb.lookup(pos)
        ai_side = pos.side
        outcome, turns = play_out(pos, ai, tb, seed=i)
        if value == "win":  # the AI to move wins, and as fast as the tablebase says
            assert outcome == ai_side and turns == distance, (pos.text(), outcome, turns, distance)
        elif value == "draw":
            assert outcome in (None, ai_side), pos.text()
        # a lost position may still be lost: best defence cannot be beaten there


def test_ai_never_loses_a_drawn_position_as_second_player(tb: Tablebase) -> None:
    # the defender's side: the tablebase moves first from a won/drawn position of its own, the AI answers
    positions = sample_covered(tb, (4, 3), 8, seed=11, decided_share=0.5)
    ai = AlphaBetaPlayer(depth=1, tablebase=tb)
    for i, pos in enumerate(positions):
        value, _ = tb.lookup(pos)
        outcome, _ = play_out(pos, ai, tb, seed=i, ai_first=False)
        if value == "draw":
            assert outcome is None, pos.text()
        if value == "loss":  # the tablebase side (to move) loses: the AI answers with the win
            assert outcome == 1 - pos.side, pos.text()


def test_covered_root_plays_the_tablebase_best_turn(tb: Tablebase) -> None:
    pos = Position.parse("WW.........WBB..B....... w 0 0")
    result = Searcher(tablebase=tb).search(pos, depth=3)
    probe = tb.probe(pos)
    assert probe.value == "win" and probe.distance == 1
    assert result.tablebase == "white wins in 1"
    assert result.score == WIN_SCORE - 1
    best = [t.turn for t in probe.turns if (t.value, t.distance) == ("win", 1)]
    assert result.move in best


def test_tree_probes_give_exact_mate_distance_scores(tb: Tablebase) -> None:
    for pos in sample_covered(tb, (3, 3), 5, seed=3, decided_share=1.0):
        probe = tb.probe(pos)
        scores = {str(m.move): m.score for m in Searcher(tablebase=tb).top_moves(pos, n=100, depth=2)}
        for t in probe.turns:
            expected = 0.0 if t.value == "draw" else WIN_SCORE - (t.distance or 0)
            if t.value == "loss":
                expected = -expected
            assert scores[str(t.turn)] == pytest.approx(expected), (pos.text(), str(t.turn))


def _uncovered_with_capture(seed: int) -> Position:
    """A random 4v4 position (not built here) whose side to move can close a mill."""
    rng = np.random.default_rng(seed)
    while True:
        pts = rng.permutation(24)
        white = sum(1 << int(p) for p in pts[:4])
        black = sum(1 << int(p) for p in pts[4:8])
        pos = Position([white, black], (0, 0), 0, validate=False)
        if pos.outcome() is None and any(t.remove is not None for t in pos.legal_turns()):
            return pos


def test_tree_probe_from_an_uncovered_root(tb: Tablebase) -> None:
    # 4v4 is not built: the root is searched, and its captures lead into 3v4 (covered), scored exactly
    pos = _uncovered_with_capture(2)
    searcher = Searcher(tablebase=tb)
    assert not searcher.tb_covers(pos)
    scores = {str(m.move): m.score for m in searcher.top_moves(pos, n=200, depth=1)}
    assert searcher.tb_hits > 0
    for turn in pos.legal_turns():
        if turn.remove is None:
            continue
        pos.push(turn)
        value, distance = tb.lookup(pos)  # black to move, 3 against 4
        pos.pop()
        expected = 0.0 if value == "draw" else WIN_SCORE - (1 + (distance or 0))
        if value == "win":
            expected = -expected
        assert scores[str(turn)] == pytest.approx(expected)
    result = Searcher(tablebase=tb).search(pos, depth=2)
    assert result.tablebase is None and result.move is not None


def test_turn_limit_turns_a_long_win_into_a_draw(tb: Tablebase) -> None:
    pos = next(
        p for p in sample_covered(tb, (3, 3), 60, seed=5, decided_share=1.0) if (tb.lookup(p)[1] or 0) > 5
    )
    value, distance = tb.lookup(pos)
    assert distance is not None
    early = Searcher(tablebase=tb).search(pos, depth=1)
    assert abs(early.score) == WIN_SCORE - distance
    late = Position(list(pos.men), (0, 0), pos.side, turns=200 - distance + 1, validate=False)
    # the decided end lies beyond the 200-turn limit: every turn scores as the draw the limit makes of it
    scores = [m.score for m in Searcher(tablebase=tb).top_moves(late, n=100, depth=1)]
    assert max(scores) < WIN_SCORE - 1_000 and value in ("win", "loss")


def test_why_panel_says_the_tablebase_verdict(tb: Tablebase) -> None:
    pos = Position.parse("WW.........WBB..B....... w 0 0")
    panel = why_panel(pos, 3, 2, tablebase=tb)
    assert panel["tablebase"]["text"] == "tablebase: White wins in 1"
    assert panel["explanation"][0] == "tablebase: White wins in 1."
    assert panel["candidates"][0]["tablebase"] == "win in 1"
    assert "material" in panel["features"]["white"]  # raw features beside it
    plain = why_panel(pos, 3, 2)
    assert plain["tablebase"] is None
    json.dumps(panel)


def test_match_spec_with_tablebase(tb_dir: Path) -> None:
    spec = PlayerSpec.parse(f"ai:depth=1,tablebase={tb_dir}")
    assert spec.tablebase == str(tb_dir) and str(spec).endswith(f"tablebase={tb_dir}")
    rec = play_game(spec, "random", 3)
    assert rec.outcome in ("white", "black", "draw")


def test_match_spec_with_missing_tablebase(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="tablebase build"):
        PlayerSpec.parse(f"ai:depth=1,tablebase={tmp_path}")


def _cli() -> typer.Typer:
    from boardeval.cli.main import app

    return app


def test_cli_best_with_tablebase(tb_dir: Path) -> None:
    res = CliRunner().invoke(
        _cli(), ["morris", "best", "WW.........WBB..B....... w 0 0", "--tablebase", str(tb_dir), "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["tablebase"] == "white wins in 1"
    assert data["why"]["tablebase"]["text"] == "tablebase: White wins in 1"


def test_cli_best_with_missing_tablebase(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        _cli(), ["morris", "best", "WW.........WBB..B....... w 0 0", "--tablebase", str(tmp_path)]
    )
    assert res.exit_code == 2
    assert "tablebase build" in res.output


def test_sampler_is_seeded(tb: Tablebase) -> None:
    a = [p.text() for p in sample_covered(tb, (4, 3), 5, seed=1)]
    b = [p.text() for p in sample_covered(tb, (4, 3), 5, seed=1)]
    assert a == b
    assert all(np.isfinite(len(t)) for t in a)


def test_cli_match_and_play_take_the_tablebase(tb_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import boardeval.morris

    read_ahead: list[Path] = []
    monkeypatch.setattr(boardeval.morris, "prefetch_tablebase", read_ahead.append)
    app = _cli()
    res = CliRunner().invoke(
        app,
        ["morris", "match", "--white", "ai:depth=1", "--black", "random", "--games", "1", "--tablebase",
         str(tb_dir), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["player_a"] == f"ai:depth=1,tablebase={tb_dir}" and data["player_b"] == "random"
    none = CliRunner().invoke(
        app, ["morris", "match", "--white", "ai:depth=1", "--games", "1", "--tablebase", "none", "--json"]
    )
    assert none.exit_code == 0 and json.loads(none.output)["player_a"] == "ai:depth=1"
    play = CliRunner().invoke(
        app, ["morris", "play", "--depth", "1", "--tablebase", str(tb_dir)], input="quit\n"
    )
    assert play.exit_code == 0 and "bye" in play.output
    assert read_ahead == [tb_dir]  # `play` has the kernel read the tables ahead (`match` does not)


# ---- issue 25: the compiled search probes the tablebase at every covered node ---------------------------


def test_packed_tables_agree_with_the_tablebase_lookup(tb_dir: Path) -> None:
    """The compiled probe over the packed arrays gives every sampled position of every built sub-database
    the tablebase's own value and distance; a second open maps the packed file written by the first."""
    from boardeval.morris._search.compiled.kernels import kernels
    from boardeval.morris._search.compiled.tbprobe import TB_DRAW, TB_NONE

    first = Tablebase.open(tb_dir)
    index, data = first.packed()
    packed = list(tb_dir.glob("packed-*.bin"))
    assert len(packed) == 1 and packed[0].stat().st_size == data.size
    again = Tablebase.open(tb_dir)
    index2, data2 = again.packed()
    assert np.array_equal(index, index2) and np.array_equal(data, data2)
    probe = kernels().tb_probe
    rng = np.random.default_rng(25)
    decided = 0
    for a, b in first.subdatabases:
        for pos in sample_covered(first, (a, b), 40, seed=a * 10 + b, decided_share=0.5):
            s = pos.side
            own, opp = pos.men[s], pos.men[s ^ 1]
            value, distance = first.lookup_sides(own, opp)
            got = probe(own, opp, index2, data2)
            assert got == (TB_DRAW if value == "draw" else distance), (pos.text(), value, distance, got)
            decided += value != "draw"
        pts = rng.permutation(24)
        own = sum(1 << int(p) for p in pts[:a])
        opp = sum(1 << int(p) for p in pts[a : a + b])
        assert probe(own, opp, index, data) == (
            TB_DRAW if first.lookup_sides(own, opp)[0] == "draw" else first.lookup_sides(own, opp)[1]
        )
    assert decided > 20
    assert probe(15, 15 << 4, index, data) == TB_NONE  # 4v4 is not built here
    # the views the tablebase now probes through are the packed data's (one copy in memory)
    assert again.lookup_sides(7, 7 << 8) == first.lookup_sides(7, 7 << 8)


def test_a_folder_that_cannot_be_written_packs_in_memory(
    tb_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The packed file is written one table at a time; where no file can be written, the same bytes are
    packed in memory and nothing is left in the folder."""
    import boardeval.morris.tablebase.packed as packed_module

    _index, on_disk = Tablebase.open(tb_dir).packed()
    folder = tmp_path / "read-only"
    folder.mkdir()
    for name in ("manifest.json", "3v3.npy", "4v3.npy", "3v4.npy"):
        (folder / name).write_bytes((tb_dir / name).read_bytes())

    def no_disk(path: Path, data: Any) -> None:
        raise OSError(f"read-only: {path}")

    monkeypatch.setattr(packed_module, "write_atomic", no_disk)
    index, in_memory = Tablebase.open(folder).packed()
    assert np.array_equal(in_memory, on_disk) and in_memory.size > 100_000
    assert np.array_equal(index, _index)
    assert not list(folder.glob("packed-*")) and not list(folder.glob("*.tmp"))


def test_compiled_search_probes_inside_the_tree(tb: Tablebase) -> None:
    """From an uncovered root (4v4 is not built) the compiled search reaches covered nodes below it: it
    uses their exact values, and every capture into 3v4 scores what the tablebase says. With the probes
    off (the search before issue 25) the root's capture turns still score exactly, from the root."""
    from boardeval.morris._search.compiled.options import EngineOptions

    for seed in (2, 3, 4):
        pos = _uncovered_with_capture(seed)
        inside = Searcher(tablebase=tb)
        res = inside.search(pos, depth=3)
        assert inside.tb_hits > 0 and res.move is not None
        before = Searcher(tablebase=tb, options=EngineOptions(tb_probe=False))
        res_before = before.search(pos, depth=3)
        # a decided root score is the same either way (both exact); the tree probes also reach deeper nodes
        if abs(res_before.score) > WIN_SCORE - 1_000:
            assert res.score >= res_before.score
        for turn in pos.legal_turns():
            if turn.remove is None:
                continue
            pos.push(turn)
            value, distance = tb.lookup(pos)
            child = inside.compiled().search(pos, depth=2)  # a covered root, searched by the engine itself
            pos.pop()
            # every turn of the child leads to a probed node (or ends the game): its score is exact
            want = 0.0 if value == "draw" else (WIN_SCORE - (distance or 0)) * (1 if value == "win" else -1)
            assert child.score == pytest.approx(want), (pos.text(), str(turn), value, distance)


def test_exact_placing_searches_every_line_to_the_last_placement(tb: Tablebase) -> None:
    """With tables of every moving position (``full``), a search as deep as the placements left has no null
    move and no reduction (the tree of plain alpha-beta: the same score), and without them the option is
    off (the default search's tree, node for node)."""
    from dataclasses import replace

    from boardeval.morris._search.compiled.options import EngineOptions

    def run(pos: Position, options: EngineOptions, full: bool) -> tuple[float, int]:
        engine = Searcher(tablebase=tb, options=options).compiled()
        assert not engine.full_tables  # the test tables hold 3v3, 4v3 and 3v4 only
        engine.set_tablebase(tb.packed(), full=full)
        result = engine.search(pos, depth=18 - pos.turns)
        return result.score, result.nodes

    on, off = EngineOptions(), EngineOptions(exact_placing=0)
    plain = replace(off, lmr=False, null_move=False)
    pruned = 0
    for seed in range(4):
        pos = random_position(seed, 12)  # 12 men placed: no game ends in placing
        exact, default = run(pos, on, True), run(pos, off, True)
        assert exact[0] == pytest.approx(run(pos, plain, True)[0]), pos.text()
        assert run(pos, on, False) == default, pos.text()
        pruned += default[1] < exact[1]
    assert pruned >= 3  # the pruning the option switches off is there without it


def test_the_searcher_turns_exact_placing_on_with_tables_of_every_moving_position(tb: Tablebase) -> None:
    """``Searcher`` tells the engine its tables are full exactly when ``max_men`` is 9 (K <= 9)."""

    class Full:
        """The test tables, claiming every sub-database up to 9 men a side (only ``max_men`` differs)."""

        def __init__(self, max_men: int) -> None:
            self.max_men = max_men

        def __getattr__(self, name: str) -> Any:
            return getattr(tb, name)

    assert Searcher(tablebase=Full(9)).compiled().full_tables  # type: ignore[arg-type]
    assert not Searcher(tablebase=Full(8)).compiled().full_tables  # type: ignore[arg-type]
    assert not Searcher(tablebase=tb).compiled().full_tables
