"""Conversion between our :class:`Board` and catanatron's ``CatanMap`` (base map), both ways.

catanatron builds a map by walking ``BASE_MAP_TEMPLATE.topology`` (centre, ring 1, ring 2, then the water
ring) and ``pop()``-ing tiles, numbers (non-desert tiles only) and ports off the END of the lists it is
given. So we pass fresh, reversed lists in topology order; the desert and 3:1 ports are ``None``.

catanatron numbers its nodes (our spots) in the order it meets them; the node <-> spot mapping is built
from geometry: the corner ``NodeRef.X`` of the tile at cube ``c`` is our spot at the same corner of the
same hex (:meth:`Topology.spot_of_corner`). Port slot k is the k-th port in topology order
(:data:`BASE_PORT_FRAME`).

catanatron has no 5-6 player map: converting an extended board (``layout="extended"``) raises
:class:`CatanatronLayoutError` saying so (:func:`require_base_layout`), so every play-test path that
reaches catanatron refuses it with the same message.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from boardeval.catan.board import (
    DESERT,
    N_SPOTS,
    RESOURCES,
    Board,
    BoardParseError,
)
from boardeval.catan.topology import (
    BASE_PORT_FRAME,
    BASE_TOPOLOGY,
    HEX_CUBE,
)

__all__ = [
    "CATANATRON_RESOURCES",
    "CatanatronLayoutError",
    "from_catanatron_map",
    "node_to_spot",
    "require_base_layout",
    "spot_to_node",
    "to_catanatron_map",
]

CATANATRON_RESOURCES: dict[str, str] = {
    "W": "WOOD",
    "B": "BRICK",
    "S": "SHEEP",
    "G": "WHEAT",
    "O": "ORE",
}
"""Our resource letters -> catanatron's resource strings."""
_FROM_CATANATRON = {v: k for k, v in CATANATRON_RESOURCES.items()}


class CatanatronLayoutError(BoardParseError):
    """A board of a layout catanatron cannot play (the 5-6 player board)."""


def require_base_layout(board: Board, what: str = "play-testing") -> None:
    """Raise :class:`CatanatronLayoutError` unless ``board`` is a base-game board: catanatron, which
    plays our games, has no 5-6 player map."""
    if board.layout != "base":
        raise CatanatronLayoutError(
            f"{what} needs a base-game board: catanatron has no 5-6 player map, and this board is "
            f"{board.layout!r} ({board.spec.title}, {board.n_hexes} hexes)"
        )


@cache
def _layout() -> tuple[tuple[tuple[int, int, int], ...], dict[int, int]]:
    """(land cubes in catanatron topology order, catanatron node id -> our spot)."""
    from catanatron.models.map import BASE_MAP_TEMPLATE, LandTile, initialize_tiles

    land = tuple(c for c, kind in BASE_MAP_TEMPLATE.topology.items() if kind is LandTile)
    tiles = initialize_tiles(BASE_MAP_TEMPLATE)  # node ids do not depend on the shuffle
    node_spot: dict[int, int] = {}
    for cube, tile in tiles.items():
        for ref, node in tile.nodes.items():
            spot = BASE_TOPOLOGY.spot_of_corner(cube, ref.name)
            if spot is None:
                continue
            if node_spot.setdefault(node, spot) != spot:
                raise AssertionError(f"catanatron node {node} maps to spots {node_spot[node]} and {spot}")
    if sorted(node_spot.values()) != list(range(N_SPOTS)):
        raise AssertionError("catanatron's land nodes do not match our 54 spots")
    return land, node_spot


def node_to_spot() -> dict[int, int]:
    """catanatron node id -> our spot id (54 entries)."""
    return dict(_layout()[1])


def spot_to_node() -> dict[int, int]:
    """Our spot id -> catanatron node id."""
    return {s: n for n, s in _layout()[1].items()}


def to_catanatron_map(board: Board) -> Any:
    """A catanatron ``CatanMap`` with this board's tiles, numbers and ports (base boards only)."""
    require_base_layout(board, "a catanatron map")
    from catanatron.models.map import BASE_MAP_TEMPLATE, CatanMap, initialize_tiles

    land, _ = _layout()
    hex_of = {c: i for i, c in enumerate(HEX_CUBE)}
    order = [hex_of[c] for c in land]
    resources = [
        None if board.resources[h] == DESERT else CATANATRON_RESOURCES[board.resources[h]] for h in order
    ]
    numbers = [board.numbers[h] for h in order if board.numbers[h] is not None]
    ports = [None if p == "3" else CATANATRON_RESOURCES[p] for p in board.ports]
    tiles = initialize_tiles(
        BASE_MAP_TEMPLATE,
        list(reversed(numbers)),
        list(reversed(ports)),
        list(reversed(resources)),
    )
    return CatanMap.from_tiles(tiles)


def from_catanatron_map(catan_map: Any) -> Board:
    """Read a base-map ``CatanMap`` back into a :class:`Board` (raises :class:`BoardParseError` if the
    map is not the base 19-hex, 9-port frame)."""
    from catanatron.models.map import LandTile, Port

    hex_of = {c: i for i, c in enumerate(HEX_CUBE)}
    slot_of = {cube: k for k, (cube, _) in enumerate(BASE_PORT_FRAME)}
    resources: list[str | None] = [None] * len(HEX_CUBE)
    numbers: list[int | None] = [None] * len(HEX_CUBE)
    ports: list[str | None] = [None] * len(BASE_PORT_FRAME)
    for cube, tile in catan_map.tiles.items():
        cube = tuple(int(x) for x in cube)
        if isinstance(tile, LandTile):
            if cube not in hex_of:
                raise BoardParseError(f"catanatron map has a land tile at {cube}, outside the base board")
            h = hex_of[cube]
            if tile.resource is None:
                resources[h] = DESERT
            else:
                if tile.resource not in _FROM_CATANATRON:
                    raise BoardParseError(f"catanatron tile at {cube} has unknown resource {tile.resource!r}")
                resources[h] = _FROM_CATANATRON[tile.resource]
                numbers[h] = tile.number
        elif isinstance(tile, Port):
            if cube not in slot_of or BASE_PORT_FRAME[slot_of[cube]][1] != tile.direction.name:
                raise BoardParseError(f"catanatron port at {cube} facing {tile.direction} is not a base slot")
            ports[slot_of[cube]] = "3" if tile.resource is None else _FROM_CATANATRON[tile.resource]
    missing = [i for i, r in enumerate(resources) if r is None]
    if missing or None in ports:
        raise BoardParseError(f"catanatron map is not a full base map (missing hexes {missing} or ports)")
    return Board(
        tuple(r for r in resources if r is not None),
        tuple(numbers),
        tuple(p for p in ports if p is not None),
    )


assert set(RESOURCES) == set(CATANATRON_RESOURCES)
