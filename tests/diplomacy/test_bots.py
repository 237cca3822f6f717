"""The Diplomacy bots: hand-derived DumbBot values, order logic, legality, and seeded replay."""

from __future__ import annotations

import numpy as np
import pytest
from diplomacy.utils.export import from_saved_game_format, is_valid_saved_game

from boardeval.core import DiplomacyError, Player, make_rng
from boardeval.diplomacy.bots import (
    BotView,
    DumbBot,
    DumbBotWeights,
    RandomBot,
    UnknownBotError,
    UnsupportedMapError,
    _tables,
    make_bot,
    parse_bots,
)
from boardeval.diplomacy.records import random_game
from boardeval.diplomacy.tournament import bot_game, play_bot_game, saved_bot_game
from diplomacy import Game

# Power sizes with DumbBot's x^2 + 4x + 16: 3 centres -> 37, 4 -> 48, none -> 16.
ONLY_LEVEL0 = DumbBotWeights(
    spring_proximity=(1,), fall_proximity=(1,), strength=0, competition=0, alternative=0
)


def army_value(bot: DumbBot, game: Game, power: str, province: str) -> float:
    return bot.values(BotView(game, power)).of(_tables("standard"), f"A {province}")


def test_bots_are_players() -> None:
    assert isinstance(RandomBot(), Player)
    assert isinstance(DumbBot(), Player)
    assert make_bot("dumb").name == "dumb"
    for near in ("DUMB", " dumb", "Dumb"):  # issue 24: exact names, the spelling meant is named
        with pytest.raises(DiplomacyError, match="did you mean 'dumb'"):
            make_bot(near)


def test_level0_values_at_the_start() -> None:
    """Spring: attack x 700 + defence x 300, by hand from the starting position."""
    game = Game()
    bot = DumbBot(ONLY_LEVEL0)
    assert army_value(bot, game, "FRANCE", "BEL") == 16 * 700  # unowned centre
    assert army_value(bot, game, "FRANCE", "MUN") == 37 * 700  # Germany's (3 centres)
    assert army_value(bot, game, "FRANCE", "PAR") == 0  # ours, no foreign unit can reach it
    assert army_value(bot, game, "FRANCE", "BUR") == 0  # not a centre
    # Trieste is Austria's and Italy's A VEN can move there: defence = Italy's size
    assert army_value(bot, game, "AUSTRIA", "TRI") == 37 * 300
    # Autumn weights: attack x 600
    values = bot.values(BotView(game, "FRANCE"), season="F")
    assert values.of(_tables("standard"), "A MUN") == 37 * 600


def test_one_spreading_step_by_hand() -> None:
    """proximity[1] at BUR = (BUR + its army neighbours BEL, GAS, MAR, MUN, PAR, PIC, RUH) / 5."""
    bot = DumbBot(DumbBotWeights(spring_proximity=(0, 1), strength=0, competition=0))
    assert army_value(bot, Game(), "FRANCE", "BUR") == pytest.approx((16 + 37) * 700 / 5)


def test_strength_and_competition_at_the_start() -> None:
    """At BUR France can bring A PAR and A MAR, Germany A MUN: strength 2 - competition 1."""
    bot = DumbBot(DumbBotWeights(spring_proximity=(0,), strength=1, competition=1))
    assert army_value(bot, Game(), "FRANCE", "BUR") == 1
    assert army_value(bot, Game(), "FRANCE", "PIE") == 0  # A MAR against Italy's A VEN
    # Tyrolia: no French unit; Germany, Italy and Austria bring one each -> the most of ONE power is 1
    assert army_value(bot, Game(), "FRANCE", "TYR") == -1


def _two_on_belgium(german_unit: bool) -> Game:
    game = Game()
    game.clear_units()
    game.set_units("FRANCE", ["A BUR", "A PIC"], reset=True)
    if german_unit:
        game.set_units("GERMANY", ["A BEL"], reset=True)
    game.set_centers("GERMANY", ["BEL", "BER", "KIE"], reset=True)
    return game


@pytest.mark.parametrize("seed", range(5))
def test_second_unit_supports_a_contested_attack(seed: int) -> None:
    """Both French armies want Belgium (Germany's, 37 x 700); a German army stands there: one supports."""
    game = _two_on_belgium(german_unit=True)
    orders = DumbBot(ONLY_LEVEL0).choose(BotView(game, "FRANCE"), make_rng(seed))
    moves = [o for o in orders if o.endswith("- BEL") and " S " not in o]
    supports = [o for o in orders if " S " in o and o.endswith("- BEL")]
    assert len(moves) == 1 and len(supports) == 1, orders
    mover = moves[0].split(" - ")[0]
    assert supports[0].endswith(f"S {mover} - BEL")


@pytest.mark.parametrize("seed", range(5))
def test_unopposed_target_is_not_doubled(seed: int) -> None:
    """With Belgium empty the first army takes it unopposed; the second looks elsewhere."""
    game = _two_on_belgium(german_unit=False)
    orders = DumbBot(ONLY_LEVEL0).choose(BotView(game, "FRANCE"), make_rng(seed))
    assert sum(o.endswith("- BEL") for o in orders) == 1, orders
    assert not any(" S " in o for o in orders), orders


def test_random_bot_is_the_random_game_policy() -> None:
    """Seven RandomBots on one Generator replay ``random_game`` with the same seed, phase by phase."""
    bots = play_bot_game("random", 11, max_year=1902)
    ref = random_game(11, max_phases=len(bots.get_phase_history()) + 1)
    ours = saved_bot_game(bots)["phases"]
    theirs = saved_bot_game(ref)["phases"]
    assert [p["name"] for p in ours] == [p["name"] for p in theirs]
    assert [p["orders"] for p in ours] == [p["orders"] for p in theirs]
    assert ours[-1]["state"]["units"] == theirs[-1]["state"]["units"]


