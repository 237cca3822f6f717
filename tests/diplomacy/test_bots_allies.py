"""Allied DumbBots (issue 14 §3 seeding): they never move into each other's centres or units."""

from __future__ import annotations

from typing import Any

import pytest

from boardeval.core import DiplomacyError
from boardeval.diplomacy.bots import BotView, DumbBot, DumbBotWeights, _tables
from boardeval.diplomacy.tournament import (
    TournamentError,
    bot_game,
    check_allies,
    run_tournament,
)
from diplomacy import Game

PAIRS = "FRANCE:ENGLAND,AUSTRIA:ITALY,RUSSIA:TURKEY"


def _attacks(saved: dict[str, Any], pairs: list[tuple[str, str]]) -> list[str]:
    """Orders of a power that move or retreat into a centre its partner owns or a province a partner's
    unit stands in, at that phase."""
    out = []
    for phase in saved["phases"]:
        state = phase["state"]
        for a, b in pairs + [(b, a) for a, b in pairs]:
            theirs = set(state["centers"].get(b, []))
            theirs |= {u.lstrip("*").split()[1].split("/")[0] for u in state["units"].get(b, [])}
            for order in phase["orders"].get(a) or []:
                parts = order.split()
                if len(parts) == 4 and parts[2] in ("-", "R") and parts[3].split("/")[0] in theirs:
                    out.append(f"{phase['name']} {a} -> {b}: {order}")
    return out


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(p.split(":")[0], p.split(":")[1]) for p in text.split(",")]


@pytest.mark.parametrize("seed", [1, 2])
def test_allies_never_attack_each_other(seed: int) -> None:
    allied = bot_game("dumb", seed, max_year=1905, allies=PAIRS)
    assert allied.allies == (("AUSTRIA", "ITALY"), ("ENGLAND", "FRANCE"), ("RUSSIA", "TURKEY"))
    assert _attacks(allied.saved, _pairs(PAIRS)) == []
    # the same powers without the alliance do attack each other: the check can fail
    free = bot_game("dumb", seed, max_year=1905)
    assert _attacks(free.saved, _pairs(PAIRS)) != []


def test_ally_centres_and_units_do_not_count() -> None:
    """At the start, for France allied with Germany: Munich is worth nothing, and Germany's A MUN is no
    competition in Burgundy (strength 2 - competition 0)."""
    level0 = DumbBotWeights(spring_proximity=(1,), strength=0, competition=0)
    local = DumbBotWeights(spring_proximity=(0,), strength=1, competition=1)
    tables = _tables("standard")
    view = BotView(Game(), "FRANCE")
    assert DumbBot(level0).values(view).of(tables, "A MUN") == 37 * 700
    assert DumbBot(level0, allies=["GERMANY"]).values(view).of(tables, "A MUN") == 0
    assert DumbBot(local).values(view).of(tables, "A BUR") == 1
    assert DumbBot(local, allies=["germany"]).values(view).of(tables, "A BUR") == 2


def test_tournament_seeds_disjoint_pairs_of_dumb_seats() -> None:
    result = run_tournament("dumb*4,random*3", 3, 9, max_year=1901, allies=2)
    for g in result.games:
        assert len(g.allies) == 2
        members = [p for pair in g.allies for p in pair]
        assert len(set(members)) == 4
        assert all(g.seats[g.powers.index(p)] == "dumb" for p in members)
        assert g.row()["allies"] == [list(pair) for pair in g.allies]
        assert _attacks(g.saved, list(g.allies)) == []
    data = result.to_json()
    assert [b["name"] for b in data["bots"]] == ["random", "dumb+ally"]  # every dumb seat is allied
    assert [b["seats"] for b in data["bots"]] == [9, 12]
    again = run_tournament("dumb*4,random*3", 3, 9, max_year=1901, allies=2)
    assert [g.allies for g in again.games] == [g.allies for g in result.games]
    one = run_tournament("dumb*4,random*3", 3, 9, max_year=1901, allies=1)
    assert [b["name"] for b in one.to_json()["bots"]] == ["dumb", "random", "dumb+ally"]


@pytest.mark.parametrize(
    ("allies", "quoted"),
    [
        ("FRANCE:NARNIA", "'NARNIA'"),
        ("FRANCE:FRANCE", "FRANCE:FRANCE"),
        ("FRANCE:ENGLAND,FRANCE:ITALY", "FRANCE is in more than one"),
        ("FRANCE", "'FRANCE'"),
        ("FRANCE:TURKEY", "TURKEY is played by 'random'"),
    ],
)
def test_bad_alliances(allies: str, quoted: str) -> None:
    seats = ("dumb",) * 6 + ("random",)
    with pytest.raises(DiplomacyError, match=quoted):
        check_allies(allies, seats)


@pytest.mark.parametrize("allies", [-1, 4])
def test_too_many_allied_pairs(allies: int) -> None:
    with pytest.raises(TournamentError, match=f"got {allies}"):
        run_tournament("dumb*6,random", 1, 1, max_year=1901, allies=allies)


def test_allied_game_replays_in_the_engine() -> None:
    from diplomacy.utils.export import is_valid_saved_game

    game = bot_game("dumb", 3, max_year=1902, allies="GERMANY:RUSSIA").saved
    assert is_valid_saved_game(game)
