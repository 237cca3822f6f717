"""OpenSpiel (``nine_mens_morris``) is the rules oracle for the OPENSPIEL variant.

OpenSpiel splits a mill turn into two actions: the placement/move, then -- in a "capture" sub-state where
the same player is still to move -- the removal. We expand those sub-states into turns and compare the sets.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from boardeval.morris._perft import perft
from boardeval.morris.rules import OPENSPIEL, Position, Termination, Turn, make_turn

pyspiel = pytest.importorskip("pyspiel")

GAME = pyspiel.load_game("nine_mens_morris")
N_GAMES = 1000


def _decode(action: int) -> tuple[int | None, int]:
    if action < 24:
        return None, action
    return (action - 24) // 24, (action - 24) % 24


def _encode(turn: Turn) -> int:
    return turn.dst if turn.src is None else 24 + turn.src * 24 + turn.dst


def openspiel_turns(state: Any) -> dict[Turn, Any]:
    """OpenSpiel's legal actions as turns, each with the state after the whole turn."""
    out: dict[Turn, Any] = {}
    player = state.current_player()
    for action in state.legal_actions():
        src, dst = _decode(action)
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:  # capture sub-state
            for removal in child.legal_actions():
                out[make_turn(src, dst, removal)] = child.child(removal)
        else:
            out[make_turn(src, dst, None)] = child
    return out


def _outcome(returns: list[float]) -> str:
    if returns[0] > 0:
        return "white"
    if returns[1] > 0:
        return "black"
    return "draw"


def _blocking_choice(pos: Position, turns: list[Turn], rng: random.Random) -> Turn:
    """A turn leaving the opponent the fewest legal turns (drives games into blocked endings)."""
    scored = []
    for turn in turns:
        pos.push(turn)
        scored.append((len(pos.legal_turns()), turn))
        pos.pop()
    low = min(n for n, _ in scored)
    return rng.choice([t for n, t in scored if n == low])


def _play_game(rng: random.Random, blocking: bool) -> tuple[int, str, bool]:
    """One seeded game checked step by step; returns (turns, end reason, reached the flying phase)."""
    pos = Position.start(OPENSPIEL)
    state = GAME.new_initial_state()
    flew = False
    while True:
        ours = pos.legal_turns()
        theirs = openspiel_turns(state) if not state.is_terminal() else {}
        assert set(ours) == set(theirs), (pos.text(), pos.turns, sorted(map(str, set(ours) ^ set(theirs))))
        assert len(ours) == len(set(ours))
        if not ours:
            break
        flew = flew or pos.phase() == "flying"
        if blocking and rng.random() < 0.7:
            turn = _blocking_choice(pos, ours, rng)
        elif blocking:  # keep men on the board: mostly turns without removal
            quiet = [t for t in ours if t.remove is None]
            turn = rng.choice(quiet if quiet and rng.random() < 0.8 else ours)
        else:
            turn = rng.choice(ours)
        pos.push(turn)
        state = theirs[turn]
    outcome = pos.outcome()
    assert state.is_terminal() and outcome is not None
    assert outcome.result == _outcome(state.returns()), (pos.text(), outcome, state.returns())
    assert pos.turns == int(str(state).split("Turn number: ")[1].split()[0])
    return pos.turns, outcome.termination, flew


@pytest.mark.slow
def test_random_games_agree_with_openspiel() -> None:
    """1,000 seeded games (half uniform random turns, half a blocking policy): at every step the same set
    of legal turns, and the same end (winner or draw, turn count)."""
    rng = random.Random(20261123)
    results = [_play_game(rng, blocking=i % 2 == 1) for i in range(N_GAMES)]
    reasons = Counter(reason for _, reason, _ in results)
    # the sample exercises every ending and the flying phase
    assert reasons[Termination.FEWER_THAN_THREE_MEN] >= 100
    assert reasons[Termination.NO_LEGAL_MOVE] >= 100
    assert reasons[Termination.TURN_LIMIT] >= 20 and max(n for n, _, _ in results) == 200
    assert sum(flew for _, _, flew in results) >= 300


def openspiel_perft(state: Any, depth: int, removal_plies: bool) -> int:
    """OpenSpiel's own perft (actions as plies, or turns with capture sub-states expanded)."""
    if removal_plies:
        if depth == 1:
            return len(state.legal_actions())
        return sum(openspiel_perft(state.child(a), depth - 1, True) for a in state.legal_actions())
    turns = openspiel_turns(state)
    if depth == 1:
        return len(turns)
    return sum(openspiel_perft(child, depth - 1, False) for child in turns.values())


@pytest.mark.parametrize(("removal_plies", "max_depth"), [(True, 5), (False, 4)])
def test_openspiel_perft_matches_golden_live(removal_plies: bool, max_depth: int) -> None:
    """OpenSpiel's own perft, computed live, gives the golden counts: the golden table is OpenSpiel's.

    (Depth 5 with turn-plies needs a child state per action at the last ply: ~10 s, so it stops at 4.)
    """
    golden = json.loads((Path(__file__).parents[1] / "data" / "morris_perft.json").read_text())
    key = "removal_plies" if removal_plies else "turn_plies"
    state = GAME.new_initial_state()
    for depth in range(1, max_depth + 1):
        theirs = openspiel_perft(state, depth, removal_plies)
        assert theirs == golden[key][str(depth)] == perft(Position.start(OPENSPIEL), depth, removal_plies)


def test_openspiel_perft_after_mills_live() -> None:
    """Mid-game positions (mills, captures, moving, flying): perft 3, both conventions, as OpenSpiel."""
    rng = random.Random(7)
    phases: Counter[str] = Counter()
    for _ in range(40):
        pos = Position.start(OPENSPIEL)
        state = GAME.new_initial_state()
        for _ in range(rng.randrange(10, 80)):
            turns = openspiel_turns(state) if not state.is_terminal() else {}
            if not turns:
                break
            mills = [t for t in turns if t.remove is not None]
            turn = rng.choice(sorted(mills if mills and rng.random() < 0.5 else turns, key=str))
            pos.push(turn)
            state = turns[turn]
        phases[pos.phase()] += 1
        for removal_plies in (True, False):
            assert openspiel_perft(state, 3, removal_plies) == perft(pos, 3, removal_plies), pos.text()
    assert set(phases) == {"placing", "moving", "flying"}, phases
