"""Rules engine: notation, position text, apply/undo, Zobrist, status reasons, variant options."""

from __future__ import annotations

import pickle
import random
import re

import pytest

from boardeval.core import MorrisError
from boardeval.morris.board import FULL_MASK, POINT_NAMES, point_index
from boardeval.morris.rules import (
    BLACK,
    OPENSPIEL,
    STANDARD,
    WHITE,
    IllegalMoveError,
    NotationError,
    Outcome,
    Position,
    PositionError,
    Termination,
    Turn,
    Variant,
    VariantError,
    make_turn,
    zobrist_of,
)
from tests.morris.helpers import board, random_walk

# ---------------------------------------------------------------------------------------------- notation


def test_turn_text_forms() -> None:
    assert Turn.parse("d2") == Turn(None, 19)
    assert Turn.parse("a1-a4") == Turn(21, 9)
    assert Turn.parse("d2xg7") == Turn(None, 19, 2)
    assert Turn.parse("A1-A4xD7") == Turn(21, 9, 1)  # upper case accepted on purpose; no padding
    assert str(Turn(21, 9, 1)) == "a1-a4xd7"
    assert Turn.parse("d2") is make_turn(None, 19)
    assert hash(Turn(None, 19, 2)) == hash(Turn.parse("d2xg7"))
    assert Turn.parse("d2").is_placement and not Turn.parse("a1-a4").is_placement


def test_notation_round_trips_on_all_turns_of_random_positions() -> None:
    seen = set()
    for seed in range(30):
        for pos in random_walk(seed)[::3]:
            for turn in pos.legal_turns():
                assert Turn.parse(str(turn)) == turn
                seen.add(turn.key)
    assert len(seen) > 1000


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "cannot read turn"),
        ("d4", "unknown point 'd4'"),
        ("a1a4", "cannot read turn"),
        ("a1--a4", "cannot read turn"),
        ("a1-a4x", "cannot read turn"),
        ("h1", "cannot read turn"),
        ("a1-a1", "must change point"),
        ("d2xd2", "own points"),
        ("a1-a4xa1", "own points"),
    ],
)
def test_bad_turn_text(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        Turn.parse(text)


def test_turn_rejects_bad_indices() -> None:
    with pytest.raises(NotationError, match=r"0\.\.23"):
        make_turn(None, 30)
    with pytest.raises(NotationError, match="must change point"):
        make_turn(3, 3)
    assert make_turn(0, 1, 2) is make_turn(0, 1, 2) == Turn(0, 1, 2)
    with pytest.raises(NotationError, match=r"0\.\.23"):
        Turn(None, 24)
    with pytest.raises(NotationError, match=r"0\.\.23"):
        Turn(-1, 3)


# ----------------------------------------------------------------------------------------- position text


def test_start_position() -> None:
    pos = Position.start()
    assert pos.text() == "........................ w 9 9"
    assert pos.side == WHITE and pos.hand == [9, 9] and pos.turns == 0 and pos.men == [0, 0]
    assert len(pos.legal_turns()) == 24 and pos.phase() == "placing"
    assert pos.empty == FULL_MASK


def test_text_round_trips_on_random_positions() -> None:
    for seed in range(20):
        for pos in random_walk(seed):
            again = Position.parse(pos.text(), pos.variant, turns=pos.turns)
            assert again.text() == pos.text()
            assert again.zobrist == pos.zobrist
            assert set(again.legal_turns()) == set(pos.legal_turns())


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "expected 4 fields"),
        ("........................ w 9", "expected 4 fields"),
        ("....................... w 9 9", "24 characters"),
        ("......................... w 9 9", "24 characters"),
        (".......................X w 9 9", "unknown board characters 'X'"),
        ("........................ x 9 9", "side to move must be 'w' or 'b'"),
        ("........................ w 9 a", "Black's men in hand: 'a' is not an integer"),
        ("........................ w -1 9", "White's men in hand: '-1' is out of range 0..9"),
        ("........................ w 10 10", "White's men in hand: '10' is out of range 0..9"),
        (board("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4") + " w 0 0", "10 men, more than 9"),
        (board("a7") + " w 9 9", "1 on board \\+ 9 in hand = 10 men"),
        ("........................ w 9 8", "with white to move both sides must have placed equally many"),
        ("........................ b 9 9", "with black to move black must have exactly one more"),
        (board("a7 d7", "a1 d1") + " w 0 0", "black has fewer than 3 men but it is white's turn"),
    ],
)
def test_position_rejections(text: str, match: str) -> None:
    with pytest.raises(PositionError, match=match):
        Position.parse(text)


