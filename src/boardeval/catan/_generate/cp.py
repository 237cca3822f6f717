"""CP-SAT generators on the true hex adjacency: satisfy rules, minimise the energy exactly, count boards.

The board is the one-hot model of :class:`~boardeval.catan.constraints.BoardVars` (tiles, tokens, ports
with the base game's counts); each rule posts its own encoding. The energy is minimised as the exact
integer ``1296 * energy`` (see :mod:`.common`): pair indicators for same-resource and 6/8 neighbours, the
corner and centre pip sums, and the variance numerator read from a table indexed by those two sums.

Reproducibility: CP-SAT is deterministic with one worker and no wall-clock limit deciding the answer, so
every time limit here is a budget of CP-SAT's deterministic time (:func:`~.common.set_budget`), never of
the wall clock, and the randomised "satisfy" mode runs one worker, hints a seeded uniform board (the
solver's first solution is then a board near that random one: seed-dependent, repeatable) and uses the
seed as the solver seed.
The optimum also runs one worker by default (measured: proofs take well under a second on the base
board), so the optimal board returned is the same on every run; ``workers=`` trades that for speed on
harder rule sets. Every board returned is re-checked by the independent energy and rule checkers.

Stopping: given a ``progress`` callback, :func:`cp_generate` re-sends its report every 0.1 s while CP-SAT
runs; a KeyboardInterrupt from it (the web's Cancel) stops the solver through ``stop_search``. The
optimum then keeps the best board found so far, flagged ``interrupted`` and not proven (and not cached);
``satisfy`` has nothing valid before its first solution, so the interrupt propagates.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ortools.sat.python import cp_model

from boardeval.catan._generate.common import (
    BoardState,
    GenerationResult,
    IntWeights,
    integer_weights,
    make_result,
    ports_weight,
    set_budget,
    solve_stoppable,
    variance_numerator,
)
from boardeval.catan._generate.harbours import best_harbours, start_harbours
from boardeval.catan._generate.layouts import gen_layout
from boardeval.catan.board import (
    NUMBER_TOKENS,
    PIPS,
    RESOURCES,
    Board,
    code_keys,
    layout_spec,
)
from boardeval.catan.constraints import NUMBERS, BoardVars, Rule, parse_rules, rules_text
from boardeval.catan.energy import (
    PORT_GENERIC_ADJACENT_COST,
    PORT_REACH_PIPS,
    PORT_UNREACHED_COST,
    board_energy,
    energy_json,
    port_geometry,
)
from boardeval.core import (
    Breakdown,
    CatanError,
    InfeasibleError,
    Progress,
    SeedLike,
    WeightSet,
    check_float,
    make_rng,
    quote,
    report,
)

__all__ = [
    "CountInterrupted",
    "Optimum",
    "count_boards",
    "count_solutions",
    "cp_generate",
    "optimum",
    "satisfy",
]


class CountInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a cancelling ``progress``) stopped :func:`count_solutions` / :func:`count_boards`:
    ``count`` solutions had been found, a lower bound. A KeyboardInterrupt, so a caller that does not
    look for it stops as on any Ctrl-C; the CLI prints the count, flagged ``interrupted``."""

    def __init__(self, count: int) -> None:
        super().__init__(f"interrupted after {count} solutions")
        self.count = count


DEFAULT_TIME_LIMIT = 20.0
"""CP-SAT budget of the generators, in seconds of deterministic time (:func:`~.common.set_budget`)."""
TOTAL_PIPS = sum(PIPS[n] for n in NUMBER_TOKENS)


