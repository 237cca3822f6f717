"""The harbour term of the energy (issue 16): its geometry, a hand-checked board, a brute-force
re-computation, and ``ports = 0`` reproducing seed 001's energy exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest

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
