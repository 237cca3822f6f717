"""The harbour term of the energy (issue 16): its geometry, a hand-checked board, a brute-force
re-computation, and ``ports = 0`` reproducing seed 001's energy exactly."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from boardeval.catan import Rule, check_ports_mode, generate, optimum, parse_rules
from boardeval.catan._generate.anneal import anneal
from boardeval.catan._generate.common import ENERGY_SCALE, BoardState
from boardeval.catan._generate.harbours import best_harbours
from boardeval.catan._generate.tournament import tournament
from boardeval.catan.board import PIPS, Board
from boardeval.catan.energy import (
    PORT_GENERIC_ADJACENT_COST,
    PORT_REACH_PIPS,
    PORT_UNREACHED_COST,
    board_energy,
    energy_terms_arrays,
    energy_weights,
    port_geometry,
    port_terms,
    port_terms_lists,
)
from boardeval.catan.topology import BASE_TOPOLOGY, HEX_EDGES, PORT_SPOTS, ROADS, SPOT_HEXES
from boardeval.core import ParamsError

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def _old_energy(board: Board) -> float:
    """Seed 001's energy exactly as computed before the harbour term: the three raw terms of
    ``energy_terms_arrays`` (unchanged), weighted 100/150/10, summed with ``math.fsum``."""
    same, high, var = energy_terms_arrays(board.resource_index, board.pips, board.number_array)
    return math.fsum([100.0 * int(same), 150.0 * int(high), 10.0 * float(var)])


def _by_hand(board: Board) -> float:
    """The same from the seed's definition, independently (for ``approx``)."""
    res, num, pips = board.resources, board.numbers, board.pips.tolist()
    same = sum(1 for a, b in HEX_EDGES.tolist() if res[a] == res[b] and res[a] != "D")
    high = sum(1 for a, b in HEX_EDGES.tolist() if num[a] in (6, 8) and num[b] in (6, 8))
    corners, centre = (0, 2, 7, 11, 16, 18), 9
    edges = [h for h in range(19) if h not in corners and h != centre]
    means = [sum(pips[h] for h in corners) / 6, pips[centre], sum(pips[h] for h in edges) / 12]
    return 100.0 * same + 150.0 * high + 10.0 * float(np.var(np.array(means, dtype=np.float64)))


def test_ports_weight_zero_is_seed_001_exactly() -> None:
    w0 = energy_weights().replace(ports=0.0)
    for seed in range(300):
        board = Board.random(seed)
        e = board_energy(board, w0)
        assert e.total == _old_energy(board), seed  # bit for bit
        assert e.total == pytest.approx(_by_hand(board)), seed
        assert e["ports"].contribution == 0.0


def _road_distance() -> np.ndarray:
    n = BASE_TOPOLOGY.n_spots
    d = np.full((n, n), 99, dtype=np.int64)
    np.fill_diagonal(d, 0)
    for a, b in ROADS:
        d[a, b] = d[b, a] = 1
    for k in range(n):  # Floyd-Warshall: independent of the BFS in port_geometry
        d = np.minimum(d, d[:, [k]] + d[[k], :])
    return d


def _brute_ports(board: Board) -> tuple[int, int, int]:
    dist = _road_distance()
    pips = [0 if n is None else PIPS[n] for n in board.numbers]
    own = unreached = 0
    for k, letter in enumerate(board.ports):
        if letter == "3":
            continue
        s1, s2 = PORT_SPOTS[k]
        own += sum(pips[h] for h in set(SPOT_HEXES[s1]) | set(SPOT_HEXES[s2]) if board.resources[h] == letter)
        near = [s for s in range(BASE_TOPOLOGY.n_spots) if min(dist[s1, s], dist[s2, s]) <= 2]
        best = max(sum(pips[h] for h in SPOT_HEXES[s] if board.resources[h] == letter) for s in near)
        unreached += best < PORT_REACH_PIPS
    # the base slots are numbered around the coast (catanatron's topology order): k and k+1 touch
    adjacent = sum(1 for k in range(9) if board.ports[k] == "3" and board.ports[(k + 1) % 9] == "3")
    return own, unreached, adjacent


def test_base_geometry() -> None:
    g = port_geometry()
    assert g.neighbours == tuple(sorted((min(k, (k + 1) % 9), max(k, (k + 1) % 9)) for k in range(9)))
    assert g.spots == PORT_SPOTS
    assert all(set(pair) <= set(r) for pair, r in zip(g.spots, g.reach, strict=True))