@dataclass(frozen=True)
class Optimum:
    """The minimum energy under a rule set: the scaled integer value, a board reaching it, proof status."""

    scaled: int
    board: Board
    proven: bool
    seconds: float
    interrupted: bool = False
    """Ctrl-C (or a cancel) stopped the search: ``board`` is the best found so far, not proven."""
    work: float = 0.0
    """CP-SAT deterministic time spent (the budget's unit, :func:`~.common.set_budget`)."""

    @property
    def energy(self) -> float:
        return self.scaled / gen_layout(self.board.layout).scale

    def breakdown(self, weights: WeightSet | None = None) -> Breakdown:
        """The board's energy breakdown, by the independent float checker."""
        return board_energy(self.board, weights)

    def to_json(self, weights: WeightSet | None = None) -> dict[str, Any]:
        """``{"energy": {...}, "code": share code, "board": the same (deprecated), "optimal": bool,
        "seconds": x}`` (``catan optimum --json``), plus ``"interrupted": true`` when a stop cut the search
        short."""
        out: dict[str, Any] = {
            "energy": energy_json(self.breakdown(weights)),
            **code_keys(self.board.code()),
            "optimal": self.proven,
            "seconds": round(self.seconds, 6),
        }
        if self.interrupted:
            out["interrupted"] = True
        return out


def _model(
    rules: Sequence[Rule], ports: Sequence[str] | None = None, layout: str = "base"
) -> tuple[cp_model.CpModel, BoardVars]:
    """The board model of a layout with the rules posted; ``ports``: harbour letters per slot to fix
    (None: the harbours are decision variables, the ``balanced`` mode)."""
    model = cp_model.CpModel()
    bv = BoardVars.new(model, layout)
    for rule in rules:
        rule.encode(bv)
    if ports is not None:
        for k, letter in enumerate(ports):
            model.add(bv.port[k][letter] == 1)
    return model, bv


def _fail(status: Any, rules: Sequence[Rule], seconds: float) -> None:
    if status == cp_model.INFEASIBLE or status == cp_model.MODEL_INVALID:
        raise InfeasibleError(f"no board satisfies {rules_text(rules)}")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise CatanError(
            f"CP-SAT could not decide within its budget ({seconds:g} s of deterministic time) whether a "
            f"board satisfies {rules_text(rules)}"
        )


def port_objective(bv: BoardVars) -> Any:
    """Post the harbour term (raw, in harbour units; :mod:`boardeval.catan.energy`) over the harbour and
    tile variables and return it as a linear expression.

    Per slot k: ``own_k >= (pips of r at the slot's hexes)`` when slot k holds r; a literal per reach spot
    that, when true, forces the spot's pips of r to ``PORT_REACH_PIPS`` or more, and "slot k holds r
    implies one of them or ``unreached_k``"; per neighbouring slot pair, a literal at least "both 3:1".
    Minimisation drives every auxiliary down to its true value.
    """
    model = bv.model
    g = port_geometry(layout_spec(bv.geo.layout).topology)
    terms: list[Any] = []
    for k in range(len(g.spots)):
        own = model.new_int_var(0, max(PIPS.values()) * len(g.hexes[k]), f"port_own{k}")
        unreached = model.new_bool_var(f"port_unreached{k}")
        for r, letter in enumerate(RESOURCES):
            holds = bv.port[k][letter]
            own_r = sum(PIPS[n] * bv.both(h, r, n) for h in g.hexes[k] for n in NUMBERS)
            model.add(own >= own_r).only_enforce_if(holds)
            reached = []
            for s in g.reach[k]:
                z = model.new_bool_var(f"port_reach{k}_{r}_{s}")
                model.add(bv.spot_resource_pips(s, r) >= PORT_REACH_PIPS).only_enforce_if(z)
                reached.append(z)
            model.add_bool_or([holds.Not(), unreached, *reached])
        terms += [own, PORT_UNREACHED_COST * unreached]
    for a, b in g.neighbours:
        pair = model.new_bool_var(f"port_generic{a}_{b}")
        model.add(pair >= bv.port[a]["3"] + bv.port[b]["3"] - 1)
        terms.append(PORT_GENERIC_ADJACENT_COST * pair)
    return sum(terms)