def test_position_rejects_bad_turn_count_and_types() -> None:
    with pytest.raises(PositionError, match="at least 2 turns"):
        Position.parse(board("a7", "a1") + " w 8 8", turns=1)
    with pytest.raises(PositionError, match="hold both sides"):
        Position((1, 1), (0, 0), WHITE)
    with pytest.raises(PositionError, match="men must be a pair of integers"):
        Position(("1", 2), (0, 0), WHITE)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="side to move must be 0"):
        Position((1, 2), (0, 0), True)
    with pytest.raises(PositionError, match="side to move must be 0"):
        Position((1, 2), (0, 0), 2)
    with pytest.raises(PositionError, match="must be text"):
        Position.parse(None)  # type: ignore[arg-type]


def test_parse_defaults_turns_to_placements_and_accepts_terminal_positions() -> None:
    assert Position.parse(board("a7", "a1") + " w 8 8").turns == 2
    lost = Position.parse(board("a7 d7", "a1 d1 g1") + " w 0 0")  # white to move with 2 men: game over
    assert lost.outcome() == Outcome(Termination.FEWER_THAN_THREE_MEN, BLACK)
    assert lost.legal_turns() == [] and lost.is_over()


# -------------------------------------------------------------------------------------- apply and undo


def test_push_pop_restores_everything() -> None:
    for seed in range(15):
        rng = random.Random(seed)
        pos = Position.start(STANDARD)
        for _ in range(120):
            turns = pos.legal_turns()
            if not turns:
                break
            before = (pos.text(), pos.zobrist, pos.turns, pos.repetitions, pos.quiet_turns)
            for turn in turns:
                pos.push(turn)
                assert pos.zobrist == zobrist_of(pos.men, pos.hand, pos.side)
                assert pos.pop() == turn
                assert (pos.text(), pos.zobrist, pos.turns, pos.repetitions, pos.quiet_turns) == before
            pos.push(rng.choice(turns))


def test_zobrist_equal_for_transpositions() -> None:
    a = Position.from_moves("a7 b6 d7 d6")
    b = Position.from_moves("d7 d6 a7 b6")
    c = Position.from_moves("d7 b6 a7 d6")
    assert a.text() == b.text() == c.text() and a.zobrist == b.zobrist == c.zobrist
    assert Position.from_moves("a7 b6 d7").zobrist != Position.parse(a.text()[:24] + " b 6 7").zobrist
    assert a.zobrist != Position.start().zobrist


def test_copy_is_independent() -> None:
    pos = Position.from_moves("a7 b6")
    twin = pos.copy()
    twin.play("d7")
    assert pos.text() != twin.text() and pos.history == [Turn.parse("a7"), Turn.parse("b6")]
    assert twin.pop() == Turn.parse("d7") and twin.text() == pos.text()


def test_positions_and_turns_pickle() -> None:
    """Process pools (core.map_jobs) send positions and turns to workers."""
    pos = Position.from_moves("a7 b6 d7 d6 g7xb6", OPENSPIEL)
    again = pickle.loads(pickle.dumps(pos))
    assert (again.text(), again.zobrist, again.history, again.variant) == (
        pos.text(),
        pos.zobrist,
        pos.history,
        OPENSPIEL,
    )
    turn = pickle.loads(pickle.dumps(Turn.parse("a1-a4xd7")))
    assert turn == Turn.parse("a1-a4xd7") and hash(turn) == turn.key == Turn.parse("a1-a4xd7").key


def test_pop_without_history_is_an_error() -> None:
    with pytest.raises(IllegalMoveError, match="no turn to undo"):
        Position.start().pop()


# --------------------------------------------------------------------------------------------- the rules


def test_mill_removes_a_man_outside_mills_first() -> None:
    # black has a mill a1-d1-g1 and a man on b4; white completes a7-d7-g7 by placing g7
    pos = Position.parse(board("a7 d7 b4 f4", "a1 d1 g1 c5") + " w 5 5")
    mill_turns = [t for t in pos.legal_turns() if t.dst == point_index("g7")]
    assert [str(t) for t in mill_turns] == ["g7xc5"]
    assert pos.closes_mill(Turn.parse("g7")) and not pos.closes_mill(Turn.parse("d5"))
    # with all black men in mills, any of them may go
    pos = Position.parse(board("a7 d7 b4 f4 c3", "a1 d1 g1") + " w 4 4")
    assert sorted(str(t) for t in pos.legal_turns() if t.dst == point_index("g7")) == [
        "g7xa1",
        "g7xd1",
        "g7xg1",
    ]