def test_spec_board_by_hand() -> None:
    # ports 3S3W3B3GO: the 3:1 harbours sit on slots 0, 2, 4, 6 (none next to another); the sheep harbour
    # (slot 1) touches hexes 15 (S5, 4 pips) and 18 (S11, 2 pips): 6 own pips; wood (slot 3) touches
    # brick 16, brick (5) grain 3 and 7, grain (7) sheep 1 and wood 2, ore (8) wood 2 and brick 6
    t = port_terms(Board.parse(SPEC_CODE))
    assert t.own_pips == 6 and t.own_by_slot == ((1, 6),)
    assert t.generic_adjacent == 0
    assert (t.own_pips, t.unreached, t.generic_adjacent) == _brute_ports(Board.parse(SPEC_CODE))
    assert t.raw == 6 + PORT_UNREACHED_COST * t.unreached


@pytest.mark.parametrize("seed", range(0, 200, 7))
def test_matches_brute_force(seed: int) -> None:
    board = Board.random(seed)
    t = port_terms(board)
    own, unreached, adjacent = _brute_ports(board)
    assert (t.own_pips, t.unreached, t.generic_adjacent) == (own, unreached, adjacent)
    assert t.raw == own + PORT_UNREACHED_COST * unreached + PORT_GENERIC_ADJACENT_COST * adjacent
    fast = port_terms_lists(
        board.resource_index.tolist(), board.pips.tolist(), board.port_index.tolist(), port_geometry()
    )
    assert fast == t.raw
    e = board_energy(board)
    assert e["ports"].raw == t.raw and e.extras["ports"]["unreached_slots"] == list(t.unreached_slots)


def test_moving_a_harbour_changes_the_term() -> None:
    # swapping the ore harbour (slot 8) with the 3:1 of slot 2 puts a 3:1 on slot 8, next to slot 0's
    moved = Board.parse(SPEC_CODE).with_swapped_ports(8, 2)
    assert port_terms(moved).adjacent_generic_slots == ((0, 8),)
    assert port_terms(moved).generic_adjacent == 1


# ---------------------------------------------------------------------------------------------------------
# Generators: --ports random | fixed | balanced
# ---------------------------------------------------------------------------------------------------------


def _brute_best_harbour_cost(board: Board, rules: tuple[Rule, ...] = ()) -> int | None:
    """The least harbour term over every arrangement of the board's harbour kinds under which the rules
    hold (itertools and the checkers, no numpy mask); None when none does."""
    g = port_geometry()
    res, pips = board.resource_index.tolist(), board.pips.tolist()
    index = {letter: k for k, letter in enumerate("WBSGO")} | {"3": -1}
    best = None
    for perm in set(itertools.permutations(board.ports)):
        raw = port_terms_lists(res, pips, [index[p] for p in perm], g)
        if best is not None and raw >= best:
            continue
        if rules and not all(r.holds(Board(board.resources, board.numbers, perm)) for r in rules):
            continue
        best = raw
    return best


def test_best_harbours_is_exact() -> None:
    board = Board.random(5)
    placed = best_harbours(board)
    assert sorted(placed.ports) == sorted(board.ports)
    assert (placed.resources, placed.numbers) == (board.resources, board.numbers)
    assert port_terms(placed).raw == _brute_best_harbour_cost(board)
    rules = parse_rules(["port-min-pips=3", "no-port-own-resource"])
    ruled = best_harbours(board, rules)
    assert all(r.holds(ruled) for r in rules)
    assert port_terms(ruled).raw == _brute_best_harbour_cost(board, rules)
    # seed 7: no arrangement gives every 2:1 harbour 4 pips within reach; the board comes back unchanged
    hard = Board.random(7)
    assert best_harbours(hard, parse_rules(["port-min-pips=4"])) == hard


def test_ports_modes_on_random() -> None:
    drawn = Board.random(11)
    fixed = generate("random", 11)  # the default for random: the drawn board, as before issue 16
    assert fixed.board == drawn and fixed.ports == "fixed" and fixed.to_json()["ports"] == "fixed"
    shuffled = generate("random", 11, ports="random")
    assert (shuffled.board.resources, shuffled.board.numbers) == (drawn.resources, drawn.numbers)
    assert sorted(shuffled.board.ports) == sorted(drawn.ports)
    assert (
        shuffled.board.ports != drawn.ports and generate("random", 11, ports="random").board == shuffled.board
    )
    balanced = generate("random", 11, ports="balanced")
    assert port_terms(balanced.board).raw == port_terms(best_harbours(drawn)).raw
    assert balanced.energy.total <= fixed.energy.total


