"""The board's topology: hexes, settlement spots, roads and port slots, computed from geometry.

Geometry is computed once at import from the hexes' cube coordinates (no hand-typed adjacency tables).
Hexes are pointy-top; catanatron's cube coordinates ``(x, y, z)`` are used, with ``z`` the row (top row
``z = -2``) and ``x`` growing eastwards. Hex ids run by row (``row = z + 2``), then ``x`` ascending::

            0   1   2                    corners: 0, 2, 7, 11, 16, 18
          3   4   5   6                  centre:  9
        7   8   9  10  11                edges:   the other 12
         12  13  14  15
           16  17  18

Settlement spots 0..53 are the six zig-zag lines of hex corners, top to bottom (7, 9, 11, 11, 9, 7
spots), each numbered left to right::

    line 0:   0 .. 6        spot 0 touches hex 0 only; spot 2 touches 0 and 1
    line 1:   7 .. 15       spot 9 touches 0, 3, 4
    line 2:  16 .. 26       spot 20 touches 4, 8, 9; spot 26 is the east corner of hex 11's top
    line 3:  27 .. 37
    line 4:  38 .. 46
    line 5:  47 .. 53       spot 53 touches hex 18 only

Ports: 9 slots on the coast. Slot ``k`` is the ``k``-th port of catanatron's ``BASE_MAP_TEMPLATE`` in its
topology order, starting with the water hex at cube (3, -3, 0) facing west (slot 0 = spots 26 and 37);
each port touches the two corners of its water hex on the side it faces.

Everything lives in a :class:`Topology` built from a list of hex cube coordinates; the base game's tables
are module constants (:data:`BASE_TOPOLOGY`). The 5-6 player extension's 30-hex board (rows 3-4-5-6-5-4-3,
80 spots, 109 roads, 11 harbours) is :data:`EXTENDED_TOPOLOGY`, derived by the same code; its ids follow
the same rules (hexes by row then x, spots by zig-zag line then x) and its harbour slots run clockwise
from the top-left harbour (:data:`EXTENDED_PORT_FRAME`). :data:`TOPOLOGIES` maps a layout name to its
topology.
Nothing here knows about tiles, number tokens or port kinds: that is :mod:`boardeval.catan.board`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core import CatanError

__all__ = [
    "BASE_HEX_CUBES",
    "BASE_PORT_FRAME",
    "BASE_TOPOLOGY",
    "CENTRE_HEX",
    "CORNER_HEXES",
    "EDGE_HEXES",
    "EXTENDED_HEX_CUBES",
    "EXTENDED_PORT_FRAME",
    "EXTENDED_TOPOLOGY",
    "HEX_CENTRES",
    "HEX_CUBE",
    "HEX_EDGES",
    "HEX_EDGE_PAIRS",
    "HEX_NEIGHBOURS",
    "LAYOUT_NAMES",
    "PORT_SPOTS",
    "ROADS",
    "SPOT_HEXES",
    "SPOT_HEX_MATRIX",
    "SPOT_NEIGHBOURS",
    "SPOT_PORT",
    "SPOT_XY",
    "TOPOLOGIES",
    "Cube",
    "Topology",
]

Cube = tuple[int, int, int]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# Pointy-top geometry in integer units: x in sqrt(3)/2 * size, y in size/2 (y grows downwards).
# A hex at axial (q, r) = (x, z) has its centre at (2q + r, 3r); its six corners are offset by:
#
#              N (0,-2)
#     NW (-1,-1)      NE (1,-1)
#     SW (-1, 1)      SE (1, 1)
#              S (0, 2)
CORNER_OFFSETS: dict[str, tuple[int, int]] = {
    "NORTH": (0, -2),
    "NORTHEAST": (1, -1),
    "SOUTHEAST": (1, 1),
    "SOUTH": (0, 2),
    "SOUTHWEST": (-1, 1),
    "NORTHWEST": (-1, -1),
}
_CORNER_ORDER = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")
CUBE_DIRECTIONS: dict[str, Cube] = {
    "EAST": (1, -1, 0),
    "WEST": (-1, 1, 0),
    "NORTHEAST": (1, 0, -1),
    "SOUTHWEST": (-1, 0, 1),
    "NORTHWEST": (0, 1, -1),
    "SOUTHEAST": (0, -1, 1),
}
"""catanatron's unit vectors (``coordinate_system.UNIT_VECTORS``)."""
PORT_DIRECTION_CORNERS: dict[str, tuple[str, str]] = {
    "WEST": ("NORTHWEST", "SOUTHWEST"),
    "NORTHWEST": ("NORTH", "NORTHWEST"),
    "NORTHEAST": ("NORTHEAST", "NORTH"),
    "EAST": ("SOUTHEAST", "NORTHEAST"),
    "SOUTHEAST": ("SOUTH", "SOUTHEAST"),
    "SOUTHWEST": ("SOUTHWEST", "SOUTH"),
}
"""A port's water hex faces land in a direction; it touches these two corners of the water hex
(catanatron's ``PORT_DIRECTION_TO_NODEREFS``)."""