def energy_objective(bv: BoardVars, weights: IntWeights) -> Any:
    """Post the scaled energy on ``bv.model`` and return it as a linear expression (the harbour term
    only when its weight is not 0, so a zero weight leaves seed 001's model unchanged)."""
    model = bv.model
    lay = gen_layout(bv.geo.layout)
    same_terms = []
    high_terms = []
    for a, b in lay.edge_pairs:
        s = model.new_bool_var(f"same{a}_{b}")
        for r in range(5):
            model.add(s >= bv.res[a][r] + bv.res[b][r] - 1)
        same_terms.append(s)
        hp = model.new_bool_var(f"high{a}_{b}")
        model.add(hp >= bv.hot[a] + bv.hot[b] - 1)
        high_terms.append(hp)
    total = lay.total_pips  # 58 on the base board, 88 on the 5-6 player board
    corners, centre = lay.regions[0], lay.regions[1]
    max_x = 5 * len(centre)
    sc = model.new_int_var(0, total, "sum_corners")
    sx = model.new_int_var(0, max_x, "sum_centre")
    model.add(sc == sum(bv.pips[h] for h in corners))
    model.add(sx == sum(bv.pips[h] for h in centre))
    # All pips are on the board (the deserts have none), so the edge sum is total - sc - sx and the
    # variance numerator is a function of (sc, sx): a (total + 1) x (max_x + 1) table (59 x 6 on the
    # base board) read with an element constraint (far tighter for the solver's bounds than multiplying
    # out the squares).
    if lay.name == "base":
        table = [variance_numerator(c, x, TOTAL_PIPS - c - x) for c in range(59) for x in range(6)]
    else:
        table = [
            lay.variance_numerator(c, x, total - c - x) for c in range(total + 1) for x in range(max_x + 1)
        ]
    index = model.new_int_var(0, len(table) - 1, "region_index")
    model.add(index == (max_x + 1) * sc + sx)
    var_num = model.new_int_var(min(table), max(table), "variance_numerator")
    model.add_element(index, table, var_num)
    w_same, w_high, w_var, w_ports = weights[0], weights[1], weights[2], ports_weight(weights)
    objective = lay.scale * (w_same * sum(same_terms) + w_high * sum(high_terms)) + w_var * var_num
    if w_ports:
        objective += lay.scale * w_ports * port_objective(bv)
    return objective


def satisfy(
    rules: Iterable[str | Rule] = (),
    seed: SeedLike = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Progress | None = None,
    ports: Sequence[str] | None = None,
    layout: str = "base",
) -> Board:
    """A board satisfying ``rules``, chosen by the seed (repeatable); InfeasibleError if none exists.
    A stop through ``progress`` before the first solution raises KeyboardInterrupt (nothing valid yet).
    ``ports``: harbour letters to keep on the slots (None: CP-SAT places them too)."""
    rule_list = parse_rules(rules)
    time_limit = _check_time_limit(time_limit)
    rng = make_rng(seed)
    model, bv = _model(rule_list, ports, layout)
    bv.add_hint(Board.random(rng, layout))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(rng.integers(0, 2**31 - 1))
    set_budget(solver, time_limit)
    status, stopped = solve_stoppable(solver, model, progress, (0, 1, "searching for a board"))
    if stopped and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise KeyboardInterrupt
    _fail(status, rule_list, time_limit)
    return bv.read(solver)


def optimum(
    rules: Iterable[str | Rule] = (),
    weights: WeightSet | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    ports: Sequence[str] | None = None,
    layout: str = "base",
) -> Optimum:
    """The minimum energy under ``rules`` and a board reaching it (``proven`` when CP-SAT proved it).

    ``ports``: None (default) makes the harbour kinds decision variables, so the minimum is that of the
    energy with its harbour term over tiles, tokens and harbours; harbour letters per slot fix them
    (the minimum for those harbours). Results are cached for the process per (rules, weights, ports)
    (the annealer's tests and benchmark compare against them).
    """
    rule_list = parse_rules(rules)
    w = integer_weights(weights)
    fixed = None if ports is None else tuple(ports)
    try:
        return _optimum_cached(rule_list, w, _check_time_limit(time_limit), workers, fixed, layout)
    except _Stopped as stop:  # Ctrl-C: the best board so far, flagged, and not cached
        return stop.optimum


