"""Raw features: definitions, the seed's defects 1, 3 and 4, phases, cross-checks with the rules engine.

Positions are built from point names (``make``); the expected values are counted by hand on the diagram::

     a7 ------- d7 ------- g7
     |   b6 --- d6 --- f6  |
     |   |  c5- d5- e5 |   |
     a4-b4-c4      e4-f4-g4
     |   |  c3- d3- e3 |   |
     |   b2 --- d2 --- f2  |
     a1 ------- d1 ------- g1
"""

from __future__ import annotations

import pytest

from boardeval.morris._features import FEATURES, features, position_phase, side_features, side_phase
from boardeval.morris.board import POINT_NAMES, RING, point_index
from boardeval.morris.rules import BLACK, WHITE, Position, Variant
from tests.morris.helpers import make, random_positions

# ---- basic definitions ----------------------------------------------------------------------------------


def test_start_position_is_all_zero_but_material() -> None:
    w, b = features(Position.start())
    assert w == b
    assert w.material == 9
    assert all(v == 0 for k, v in w.to_dict().items() if k != "material")
    assert list(w.to_dict()) == list(FEATURES)
    for pos in random_positions(10, seed=2):
        for side in features(pos):
            assert side.values() == tuple(side.to_dict().values())


def test_mills_open_mills_connectivity_by_hand() -> None:
    # White: a7 d7 g7 (closed top mill), a4 a1? no: a4 only -> a7-a4-a1 has 2 white + a1 empty (open mill).
    pos = make("a7 d7 g7 a4 f2", "b6 d6 c4 e3", side="w")
    w, b = features(pos)
    assert w.mills == 1
    assert w.open_mills == 1  # a7-a4-a1; d7-d6-d5 has a black man; g7-g4-g1 has only g7
    # adjacent white pairs: a7-d7, d7-g7, a7-a4 -> 3
    assert w.connectivity == 3
    # black: b6-d6 adjacent (1 pair); open mill b6-d6-f6 (f6 empty)
    assert b.connectivity == 1
    assert b.open_mills == 1
    assert b.mills == 0


def test_material_counts_men_in_hand_defect_3() -> None:
    """Seed defect 3: material ignored men in hand. After 1 placement each side still has 9 men."""
    pos = Position.from_moves("d2 f4")
    w, b = features(pos)
    assert (w.material, b.material) == (9, 9)
    pos = Position.from_moves("a7 b6 d7 d6 g7xd6")  # white closes a mill and removes d6
    w, b = features(pos)
    assert (w.material, b.material) == (9, 8)


# ---- threats: defect 1 ------------------------------------------------------------------------------------


def test_moving_threat_needs_a_man_outside_the_line_defect_1() -> None:
    """Seed defect 1: in the moving phase the man that closes a line must not be one of its two men.

    White a7 d7 (line a7-d7-g7, gap g7) and b2 f2 (line b2-d2-f2, gap d2). g7's neighbours are d7 (in the
    line) and g4 (empty); d2's neighbours are b2, f2 (in the line), d3 and d1 (empty). Sliding d7-g7 or
    b2-d2 empties the line again, so White has no threat. The seed counted 2.
    """
    pos = make("a7 d7 b2 f2", "c5 e5 c3 e3", side="w")
    assert side_phase(pos, WHITE) == "moving"
    w = side_features(pos, WHITE)
    assert w.open_mills == 2
    assert w.threats == 0
    assert w.fork_threats == 0.0
    # a white man on g4 can slide to g7 and close a7-d7-g7: one threat
    pos = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3", side="w")
    assert side_features(pos, WHITE).threats == 1
    # the rules engine agrees: exactly one mill-closing destination, g7
    closing = {POINT_NAMES[t.dst] for t in pos.legal_turns() if t.remove is not None}
    assert closing == {"g7"}


def test_placing_and_flying_threats_reach_any_point() -> None:
    # placing: both gaps are threats (a man comes from the hand)
    pos = make("a7 d7 b2 f2", "c5 e5 c3 e3", side="w", hands=(3, 3))
    assert side_phase(pos, WHITE) == "placing"
    w = side_features(pos, WHITE)
    assert w.threats == 2
    # fork: 2 distinct threat points, g7 (outer 1.0) + d2 (middle 1.25)
    assert w.fork_threats == pytest.approx(2.25)
    # flying: 3 men, two on a line and one elsewhere flies in
    pos = make("a7 d7 f2", "c5 e5 c3 e3", side="w")
    assert side_phase(pos, WHITE) == "flying"
    assert side_features(pos, WHITE).threats == 1


def test_double_threats_placing() -> None:
    """g7 closes a7-d7-g7 and g7-g4-g1 at once while placing: one double threat (and 2 lines, 1 point)."""
    pos = make("a7 d7 g4 g1", "c5 e5 c3 e3", side="w", hands=(5, 5))
    w = side_features(pos, WHITE)
    assert w.threats == 1
    assert w.double_threats == 1
    assert w.fork_threats == 0.0  # a single threat point is no fork