def _movement_violations(saved: dict) -> list[str]:
    """Own-unit bounces in a saved game: two own moves to one province, or a move onto an own unit
    that stays (holds, supports) or swaps with the mover."""
    bad = []
    for phase in saved["phases"]:
        if not phase["name"].endswith("M"):
            continue
        for power, orders in phase["orders"].items():
            moves: dict[str, str] = {}
            stays: set[str] = set()
            for order in orders or []:
                parts = order.split()
                here = parts[1].split("/")[0]
                if len(parts) == 4 and parts[2] == "-":
                    moves[here] = parts[3].split("/")[0]
                else:
                    stays.add(here)
            targets = list(moves.values())
            for here, dest in moves.items():
                if targets.count(dest) > 1 or dest in stays or moves.get(dest) == here:
                    bad.append(f"{phase['name']} {power}: {orders}")
    return bad


def test_dumb_bots_never_bounce_off_their_own_units() -> None:
    for seed in (1, 2):
        saved = saved_bot_game(play_bot_game("dumb", seed, max_year=1903))
        assert _movement_violations(saved) == []


def test_dumb_bots_build_every_build_they_can() -> None:
    """Winter 1901: a power with more centres than units builds on every free home centre it needs."""
    game = play_bot_game("dumb", 4, max_year=1901)
    saved = saved_bot_game(game)
    winter = next(p for p in saved["phases"] if p["name"] == "W1901A")
    for power, given in winter["orders"].items():
        orders = given or []
        surplus = len(winter["state"]["centers"][power]) - len(winter["state"]["units"][power])
        occupied = {u.split()[1].split("/")[0] for u in winter["state"]["units"][power]}
        free_homes = [h for h in winter["state"]["homes"][power] if h not in occupied]
        free_owned = [h for h in free_homes if h in winter["state"]["centers"][power]]
        if surplus > 0:
            assert len(orders) == min(surplus, len(free_owned)), (power, orders)
            assert all(o.endswith(" B") for o in orders)
        elif surplus < 0:
            assert len(orders) == -surplus and all(o.endswith(" D") for o in orders)


@pytest.mark.parametrize("bots", ["dumb", "dumb,random*6", "random"])
def test_saved_bot_game_replays_in_the_engine(bots: str) -> None:
    """The engine loads the saved game and replays it: every order legal, every next state matching."""
    result = bot_game(bots, 5, max_year=1902)
    saved = result.saved
    assert saved["phases"][0]["name"] == "S1901M" and result.last_phase == "S1903M"
    assert is_valid_saved_game(saved)
    loaded = from_saved_game_format(saved)
    assert loaded.get_current_phase() == "S1903M"
    assert {p: len(c) for p, c in loaded.get_centers().items()} == dict(
        zip(result.powers, result.final_scs, strict=True)
    )


def test_same_seed_same_game_other_seed_other_game() -> None:
    a = bot_game("dumb,random*6", 21, max_year=1902).saved
    b = bot_game("dumb,random*6", 21, max_year=1902).saved
    c = bot_game("dumb,random*6", 22, max_year=1902).saved
    assert a == b
    assert a["phases"] != c["phases"]


def test_dumb_bot_is_stronger_than_random_in_a_small_sample() -> None:
    """One DumbBot against six random bots out-grows them in every one of a few short games."""
    for seed in range(3):
        result = bot_game("dumb,random*6", seed, max_year=1903)
        assert result.final_scs[0] > max(result.final_scs[1:]), result.final_scs


@pytest.mark.parametrize(
    ("map_name", "max_year", "last", "powers"),
    [("ancmed", 2, "S0003M", 5), ("modern", 1995, "S1996M", 10), ("pure", 1902, "S1903M", 7)],
)
def test_other_maps_play(map_name: str, max_year: int, last: str, powers: int) -> None:
    result = bot_game("dumb", 1, map_name=map_name, max_year=max_year)
    assert result.last_phase == last and len(result.powers) == powers
    assert is_valid_saved_game(result.saved)


def test_bad_bot_lists() -> None:
    assert parse_bots("dumb,random*6", 7) == ("dumb",) + ("random",) * 6
    assert parse_bots(["random"], 3) == ("random",) * 3
    with pytest.raises(UnknownBotError, match="did you mean 'random'"):  # issue 24: exact names
        parse_bots(["Random"], 3)
    with pytest.raises(UnknownBotError, match="'\\+6' is not an integer"):
        parse_bots("dumb,random*+6", 7)
    with pytest.raises(UnknownBotError, match="'smart'"):
        parse_bots("dumb,smart*6", 7)
    with pytest.raises(UnknownBotError, match="names 2 bot"):
        parse_bots("dumb,random", 7)
    with pytest.raises(UnknownBotError, match="'random\\*x'"):
        parse_bots("dumb,random*x", 7)
    with pytest.raises(UnknownBotError, match="'random\\*0'"):
        parse_bots("random*0", 7)
    with pytest.raises(DiplomacyError, match="empty bot name"):
        parse_bots("dumb,,random", 7)


def test_unsupported_maps() -> None:
    with pytest.raises(UnsupportedMapError, match="'world' \\(an engine map\\)"):
        play_bot_game("dumb", 1, map_name="world")
    with pytest.raises(UnsupportedMapError, match="'narnia' \\(not a map"):
        bot_game("dumb", 1, map_name="narnia")


def test_values_are_finite_over_a_game() -> None:
    game = play_bot_game("dumb,random*6", 8, max_year=1902)
    values = DumbBot().values(BotView(game, "AUSTRIA"))
    assert np.isfinite(values.army).all() and np.isfinite(values.fleet).all()
