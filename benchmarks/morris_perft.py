"""Perft speed of our Morris engine against OpenSpiel driven from Python, in the same run.

Target (task brief): perft(5) from the start, both conventions, at >= 3x OpenSpiel's leaves per second.

Counting methods (stated because they decide the figures):

- OpenSpiel (``nine_mens_morris``, C++ behind pybind11): recursion with ``state.child(action)`` (one C++
  clone + apply per node). removal-plies: bulk counting at the last ply (``len(state.legal_actions())``,
  no child states). turn-plies: a turn is an action plus, in OpenSpiel's capture sub-state, the removal; the
  last turn-ply needs the child of each action to see whether it opens a capture sub-state (then its
  removal actions are counted in bulk), because OpenSpiel has no "does this action close a mill" query.
- ours, three figures:
  ``perft`` (default): raw side-relative bitboards, last ply counted by bit tricks, exact transposition
  cache keyed by the state itself and a closed form for the last two plies while both sides place;
  ``perft(cache=False)``: the same recursion without the cache and the closed form (plain figure);
  ``perft_generic``: through the public Position API (legal_turns/push/pop), bulk count at the last ply.

    .venv/bin/python benchmarks/morris_perft.py            # depth 5 (about a minute)
    .venv/bin/python benchmarks/morris_perft.py --depth 4  # quick
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import pyspiel

from _harness import load_text
from boardeval.morris import OPENSPIEL, Position, perft
from boardeval.morris._perft import perft_generic  # the reference implementation (not public API)

GOLDEN = {
    True: {1: 24, 2: 552, 3: 12144, 4: 255024, 5: 5100480, 6: 96223680},
    False: {1: 24, 2: 552, 3: 12144, 4: 255024, 5: 5140800, 6: 99274176},
}


def openspiel_removal_plies(state: Any, depth: int) -> int:
    """OpenSpiel perft, one ply per action, bulk count at the last ply."""
    if depth == 1:
        return len(state.legal_actions())
    return sum(openspiel_removal_plies(state.child(a), depth - 1) for a in state.legal_actions())


def openspiel_turn_plies(state: Any, depth: int) -> int:
    """OpenSpiel perft, one ply per turn (capture sub-states expanded into the turn)."""
    player = state.current_player()
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:  # capture sub-state
            if depth == 1:
                total += len(child.legal_actions())
            else:
                total += sum(openspiel_turn_plies(child.child(r), depth - 1) for r in child.legal_actions())
        else:
            total += 1 if depth == 1 else openspiel_turn_plies(child, depth - 1)
    return total


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = fn()
    return n, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    depth = args.depth
    game = pyspiel.load_game("nine_mens_morris")
    print(f"perft({depth}) from the start; before: {load_text()}")
    head = f"{'convention':<14} {'engine':<28} {'leaves':>12} {'seconds':>9} {'leaves/s':>13}"
    print(f"{head} {'vs OpenSpiel':>13}")
    start = Position.start(OPENSPIEL)
    for removal_plies in (True, False):
        conv = "removal-plies" if removal_plies else "turn-plies"
        os_fn = openspiel_removal_plies if removal_plies else openspiel_turn_plies
        os_n, os_t = timed(lambda fn=os_fn: fn(game.new_initial_state(), depth))  # type: ignore[misc]
        rows: list[tuple[str, int, float]] = [("OpenSpiel (Python-driven)", os_n, os_t)]
        rows.append(("ours: perft (cache)", *timed(lambda rp=removal_plies: perft(start, depth, rp))))
        rows.append(
            ("ours: perft (no cache)", *timed(lambda rp=removal_plies: perft(start, depth, rp, cache=False)))
        )
        rows.append(
            ("ours: perft_generic (API)", *timed(lambda rp=removal_plies: perft_generic(start, depth, rp)))
        )
        os_rate = os_n / os_t
        for name, n, secs in rows:
            ok = "" if n == GOLDEN[removal_plies].get(depth, n) else "  WRONG COUNT"
            rate = n / secs
            print(f"{conv:<14} {name:<28} {n:>12,} {secs:>9.3f} {rate:>13,.0f} {rate / os_rate:>12.1f}x{ok}")
    print(f"after: {load_text()}")
    print("target: ours >= 3x OpenSpiel's leaves/s at depth 5 (both conventions)")


if __name__ == "__main__":
    main()
