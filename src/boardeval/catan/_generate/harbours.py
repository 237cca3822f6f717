"""Harbours in generation (issue 16): the ``--ports`` modes and the exact best harbours for given tiles.

``ports`` modes, for every generator (``random``, ``anneal``, ``cp``, ``tournament``, the fairness dial):

* ``fixed``: the start board's harbours are kept as drawn (the seeded uniform board's own harbour draw,
  or the ``start`` board's harbours). This is how every generator placed harbours before issue 16, and
  the default of ``--method random`` (whose drawn harbours are a uniform shuffle already).
* ``random``: the harbour kinds are shuffled on the slots by their own seeded stream
  (``numpy.random.default_rng((seed, 16))``), independent of the tiles, then kept.
* ``balanced`` (default of anneal, cp and tournament): the harbours are placed by the harbour term of the
  energy (:mod:`boardeval.catan.energy`): annealing swaps them, CP-SAT decides them, and
  :func:`best_harbours` places them exactly for given tiles (``random`` with balanced harbours, the
  ``cp`` satisfy mode, the tournament's harbour swaps, the annealer's final polish).

:func:`best_harbours` enumerates every distinct arrangement of the board's harbour kinds on its slots
(9!/4! = 15,120 on the base board, 11!/(5! 2!) = 166,320 on the 5-6 player board) and scores them all at
once with numpy: the harbour term splits into a cost per (slot, 2:1 kind) plus the neighbouring-3:1
pairs. Among the arrangements that keep the given rules, the board's own wins when it is among the
cheapest, else the first of least cost in a fixed enumeration order: exact and deterministic. The two
harbour rules are per (slot, kind) for given tiles (``no-port-own-resource``: no own-resource hex at the
slot; ``port-min-pips=N``: a reach spot makes N pips of the kind), so they become a mask over the
arrangements; every other rule does not depend on the harbours. The winner is re-checked with the
rules' own checkers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import RESOURCES, Board
from boardeval.catan.constraints import Rule
from boardeval.catan.energy import (
    PORT_GENERIC_ADJACENT_COST,
    PORT_REACH_PIPS,
    PORT_UNREACHED_COST,
    port_geometry,
)
from boardeval.core import ParamsError, quote

__all__ = ["PORTS_MODES", "best_harbours", "check_ports_mode", "harbour_costs", "start_harbours"]

PORTS_MODES: tuple[str, ...] = ("random", "fixed", "balanced")
HARBOUR_RULES: frozenset[str] = frozenset({"no-port-own-resource", "port-min-pips"})
"""The rules that depend on where the harbours are."""
PORTS_STREAM = 16
"""Second word of the seed sequence of the ``random`` harbour shuffle (``(seed, 16)``: issue 16)."""


def check_ports_mode(mode: object) -> str:
    """A ``ports`` mode (``random``, ``fixed`` or ``balanced``); ParamsError quoting anything else."""
    if not isinstance(mode, str) or mode not in PORTS_MODES:
        raise ParamsError(f"unknown ports mode {quote(mode)}; choose one of {', '.join(PORTS_MODES)}")
    return mode


def start_harbours(board: Board, mode: str, seed: int) -> Board:
    """The start board with its harbours as ``mode`` wants them before any optimisation: ``random``
    reshuffles them from the seed's own harbour stream; ``fixed`` and ``balanced`` keep them."""
    if check_ports_mode(mode) != "random":
        return board
    rng = np.random.default_rng((int(seed), PORTS_STREAM))
    ports = tuple(board.ports[i] for i in rng.permutation(len(board.ports)))
    return Board(board.resources, board.numbers, ports, layout=board.layout)


def harbour_costs(board: Board) -> npt.NDArray[np.int64]:
    """(slots, 5) harbour units a 2:1 harbour of each resource would cost on each slot, for the board's
    tiles: its own-resource pips plus ``PORT_UNREACHED_COST`` when it would be out of reach."""
    g = port_geometry(board.topology)
    res, pips = board.resource_index.tolist(), board.pips.tolist()
    out = np.zeros((len(g.spots), len(RESOURCES)), dtype=np.int64)
    for k in range(len(g.spots)):
        for r in range(len(RESOURCES)):
            own = sum(pips[h] for h in g.hexes[k] if res[h] == r)
            reached = any(
                sum(pips[h] for h in hexes if res[h] == r) >= PORT_REACH_PIPS for hexes in g.reach_hexes[k]
            )
            out[k, r] = own + (0 if reached else PORT_UNREACHED_COST)
    return out