def test_bad_ports_mode() -> None:
    with pytest.raises(ParamsError, match="'even'"):
        generate("anneal", 1, ports="even")
    with pytest.raises(ParamsError, match="random, fixed, balanced"):
        check_ports_mode("Balanced")


def test_anneal_fixed_keeps_harbours_and_balanced_reaches_the_optimum() -> None:
    opt = optimum()  # harbours are CP-SAT variables: the extended energy's proven minimum
    assert opt.proven and port_terms(opt.board).raw == 0
    fixed = anneal(2, ports="fixed", steps=500, restarts=1)
    assert fixed.board.ports == Board.random(2).ports and fixed.ports == "fixed"
    for seed in range(3):
        balanced = anneal(seed)
        assert balanced.ports == "balanced"
        assert balanced.energy.total == pytest.approx(opt.energy, abs=1e-9), seed
        assert balanced.optimal is True


def test_anneal_with_zero_harbour_weight_is_the_old_annealer() -> None:
    """Weight 0 and fixed harbours: no harbour moves, the same random stream, so the run is the one of
    seed 001's energy (the tile part of the energy is the same function)."""
    w0 = energy_weights().replace(ports=0.0)
    for seed in range(4):
        a = anneal(seed, weights=w0, ports="fixed")
        b = anneal(seed, weights=w0, ports="balanced")  # weight 0: balanced has nothing to move for
        assert a.board == b.board and a.board.ports == Board.random(seed).ports


def test_cp_ports_modes() -> None:
    fixed = optimum(ports=Board.random(4).ports)
    assert fixed.proven and fixed.board.ports == Board.random(4).ports
    assert fixed.scaled >= optimum().scaled
    r = generate("cp", 4, fairness=1.0, ports="fixed")
    assert r.board.ports == Board.random(4).ports and r.optimal is True
    assert r.to_json()["ports"] == "fixed"
    s = generate("cp", 4, ["no-port-own-resource"], ports="balanced")
    assert all(s.rules.values()) and s.ports == "balanced"


def test_cp_with_port_rules_holds_them() -> None:
    rules = parse_rules(["port-min-pips=5", "no-port-own-resource"])
    r = generate("cp", 1, rules)
    assert all(r.rules.values()) and all(x.holds(r.board) for x in rules)


def test_tournament_balanced_counts_harbour_swaps() -> None:
    for seed in range(2):
        fixed = tournament(seed, ports="fixed")
        balanced = tournament(seed)
        assert balanced.swaps is not None and fixed.swaps is not None
        assert fixed.board.ports == Board.random(seed).ports
        harbour = [s for s in balanced.swaps if s.kind == "ports"]
        assert balanced.extras["harbour_swaps"] == len(harbour)
        replay = Board.random(seed)
        for s in balanced.swaps:
            replay = replay.with_swapped(s.kind, s.a, s.b)
        assert replay == balanced.board and all(balanced.rules.values())
        assert port_terms(balanced.board).raw == port_terms(best_harbours(balanced.board)).raw
        assert port_terms(balanced.board).raw <= port_terms(fixed.board).raw


def test_fairness_dial_with_ports() -> None:
    zero = generate("anneal", 3, fairness=0.0, ports="random")
    assert zero.board == generate("random", 3, ports="random").board  # f = 0: the start board itself
    one = generate("anneal", 4, fairness=1.0, ports="fixed")  # seed 4: the fixed-harbour optimum above
    assert one.board.ports == Board.random(4).ports and one.ports == "fixed"
    assert one.energy.total == pytest.approx(optimum(ports=Board.random(4).ports).energy, abs=1e-9)


def test_board_state_keeps_the_harbour_term_incrementally() -> None:
    """The annealer's state re-scores only the slots near a swapped hex; after any mix of swaps its
    harbour term and energy equal the independent ones of the board it holds."""
    rng = np.random.default_rng(16)
    for seed in range(20):
        state = BoardState(Board.random(seed))
        desert = state.res.index(5)
        for _ in range(40):
            a, b = (int(x) for x in rng.choice(19, 2, replace=False))
            kind = int(rng.integers(4))
            if kind == 0:
                state.swap_resources(a, b) if desert not in (a, b) else state.swap_hexes(a, b)
            elif kind == 1 and desert not in (a, b):
                state.swap_numbers(a, b)
            elif kind == 2:
                state.swap_hexes(a, b)
            else:
                state.swap_ports(a % 9, b % 9)
            desert = state.res.index(5)
        board = state.board()
        assert state.port_raw() == port_terms(board).raw, seed
        assert math.isclose(state.energy() / ENERGY_SCALE, board_energy(board).total, abs_tol=1e-9), seed
