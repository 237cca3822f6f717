"""The fairness dial and the one entry point, :func:`generate`.

**Fairness dial** ``f`` in 0..1 (seed 004: perfectly balanced boards play slowly, so users choose how
balanced they want it). With ``method="anneal"``:

* draw the seeded uniform board; its objective (energy, plus rule penalties) is ``E0``;
* ``E*`` is the optimum: the proven lower bound without rules (:func:`~.common.energy_lower_bound`,
  tight on the base board) or the CP-SAT optimum under the rules;
* anneal from that board and stop at the **first** board whose objective is at most
  ``E0 - f (E0 - E*)``.

So ``f = 0`` returns the random board itself, ``f = 1`` an optimal board, and ``f = 0.5`` the first board
on the annealing path that has shed half of the excess energy. The path depends only on the seed, and a
lower target can only stop later on it, so for every seed the energy is non-increasing in ``f`` (the mean
falls monotonically: a test over many seeds and ``benchmarks/catan_anneal.py`` show it). With rules and
``f = 1`` the board is CP-SAT's proven optimum.

Harbours (``ports``, :mod:`.harbours`): the start board gets its harbours as the mode says (``random``
reshuffles them); ``balanced`` lets the annealer move them, ``fixed`` / ``random`` keep them, and then
``E*`` is CP-SAT's optimum for those harbours (the lower bound need not be reachable with them).

The CP-SAT methods are imported where they are used, so importing :func:`generate` does not load OR-Tools
(a quarter of a second): only the ``cp`` and ``tournament`` methods and the dial under rules need it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

from boardeval.catan._generate.anneal import _lower_bound, _rule_penalty, anneal
from boardeval.catan._generate.common import (
    METHODS,
    BoardState,
    GenerationResult,
    integer_weights,
    ports_weight,
)
from boardeval.catan._generate.harbours import check_ports_mode, start_harbours
from boardeval.catan._generate.random import random_board
from boardeval.catan.board import Board
from boardeval.catan.constraints import Rule, parse_rules
from boardeval.core import ParamsError, Progress, WeightSet, make_rng

__all__ = ["check_fairness", "fairness_anneal", "generate"]


def check_fairness(fairness: float) -> float:
    """Validate a dial value: a finite number in 0..1."""
    if isinstance(fairness, bool) or not isinstance(fairness, int | float) or not math.isfinite(fairness):
        raise ParamsError(f"fairness must be a number in 0..1, got {fairness!r}")
    if not 0.0 <= float(fairness) <= 1.0:
        raise ParamsError(f"fairness must be in 0..1, got {fairness!r}")
    return float(fairness)


def fairness_anneal(
    seed: int,
    fairness: float,
    rules: Iterable[str | Rule] = (),
    weights: WeightSet | None = None,
    progress: Progress | None = None,
    ports: str = "balanced",
    layout: str = "base",
) -> GenerationResult:
    """``method="anneal"`` with the dial at ``fairness`` (module docstring), on ``layout``'s board."""
    from boardeval.catan._generate.cp import cp_generate, optimum  # OR-Tools: loaded when used

    f = check_fairness(fairness)
    rule_list = parse_rules(rules)
    w = integer_weights(weights)
    start = start_harbours(Board.random(make_rng(seed), layout), ports, seed)
    kept = None if ports == "balanced" else start.ports
    if rule_list and f == 1.0:
        result = cp_generate(
            seed, rule_list, minimise=True, weights=weights, progress=progress, ports=ports, layout=layout
        )
        return _with(result, "anneal", f)
    state = BoardState(start, w)
    e0 = state.energy() + _rule_penalty(layout) * sum(len(r.violations(start)) for r in rule_list)
    if rule_list or (kept is not None and ports_weight(w)):
        e_star = optimum(rule_list, weights, ports=kept, layout=layout).scaled
    else:
        e_star = _lower_bound(w, layout)
    target = math.floor(e0 - f * (e0 - e_star))
    # the start already carries the mode's harbours: the annealer keeps them (fixed) or moves them
    moves = "balanced" if ports == "balanced" else "fixed"
    result = anneal(
        seed, rule_list, weights=weights, start=start, target=target, progress=progress, ports=moves
    )
    return dataclasses.replace(_with(result, "anneal", f), ports=ports)


def _with(result: GenerationResult, method: str, fairness: float) -> GenerationResult:
    """The result relabelled as the dial's: ``method`` and the ``fairness`` value asked for."""
    return dataclasses.replace(result, method=method, fairness=fairness)


def generate(
    method: str,
    seed: int,
    rules: Iterable[str | Rule] = (),
    fairness: float | None = None,
    progress: Progress | None = None,
    weights: WeightSet | None = None,
    ports: str | None = None,
    layout: str = "base",
) -> GenerationResult:
    """Generate a board: ``method`` in random | anneal | cp | tournament, reproducible from ``seed``,
    on ``layout``'s board (``"base"``, or ``"extended"``: the 5-6 player board; every method works on
    both, with the energy, rules and bounds of the layout).

    * ``random``: uniform shuffle; rules are reported, not enforced (``fairness`` 0 or None).
    * ``anneal``: our annealer with the rules as penalties; ``fairness`` sets the dial (default: 1).
    * ``cp``: a seeded board satisfying the rules (CP-SAT); ``fairness=1`` minimises the energy exactly,
      ``0`` (or None) does not balance beyond the rules.
    * ``tournament``: random, then repaired with the fewest swaps (default rules: max-spot-pips=12,
      max-cluster=2 when no rule is given); it does not balance the energy (``fairness`` 0 or None).

    The dial's ends mean the same for every method: 0 = no balancing beyond the rules, 1 = the fairest
    board the rules allow (the proven minimum energy); values between are anneal's alone.

    ``ports`` (:mod:`.harbours`): ``random``, ``fixed`` or ``balanced``; None = the method's default
    (``fixed`` for random, ``balanced`` for the others).

    Every result's energy and rule status come from the independent checkers.
    """
    if method not in METHODS:
        raise ParamsError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    make_rng(seed)  # validates the seed
    rule_list = parse_rules(rules)
    f = None if fairness is None else check_fairness(fairness)
    mode = check_ports_mode(ports if ports is not None else ("fixed" if method == "random" else "balanced"))
    if method == "random":
        if f not in (None, 0.0):
            raise ParamsError(f"fairness {f} needs --method anneal (random is fairness 0)")
        result = random_board(seed, rule_list, weights, ports=mode, layout=layout)
        return result if f is None else _with(result, method, f)
    if method == "anneal":
        if f is None:
            return anneal(seed, rule_list, weights=weights, progress=progress, ports=mode, layout=layout)
        return fairness_anneal(seed, f, rule_list, weights, progress, ports=mode, layout=layout)
    if method == "cp":
        from boardeval.catan._generate.cp import cp_generate  # OR-Tools: loaded when used

        if f not in (None, 0.0, 1.0):
            raise ParamsError(
                f"fairness {f} needs --method anneal (cp takes 0 = any board meeting the rules, 1 = optimal)"
            )
        result = cp_generate(
            seed, rule_list, minimise=f == 1.0, weights=weights, progress=progress, ports=mode, layout=layout
        )
        return result if f is None else _with(result, method, f)
    if f not in (None, 0.0):
        raise ParamsError(
            f"fairness {f} does not apply to --method tournament (it repairs the rules only: 0; use anneal)"
        )
    from boardeval.catan._generate.tournament import tournament  # OR-Tools: loaded when used

    result = tournament(
        seed, rule_list or None, weights=weights, progress=progress, ports=mode, layout=layout
    )
    return result if f is None else _with(result, method, f)