def test_closing_two_mills_removes_one_man() -> None:
    pos = Position.parse(board("d7 g7 a4 a1", "b6 d6 c5 e5") + " w 5 5")
    a7 = [t for t in pos.legal_turns() if t.dst == 0]
    assert len(a7) == 4 and all(t.remove is not None for t in a7)  # one removal each, 4 choices
    pos.play(a7[0])
    assert pos.on_board(BLACK) == 3 and pos.in_mills(WHITE).bit_count() == 5


def test_mill_against_an_empty_board_removes_nothing() -> None:
    """Hand-made position: black has no man on board, so white's mill has nothing to remove."""
    pos = Position.parse(board("a7 d7") + " w 7 7")
    assert Turn.parse("g7") in pos.legal_turns()
    with pytest.raises(IllegalMoveError, match="does not hold a black man"):
        pos.play("g7xa1")


def test_moving_flying_and_placing_phases() -> None:
    pos = Position.parse(board("a7 d7 g7 a1", "b6 d6 f6 c5") + " w 0 0")  # 4 white men: moving
    assert pos.phase() == "moving" and pos.phase(BLACK) == "moving"
    assert {str(t) for t in pos.legal_turns()} == {"a7-a4", "g7-g4", "a1-a4", "a1-d1"}
    flying = Position.parse(board("a7 d7 a1", "b6 d6 f6 c5") + " w 0 0")
    assert flying.phase() == "flying"
    # each of the 3 men may fly to any of the 17 empty points; a1-g7 and d7-a4 close a mill, and only c5
    # is removable (b6 d6 f6 is a black mill), so each of those is still one turn
    assert len(flying.legal_turns()) == 3 * 17
    assert flying.closes_mill(Turn.parse("a1-g7")) and Turn.parse("a1-g7xc5") in flying.legal_turns()


def test_flying_off() -> None:
    variant = Variant.parse("standard,flying=no")
    pos = Position.parse(board("a7 d7 a1", "b6 d6 f6 c5") + " w 0 0", variant)
    assert pos.phase() == "moving"
    assert {str(t) for t in pos.legal_turns()} == {"a7-a4", "d7-g7", "a1-a4", "a1-d1"}


def test_status_fewer_than_3_men() -> None:
    pos = Position.parse(board("a7 g7 a1", "d2 f2 b4 c5 e5") + " b 0 0")
    assert pos.outcome() is None
    pos.play("b4-b2xa7")
    outcome = pos.outcome()
    assert outcome == Outcome(Termination.FEWER_THAN_THREE_MEN, BLACK)
    assert outcome.result == "black" and outcome.reason == "white has fewer than 3 men"
    assert str(outcome) == "black wins (white has fewer than 3 men)"
    assert pos.is_over() and pos.legal_turns() == []


def test_status_no_legal_move() -> None:
    pos = Position.parse(board("d7 b4 a1 g4 d1", "a7 a4 g7 g1") + " b 0 0")
    assert pos.outcome() == Outcome(Termination.NO_LEGAL_MOVE, WHITE)
    assert pos.outcome().reason == "black has no legal move"  # type: ignore[union-attr]
    assert pos.is_over()
    # the same men for white to move: black is blocked, but it is not black's turn
    assert not Position.parse(board("d7 b4 a1 g4 d1", "a7 a4 g7 g1") + " w 0 0").is_over()


def test_status_no_legal_move_with_three_men_and_flying_off() -> None:
    text = board("d7 b4 a1 g4", "a7 a4 g7") + " b 0 0"
    assert not Position.parse(text).is_over()  # black flies
    pos = Position.parse(text, Variant.parse("standard,flying=no"))
    assert pos.outcome() == Outcome(Termination.NO_LEGAL_MOVE, WHITE)


CYCLE = ["a7-d7", "e3-d3", "d7-a7", "d3-e3"]
CYCLE_START = board("a7 g7 c5 a1", "b6 f6 e3 b2") + " w 0 0"


