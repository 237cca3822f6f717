"""Search: hand-verified forced mills and wins, agreement with plain alpha-beta, limits, PV, seeded play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardeval.core import ParamsError
from boardeval.morris._evaluate import WIN_SCORE
from boardeval.morris._search.compiled.options import FULL_WIDTH
from boardeval.morris._search.plain import alphabeta, random_position, random_turn
from boardeval.morris._search.searcher import Searcher, search, top_moves
from boardeval.morris.board import point_index
from boardeval.morris.rules import OPENSPIEL, WHITE, Outcome, Position, Termination, Turn
from tests.morris.helpers import make


def test_takes_a_mill_when_offered() -> None:
    """White a7 d7 with g7 empty, placing: g7 closes the top mill and removes a man (verified on the diagram).

    Black's men b6 d6 are an open line (gap f6), so the best removal breaks it: b6 or d6.
    """
    pos = make("a7 d7", "b6 d6", side="w", hands=(7, 7))
    for depth in (1, 2, 3):
        res = search(pos, depth)
        assert res.move is not None
        assert res.move.dst == point_index("g7")
        assert res.move.remove in (point_index("b6"), point_index("d6"))


def test_win_in_one_against_three_men() -> None:
    """Black has 3 men (flying). White g4-g7 closes a7-d7-g7; the removal leaves Black 2 men: White wins.

    Score = WIN_SCORE - 1 (one turn to the end), found at every depth.
    """
    pos = make("a7 d7 g4 b2 f2", "c5 e5 c3", side="w")
    for depth in (1, 2, 3):
        res = search(pos, depth)
        assert res.score == WIN_SCORE - 1
        assert res.move is not None and str(res.move).startswith("g4-g7x")
        assert alphabeta(pos, depth) == WIN_SCORE - 1


def test_win_by_blockade() -> None:
    """Black a7 d7 g7 a1 (4 men, moving) are hemmed in by White a4 d6 g4 b4 f4 except a1, whose free
    neighbour is d1. White d2-d1 blocks it: Black has no legal move and loses. Score WIN_SCORE - 1."""
    pos = make("a4 d6 g4 b4 f4 d2", "a7 d7 g7 a1", side="w")
    res = search(pos, 2)
    assert str(res.move) == "d2-d1"
    assert res.score == WIN_SCORE - 1
    pos.push(Turn.parse("d2-d1"))
    assert pos.outcome() == Outcome(Termination.NO_LEGAL_MOVE, WHITE)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_forced_win_in_three_by_a_fork(engine: str) -> None:
    """White a7 d7 a1 d1 f4 against Black b6 e3 c4 (3 men, flying; no two black men share a line, so
    Black never closes a mill in one turn). No white turn closes a mill now (g7's and g1's only outside
    neighbour g4 is empty; a4's is b4, empty, with no white man next to it). f4-g4 threatens both g7 and
    g1; Black can fill only one of them; White closes the other and Black is left with 2 men.
    Hence a forced win in 3 turns: score WIN_SCORE - 3 at depth 3, and depth 1 sees no win.
    """
    pos = make("a7 d7 a1 d1 f4", "b6 e3 c4", side="w")
    assert search(pos, 1, engine=engine).score < WIN_SCORE - 100
    res = search(pos, 3, engine=engine)
    assert res.score == WIN_SCORE - 3
    assert str(res.move) == "f4-g4"
    assert alphabeta(pos, 3) == WIN_SCORE - 3
    assert len(res.pv) == 3 and str(res.pv[0]) == "f4-g4"


def test_losing_side_sees_the_loss() -> None:
    """The same fork from Black's side: after f4-g4 Black (to move) loses in 2 turns whatever it does."""
    pos = make("a7 d7 a1 d1 g4", "b6 e3 c4", side="b")
    res = search(pos, 2)
    assert res.score == -(WIN_SCORE - 2)


@pytest.mark.parametrize("engine", ["python", "full-width"])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_tt_and_iterative_deepening_agree_with_plain_alpha_beta(depth: int, engine: str) -> None:
    """Same score as table-free, order-free alpha-beta at the same depth (exact-depth table cutoffs): the
    Python engine, and the compiled one with its full-width options.

    OpenSpiel variant (no repetition rule, so values are path independent).
    """
    count = {1: 16, 2: 12, 3: 6, 4: 3}[depth]
    for i in range(count):
        pos = random_position(100 + i, (i * 37) % 90, OPENSPIEL)
        if pos.is_over():
            continue
        searcher = Searcher(engine="python") if engine == "python" else Searcher(options=FULL_WIDTH)
        res = searcher.search(pos, depth)
        assert res.score == pytest.approx(alphabeta(pos, depth), abs=1e-9), pos.text()
        # searching again with the filled table gives the same score
        assert searcher.search(pos, depth).score == pytest.approx(res.score, abs=1e-9)


def test_pv_is_legal_and_starts_with_the_move() -> None:
    pos = random_position(5, 30)
    res = search(pos, 3)
    assert res.pv[0] == res.move
    assert res.nodes > 0 and res.depth == 3
    q = pos.copy()
    for turn in res.pv:
        q.play(turn)  # checked: raises if illegal


def test_time_limit_returns_a_legal_move() -> None:
    pos = Position.start()
    res = search(pos, time_limit=0.05)
    assert res.move in pos.legal_turns()
    assert res.depth >= 1


def test_position_is_unchanged_by_search() -> None:
    pos = random_position(9, 40)
    before = (pos.text(), pos.zobrist, pos.turns)
    search(pos, 3)
    top_moves(pos, 3, 2)
    assert (pos.text(), pos.zobrist, pos.turns) == before


def test_top_moves_are_sorted_and_match_search() -> None:
    pos = random_position(21, 25)
    tops = top_moves(pos, 4, 2)
    assert len(tops) == min(4, len(pos.legal_turns()))
    scores = [m.score for m in tops]
    assert scores == sorted(scores, reverse=True)
    assert tops[0].score == pytest.approx(search(pos, 2).score)


def test_finished_game_has_no_move() -> None:
    pos = make("a7 d7 g7 a4", "b6 d6", side="b")
    res = search(pos, 3)
    assert res.move is None and res.score == -WIN_SCORE


def test_bad_limits_raise() -> None:
    pos = Position.start()
    for bad in (0, -1, 1000):
        with pytest.raises(ParamsError, match="depth"):
            search(pos, bad)
    with pytest.raises(ParamsError, match="time limit"):
        search(pos, time_limit=-1.0)
    with pytest.raises(ParamsError, match="moves"):
        top_moves(pos, 0, 2)


def test_seeded_randomness_is_reproducible() -> None:
    assert random_position(42, 50).text() == random_position(42, 50).text()
    a = [str(random_turn(Position.start(), np.random.default_rng(3))) for _ in range(5)]
    b = [str(random_turn(Position.start(), np.random.default_rng(3))) for _ in range(5)]
    assert a == b
    # the AI's tie-break among equal root moves follows the seed
    moves = {str(search(Position.start(), 2, rng=s).move) for s in range(8)}
    assert len(moves) > 1
    assert str(search(Position.start(), 2, rng=5).move) == str(search(Position.start(), 2, rng=5).move)


def test_no_stale_table_entry_hides_a_repetition_draw(data_dir: Path) -> None:
    """Regression: a recorded AI (Black, depth 2) vs random game that ended in threefold repetition.

    At the last decision Black is far ahead; d2-d1 lets White repeat the position a third time (a draw,
    score 0), while d2-b2 keeps +7.9 after White's reply. An AI that reused its table from earlier moves
    played d2-d1, trusting a value computed before the position had repeated.
    """
    moves = (data_dir / "morris_repetition_game.txt").read_text().split()
    searcher = Searcher()
    for back in range(8, 0, -2):  # Black's last four decisions, one searcher (as in a match)
        pos = Position.from_moves(moves[:-back])
        res = searcher.search(pos, 2)
    assert pos.repetitions == 2
    assert str(res.move) != "d2-d1"
    assert res.score > 5
    pos.push(Turn.parse("d2-d1"))
    pos.push(Turn.parse("f4-f2"))
    assert pos.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)