@lru_cache(maxsize=8)
def _arrangements(kinds: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Every distinct arrangement of the sorted multiset ``kinds`` (resource index, -1 = 3:1), in a fixed
    order: shape (arrangements, slots)."""
    n = len(kinds)
    generic = sum(1 for x in kinds if x < 0)
    special = sorted(x for x in kinds if x >= 0)
    perms = sorted(set(itertools.permutations(special)))
    rows: list[list[int]] = []
    for where in itertools.combinations(range(n), generic):
        rest = [i for i in range(n) if i not in where]
        for p in perms:
            row = [-1] * n
            for i, x in zip(rest, p, strict=True):
                row[i] = x
            rows.append(row)
    a = np.array(rows, dtype=np.int64)
    a.setflags(write=False)
    return a


def _letters(row: Sequence[int]) -> tuple[str, ...]:
    return tuple("3" if x < 0 else RESOURCES[x] for x in row)


def _allowed(board: Board, rules: Sequence[Rule]) -> npt.NDArray[np.bool_]:
    """(slots, 5): may slot k hold a 2:1 harbour of resource r under the harbour rules in ``rules``."""
    g = port_geometry(board.topology)
    res, pips = board.resource_index.tolist(), board.pips.tolist()
    ok = np.ones((len(g.spots), len(RESOURCES)), dtype=np.bool_)
    for rule in rules:
        for k in range(len(g.spots)):
            for r in range(len(RESOURCES)):
                if rule.name == "no-port-own-resource" and any(res[h] == r for h in g.hexes[k]):
                    ok[k, r] = False
                if rule.name == "port-min-pips" and not any(
                    sum(pips[h] for h in hexes if res[h] == r) >= int(rule.param)
                    for hexes in g.reach_hexes[k]
                ):
                    ok[k, r] = False
    return ok


def best_harbours(board: Board, rules: Sequence[Rule] = ()) -> Board:
    """``board`` with the harbour arrangement of least harbour term for its tiles (module docstring),
    among those under which the harbour rules in ``rules`` hold; the board itself when none does."""
    g = port_geometry(board.topology)
    own_row = np.array(board.port_index, dtype=np.int64)
    arr = _arrangements(tuple(sorted(int(x) for x in own_row.tolist())))
    costs = harbour_costs(board)
    padded = np.concatenate([np.zeros((costs.shape[0], 1), dtype=np.int64), costs], axis=1)
    slots = np.arange(arr.shape[1])
    total = padded[slots, arr + 1].sum(axis=1)
    for a, b in g.neighbours:
        total += PORT_GENERIC_ADJACENT_COST * ((arr[:, a] < 0) & (arr[:, b] < 0))
    allowed = np.concatenate([np.ones((costs.shape[0], 1), dtype=np.bool_), _allowed(board, rules)], axis=1)
    feasible: npt.NDArray[np.bool_] = np.asarray(allowed[slots, arr + 1].all(axis=1), dtype=np.bool_)
    if not feasible.any():
        return board
    pick = int(np.argmin(np.where(feasible, total, np.iinfo(np.int64).max)))
    # the board's own arrangement wins ties (no needless harbour swaps)
    own = np.flatnonzero((arr == own_row).all(axis=1))
    if own.size and bool(feasible[int(own[0])]) and total[int(own[0])] == total[pick]:
        return board
    best = _with_ports(board, arr[pick])
    port_rules = [r for r in rules if r.name in HARBOUR_RULES]
    if not all(r.holds(best) for r in port_rules):  # the mask and the checkers disagree: a bug
        raise AssertionError(f"best_harbours broke {[str(r) for r in port_rules]} on {best.code()}")
    return best


def _with_ports(board: Board, row: npt.NDArray[np.int64]) -> Board:
    return Board(board.resources, board.numbers, _letters(row.tolist()), layout=board.layout)