class _Stopped(Exception):
    """Carries an optimum search cut short out of the cache (``lru_cache`` does not keep exceptions)."""

    def __init__(self, optimum: Optimum) -> None:
        super().__init__("stopped")
        self.optimum = optimum


@lru_cache(maxsize=32)
def _optimum_cached(
    rule_list: tuple[Rule, ...],
    w: IntWeights,
    time_limit: float,
    workers: int,
    ports: tuple[str, ...] | None = None,
    layout: str = "base",
) -> Optimum:
    opt, stopped = _optimum_run(rule_list, w, time_limit, workers, None, ports, layout)
    if stopped:
        raise _Stopped(opt)
    return opt


def _optimum_run(
    rule_list: tuple[Rule, ...],
    w: IntWeights,
    time_limit: float,
    workers: int,
    progress: Progress | None,
    ports: Sequence[str] | None = None,
    layout: str = "base",
) -> tuple[Optimum, bool]:
    """The optimum search itself and whether a stop cut it short (then the board is the best so far).

    With a harbour weight, two phases: first the energy without the harbour term (the smaller model of
    seed 001's energy), whose optimum is a lower bound of the full energy (the harbour term is >= 0);
    its board gets the best harbours for its tiles (:func:`~.harbours.best_harbours`, rules kept) when
    the harbours are free. When that board's full energy equals the bound, it is proven optimal without
    a second solve (the usual case: harbours cost nothing at the optimum). Otherwise the full model is
    solved, hinted with that board.
    """
    t0 = time.perf_counter()
    w_tiles = (w[0], w[1], w[2], 0)
    if ports_weight(w):
        first, stopped = _optimum_run(rule_list, w_tiles, time_limit, workers, progress, ports, layout)
        if stopped:
            return first, stopped
        board = first.board if ports is not None else best_harbours(first.board, rule_list)
        value = BoardState(board, w).energy()
        if first.proven and value == first.scaled:
            return Optimum(value, board, True, time.perf_counter() - t0, work=first.work), False
        hint: Board | None = board
        used = first.work
    else:
        hint = None
        used = 0.0
    model, bv = _model(rule_list, ports, layout)
    objective = energy_objective(bv, w)
    model.minimize(objective)
    if hint is not None:
        bv.add_hint(hint)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, workers)
    set_budget(solver, max(time_limit - used, 0.01))
    status, stopped = solve_stoppable(solver, model, progress, (0, 1, "minimising the energy"))
    if stopped and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise KeyboardInterrupt
    _fail(status, rule_list, time_limit)
    board = bv.read(solver)
    proven = status == cp_model.OPTIMAL
    cut = stopped and not proven
    work = used + solver.deterministic_time
    return Optimum(round(solver.objective_value), board, proven, time.perf_counter() - t0, cut, work), cut