def test_double_threat_impossible_by_sliding() -> None:
    """Every neighbour of a point lies on one of its two lines, so a slide never closes two mills."""
    pos = make("a7 d7 g4 g1 f6", "c5 e5 c3 e3", side="w")
    w = side_features(pos, WHITE)
    assert w.double_threats == 0
    assert w.threats == 1  # d7-g7 leaves a7-d7 open but g4... g4-g7 closes a7-d7-g7 (g4 is not on that line)


def test_threats_match_rules_engine_on_random_positions() -> None:
    """Threat points of the side to move = destinations of its legal mill-closing turns (rules engine)."""
    checked = 0
    for pos in random_positions(60, seed=3):
        closing = {t.dst for t in pos.legal_turns() if t.remove is not None}
        own = side_features(pos, pos.side)
        assert own.threats == len(closing), pos.text()
        if own.threats:
            checked += 1
    assert checked >= 5


def test_mobility_matches_rules_engine_in_moving_phase() -> None:
    seen = 0
    for pos in random_positions(60, seed=4):
        if position_phase(pos) != "moving":
            assert side_features(pos, pos.side).mobility == 0
            continue
        moves = {(t.src, t.dst) for t in pos.legal_turns()}
        assert side_features(pos, pos.side).mobility == len(moves), pos.text()
        seen += 1
    assert seen >= 5


# ---- blocked: defect 4 ------------------------------------------------------------------------------------


def test_blocked_only_in_moving_phase_defect_4() -> None:
    """Seed defect 4: blocked men were counted while flying.

    Black a7 d7 g7 (3 men, flying) are hemmed in by White a4 d6 g4: no black man has an empty neighbour,
    but a flying man is never blocked, so White's ``blocked`` is 0. With a fourth black man (b2, free)
    Black moves and the three hemmed men count.
    """
    pos = make("a4 d6 g4 b4 f4", "a7 d7 g7", side="b")
    assert side_phase(pos, BLACK) == "flying"
    assert side_features(pos, WHITE).blocked == 0
    pos = make("a4 d6 g4 b4 f4", "a7 d7 g7 b2", side="b")
    assert side_phase(pos, BLACK) == "moving"
    assert side_features(pos, WHITE).blocked == 3
    # without flying in the variant, three men are blocked too
    pos = make("a4 d6 g4 b4 f4", "a7 d7 g7", side="b", variant=Variant(flying=False))
    assert side_phase(pos, BLACK) == "moving"
    assert side_features(pos, WHITE).blocked == 3


def test_blocked_and_mobility_zero_while_placing() -> None:
    pos = make("a4 d6 g4", "a7 d7 g7", side="w", hands=(6, 6))
    w, b = features(pos)
    assert w.blocked == b.blocked == 0
    assert w.mobility == b.mobility == 0


# ---- phases and initiative -------------------------------------------------------------------------------


def test_phase_detection() -> None:
    assert position_phase(Position.start()) == "placing"
    assert position_phase(make("a7 d7 g7 a4", "b6 d6 f6 b4", side="w")) == "moving"
    assert position_phase(make("a7 d7 g7", "b6 d6 f6 b4", side="w")) == "flying"
    assert position_phase(make("a7 d7 g7", "b6 d6 f6 b4", side="b")) == "moving"
    no_fly = Variant(flying=False)
    assert position_phase(make("a7 d7 g7", "b6 d6 f6 b4", side="w", variant=no_fly)) == "moving"
    # the position phase agrees with the engine's per-side phase
    for pos in random_positions(30, seed=5):
        assert position_phase(pos) == pos.phase()


def test_initiative_definition() -> None:
    """initiative = T x [side to move] + max(0, T - 1), T = threat points (see features.py)."""
    # white (to move) threatens g7 only: executable closure 1, no forcing surplus
    pos = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3", side="w")
    assert side_features(pos, WHITE).initiative == 1
    # the same threat with black to move: black can block g7, so it is worth nothing yet
    pos_b = make("a7 d7 b2 f2 g4", "c5 e5 c3 e3 a1", side="b")
    assert side_features(pos_b, WHITE).threats == 1
    assert side_features(pos_b, WHITE).initiative == 0
    # two threat points, black to move: one cannot be parried -> forcing power 1
    pos2 = make("a7 d7 b2 f2 g4 d3", "c5 e5 c3 e3 a1", side="b")
    assert side_features(pos2, WHITE).threats == 2
    assert side_features(pos2, WHITE).initiative == 1
    # two threat points, white to move: 2 executable closures + 1 forcing
    pos3 = make("a7 d7 b2 f2 g4 d3", "c5 e5 c3 e3", side="w")
    assert side_features(pos3, WHITE).initiative == 3


def test_ring_weights_in_fork() -> None:
    assert RING[point_index("d2")] == "middle"
    assert RING[point_index("g7")] == "outer"
    assert RING[point_index("d3")] == "inner"