def test_status_threefold_repetition() -> None:
    pos = Position.parse(CYCLE_START)
    for turn in CYCLE:
        pos.play(turn)
    assert pos.repetitions == 2 and not pos.is_over()
    for turn in CYCLE:
        pos.play(turn)
    assert pos.repetitions == 3
    assert pos.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)
    assert str(pos.outcome()) == "draw (threefold repetition)"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        pos.play("a7-d7")
    # the OpenSpiel variant has no repetition rule
    pos = Position.parse(CYCLE_START, OPENSPIEL)
    for turn in CYCLE * 3:
        pos.play(turn)
    assert pos.outcome() is None


def test_status_turn_limit() -> None:
    pos = Position.parse(CYCLE_START, OPENSPIEL, turns=198)
    pos.play("a7-d7")
    assert not pos.is_over()
    pos.play("e3-d3")
    assert pos.turns == 200 and pos.outcome() == Outcome(Termination.TURN_LIMIT, None, 200)
    assert pos.outcome().reason == "200 turns"  # type: ignore[union-attr]
    pos = Position.parse(CYCLE_START, Variant.parse("openspiel,max_turns=none"), turns=198)
    for turn in CYCLE:
        pos.play(turn)
    assert not pos.is_over()


def test_status_no_mill_turns() -> None:
    variant = Variant.parse("openspiel,no_mill_turns=6")
    pos = Position.parse(CYCLE_START, variant)
    for turn in CYCLE:
        pos.play(turn)
    assert pos.quiet_turns == 4 and not pos.is_over()
    pos.play("a7-d7")
    pos.play("e3-d3")
    assert pos.outcome() == Outcome(Termination.NO_MILL_TURNS, None, 6)
    assert pos.outcome().reason == "6 turns without a mill"  # type: ignore[union-attr]
    # a removal resets the counter
    pos = Position.parse(board("a7 g7 c5 a1 e5", "b6 f6 e3 b2 d1") + " w 0 0", variant)
    for turn in ["e5-e4", "e3-d3", "e4-e5", "b2-d2xe5"]:
        pos.play(turn)
    assert pos.quiet_turns == 0 and not pos.is_over()


def test_placements_are_never_repetitions() -> None:
    pos = Position.from_moves("a7 b6 d7 d6")
    assert pos.repetitions == 1 and pos.quiet_turns == 0


# ----------------------------------------------------------------------------------------- play and errors


@pytest.mark.parametrize(
    ("text", "turn", "match"),
    [
        ("........................ w 9 9", "a1-a4", "white still has 9 men in hand and must place"),
        (board("a7", "d7") + " w 8 8", "d7", "d7 is occupied"),
        (CYCLE_START, "d2", "white has no men in hand and must move"),
        (CYCLE_START, "d7-d6", "d7 does not hold a white man"),
        (CYCLE_START, "a7-d6", "a7 and d6 are not adjacent"),
        (board("a7 d7 g7 a1", "b6 d6 f6 c5") + " w 0 0", "a7-d7", "d7 is occupied"),
        (board("a7 d7 c5", "b6 d6 a1") + " w 6 6", "g7", "closes a mill, so it must name a black man"),
        (board("a7 d7 c5", "b6 d6 a1") + " w 6 6", "g7xg1", "g1 does not hold a black man"),
        (board("a7 d7 c5", "b6 d6 a1") + " w 6 6", "d5xa1", "does not close a mill"),
        (
            board("a7 d7 c5", "a1 d1 g1 b6") + " w 5 5",
            "g7xa1",
            "a1 stands in a mill and black has men outside",
        ),
    ],
)
def test_illegal_turns_are_named(text: str, turn: str, match: str) -> None:
    pos = Position.parse(text)
    with pytest.raises(IllegalMoveError, match=match) as info:
        pos.play(turn)
    assert turn in str(info.value) and text in str(info.value)
    assert pos.text() == text  # unchanged


def test_play_returns_the_turn_and_rejects_bad_text() -> None:
    pos = Position.start()
    assert pos.play("D2") == Turn.parse("d2") and pos.side == BLACK
    with pytest.raises(NotationError):
        pos.play("z9")
    with pytest.raises(NotationError):
        pos.play(42)  # type: ignore[arg-type]


def test_from_moves_names_the_bad_move() -> None:
    assert Position.from_moves("a7 b6 d7 d6 g7xb6").text() == board("a7 d7 g7", "d6") + " b 6 7"
    assert Position.from_moves(["a7", Turn.parse("b6")]).turns == 2
    with pytest.raises(IllegalMoveError, match="move 3 of the move list: illegal turn a7"):
        Position.from_moves("a7 b6 a7")
    with pytest.raises(MorrisError, match="move 2 of the move list: cannot read turn"):
        Position.from_moves("a7 zz")


