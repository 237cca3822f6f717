"""Conversion to and from catanatron's CatanMap, checked against catanatron's own structures."""

from __future__ import annotations

import random

import pytest
from catanatron.models.map import BASE_MAP_TEMPLATE, TOURNAMENT_MAP, CatanMap, LandTile, Port

from boardeval.catan.board import (
    Board,
)
from boardeval.catan.catanatron_io import (
    CATANATRON_RESOURCES,
    from_catanatron_map,
    node_to_spot,
    spot_to_node,
    to_catanatron_map,
)
from boardeval.catan.topology import (
    BASE_PORT_FRAME,
    HEX_CUBE,
    PORT_SPOTS,
    SPOT_HEXES,
)

HEX_OF = {c: i for i, c in enumerate(HEX_CUBE)}


def test_port_frame_is_catanatrons_template_order() -> None:
    ports = [(c, kind[1].name) for c, kind in BASE_MAP_TEMPLATE.topology.items() if isinstance(kind, tuple)]
    assert tuple(ports) == BASE_PORT_FRAME
    assert ports[0] == ((3, -3, 0), "WEST")


def test_node_spot_mapping_is_a_bijection_matching_hexes() -> None:
    n2s = node_to_spot()
    assert sorted(n2s) == list(range(54)) and sorted(n2s.values()) == list(range(54))
    assert all(n2s[n] == s for s, n in spot_to_node().items())
    m = CatanMap.from_template(BASE_MAP_TEMPLATE)
    for node, tiles in m.adjacent_tiles.items():
        ours = sorted(HEX_OF[_cube_of(m, t)] for t in tiles)
        assert tuple(ours) == SPOT_HEXES[n2s[node]]


def _cube_of(m: CatanMap, tile: LandTile) -> tuple[int, int, int]:
    return next(c for c, t in m.land_tiles.items() if t is tile)


def _check_agree(board: Board, m: CatanMap) -> None:
    n2s = node_to_spot()
    for cube, tile in m.land_tiles.items():
        h = HEX_OF[cube]
        if board.resources[h] == "D":
            assert tile.resource is None and tile.number is None
        else:
            assert tile.resource == CATANATRON_RESOURCES[board.resources[h]]
            assert tile.number == board.numbers[h]
    ports = [t for c, t in m.tiles.items() if isinstance(t, Port)]
    assert len(ports) == 9
    for slot, (cube, _) in enumerate(BASE_PORT_FRAME):
        port = m.tiles[cube]
        assert isinstance(port, Port)
        kind = board.ports[slot]
        assert port.resource == (None if kind == "3" else CATANATRON_RESOURCES[kind])
    # catanatron's port_nodes (resource -> nodes) agree with our slot spots
    for res, nodes in m.port_nodes.items():
        kind = "3" if res is None else next(k for k, v in CATANATRON_RESOURCES.items() if v == res)
        ours = {s for slot, pair in enumerate(PORT_SPOTS) if board.ports[slot] == kind for s in pair}
        assert {n2s[n] for n in nodes} == ours


@pytest.mark.parametrize("chunk", range(4))
def test_to_catanatron_many_boards(chunk: int) -> None:
    for seed in range(chunk * 60, chunk * 60 + 60):
        board = Board.random(seed)
        m = to_catanatron_map(board)
        _check_agree(board, m)
        assert from_catanatron_map(m) == board


@pytest.mark.parametrize("chunk", range(4))
def test_from_catanatron_random_maps(chunk: int) -> None:
    random.seed(1000 + chunk)
    for _ in range(60):
        m = CatanMap.from_template(BASE_MAP_TEMPLATE)
        board = from_catanatron_map(m)
        _check_agree(board, m)


def test_tournament_map_and_spec_slot0() -> None:
    board = from_catanatron_map(TOURNAMENT_MAP)
    _check_agree(board, TOURNAMENT_MAP)
    # slot 0 is the port on the water hex (3,-3,0), touching our spots 26 and 37
    p0 = TOURNAMENT_MAP.tiles[(3, -3, 0)]
    assert isinstance(p0, Port)
    from catanatron.models.map import PORT_DIRECTION_TO_NODEREFS

    a, b = PORT_DIRECTION_TO_NODEREFS[p0.direction]
    assert sorted(node_to_spot()[p0.nodes[r]] for r in (a, b)) == [26, 37]