def test_progress_and_ctrl_c_return_the_last_full_depth() -> None:
    """Progress is reported per depth; Ctrl-C (here raised from the callback) keeps the last full depth."""
    seen: list[int] = []

    def progress(done: int, total: int, message: str) -> None:
        seen.append(done)
        assert message.startswith(f"depth {done}:")
        if done == 2:
            raise KeyboardInterrupt

    res = search(Position.start(), 5, progress=progress)
    assert seen == [1, 2]
    assert res.interrupted and res.depth == 2 and res.move is not None


def test_compiled_best_move_equals_python_where_the_best_score_is_unique() -> None:
    """Issue 12: at equal fixed depth the compiled engine (full-width options: exact-depth table, no
    reductions) picks the Python reference's move on sampled positions whose best score is unique."""
    checked = 0
    for i in range(60):
        pos = random_position(500 + i, (i * 29) % 100)
        if pos.is_over():
            continue
        tops = top_moves(pos, 2, 3, engine="python")
        if len(tops) < 2 or tops[0].score - tops[1].score < 1e-6:
            continue  # a tie: either move is right
        got = Searcher(options=FULL_WIDTH).search(pos, 3)
        assert got.move == tops[0].move, pos.text()
        assert got.score == pytest.approx(tops[0].score, abs=1e-9)
        checked += 1
    assert checked >= 20