def test_legal_turns_are_unique_and_counted() -> None:
    for seed in range(10):
        for pos in random_walk(seed)[::5]:
            turns = pos.legal_turns()
            assert len(turns) == len(set(turns)) == pos.count_turns()
            assert pos.has_move() == bool(turns) or pos.is_over()
            for t in turns:
                assert all(POINT_NAMES[p] in str(t) for p in (t.dst, t.src, t.remove) if p is not None)


# -------------------------------------------------------------------------------------------- variants


def test_variant_names_and_round_trip() -> None:
    assert Variant.parse("standard") == STANDARD == Variant()
    assert Variant.parse("openspiel") == OPENSPIEL
    assert OPENSPIEL.max_turns == 200 and not OPENSPIEL.threefold_repetition and OPENSPIEL.flying
    custom = Variant.parse("standard,flying=off,max_turns=none,no_mill_turns=50")
    assert custom == Variant(max_turns=None, threefold_repetition=True, no_mill_turns=50, flying=False)
    for v in (STANDARD, OPENSPIEL, custom, Variant.parse("openspiel,max_turns=100")):
        assert Variant.parse(v.text()) == v
    assert str(OPENSPIEL) == "openspiel"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty variant"),
        ("sanmill", "unknown variant 'sanmill'"),
        ("standard,flying", "bad variant option 'flying'"),
        ("standard,speed=3", "bad variant option 'speed=3'"),
        ("standard,flying=maybe", "flying must be yes/no"),
        ("standard,max_turns=ten", "max_turns in .*'ten' is not an integer"),
        ("standard,max_turns=0", "max_turns in .*'0' is out of range 1..1000000"),
    ],
)
def test_bad_variants(text: str, match: str) -> None:
    with pytest.raises(VariantError, match=match):
        Variant.parse(text)


# ------------------------------------------------------------------------------- validity, diagram, replay


def test_problems_lists_every_problem() -> None:
    """Black to move with equal hands (one problem) and White with 11 men (another): both are named."""
    text = board("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4", "a1 d1 g1") + " b 1 1"
    pos = Position.parse(text, validate=False)
    assert pos.problems() == [
        "white has 10 on board + 1 in hand = 11 men, more than 9",
        "with black to move black must have exactly one more man in hand than white (White places first), "
        "but the hands are 1 and 1",
    ]
    assert not pos.is_valid()
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    assert str(info.value) == f"invalid position {text}: " + "; ".join(pos.problems())


def test_construction_quotes_all_problems() -> None:
    text = board("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4", "a1") + " w 0 1"
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    assert str(info.value) == (
        f"invalid position {text}: white has 10 on board + 0 in hand = 10 men, more than 9; "
        "with white to move both sides must have placed equally many men (White places first), but the "
        "hands are 0 and 1; black has fewer than 3 men but it is white's turn: the game ended before black "
        "could have made the last turn"
    )
    # fields out of range cannot make a position object even unvalidated
    with pytest.raises(PositionError, match=r"white has 10 men in hand; must be 0\.\.9"):
        Position((0, 0), (10, 10), WHITE, validate=False)


def test_valid_positions_have_no_problems() -> None:
    for pos in random_walk(4)[::10]:
        assert pos.problems() == [] and pos.is_valid()
    q = Position.start()
    q.hand = [9, 8]  # changed by hand: White to move with unequal hands, a placement without a turn
    assert q.problems() == [
        "with white to move both sides must have placed equally many men (White places first), "
        "but the hands are 9 and 8",
        "1 men were placed, so at least 1 turns were played, not 0",
    ]


def test_diagram() -> None:
    pos = Position.from_moves("a7 b6 d7 d6 g7xb6")
    assert pos.diagram().splitlines() == [
        "7 W-----------W-----------W",
        "  |           |           |",
        "6 |   +-------B-------+   |",
        "  |   |       |       |   |",
        "5 |   |   +---+---+   |   |",
        "  |   |   |       |   |   |",
        "4 +---+---+       +---+---+",
        "  |   |   |       |   |   |",
        "3 |   |   +---+---+   |   |",
        "  |   |       |       |   |",
        "2 |   +-------+-------+   |",
        "  |           |           |",
        "1 +-----------+-----------+",
        "  a   b   c   d   e   f   g",
        "to move: black   in hand: white 6, black 7",
    ]


