"""The checker-vs-CP-SAT agreement of a board rule, on any layout (tests/catan/test_constraints.py for the
base game, tests/catan/test_extended.py for the 5-6 player board).

Every rule has two faces: a checker (``rule.holds(board)``) and a CP-SAT encoding (``rule.encode(vars)``).
:func:`fixed_board_feasible` poses the encoding on a model whose board is fixed; :func:`assert_agree`
requires the two faces to agree on a board the checker accepts, on one it rejects (an encoding that forbids
everything, or nothing, fails) and on any others given.
"""

from __future__ import annotations

from collections.abc import Iterable

from ortools.sat.python import cp_model

from boardeval.catan import Board
from boardeval.catan.constraints import BoardVars, Rule

__all__ = ["EXTENDED_RULE_TEXTS", "RULE_TEXTS", "assert_agree", "fixed_board_feasible"]

RULE_TEXTS = [
    "no-same-resource-neighbours",
    "no-68-neighbours",
    "no-equal-number-neighbours",
    "2-12-apart",
    "wood-brick-apart",
    "68-different-resources",
    "max-spot-pips=11",
    "min-spot-pips=4",
    "max-cluster=2",
    "desert=coast",
    "resource-pips-band=10..13",
    "no-port-own-resource",
    "port-min-pips=4",
]
"""One rule text per rule family, for the base game (a new family belongs here: a test checks it is)."""

EXTENDED_RULE_TEXTS = [
    *(t for t in RULE_TEXTS if not t.startswith("resource-pips-band")),
    "desert=centre",
    "resource-pips-band=15..20",  # a resource has more hexes on this board
]
"""The same families on the 5-6 player board, with its own pip band, and the centre-desert rule as well."""


def fixed_board_feasible(board: Board, rule: Rule) -> bool:
    """The rule's CP-SAT encoding on a model (of the board's layout) fixed to ``board``: feasible or not."""
    model = cp_model.CpModel()
    bv = BoardVars.new(model, board.layout)
    for h, number in enumerate(board.numbers):
        model.add(bv.res[h][int(board.resource_index[h])] == 1)
        if number is not None:
            model.add(bv.num[h][number] == 1)
    for k, p in enumerate(board.ports):
        model.add(bv.port[k][p] == 1)
    rule.encode(bv)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return bool(status == cp_model.OPTIMAL)


def assert_agree(text: str, rule: Rule, good: Board, bad: Board, others: Iterable[Board] = ()) -> None:
    """Checker and encoding agree: both accept ``good``, both reject ``bad``, and agree on ``others``."""
    assert rule.holds(good) and fixed_board_feasible(good, rule), (text, good.code())
    assert not rule.holds(bad) and not fixed_board_feasible(bad, rule), (
        text,
        bad.code(),
        rule.violations(bad),
    )
    for b in others:
        assert fixed_board_feasible(b, rule) == rule.holds(b), (text, b.code())