def test_compiled_engine_is_the_default_and_deterministic() -> None:
    """The default Searcher runs the compiled search (deeper than the Python one in the same nodes); the
    same position, depth and seed give the same answer in a fresh searcher."""
    pos = Position.from_moves("d2 f4 b4 d6")
    assert Searcher().engine == "compiled"
    a = Searcher().search(pos, 7, rng=11)
    b = Searcher().search(pos, 7, rng=11)
    assert (a.move, a.score, a.pv, a.nodes) == (b.move, b.score, b.pv, b.nodes)
    assert a.depth == 7 and a.pv[0] == a.move
    # a custom scorer (no coefficient table) falls back to the Python engine
    assert Searcher(_Material()).engine == "python"
    with pytest.raises(ParamsError, match="unknown search engine 'fast'"):
        Searcher(engine="fast")


class _Material:
    """A scorer that is not an Evaluator: men on board and in hand, side to move's view."""

    def score(self, pos: Position) -> float:
        me = pos.side
        return float(pos.on_board(me) + pos.hand[me] - pos.on_board(1 - me) - pos.hand[1 - me])


def test_compiled_top_moves_give_each_candidate_its_line() -> None:
    """The why-panel's candidates on the compiled engine: scores best first, each line legal and starting
    with its move, the best candidate's score the root search's score at the same depth (full width)."""
    pos = random_position(21, 25)
    searcher = Searcher(options=FULL_WIDTH)
    tops = searcher.top_moves(pos, 4, 3)
    assert [m.score for m in tops] == sorted((m.score for m in tops), reverse=True)
    assert tops[0].score == pytest.approx(searcher.search(pos, 3).score, abs=1e-9)
    for ms in tops:
        q = pos.copy()
        assert ms.pv[0] == ms.move
        for turn in ms.pv:
            q.play(turn)


def test_screened_candidates_are_the_exhaustive_top_moves() -> None:
    """Issue 25 section 3: after the AI's search, the compiled top_moves searches a turn exactly only when
    a null-window search says it beats the n-th best so far. With full-width options (exact tree values)
    that screening must give what scoring every turn gives: the Python reference's top n, same scores,
    same order (ties keep the earlier turn, as the stable sort does)."""
    checked = 0
    for i in range(24):
        pos = random_position(900 + i, (i * 37) % 90)
        if pos.is_over() or len(pos.legal_turns()) < 4:
            continue
        searcher = Searcher(options=FULL_WIDTH)
        searcher.search(pos, 3)  # the AI's own search, then its why-panel (fresh=False screens)
        got = searcher.top_moves(pos, 3, 3, fresh=False)
        want = top_moves(pos, 4, 3, engine="python")
        assert [m.score for m in got] == pytest.approx([m.score for m in want[:3]], abs=1e-9), pos.text()
        if all(want[k].score - want[k + 1].score > 1e-6 for k in range(3)):  # no tie: the order is fixed
            assert [m.move for m in got] == [m.move for m in want[:3]], pos.text()
        checked += 1
    assert checked >= 12


@pytest.mark.slow
def test_compiled_search_takes_exact_scores_of_captures_into_the_tablebase(tablebase_3v3: Path) -> None:
    """With a 3v3 tablebase, Black (3 men, flying) to move against 4 white men is not covered, but its
    captures lead into 3v3: those root turns get the tablebase's exact scores. Whenever a capture wins by
    the tablebase, the AI finds a win (and a covered turn it plays is the best covered one)."""
    from boardeval.morris.tablebase import Tablebase

    tb = Tablebase.open(tablebase_3v3)
    gen = np.random.default_rng(4)
    wins = checked = 0
    while checked < 50:
        pts = gen.permutation(24)
        white = sum(1 << int(p) for p in pts[:4])
        black = sum(1 << int(p) for p in pts[4:7])
        text = "".join("W" if white >> i & 1 else "B" if black >> i & 1 else "." for i in range(24))
        pos = Position.parse(text + " b 0 0")
        captures = [t for t in pos.legal_turns() if t.remove is not None]
        if pos.outcome() is not None or not captures:
            continue
        exact = {}
        for t in captures:
            child = pos.copy()
            child.push(t)
            if child.outcome() is None:
                value, distance = tb.lookup(child)
                exact[t] = (value, distance)
        res = Searcher(tablebase=tb).search(pos, 3)
        checked += 1
        if any(v == "loss" for v, _d in exact.values()):  # White, to move after the capture, loses
            wins += 1
            assert res.score > WIN_SCORE - 1000, text
        if res.move in exact:
            best = min((d for v, d in exact.values() if v == "loss"), default=None)
            if best is not None:
                assert exact[res.move] == ("loss", best)
    assert wins >= 3


def test_node_limited_search_goes_as_deep_as_its_nodes() -> None:
    """A node budget (matches on a busy machine, issue 25): the same result at any speed, deeper with more."""
    from boardeval.morris import Position, Searcher

    pos = Position.from_moves("d2 f4 b4")
    small = Searcher().search(pos, node_limit=5_000)
    again = Searcher().search(pos, node_limit=5_000)
    large = Searcher().search(pos, node_limit=200_000)
    assert (small.move, small.depth, small.nodes) == (again.move, again.depth, again.nodes)
    assert small.nodes <= 5_000 + 1_100 and large.depth > small.depth >= 2
