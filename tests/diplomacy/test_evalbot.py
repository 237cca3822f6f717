"""EvalBot (issue 14 §4): legal orders, seeded games, the pairing with DumbBot, bad names and settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardeval.cli.diplomacy_bots import register
from boardeval.core import DiplomacyError
from boardeval.diplomacy.bots import BotView, DumbBot, UnknownBotError, make_bot, parse_bots
from boardeval.diplomacy.evalbot import BOT_KINDS, EvalBot, EvalBotSettings, _position
from boardeval.diplomacy.graph import load_map_graph
from boardeval.diplomacy.tournament import bot_game, play_players
from tests.diplomacy.helpers import invoke_registered

POWERS = load_map_graph("standard").powers


class Checked(EvalBot):
    """An EvalBot that checks every answer against the phase's legal orders."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def choose(self, state: BotView, rng: np.random.Generator) -> list[str]:
        orders = super().choose(state, rng)
        possible = state.legal()
        locations = [" ".join(o.split()[:2]).split()[1] for o in orders]
        for order in orders:
            loc = order.split()[1]
            assert order in possible[loc], (state.game.get_current_phase(), order)
        if state.phase_type == "M":  # one order per orderable location
            assert sorted(locations) == state.orderable()
        assert len(set(locations)) == len(locations)
        self.checked += 1
        return orders


def test_eval_orders_are_legal_and_it_looks_ahead() -> None:
    bot = Checked()
    players: list[Any] = [bot if p == 2 else DumbBot() for p in range(len(POWERS))]
    game = play_players(players, seed=11, max_year=1903)
    assert bot.checked >= 8 and game.get_current_phase() == "S1904M"
    assert bot.stats.phases >= 5 and bot.stats.adjudications >= 2 * bot.stats.phases
    assert bot.stats.changed >= 1  # the lookahead did overrule DumbBot at least once
    assert bot.stats.timeouts == 0  # no wall-clock stop by default: every candidate is scored


def test_a_time_limit_stops_after_the_first_candidate_when_it_has_passed() -> None:
    # The limit is read after each candidate; a limit already passed leaves only DumbBot's own choice
    # scored, whatever the machine's speed (the clock is never the verdict: any scored phase passes it).
    bot = EvalBot(EvalBotSettings(time_limit=1e-9))
    play_players([bot, *(DumbBot() for _ in POWERS[1:])], seed=11, max_year=1902)
    assert bot.stats.phases >= 1 and bot.stats.timeouts == bot.stats.phases
    assert bot.stats.candidates == bot.stats.phases and bot.stats.changed == 0


def test_a_seeded_eval_game_is_reproduced() -> None:
    first = bot_game("dumb,eval,dumb*5", seed=5, max_year=1903)
    again = bot_game("dumb,eval,dumb*5", seed=5, max_year=1903)
    assert first.saved == again.saved and first.seats[1] == "eval"
    other = bot_game("dumb,eval,dumb*5", seed=6, max_year=1903)
    assert other.saved["phases"] != first.saved["phases"]


def test_with_one_candidate_eval_plays_exactly_dumbbots_game() -> None:
    # EvalBot draws from the game's Generator what DumbBot draws: no choice, no difference.
    only = EvalBot(EvalBotSettings(candidates=1))
    mixed = play_players([only, *(DumbBot() for _ in POWERS[1:])], seed=8, max_year=1903)
    plain = play_players([DumbBot() for _ in POWERS], seed=8, max_year=1903)
    assert mixed.get_units() == plain.get_units() and mixed.get_centers() == plain.get_centers()
    assert only.stats.phases == 0


def test_autumn_projection_gives_a_centre_to_the_unit_on_it() -> None:
    graph = load_map_graph("standard")
    state = {
        "name": "F1901R",
        "units": {"FRANCE": ["A BEL", "*F BRE"], "GERMANY": ["A HOL", "F BRE"]},
        "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["BER"]},
    }
    projected = _position(graph, state, project=True)
    france, germany = graph.power_index["FRANCE"], graph.power_index["GERMANY"]
    assert projected.centers[france] == ("BEL", "PAR")  # BRE lost to the German fleet standing on it
    assert projected.centers[germany] == ("BER", "BRE", "HOL")
    assert _position(graph, state, project=False).centers[france] == ("BRE", "PAR")


def test_bad_names_and_settings_are_refused(tmp_path: Path) -> None:
    assert make_bot("eval", BOT_KINDS).name == "eval"
    with pytest.raises(UnknownBotError, match="did you mean 'eval'"):
        make_bot("EVAL", BOT_KINDS)
    assert parse_bots("eval,dumb*6", 7, BOT_KINDS)[0] == "eval"
    with pytest.raises(UnknownBotError, match="'evil'"):
        parse_bots("evil,dumb*6", 7, BOT_KINDS)
    with pytest.raises(UnknownBotError, match="'eval'"):
        make_bot("eval")  # the base table of bots.py has no lookahead bot
    for bad in ({"candidates": 0}, {"opponent_samples": 0}, {"time_limit": 0.0}, {"time_limit": -1.0}):
        with pytest.raises(DiplomacyError, match="EvalBot"):
            EvalBotSettings(**bad)
    code, _, exc = invoke_registered(
        register, "bot-game", "--bots", "evalbot,dumb*6", "--seed", "1", "--out", str(tmp_path / "g.json")
    )
    assert code != 0 and isinstance(exc, UnknownBotError)
    assert "'evalbot'" in str(exc) and "random, dumb, eval" in str(exc)


def test_bot_game_cli_plays_eval(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    code, text, exc = invoke_registered(
        register, "bot-game", "--bots", "eval,dumb*6", "--seed", "2", "--max-year", "1901", "--out", str(out)
    )
    assert code == 0, exc
    assert "eval" in text and out.exists()