def test_from_moves_from_a_start_position() -> None:
    start = board("a7 d7", "b6 d6") + " w 7 7"
    pos = Position.from_moves(["g7xb6", "D5"], start=start)
    assert pos.text() == board("a7 d7 g7", "d6 d5") + " w 6 6"
    assert [str(t) for t in pos.history] == ["g7xb6", "d5"]
    again = Position.from_moves("g7xb6 d5", start=Position.parse(start, OPENSPIEL))
    assert again.text() == pos.text() and again.variant == OPENSPIEL and len(again.history) == 2
    with pytest.raises(IllegalMoveError, match="move 1 of the move list: illegal turn g7 "):
        Position.from_moves("g7", start=start)


# -------------------------------------------------------------------- issue 17: no silent fix-ups


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("........................\tw 9 9", r"'\\t' between the fields"),
        ("........................ w\n9 9", r"'\\n' between the fields"),
        ("........................  w 9 9", "a run of spaces between the fields"),
        ("........................ w +9 9", r"White's men in hand: '\+9' is not a count|'\+9' is not"),
        ("........................ w 09 9", "has a leading zero"),
        ("........................ w \uff19 9", "is not"),
        ("........................ w 9 " + "9" * 5000, "too long for a position text"),
        ("........................ W 9 9", "side to move must be 'w' or 'b'"),
        ("w" * 24 + " w 0 0", "unknown board characters 'w'"),
    ],
)
def test_position_text_is_read_exactly(text: str, match: str) -> None:
    with pytest.raises(PositionError, match=match) as info:
        Position.parse(text)
    assert repr(text[:40])[1:30] in str(info.value)  # the message quotes the text


def test_position_text_may_carry_outer_whitespace() -> None:
    """A pasted line or a file's last line: ASCII whitespace around the whole text is accepted on purpose."""
    start = Position.start()
    for text in (
        " ........................ w 9 9",
        "........................ w 9 9\n",
        "\t........................ w 9 9\r\n",
    ):
        assert Position.parse(text).text() == start.text()
    with pytest.raises(PositionError):
        Position.parse("\u00a0........................ w 9 9")  # not ASCII whitespace


@pytest.mark.parametrize(
    "text", ["d 2", "a1 -a4", "d2\u00a0", "\u3000d2", "ｄ2", "d２", "a1–a4", "", "d2xg7x", "d2\x00"]
)
def test_turn_text_is_not_fixed_up(text: str) -> None:
    with pytest.raises(NotationError, match="cannot read turn"):
        Turn.parse(text)


def test_turn_text_may_carry_outer_ascii_whitespace() -> None:
    """A typed line ends in a newline: outer ASCII whitespace is accepted on purpose, as for positions."""
    for text in (" d2", "d2\n", "\tD2\r\n"):
        assert str(Turn.parse(text)) == "d2"


def test_move_lists_take_whitespace_not_commas() -> None:
    expected = Position.from_moves("d2 f4 d1").text()
    assert Position.from_moves("d2\tf4\n  d1\r\n").text() == expected  # any ASCII whitespace run
    for text, bad in (("d2,f4", "','"), ("d2, f4", "','"), ("d2;f4", "';'"), ("1. d2 f4", "'.'")):
        with pytest.raises(NotationError, match=f"move list {re.escape(repr(text))}: unexpected {bad}"):
            Position.from_moves(text)
    with pytest.raises(NotationError, match="move 1 of the move list: cannot read turn 'd 2'"):
        Position.from_moves(["d 2"])  # list items are read as turns


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("OpenSpiel", r"unknown variant 'OpenSpiel'.*write 'openspiel'"),
        (" standard", r"unknown variant ' standard'"),
        ("standard, flying=no", r"bad variant option ' flying=no'"),
        ("standard,FLYING=no", r"bad variant option 'FLYING=no'"),
        ("standard,max_turns=+5", r"'\+5' is not"),
        ("standard,max_turns=05", "leading zero"),
        ("standard,max_turns=\uff15", "is not"),
        ("standard,max_turns=1_0", "is not"),
        ("standard,max_turns=0", "out of range 1..1000000"),
        ("standard,max_turns=" + "9" * 5000, "too long"),
        ("standard,no_mill_turns=" + "9" * 50, "out of range"),
        ("standard,flying=No", "must be yes/no"),
        ("standard,flying=no,flying=yes", "given twice"),
        ("", "empty variant"),
    ],
)
def test_variant_text_is_read_exactly(text: str, match: str) -> None:
    with pytest.raises(VariantError, match=match):
        Variant.parse(text)
