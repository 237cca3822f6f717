"""Tournament ("semi-constructed") boards: randomise, then repair with the fewest swaps until rules hold.

Seed 004 quotes the US qualifiers: numbers and resources are randomised, then adjusted "so there aren't
any 6-8-5 spots or too heavy a concentration of a certain resource". Default rules: ``max-spot-pips=12``
(bans 6-8-5, 6-6-5, 8-8-5 spots... any spot above 12 pips) and ``max-cluster=2``.

"Fewest swaps", precisely: a swap exchanges the resources of two hexes (``resources``; tokens stay), the
tokens of two hexes (``numbers``), or the kinds of two port slots (``ports``); the repaired board is one
that the **smallest number of such swaps** turns the random board into while every rule holds.

1. The desert stays where it was drawn, unless a ``desert=`` rule rejects its place: then one whole-tile
   swap (``hexes``) first moves it, with its empty token slot, to the nearest allowed hex (ties by seed).
2. Upper bound: CP-SAT finds the repaired board displacing the fewest items (hexes whose resource or
   token changes, port slots whose kind changes), realised by :func:`plan_swaps` (2-cycles first, then
   3-cycles, then one item at a time).
3. Exact: :func:`exact_swaps` models up to that many swaps as CP-SAT layers (layer t = layer t-1 with at
   most one pair exchanged; rules on the last layer) and minimises the swaps used. When the solver proves
   it (``extras["swaps_proven_minimal"]``, the usual case within a second or two), the swap count is the
   true minimum; otherwise the best plan found is kept, flagged unproven.

The swaps are listed in order (they do not commute in general) and replayed on the random board as a
check before the result is returned.

Stopping: while CP-SAT runs, the calling thread re-sends the current progress report every 0.1 s
(:func:`~.common.solve_stoppable`); on Ctrl-C, or when the callback raises :class:`KeyboardInterrupt` (the
web job runner does so once a cancel is asked), the solver is stopped with ``stop_search`` and the best
valid plan found so far is kept, flagged ``interrupted`` (the drawn board only when no repair was found
yet), in the repair and in the proof alike.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from ortools.sat.python import cp_model

from boardeval.catan._generate.common import (
    DEFAULT_TOURNAMENT_RULES,
    GenerationResult,
    Swap,
    make_result,
    set_budget,
    solve_stoppable,
)
from boardeval.catan._generate.harbours import best_harbours, start_harbours
from boardeval.catan.board import (
    DESERT_INDEX,
    Board,
)
from boardeval.catan.constraints import BoardVars, Rule, layout_geometry, parse_rules, rules_text
from boardeval.catan.energy import energy_weights
from boardeval.core import CatanError, InfeasibleError, Progress, WeightSet, make_rng, report

__all__ = ["DEFAULT_TOURNAMENT_RULES", "plan_swaps", "tournament"]


def plan_swaps(current: Sequence[object], target: Sequence[object], kind: str) -> list[Swap]:
    """Swaps turning ``current`` into ``target`` (same multiset), closing short cycles first.

    Every swap puts at least one item in place; 2-cycles (one swap fixes two) are closed first, then
    3-cycles (two swaps fix three), then any swap that fixes one item.
    """
    cur = list(current)
    if sorted(map(str, cur)) != sorted(map(str, target)):
        raise CatanError(f"cannot turn {cur} into {list(target)}: different items")
    swaps: list[Swap] = []

    def do(i: int, j: int) -> None:
        cur[i], cur[j] = cur[j], cur[i]
        swaps.append(Swap(kind, min(i, j), max(i, j)))

    n = len(cur)
    wrong = [i for i in range(n) if cur[i] != target[i]]
    # 2-cycles
    for i in wrong:
        if cur[i] == target[i]:
            continue
        for j in wrong:
            if j > i and cur[j] != target[j] and cur[j] == target[i] and cur[i] == target[j]:
                do(i, j)
                break
    # 3-cycles: i -> j -> k -> i
    changed = True
    while changed:
        changed = False
        wrong = [i for i in range(n) if cur[i] != target[i]]
        for i in wrong:
            for j in wrong:
                if j == i or cur[j] != target[i]:
                    continue
                for k in wrong:
                    if k in (i, j) or cur[k] != target[j] or cur[i] != target[k]:
                        continue
                    do(i, j)  # i now right; j holds old cur[i] which k wants... close with one more
                    do(j, k)
                    changed = True
                    break
                if changed:
                    break
            if changed:
                break
    # the rest: fix one at a time
    for i in range(n):
        if cur[i] != target[i]:
            j = next(j for j in range(n) if j != i and cur[j] == target[i] and cur[j] != target[j])
            do(i, j)
    return swaps


def _desert_move(board: Board, rules: Sequence[Rule], seed: int) -> tuple[Board, list[Swap]]:
    """Move each desert the desert rules reject (whole-tile swap) to the nearest hex they allow, if
    needed (one desert on the base board, two on the 5-6 player board, moved in id order)."""
    desert_rules = [r for r in rules if r.name == "desert"]
    swaps: list[Swap] = []
    rng = make_rng(seed)
    g = layout_geometry(board.layout)
    allowed = set(range(board.n_hexes))
    for r in desert_rules:
        if r.param in ("centre", "coast"):
            allowed &= set(g.centre_hexes if r.param == "centre" else g.coast_hexes)
    neighbours = board.topology.hex_neighbours
    for d in board.deserts:
        if d in allowed:
            continue  # this desert is where the rules want it
        # breadth-first by hex distance from the desert
        dist = {d: 0}
        frontier = [d]
        while frontier:
            nxt = []
            for h in frontier:
                for nb in neighbours[h]:
                    if nb not in dist:
                        dist[nb] = dist[h] + 1
                        nxt.append(nb)
            frontier = nxt
        options = []
        for h in range(board.n_hexes):
            if h in allowed and h not in board.deserts:
                options.append(h)
        if not options:
            raise InfeasibleError(f"no board satisfies {rules_text(desert_rules)}")
        near = min(dist[h] for h in options)
        ties = sorted(h for h in options if dist[h] == near)
        pick = ties[int(rng.integers(0, len(ties)))]
        board = board.with_swapped_hexes(d, pick)
        swaps.append(Swap("hexes", min(d, pick), max(d, pick)))
    if not all(r.holds(board) for r in desert_rules):
        raise InfeasibleError(f"no board satisfies {rules_text(desert_rules)}")
    return board, swaps


def exact_swaps(
    board: Board,
    rules: Sequence[Rule],
    max_swaps: int,
    time_limit: float,
    seed: int,
    min_swaps: int = 0,
    progress: Progress | None = None,
    move_ports: bool = True,
) -> tuple[list[Swap], bool, bool] | None:
    """The fewest swaps (resources, numbers or ports; the desert stays) after which ``rules`` hold.

    CP-SAT over ``max_swaps`` layers: layer 0 is ``board``, each later layer is the previous one with at
    most one pair of hexes (or port slots) exchanged, the last layer must satisfy the rules, and the
    number of non-idle layers is minimised. Returns ``(swaps, proven, stopped)`` or None when the solver
    found nothing within the time limit. A stop (Ctrl-C, or through ``progress``: see
    :func:`~.common.solve_stoppable`) keeps the best plan found so far (unproven, ``stopped``) and raises
    KeyboardInterrupt only when there is none.
    """
    model = cp_model.CpModel()
    final = BoardVars.new(model, board.layout)
    for rule in rules:
        rule.encode(final)
    land = [h for h in range(board.n_hexes) if h not in board.deserts]
    hex_pairs = [(a, b) for i, a in enumerate(land) for b in land[i + 1 :]]
    n_ports = board.n_ports
    port_pairs = [(a, b) for a in range(n_ports) for b in range(a + 1, n_ports)] if move_ports else []
    # per kind: the swappable pairs, the values, layer 0 (fixed 0/1) and the last layer (the rule model)
    num_kinds = sorted({x for x in board.numbers if x is not None})
    port_kinds = sorted(set(board.ports))
    last_num = [{n: final.num[h][n] for n in num_kinds} for h in range(board.n_hexes)]
    families: list[tuple[str, list[tuple[int, int]], list[Any], list[dict[Any, Any]]]] = [
        ("resources", hex_pairs, list(range(6)), final.res),
        ("numbers", hex_pairs, num_kinds, last_num),
        ("ports", port_pairs, port_kinds, final.port),
    ]
    prev = [
        _fixed(board.resource_index.tolist(), range(6)),
        _fixed(board.numbers, num_kinds),
        _fixed(board.ports, port_kinds),
    ]
    used: list[Any] = []
    choices: list[list[tuple[str, int, int, Any]]] = []
    for t in range(1, max_swaps + 1):
        # all of this layer's variables first, then the exchanges (the model's order decides the solver's
        # path, and with it which of several minimal swap lists comes out)
        cur = [
            last if t == max_swaps else [{v: model.new_bool_var("") for v in values} for _ in last]
            for _, _, values, last in families
        ]
        step: list[tuple[str, int, int, Any]] = []
        for (kind, pairs, values, _), p_layer, c_layer in zip(families, prev, cur, strict=True):
            step += _swap_layer(model, f"{kind}{t}", kind, pairs, values, p_layer, c_layer)
        u = model.new_bool_var(f"used{t}")
        model.add(sum(x for *_, x in step) == u)
        if used:
            model.add(used[-1] >= u)  # idle steps come last
        used.append(u)
        choices.append(step)
        prev = cur
    # a lower bound the caller may know (each swap displaces at most two items)
    model.add(sum(used) >= min(min_swaps, max_swaps))
    model.minimize(sum(used))
    solver = _solver(seed, time_limit)
    status, stopped = solve_stoppable(solver, model, progress, (1, 2, "proving the fewest swaps"))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if stopped:
            raise KeyboardInterrupt
        return None
    swaps = [Swap(kind, a, b) for step in choices for kind, a, b, x in step if solver.boolean_value(x)]
    return swaps, status == cp_model.OPTIMAL and not stopped, stopped


def _fixed(values: Sequence[object], kinds: Iterable[object]) -> list[dict[Any, Any]]:
    """Layer 0 of one kind: per item, a 0/1 constant for each value (1 for the board's own)."""
    kind_list = list(kinds)
    return [{v: int(x == v) for v in kind_list} for x in values]


def _swap_layer(
    model: cp_model.CpModel,
    name: str,
    kind: str,
    pairs: Sequence[tuple[int, int]],
    values: Sequence[Any],
    prev: Sequence[dict[Any, Any]],
    cur: Sequence[dict[Any, Any]],
) -> list[tuple[str, int, int, Any]]:
    """Link one layer of one kind to the previous: each item keeps its value or takes its partner's in
    exactly one chosen exchange. Returns the exchange literals ``(kind, a, b, x)``."""
    step: list[tuple[str, int, int, Any]] = []
    moved: dict[int, list[Any]] = {i: [] for i in range(len(cur))}
    for a, b in pairs:
        x = model.new_bool_var(f"{name}_{a}_{b}")
        step.append((kind, a, b, x))
        moved[a].append(x)
        moved[b].append(x)
        for v in values:
            model.add(cur[a][v] == prev[b][v]).only_enforce_if(x)
            model.add(cur[b][v] == prev[a][v]).only_enforce_if(x)
    for i in range(len(cur)):
        if not moved[i]:
            for v in values:
                model.add(cur[i][v] == prev[i][v])
            continue
        stay = model.new_bool_var("")
        model.add(sum(moved[i]) + stay == 1)
        for v in values:
            model.add(cur[i][v] == prev[i][v]).only_enforce_if(stay)
    return step


def _solver(seed: int, time_limit: float) -> cp_model.CpSolver:
    """One deterministic CP-SAT worker seeded from ``seed``."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % (2**31 - 1)
    set_budget(solver, time_limit)
    return solver


def _fewest_displaced(
    board: Board,
    rules: Sequence[Rule],
    seed: int,
    time_limit: float,
    progress: Progress | None = None,
    move_ports: bool = True,
) -> tuple[Board, int, bool]:
    """The repaired board displacing the fewest items (hexes whose resource or token changes, port slots
    whose kind changes; the desert stays), that number, and whether a stop cut the search short (the
    board is then valid but maybe not the fewest). Ctrl-C, or a stop before any repair, propagates.
    ``move_ports=False`` keeps every harbour where it is (``--ports fixed`` / ``random``)."""
    model = cp_model.CpModel()
    bv = BoardVars.new(model, board.layout)
    for rule in rules:
        rule.encode(bv)
    res, num = board.resource_index, board.numbers
    for desert in board.deserts:
        model.add(bv.res[desert][DESERT_INDEX] == 1)
    moved = []
    for h in range(board.n_hexes):
        if h in board.deserts:
            continue
        moved.append(1 - bv.res[h][int(res[h])])
        n = num[h]
        assert n is not None
        moved.append(1 - bv.num[h][n])
    for k in range(board.n_ports):
        moved.append(1 - bv.port[k][board.ports[k]])
        if not move_ports:
            model.add(bv.port[k][board.ports[k]] == 1)
    model.minimize(sum(moved))
    bv.add_hint(board)
    solver = _solver(seed, time_limit)
    status, stopped = solve_stoppable(solver, model, progress, (0, 2, "repairing"))
    if stopped and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise KeyboardInterrupt
    if status == cp_model.INFEASIBLE:
        raise InfeasibleError(f"no board satisfies {rules_text(rules)}")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise CatanError(
            f"CP-SAT found no repair within its budget ({time_limit:g} s of deterministic time) for "
            f"{rules_text(rules)}"
        )
    return bv.read(solver), round(solver.objective_value), stopped


def _plan_to(board: Board, target: Board) -> list[Swap]:
    """Swaps turning ``board`` into ``target`` (same desert): resources, then numbers, then ports."""
    land = [h for h in range(board.n_hexes) if h not in board.deserts]
    res_swaps = plan_swaps(
        [board.resources[h] for h in land], [target.resources[h] for h in land], "resources"
    )
    num_swaps = plan_swaps([board.numbers[h] for h in land], [target.numbers[h] for h in land], "numbers")
    port_swaps = plan_swaps(list(board.ports), list(target.ports), "ports")
    return [Swap(s.kind, land[s.a], land[s.b]) for s in (*res_swaps, *num_swaps)] + port_swaps


def tournament(
    seed: int,
    rules: Sequence[Rule] | None = None,
    *,
    start: Board | None = None,
    weights: WeightSet | None = None,
    time_limit: float = 20.0,
    progress: Progress | None = None,
    ports: str = "balanced",
    layout: str = "base",
) -> GenerationResult:
    """A seeded random board (of ``layout`` unless ``start`` is given) repaired with the fewest swaps
    until ``rules`` hold (module docstring);
    ``ports``: the harbour mode (:mod:`.harbours`; harbour swaps count as swaps)."""
    t0 = time.perf_counter()
    rule_list = parse_rules(DEFAULT_TOURNAMENT_RULES if rules is None else rules)
    board = start_harbours(start if start is not None else Board.random(make_rng(seed), layout), ports, seed)
    drawn_ports = board.ports
    move_ports = ports == "balanced"
    place_harbours = move_ports and float((weights or energy_weights())["ports"]) > 0
    report(progress, 0, 2, "repairing")
    board, swaps = _desert_move(board, rule_list, seed)

    def result(final: Board, **kw: Any) -> GenerationResult:
        done = list(swaps)
        extras = dict(kw.pop("extras", {}))
        if place_harbours and not kw.get("interrupted"):
            # the best harbours for the repaired tiles (rules kept), reached from the drawn harbours by the
            # fewest port swaps; these replace the repair's own port swaps (kinds commute)
            placed = best_harbours(final, rule_list)
            if placed.ports != final.ports:
                port_plan = plan_swaps(list(drawn_ports), list(placed.ports), "ports")
                done = [s for s in done if s.kind != "ports"] + port_plan
                final = placed
            extras["harbour_swaps"] = sum(1 for s in done if s.kind == "ports")
        return make_result(
            final,
            rule_list,
            "tournament",
            seed,
            time.perf_counter() - t0,
            weights,
            swaps=tuple(done),
            extras=extras,
            ports=ports,
            **kw,
        )

    if all(r.holds(board) for r in rule_list):
        report(progress, 2, 2, "already fine")
        return result(board, extras={"displaced_min": 0, "swaps_proven_minimal": True})
    stops: list[bool] = []  # a stop asked through ``progress`` (the solvers keep their best plan)

    def watched(done: int, total: int, message: str = "") -> None:
        try:
            report(progress, done, total, message)
        except KeyboardInterrupt:
            stops.append(True)
            raise

    watch = watched if progress is not None else None
    try:
        target, displaced, interrupted = _fewest_displaced(
            board, rule_list, seed, time_limit, watch, move_ports
        )
    except KeyboardInterrupt:  # nothing repaired yet: the best board so far is the drawn one
        return result(board, interrupted=True)
    plan = _plan_to(board, target)
    if not interrupted:
        try:
            report(progress, 1, 2, f"{len(plan)} swaps found; proving the fewest")
        except KeyboardInterrupt:  # keep the (valid) upper-bound plan
            interrupted = True
    proven = False
    lower = (displaced + 1) // 2
    exact = None
    if interrupted:
        pass  # stopped: keep the valid plan found so far, unproven
    elif plan and len(plan) > lower:
        try:
            exact = exact_swaps(
                board,
                rule_list,
                len(plan),
                time_limit,
                seed,
                min_swaps=lower,
                progress=watch,
                move_ports=move_ports,
            )
        except KeyboardInterrupt:  # keep the (valid) upper-bound plan
            interrupted = True
    elif plan:
        proven = True  # the plan meets the lower bound ceil(displaced / 2)
    if exact is not None and len(exact[0]) <= len(plan):
        plan, proven = exact[0], exact[1]
    if exact is not None and exact[2]:  # the proof was cut short (Ctrl-C): the best plan so far, flagged
        interrupted, proven = True, False
    if stops:
        interrupted, proven = True, False
    swaps += plan
    # replay the swaps on the board: the rules must hold afterwards (an independent check of the plan)
    replay = board
    for sw in plan:
        replay = replay.with_swapped(sw.kind, sw.a, sw.b)
    if not all(r.holds(replay) for r in rule_list):
        raise AssertionError("swap plan does not satisfy the rules")
    try:
        report(progress, 2, 2, f"{len(swaps)} swaps")
    except KeyboardInterrupt:  # the work is done: keep it
        interrupted = True
    return result(
        replay,
        optimal=None,
        interrupted=interrupted,
        extras={"displaced_min": displaced, "swaps_proven_minimal": proven},
    )