def _ring(radius: int) -> list[Cube]:
    return [
        (x, y, -x - y)
        for x in range(-radius, radius + 1)
        for y in range(-radius, radius + 1)
        if abs(x + y) <= radius
    ]


BASE_HEX_CUBES: tuple[Cube, ...] = tuple(_ring(2))
"""The 19 land hexes of the base game (radius-2 hexagon), in no particular order."""

BASE_PORT_FRAME: tuple[tuple[Cube, str], ...] = (
    ((3, -3, 0), "WEST"),
    ((1, -3, 2), "NORTHWEST"),
    ((-1, -2, 3), "NORTHWEST"),
    ((-3, 0, 3), "NORTHEAST"),
    ((-3, 2, 1), "EAST"),
    ((-2, 3, -1), "EAST"),
    ((0, 3, -3), "SOUTHEAST"),
    ((2, 1, -3), "SOUTHWEST"),
    ((3, -1, -2), "SOUTHWEST"),
)
"""Port water hexes and the direction each faces, in catanatron ``BASE_MAP_TEMPLATE`` topology order
(slot k = k-th entry; tests check this table against the installed catanatron)."""


def _frozen(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Topology:
    """Everything about a frame of hexes that does not depend on tiles, tokens or ports.

    Built from a list of land hex cube coordinates (any order; ids are assigned by row, then x) and an
    optional port frame (water hex cube, direction it faces). All tables are computed from geometry.
    """

    hex_cubes: tuple[Cube, ...]
    port_frame: tuple[tuple[Cube, str], ...] = ()
    hex_neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    spot_hexes: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    spot_points: tuple[tuple[int, int], ...] = field(init=False, repr=False)
    spot_neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    roads: tuple[tuple[int, int], ...] = field(init=False, repr=False)
    port_spots: tuple[tuple[int, int], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cubes = sorted(self.hex_cubes, key=lambda c: (c[2], c[0]))
        if len(set(cubes)) != len(cubes):
            raise CatanError("topology: duplicate hex coordinates")
        for c in cubes:
            if sum(c) != 0:
                raise CatanError(f"topology: {c} is not a cube coordinate (x + y + z must be 0)")
        index = {c: i for i, c in enumerate(cubes)}
        neighbours = tuple(
            tuple(sorted(index[n] for d in CUBE_DIRECTIONS.values() if (n := _add(c, d)) in index))
            for c in cubes
        )
        # corners -> spots: dedupe integer points, group into zig-zag lines, sort left to right
        corner_hexes: dict[tuple[int, int], list[int]] = {}
        for i, c in enumerate(cubes):
            for name in _CORNER_ORDER:
                corner_hexes.setdefault(_corner_point(c, name), []).append(i)
        points = sorted(corner_hexes, key=lambda p: (_line_of(p[1]), p[0]))
        spot_of = {p: s for s, p in enumerate(points)}
        spot_hexes = tuple(tuple(sorted(corner_hexes[p])) for p in points)
        roads: set[tuple[int, int]] = set()
        for c in cubes:
            ring = [spot_of[_corner_point(c, name)] for name in _CORNER_ORDER]
            for k in range(6):
                a, b = ring[k], ring[(k + 1) % 6]
                roads.add((min(a, b), max(a, b)))
        road_list = tuple(sorted(roads))
        spot_nb: list[list[int]] = [[] for _ in points]
        for a, b in road_list:
            spot_nb[a].append(b)
            spot_nb[b].append(a)
        port_spots: list[tuple[int, int]] = []
        for water, direction in self.port_frame:
            if direction not in PORT_DIRECTION_CORNERS:
                raise CatanError(f"topology: unknown port direction {direction!r}")
            pair = []
            for name in PORT_DIRECTION_CORNERS[direction]:
                p = _corner_point(water, name)
                if p not in spot_of:
                    raise CatanError(f"topology: port at {water} facing {direction} does not touch land")
                pair.append(spot_of[p])
            port_spots.append((min(pair), max(pair)))
        object.__setattr__(self, "hex_cubes", tuple(cubes))
        object.__setattr__(self, "hex_neighbours", neighbours)
        object.__setattr__(self, "spot_hexes", spot_hexes)
        object.__setattr__(self, "spot_points", tuple(points))
        object.__setattr__(self, "spot_neighbours", tuple(tuple(sorted(n)) for n in spot_nb))
        object.__setattr__(self, "roads", road_list)
        object.__setattr__(self, "port_spots", tuple(port_spots))

    @property
    def n_hexes(self) -> int:
        return len(self.hex_cubes)

    @property
    def n_spots(self) -> int:
        return len(self.spot_hexes)

    @property
    def n_ports(self) -> int:
        return len(self.port_frame)

    @cached_property
    def hex_edges(self) -> IntArray:
        """Adjacent hex pairs ``(i, j)`` with ``i < j``, each once, shape (E, 2)."""
        pairs = [(i, j) for i, nb in enumerate(self.hex_neighbours) for j in nb if i < j]
        return _frozen(np.array(pairs, dtype=np.int64).reshape(-1, 2))

    @cached_property
    def spot_hex_matrix(self) -> IntArray:
        """(spots, hexes) 0/1 incidence: ``M[s, h] = 1`` when spot s is a corner of hex h."""
        m = np.zeros((self.n_spots, self.n_hexes), dtype=np.int64)
        for s, hexes in enumerate(self.spot_hexes):
            m[s, list(hexes)] = 1
        return _frozen(m)

    @cached_property
    def spot_port(self) -> IntArray:
        """(spots,) port slot touching each spot, or -1."""
        a = np.full(self.n_spots, -1, dtype=np.int64)
        for k, pair in enumerate(self.port_spots):
            a[list(pair)] = k
        return _frozen(a)

    @cached_property
    def hex_centres(self) -> FloatArray:
        """(hexes, 2) pixel centres for a hex of circumradius 1 (x right, y down)."""
        pts = [_centre_point(c) for c in self.hex_cubes]
        return _frozen(_to_pixels(np.array(pts, dtype=np.float64)))

    @cached_property
    def spot_xy(self) -> FloatArray:
        """(spots, 2) pixel positions of the spots for a hex of circumradius 1."""
        return _frozen(_to_pixels(np.array(self.spot_points, dtype=np.float64)))

    @cached_property
    def corner_hexes(self) -> tuple[int, ...]:
        """Hexes with exactly 3 land neighbours (the 6 corners of the base board)."""
        return tuple(i for i, nb in enumerate(self.hex_neighbours) if len(nb) == 3)

    @cached_property
    def centre_hexes(self) -> tuple[int, ...]:
        """The hexes nearest the board's centroid: hex 9 (cube (0, 0, 0)) on the base board, the two
        middle hexes of the 6-hex row on the extended board (its centroid is the midpoint of their
        shared side)."""
        xy = self.hex_centres
        d = np.round(((xy - xy.mean(axis=0)) ** 2).sum(axis=1), 9)
        return tuple(int(i) for i in np.flatnonzero(d == d.min()))

    @cached_property
    def centre_hex(self) -> int:
        """The single centre hex (base board: cube (0, 0, 0)); a board with two centre hexes raises."""
        if len(self.centre_hexes) != 1:
            raise CatanError(f"topology: {len(self.centre_hexes)} centre hexes {self.centre_hexes}, not one")
        return self.centre_hexes[0]

    @cached_property
    def edge_hexes(self) -> tuple[int, ...]:
        """Every hex that is neither a corner nor a centre hex (seed 001's 'edges' region)."""
        skip = {*self.corner_hexes, *self.centre_hexes}
        return tuple(i for i in range(self.n_hexes) if i not in skip)

    def hex_corner_spots(self, hex_id: int) -> tuple[int, ...]:
        """The 6 spots around a hex, clockwise from its north corner."""
        spot_of = {p: s for s, p in enumerate(self.spot_points)}
        return tuple(spot_of[_corner_point(self.hex_cubes[hex_id], n)] for n in _CORNER_ORDER)

    def spot_of_corner(self, cube: Cube, corner: str) -> int | None:
        """Spot id of a named corner (``"NORTH"``, ``"NORTHEAST"``...) of any hex (land or water)."""
        p = _corner_point(cube, corner)
        try:
            return self.spot_points.index(p)
        except ValueError:
            return None


def _add(a: Cube, b: Cube) -> Cube:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _centre_point(c: Cube) -> tuple[int, int]:
    return (2 * c[0] + c[2], 3 * c[2])


def _corner_point(c: Cube, name: str) -> tuple[int, int]:
    cx, cy = _centre_point(c)
    dx, dy = CORNER_OFFSETS[name]
    return (cx + dx, cy + dy)


def _line_of(y: int) -> int:
    """Zig-zag line of a corner at integer height y: the N/NE/NW corners of row r and the S/SE/SW
    corners of row r-1 share line r (heights 3r-2, 3r-1)."""
    return (y + 2) // 3


def _to_pixels(points: FloatArray) -> FloatArray:
    out = points.copy()
    out[:, 0] *= np.sqrt(3.0) / 2.0
    out[:, 1] *= 0.5
    return out


BASE_TOPOLOGY = Topology(BASE_HEX_CUBES, BASE_PORT_FRAME)
"""The base game's 19-hex, 54-spot, 9-port frame."""

EXTENDED_HEX_CUBES: tuple[Cube, ...] = tuple(
    (x, -x - z, z)
    for z, (lo, hi) in zip(
        range(-3, 4), ((1, 3), (0, 3), (-1, 3), (-2, 3), (-2, 2), (-2, 1), (-2, 0)), strict=True
    )
    for x in range(lo, hi + 1)
)
"""The 30 land hexes of the 5-6 player extension: rows of 3, 4, 5, 6, 5, 4, 3 hexes (z = -3..3). The
board is symmetric about the midpoint of the side shared by cubes (0, 0, 0) and (1, -1, 0)."""

EXTENDED_PORT_FRAME: tuple[tuple[Cube, str], ...] = (
    ((1, 3, -4), "SOUTHEAST"),
    ((3, 1, -4), "SOUTHWEST"),
    ((4, -1, -3), "SOUTHWEST"),
    ((4, -4, 0), "WEST"),
    ((2, -4, 2), "NORTHWEST"),
    ((1, -4, 3), "WEST"),
    ((-1, -3, 4), "NORTHWEST"),
    ((-3, -1, 4), "NORTHEAST"),
    ((-3, 1, 2), "EAST"),
    ((-3, 2, 1), "NORTHEAST"),
    ((-2, 3, -1), "EAST"),
)
"""The 11 harbour water hexes of the 5-6 player frame and the direction each faces land, clockwise from
the top-left harbour. Positions from the extension's standard frame (the base frame's 9 harbours plus
the extension's 2:1 sheep and 3:1 frame pieces; docs/catan.md cites the sources)."""

EXTENDED_TOPOLOGY = Topology(EXTENDED_HEX_CUBES, EXTENDED_PORT_FRAME)
"""The 5-6 player extension's 30-hex, 80-spot, 109-road, 11-harbour frame."""

TOPOLOGIES: dict[str, Topology] = {"base": BASE_TOPOLOGY, "extended": EXTENDED_TOPOLOGY}
"""Board layout name -> its topology."""
LAYOUT_NAMES: tuple[str, ...] = tuple(TOPOLOGIES)

HEX_CUBE: tuple[Cube, ...] = BASE_TOPOLOGY.hex_cubes
HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = BASE_TOPOLOGY.hex_neighbours
HEX_EDGES: IntArray = BASE_TOPOLOGY.hex_edges
HEX_EDGE_PAIRS: tuple[tuple[int, int], ...] = tuple((int(a), int(b)) for a, b in HEX_EDGES.tolist())
"""``HEX_EDGES`` as a tuple of int pairs (for Python loops over adjacent hexes)."""
SPOT_HEXES: tuple[tuple[int, ...], ...] = BASE_TOPOLOGY.spot_hexes
SPOT_NEIGHBOURS: tuple[tuple[int, ...], ...] = BASE_TOPOLOGY.spot_neighbours
ROADS: tuple[tuple[int, int], ...] = BASE_TOPOLOGY.roads
PORT_SPOTS: tuple[tuple[int, int], ...] = BASE_TOPOLOGY.port_spots
SPOT_PORT: IntArray = BASE_TOPOLOGY.spot_port
SPOT_HEX_MATRIX: IntArray = BASE_TOPOLOGY.spot_hex_matrix
HEX_CENTRES: FloatArray = BASE_TOPOLOGY.hex_centres
SPOT_XY: FloatArray = BASE_TOPOLOGY.spot_xy
CORNER_HEXES: tuple[int, ...] = BASE_TOPOLOGY.corner_hexes
CENTRE_HEX: int = BASE_TOPOLOGY.centre_hex
EDGE_HEXES: tuple[int, ...] = BASE_TOPOLOGY.edge_hexes

assert BASE_TOPOLOGY.n_hexes == 19 and BASE_TOPOLOGY.n_spots == 54 and BASE_TOPOLOGY.n_ports == 9
assert len(ROADS) == 72 and len(HEX_EDGES) == 42
assert CORNER_HEXES == (0, 2, 7, 11, 16, 18) and CENTRE_HEX == 9
assert (EXTENDED_TOPOLOGY.n_hexes, EXTENDED_TOPOLOGY.n_spots, EXTENDED_TOPOLOGY.n_ports) == (30, 80, 11)
assert len(EXTENDED_TOPOLOGY.roads) == 109 and len(EXTENDED_TOPOLOGY.hex_edges) == 71
