"""The opening advisor: first pick = the evaluator's top spot, the second-pick rule, players in real games."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardeval.catan import Board, evaluate_spots, node_to_spot, to_catanatron_map
from boardeval.catan.advisor import (
    WEIGHTED_RANDOM_WEIGHTS,
    AdvisorPlayer,
    CatanatronSeat,
    OpeningParams,
    PipsPlayer,
    _weighted_random,
    advise,
    make_player,
    opening_model,
    parse_taken,
    spot_neighbours,
)
from boardeval.core import BoardevalError, CatanError, ParamsError, Player, make_rng

DOCS_BOARD = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
SEED3_BOARD = "O3-G10-D-S9-W6-G5-O12-S4-B10-W9-W5-G4-O6-W2-G8-S8-B3-S11-B11~3WS33OG3B"


@pytest.mark.parametrize(
    ("code", "spot"),
    [
        # Spot 40 touches hexes 12 (W8, 5 pips), 13 (O3, 2) and 16 (B5, 4): raw 11, three resources
        # (prime +2), parity 0.8 * min(5, 4) = 3.2, scarcity 5*.2665 + 2*.3782 + 4*.3005 = 3.291:
        # 11 + 1.5 * 3.291 + 2 + 3.2 = 21.14, ahead of spot 41 (O3, B5, G6: 19.45), spot 13 (18.70).
        (DOCS_BOARD, 40),
        # Spot 19 touches hexes 3 (S9, 4), 4 (W6, 5), 8 (B10, 3): raw 12, prime +2, parity 0.8 * 3,
        # scarcity 4*.2535 + 5*.1890 + 3*.5345 = 3.563: 21.74, ahead of spot 34 (W5 G8 S8, 14 pips: 20.52).
        (SEED3_BOARD, 19),
    ],
)
def test_first_pick_is_the_evaluators_hand_checked_top_spot(code: str, spot: int) -> None:
    board = Board.parse(code)
    advice = advise(board)
    assert advice.spot == spot
    assert evaluate_spots(board).ranked()[0] == spot
    assert advice.first is None and advice.seat == 0
    assert advice.why.total == pytest.approx(float(evaluate_spots(board).scores[spot]))


def test_first_pick_skips_taken_and_blocked_spots() -> None:
    board = Board.parse(DOCS_BOARD)
    nb = spot_neighbours()
    advice = advise(board, [40])
    assert advice.seat == 1
    assert advice.spot not in (40, *nb[40])
    ranked = [s for s in evaluate_spots(board).ranked() if s != 40 and s not in nb[40]]
    assert advice.spot == ranked[0]


def test_spot_neighbours_are_symmetric_and_match_the_board_frame() -> None:
    nb = spot_neighbours()
    assert len(nb) == 54
    assert sum(len(n) for n in nb) == 2 * 72  # 72 road edges
    for s, near in enumerate(nb):
        assert 2 <= len(near) <= 3
        for t in near:
            assert s in nb[t]
    assert nb[0] == (1, 8)  # spot 0 (top-left corner of hex 0) joins spot 1 and spot 8 below it


def test_second_pick_terms_hand_checked() -> None:
    board = Board.parse(DOCS_BOARD)
    model = opening_model(board)
    # First settlement at 40 makes wood 5, ore 2, brick 4: it lacks sheep and grain.
    taken = [40, 13, 24, 2]  # seats 1..4; then the snake turns: seat 4, seat 3, seat 2 pick again
    advice = advise(board, taken)
    assert advice.seat == 3 and advice.first == 2
    taken.append(advice.spot)
    taken.append(advise(board, taken).spot)
    advice = advise(board, taken)  # seat 2's second pick: its first was spot 13
    assert advice.seat == 1 and advice.first == 13
    # Spot 13 (W9 S4 B10) lacks grain and ore. Spot 41 (O3 B5 G6) adds ore 2 pips and grain 5 pips.
    terms = model.second_pick_terms(13)
    strength = model.strength
    assert terms["diversity"][41] == pytest.approx(2 * strength[4] + 5 * strength[3])
    # A 2:1 port is worth the pips of its resource that both settlements make; a 3:1 port a quarter of
    # all their pips.
    sheep_spot = next(s for s in range(54) if board.spot_port(s) == "S")
    expected = model.production[sheep_spot, 2] + model.production[13, 2]
    assert terms["harbour"][sheep_spot] == pytest.approx(expected)
    generic = next(s for s in range(54) if board.spot_port(s) == "3")
    total = model.production[generic].sum() + model.production[13].sum()
    assert terms["harbour"][generic] == pytest.approx(total / 4)
    assert terms["harbour"][41] == 0.0  # no port
    why = model.explain(41, 13)
    assert why.total == pytest.approx(float(model.opening_scores(13)[41]))
    assert why["port_replaced"].weight == -1.0
    assert why.extras["first_lacks"] == ["grain", "ore"]


def test_second_pick_prefers_missing_resources() -> None:
    board = Board.parse(DOCS_BOARD)
    base = opening_model(board, opening=OpeningParams(diversity_weight=0.0, harbour_weight=0.0))
    diverse = opening_model(board, opening=OpeningParams(diversity_weight=5.0, harbour_weight=0.0))
    lacks = base.production[13] == 0
    best_base = int(np.argmax(base.opening_scores(13)))
    best_div = int(np.argmax(diverse.opening_scores(13)))
    missing = base.production[:, lacks].sum(axis=1)
    assert missing[best_div] >= missing[best_base]
    assert missing[best_div] > 0


def test_advise_json_shape() -> None:
    advice = advise(Board.parse(DOCS_BOARD), [40, 13, 24, 2])
    data = advice.to_json()
    assert data["code"] == data["board"] == advice.board.code()
    assert set(data) == {
        "code",
        "board",
        "taken",
        "seat",
        "pick",
        "first",
        "spot",
        "score",
        "why",
        "spot_breakdown",
        "alternatives",
    }
    assert data["seat"] == 4 and data["pick"] == 2 and data["first"] == 2
    assert data["score"] == pytest.approx(sum(t["contribution"] for t in data["why"]["terms"]))
    assert [a["score"] for a in data["alternatives"]] == sorted(
        (a["score"] for a in data["alternatives"]), reverse=True
    )
    assert data["alternatives"][0]["score"] <= data["score"]


@pytest.mark.parametrize(
    ("taken", "fragment"),
    [
        ([40, 40], "taken twice"),
        ([40, 41], "neighbours"),
        ([60], "60"),
        ([-1], "-1"),
        ([0, 2, 4, 6, 18, 20, 22, 24], "all 8"),
    ],
)
def test_advise_rejects_bad_taken_lists(taken: list[int], fragment: str) -> None:
    with pytest.raises(CatanError, match=fragment):
        advise(Board.parse(DOCS_BOARD), taken)


def test_parse_taken() -> None:
    assert parse_taken("") == ()
    assert parse_taken("3,40") == (3, 40)
    with pytest.raises(CatanError, match="'x'"):
        parse_taken("3,x")
    # issue 24: no silent fix-ups (spaces, empty entries, odd spellings of a number)
    for bad, quoted in [
        (" 3, 40 ,", "' 3'"),
        ("3,,40", "''"),
        ("3,", "''"),
        ("0_3", "'0_3'"),
        ("+3", "'\\+3'"),
        ("\uff13", "'\uff13'"),
        ("54", "'54'"),
    ]:
        with pytest.raises(CatanError, match=quoted):
            parse_taken(bad)


def test_opening_params_validated() -> None:
    with pytest.raises(ParamsError, match="diversity_weight"):
        OpeningParams(diversity_weight=-1.0)
    with pytest.raises(ParamsError, match="harbour_weight"):
        OpeningParams(harbour_weight=float("nan"))


def test_make_player_names_and_protocol() -> None:
    for name in ("advisor", "pips", "weighted", "random", "vp"):
        player = make_player(name)
        assert isinstance(player, Player)
        assert player.name == name
    with pytest.raises(BoardevalError, match="'alphago'"):
        make_player("alphago")


def test_weights_match_catanatron() -> None:
    from catanatron.players.weighted_random import WEIGHTS_BY_ACTION_TYPE

    assert {k.name: v for k, v in WEIGHTS_BY_ACTION_TYPE.items()} == WEIGHTED_RANDOM_WEIGHTS


def test_weighted_random_follows_the_weights() -> None:
    from catanatron.models.enums import Action, ActionType

    actions = [
        Action(None, ActionType.BUILD_CITY, 1),
        Action(None, ActionType.BUILD_SETTLEMENT, 2),
        Action(None, ActionType.END_TURN, None),
    ]
    rng = make_rng(5)
    picks = [_weighted_random(actions, rng).value for _ in range(20000)]
    share = picks.count(1) / len(picks)
    assert share == pytest.approx(10000 / 11001, abs=0.01)
    assert 0 < picks.count(None) < 60  # weight 1 of 11001: ~2 in 20000


def _opening(board: Board, names: list[str], seed: int) -> tuple[Any, list[int], list[str]]:
    """Play a real catanatron game up to the end of the initial placement; return the game, the
    settlement spots in placement order and the player name that placed each."""
    from catanatron import Color, Game

    seats = [CatanatronSeat(c) for c in Color]
    game = Game(seats, seed=seed, catan_map=to_catanatron_map(board))
    by_color = {s.color: s for s in seats}
    for i, color in enumerate(game.state.colors):
        by_color[color].bind(make_player(names[i]), make_rng(seed + i))
    n2s = node_to_spot()
    spots: list[int] = []
    who: list[str] = []
    while game.state.is_initial_build_phase:
        before = len(game.state.actions)
        game.play_tick()
        action = game.state.actions[before]
        if action.action_type.name == "BUILD_SETTLEMENT":
            spots.append(n2s[action.value])
            who.append(names[game.state.colors.index(action.color)])
    return game, spots, who


@pytest.mark.parametrize("code", [DOCS_BOARD, SEED3_BOARD])
def test_advisor_in_a_real_game_follows_advise(code: str) -> None:
    board = Board.parse(code)
    names = ["advisor", "weighted", "pips", "advisor"]
    _, spots, who = _opening(board, names, seed=11)
    assert len(spots) == 8
    assert spots[0] == evaluate_spots(board).ranked()[0]  # seat 1, the advisor, takes the top spot
    for k, (spot, name) in enumerate(zip(spots, who, strict=True)):
        if name == "advisor":
            assert spot == advise(board, spots[:k]).spot, f"placement {k}"
        if name == "pips":
            pips = opening_model(board).production.sum(axis=1)
            legal = [
                s for s in range(54) if s not in spots[:k] and not set(spot_neighbours()[s]) & set(spots[:k])
            ]
            assert pips[spot] == max(pips[s] for s in legal)


def test_advisor_roads_point_to_the_best_free_spot() -> None:
    board = Board.parse(DOCS_BOARD)
    game, spots, _ = _opening(board, ["advisor", "advisor", "advisor", "advisor"], seed=3)
    n2s = node_to_spot()
    nb = spot_neighbours()
    model = opening_model(board)
    roads = [a for a in game.state.actions if a.action_type.name == "BUILD_ROAD"]
    assert len(roads) == 8
    # Replay: for the first road, every other end leads to free spots no better than the chosen end's.
    first_road = tuple(n2s[n] for n in roads[0].value)
    settlement = spots[0]
    chosen_end = first_road[1] if first_road[0] == settlement else first_road[0]
    occupied = {settlement}
    blocked = occupied | set(nb[settlement])

    def reach(end: int) -> float:
        return max(
            (float(model.scores[t]) for t in nb[end] if t != settlement and t not in blocked), default=-1
        )

    assert all(reach(chosen_end) >= reach(e) for e in nb[settlement])


def test_pips_prefers_raw_pips_over_the_evaluator() -> None:
    # On SEED3_BOARD the evaluator's top spot (19, 12 pips) is not the richest (34: W5 G8 S8, 14 pips).
    board = Board.parse(SEED3_BOARD)
    _, spots, _ = _opening(board, ["pips", "advisor", "advisor", "advisor"], seed=5)
    pips = opening_model(board).production.sum(axis=1)
    assert pips[spots[0]] == pips.max() == 14
    assert spots[0] != 19
    assert isinstance(PipsPlayer(), Player) and isinstance(AdvisorPlayer(), Player)