def count_boards(
    rules: Iterable[str | Rule] = (),
    limit: int = 1000,
    time_limit: float = 60.0,
    progress: Progress | None = None,
    layout: str = "base",
) -> tuple[int, bool]:
    """Count full boards (tiles, tokens and ports) of a layout satisfying ``rules``, up to ``limit``.

    Returns ``(count, complete)``: ``complete`` is True when the enumeration finished (the count is exact),
    False when it stopped at ``limit`` or ``time_limit``. An infeasible set gives ``(0, True)``. Ctrl-C
    raises :class:`CountInterrupted` carrying the count so far.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise CatanError(f"count limit must be an integer >= 1, got {quote(limit)}")
    rule_list = parse_rules(rules)
    model, _ = _model(rule_list, layout=layout)
    return count_solutions(model, limit, _check_time_limit(time_limit), progress, what="boards found")


MAX_TIME_LIMIT = 86_400.0
"""Longest CP-SAT time limit accepted (a day); NaN, infinities and values <= 0 are refused."""


def _check_time_limit(seconds: float) -> float:
    """A CP-SAT time limit: a finite number of seconds in (0, :data:`MAX_TIME_LIMIT`]."""
    t = check_float(seconds, "time limit (seconds)", hi=MAX_TIME_LIMIT, error=CatanError)
    if t <= 0:
        raise CatanError(f"time limit (seconds) must be > 0, got {quote(seconds)}")
    return t


def count_solutions(
    model: cp_model.CpModel,
    limit: int | None = None,
    time_limit: float = 60.0,
    progress: Progress | None = None,
    *,
    what: str = "solutions found",
) -> tuple[int, bool]:
    """Enumerate the solutions of ``model`` with CP-SAT (one worker, as enumeration requires).

    Stops at ``limit`` solutions (None: no limit) or ``time_limit`` seconds of CP-SAT's deterministic
    time (:func:`~.common.set_budget`: the same count and verdict on a slow or loaded machine). Returns
    ``(count, complete)``: ``complete`` is True when the enumeration finished (the count is exact), False
    when it stopped early. An infeasible model gives ``(0, True)``. Ctrl-C, or ``progress`` raising
    KeyboardInterrupt, stops the search and raises :class:`CountInterrupted` with the count so far (CP-SAT's
    own Ctrl-C handler used to end the search as if the limit had been reached: exit 0, no flag).
    """

    class _Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1
            if limit is not None and self.n >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    set_budget(solver, time_limit)
    cb = _Counter()

    def tick(*_: object) -> None:  # on the calling thread, every STOP_POLL_SECONDS
        report(progress, cb.n, limit or 0, what)

    status, stopped = solve_stoppable(solver, model, tick if progress is not None else None, (0, 0, what), cb)
    if stopped:
        raise CountInterrupted(cb.n)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and (limit is None or cb.n < limit)
    return cb.n, complete


def cp_generate(
    seed: int,
    rules: Sequence[Rule] = (),
    *,
    minimise: bool = False,
    weights: WeightSet | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Progress | None = None,
    ports: str = "balanced",
    layout: str = "base",
) -> GenerationResult:
    """``method="cp"``: a seeded board satisfying the rules, or (``minimise``) a proven-optimal one.

    With ``progress``, a KeyboardInterrupt from it stops CP-SAT (module docstring): the optimum keeps its
    best board so far, flagged ``interrupted``; the result is then computed afresh, not from the cache.
    ``ports`` (:mod:`.harbours`): ``balanced`` lets CP-SAT place the harbours (the optimum minimises the
    harbour term with the rest; a satisfying board then gets the best harbours for its tiles that keep
    the rules); ``fixed`` / ``random`` fix them to the seed's drawn / reshuffled harbours.
    """
    t0 = time.perf_counter()
    fixed = (
        None
        if ports == "balanced"
        else start_harbours(Board.random(make_rng(seed), layout), ports, seed).ports
    )
    if minimise:
        if progress is None:
            opt = optimum(rules, weights, time_limit, ports=fixed, layout=layout)
            stopped = opt.interrupted
        else:
            rule_list = parse_rules(rules)
            w = integer_weights(weights)
            opt, stopped = _optimum_run(
                rule_list, w, _check_time_limit(time_limit), 1, progress, fixed, layout
            )
        return make_result(
            opt.board,
            rules,
            "cp",
            seed,
            time.perf_counter() - t0,
            weights,
            optimal=opt.proven,
            interrupted=stopped,
            ports=ports,
        )
    board = satisfy(rules, seed, time_limit, progress, ports=fixed, layout=layout)
    if ports == "balanced":
        board = best_harbours(board, parse_rules(rules))
    return make_result(
        board, rules, "cp", seed, time.perf_counter() - t0, weights, optimal=False, ports=ports
    )
