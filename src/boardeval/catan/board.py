"""The Catan board model: hexes, settlement spots, roads, ports, and the share code.

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

Share code: the 19 hexes in id order, each a resource letter and its number (the desert has none),
joined by ``-``, then ``~`` and the 9 port letters in slot order (``3`` = generic 3:1, a resource
letter = 2:1 of that resource)::

    O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO

Everything topological lives in a :class:`Topology` built from a list of hex cube coordinates, so larger
frames (5-6 players) can be added later; the base game's tables are module constants.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core import CatanError, SeedLike, make_rng

__all__ = [
    "BASE_HEX_CUBES",
    "BASE_PORT_FRAME",
    "BASE_TOPOLOGY",
    "CENTRE_HEX",
    "COMPLEMENT",
    "CORNER_HEXES",
    "DESERT",
    "DESERT_INDEX",
    "EDGE_HEXES",
    "HEX_CENTRES",
    "HEX_CUBE",
    "HEX_EDGES",
    "HEX_NEIGHBOURS",
    "NUMBER_TOKENS",
    "N_HEXES",
    "N_PORTS",
    "N_SPOTS",
    "PIPS",
    "PIPS_BY_NUMBER",
    "PORT_KINDS",
    "PORT_SPOTS",
    "RESOURCES",
    "RESOURCE_NAMES",
    "ROADS",
    "SPOT_HEXES",
    "SPOT_HEX_MATRIX",
    "SPOT_NEIGHBOURS",
    "SPOT_PORT",
    "SPOT_XY",
    "TILE_COUNTS",
    "Board",
    "BoardParseError",
    "Cube",
    "Topology",
]

Cube = tuple[int, int, int]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class BoardParseError(CatanError):
    """A share code, JSON board or board field is malformed; the message quotes the bad part."""


# ---------------------------------------------------------------------------------------------------------
# Game constants
# ---------------------------------------------------------------------------------------------------------

RESOURCES: tuple[str, ...] = ("W", "B", "S", "G", "O")
"""Resource letters in the fixed order used by every array: wood, brick, sheep, grain, ore."""
DESERT = "D"
DESERT_INDEX = 5
"""``Board.resource_index`` value of the desert (one past the five resources, so ``bincount`` works)."""
RESOURCE_NAMES: dict[str, str] = {
    "W": "wood",
    "B": "brick",
    "S": "sheep",
    "G": "grain",
    "O": "ore",
    "D": "desert",
}
_NAME_ALIASES: dict[str, str] = {
    **{name: letter for letter, name in RESOURCE_NAMES.items()},
    "lumber": "W",
    "wool": "S",
    "wheat": "G",
}
COMPLEMENT: tuple[int | None, ...] = (1, 0, None, 4, 3)
"""Complement of each resource index: wood<->brick, grain<->ore, sheep has none."""

TILE_COUNTS: dict[str, int] = {"W": 4, "B": 3, "S": 4, "G": 4, "O": 3, "D": 1}
NUMBER_TOKENS: tuple[int, ...] = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
PIPS: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
"""Number token -> pips (dots on the token = ways to roll it out of 36)."""
PIPS_BY_NUMBER: IntArray = np.zeros(13, dtype=np.int64)
"""``PIPS`` as an array indexed by the number (0 for 0, 1, 7 and the desert's 0)."""
for _n, _p in PIPS.items():
    PIPS_BY_NUMBER[_n] = _p
PIPS_BY_NUMBER.setflags(write=False)

PORT_KINDS: tuple[str, ...] = ("3", "3", "3", "3", "W", "B", "S", "G", "O")
"""The 9 port letters of the base game: four generic 3:1 ports and one 2:1 port per resource."""
_PORT_LETTERS = "3" + "".join(RESOURCES)

N_HEXES = 19
N_SPOTS = 54
N_PORTS = 9

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
    def centre_hex(self) -> int:
        """The hex at cube (0, 0, 0)."""
        return self.hex_cubes.index((0, 0, 0))

    @cached_property
    def edge_hexes(self) -> tuple[int, ...]:
        """Every hex that is neither a corner nor the centre (seed 001's 'edges' region)."""
        skip = {*self.corner_hexes, self.centre_hex}
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

HEX_CUBE: tuple[Cube, ...] = BASE_TOPOLOGY.hex_cubes
HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = BASE_TOPOLOGY.hex_neighbours
HEX_EDGES: IntArray = BASE_TOPOLOGY.hex_edges
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

assert BASE_TOPOLOGY.n_hexes == N_HEXES and BASE_TOPOLOGY.n_spots == N_SPOTS
assert len(ROADS) == 72 and len(PORT_SPOTS) == N_PORTS and len(HEX_EDGES) == 42
assert CORNER_HEXES == (0, 2, 7, 11, 16, 18) and CENTRE_HEX == 9


# ---------------------------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A base-game board: a resource and number per hex, and a port kind per slot.

    ``resources``: 19 letters from ``WBSGOD`` (exactly one ``D``); ``numbers``: the token on each hex,
    ``None`` on the desert; ``ports``: 9 letters from ``3WBSGO``. Construction validates the counts of
    the base game (tiles 4/3/4/4/3/1, the 18 tokens, ports 4x3 + one per resource) and raises
    :class:`BoardParseError` quoting what is wrong.
    """

    resources: tuple[str, ...]
    numbers: tuple[int | None, ...]
    ports: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "resources", tuple(self.resources))
        object.__setattr__(self, "numbers", tuple(self.numbers))
        object.__setattr__(self, "ports", tuple(self.ports))
        _validate(self.resources, self.numbers, self.ports)

    # -- share code -------------------------------------------------------------------------------------

    @classmethod
    def parse(cls, code: str) -> Board:
        """Parse a share code such as ``O10-S2-...-S11~3S3W3B3GO`` (outer whitespace is ignored)."""
        if not isinstance(code, str):
            raise BoardParseError(f"board code must be text, got {type(code).__name__}")
        text = code.strip()
        if text.count("~") != 1:
            raise BoardParseError(
                f"board code {text!r} must be 19 hexes joined by '-', then '~' and 9 port letters "
                f"(found {text.count('~')} '~')"
            )
        hex_part, port_part = text.split("~")
        cells = hex_part.split("-")
        if len(cells) != N_HEXES:
            raise BoardParseError(f"board code {text!r} has {len(cells)} hexes, expected {N_HEXES}")
        resources: list[str] = []
        numbers: list[int | None] = []
        for i, cell in enumerate(cells):
            if not cell:
                raise BoardParseError(f"hex {i} is empty in board code {text!r}")
            letter, digits = cell[0], cell[1:]
            if letter not in TILE_COUNTS:
                hint = " (letters are upper case)" if letter.upper() in TILE_COUNTS else ""
                raise BoardParseError(
                    f"unknown resource letter {letter!r} in hex {i} {cell!r}; expected one of "
                    f"W B S G O D{hint}"
                )
            resources.append(letter)
            if letter == DESERT:
                if digits:
                    raise BoardParseError(f"the desert has no number, got {cell!r} (hex {i})")
                numbers.append(None)
                continue
            if not digits:
                raise BoardParseError(f"hex {i} {cell!r} has no number (only the desert has none)")
            if not digits.isascii() or not digits.isdigit():
                raise BoardParseError(f"hex {i} {cell!r}: {digits!r} is not a number")
            if digits[0] == "0":
                raise BoardParseError(f"hex {i} {cell!r}: write the number without a leading zero")
            numbers.append(_check_number(int(digits), f"hex {i} {cell!r}"))
        for k, ch in enumerate(port_part):
            if ch not in _PORT_LETTERS:
                raise BoardParseError(
                    f"unknown port letter {ch!r} at slot {k} in ports {port_part!r}; expected '3' (3:1) "
                    "or a resource letter W B S G O (2:1)"
                )
        return cls(tuple(resources), tuple(numbers), tuple(port_part))

    def code(self) -> str:
        """The share code (inverse of :meth:`parse`)."""
        cells = [r if n is None else f"{r}{n}" for r, n in zip(self.resources, self.numbers, strict=True)]
        return "-".join(cells) + "~" + "".join(self.ports)

    def __str__(self) -> str:
        return self.code()

    # -- JSON ---------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-able dict with names; hexes carry id, resource name and number, ports their spots.

        ``{"hexes": [{"id": 0, "resource": "ore", "number": 10}, ...],
        "ports": [{"slot": 0, "kind": "3:1", "resource": null, "spots": [26, 37]}, ...]}``
        (a 2:1 port: ``"kind": "2:1", "resource": "wood"``).
        """
        return {
            "hexes": [
                {"id": i, "resource": RESOURCE_NAMES[r], "number": n}
                for i, (r, n) in enumerate(zip(self.resources, self.numbers, strict=True))
            ],
            "ports": [
                {
                    "slot": k,
                    "kind": "3:1" if p == "3" else "2:1",
                    "resource": None if p == "3" else RESOURCE_NAMES[p],
                    "spots": list(PORT_SPOTS[k]),
                }
                for k, p in enumerate(self.ports)
            ],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str) -> Board:
        """Read :meth:`to_json`'s shape (a dict or JSON text). Errors name the JSON path.

        Resources may be names (``"wood"``, also ``"lumber"``, ``"wool"``, ``"wheat"``) or letters. Hexes
        must be listed with ids 0..18 (any order, each once). A port's ``spots``, when given, must match
        its slot (a check that the file uses our slot numbering).
        """
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except json.JSONDecodeError as exc:
                raise BoardParseError(f"board JSON is not valid JSON: {exc}") from None
        if not isinstance(obj, Mapping):
            raise BoardParseError(f"board JSON must be an object, got {type(obj).__name__}")
        hexes = _json_list(obj, "hexes", N_HEXES)
        resources: list[str | None] = [None] * N_HEXES
        numbers: list[int | None] = [None] * N_HEXES
        for k, h in enumerate(hexes):
            path = f"$.hexes[{k}]"
            if not isinstance(h, Mapping):
                raise BoardParseError(f"{path} must be an object, got {h!r}")
            hid = h.get("id", k)
            if isinstance(hid, bool) or not isinstance(hid, int) or not 0 <= hid < N_HEXES:
                raise BoardParseError(f"{path}.id must be an integer 0..{N_HEXES - 1}, got {hid!r}")
            if resources[hid] is not None:
                raise BoardParseError(f"{path}.id: hex {hid} is listed twice")
            letter = _resource_letter(h.get("resource"), f"{path}.resource")
            num = h.get("number")
            if letter == DESERT:
                if num is not None:
                    raise BoardParseError(f"{path}: the desert has no number, got {num!r}")
            elif num is None:
                raise BoardParseError(f"{path}.number is missing (only the desert has none)")
            elif isinstance(num, bool) or not isinstance(num, int):
                raise BoardParseError(f"{path}.number must be an integer, got {num!r}")
            else:
                num = _check_number(num, f"{path}.number")
            resources[hid] = letter
            numbers[hid] = num
        ports_json = _json_list(obj, "ports", N_PORTS)
        ports: list[str | None] = [None] * N_PORTS
        for k, p in enumerate(ports_json):
            path = f"$.ports[{k}]"
            if not isinstance(p, Mapping):
                raise BoardParseError(f"{path} must be an object, got {p!r}")
            slot = p.get("slot", k)
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < N_PORTS:
                raise BoardParseError(f"{path}.slot must be an integer 0..{N_PORTS - 1}, got {slot!r}")
            if ports[slot] is not None:
                raise BoardParseError(f"{path}.slot: slot {slot} is listed twice")
            ports[slot] = _port_letter(p, path)
            spots = p.get("spots")
            if spots is not None and (not isinstance(spots, list) or sorted(spots) != list(PORT_SPOTS[slot])):
                raise BoardParseError(
                    f"{path}.spots {spots!r} do not match slot {slot}, whose spots are "
                    f"{list(PORT_SPOTS[slot])}"
                )
        return cls(
            tuple(r for r in resources if r is not None),
            tuple(numbers),
            tuple(p for p in ports if p is not None),
        )

    # -- construction helpers ----------------------------------------------------------------------------

    @classmethod
    def random(cls, seed: SeedLike) -> Board:
        """A uniform shuffle of the 19 tiles, the 18 tokens (on the non-desert hexes) and the 9 ports."""
        rng = make_rng(seed)
        tiles = [letter for letter, n in TILE_COUNTS.items() for _ in range(n)]
        resources = [tiles[i] for i in rng.permutation(len(tiles))]
        tokens = [NUMBER_TOKENS[i] for i in rng.permutation(len(NUMBER_TOKENS))]
        ports = [PORT_KINDS[i] for i in rng.permutation(len(PORT_KINDS))]
        it = iter(tokens)
        numbers = tuple(None if r == DESERT else next(it) for r in resources)
        return cls(tuple(resources), numbers, tuple(ports))

    @classmethod
    def from_arrays(
        cls, resource_index: Sequence[int] | IntArray, numbers: Sequence[int] | IntArray, ports: str
    ) -> Board:
        """Build from a resource-index array (desert = ``DESERT_INDEX``) and a numbers array (0 = none)."""
        letters = (*RESOURCES, DESERT)
        res = tuple(letters[int(i)] for i in resource_index)
        nums = tuple(None if int(n) == 0 else int(n) for n in numbers)
        return cls(res, nums, tuple(ports))

    def with_swapped_hexes(self, i: int, j: int) -> Board:
        """Swap two whole tiles: resource and number move together (always valid)."""
        r, n = list(self.resources), list(self.numbers)
        r[i], r[j] = r[j], r[i]
        n[i], n[j] = n[j], n[i]
        return Board(tuple(r), tuple(n), self.ports)

    def with_swapped_resources(self, i: int, j: int) -> Board:
        """Swap the resources of two hexes; number tokens stay where they are.

        Desert rule: if either hex is the desert, the desert takes its (absent) number along and the
        other hex's token moves with it, i.e. the whole tiles swap, so the desert never holds a token.
        """
        if DESERT in (self.resources[i], self.resources[j]):
            return self.with_swapped_hexes(i, j)
        r = list(self.resources)
        r[i], r[j] = r[j], r[i]
        return Board(tuple(r), self.numbers, self.ports)

    def with_swapped_numbers(self, i: int, j: int) -> Board:
        """Swap the number tokens of two non-desert hexes (resources stay). The desert has no token to
        swap, so naming it raises :class:`CatanError`."""
        if self.numbers[i] is None or self.numbers[j] is None:
            raise CatanError(f"cannot swap numbers of hexes {i} and {j}: the desert has no number token")
        n = list(self.numbers)
        n[i], n[j] = n[j], n[i]
        return Board(self.resources, tuple(n), self.ports)

    def with_swapped_ports(self, a: int, b: int) -> Board:
        """Swap the port kinds of two slots."""
        p = list(self.ports)
        p[a], p[b] = p[b], p[a]
        return Board(self.resources, self.numbers, tuple(p))

    # -- arrays -------------------------------------------------------------------------------------------

    @cached_property
    def resource_index(self) -> IntArray:
        """(19,) resource index per hex in ``RESOURCES`` order; the desert is ``DESERT_INDEX`` (5)."""
        idx = {letter: k for k, letter in enumerate(RESOURCES)} | {DESERT: DESERT_INDEX}
        return _frozen(np.array([idx[r] for r in self.resources], dtype=np.int64))

    @cached_property
    def number_array(self) -> IntArray:
        """(19,) number token per hex, 0 on the desert."""
        return _frozen(np.array([0 if n is None else n for n in self.numbers], dtype=np.int64))

    @cached_property
    def pips(self) -> IntArray:
        """(19,) pips per hex (0 on the desert)."""
        return _frozen(PIPS_BY_NUMBER[self.number_array].copy())

    @cached_property
    def port_index(self) -> IntArray:
        """(9,) port kind per slot: resource index, or -1 for a generic 3:1 port."""
        idx = {letter: k for k, letter in enumerate(RESOURCES)} | {"3": -1}
        return _frozen(np.array([idx[p] for p in self.ports], dtype=np.int64))

    @property
    def desert(self) -> int:
        """Hex id of the desert."""
        return self.resources.index(DESERT)

    def spot_port(self, spot: int) -> str | None:
        """Port letter at a spot (``"3"`` or a resource letter), or ``None``."""
        slot = int(SPOT_PORT[_check_spot(spot)])
        return None if slot < 0 else self.ports[slot]


def _check_spot(spot: int) -> int:
    if isinstance(spot, bool) or not isinstance(spot, int | np.integer) or not 0 <= spot < N_SPOTS:
        raise CatanError(f"spot must be an integer 0..{N_SPOTS - 1}, got {spot!r}")
    return int(spot)


def _check_number(n: int, where: str) -> int:
    if n == 7:
        raise BoardParseError(f"{where}: 7 is not a number token (the robber's roll)")
    if n not in PIPS:
        raise BoardParseError(f"{where}: number {n} out of range (tokens are 2..6 and 8..12)")
    return n


def _json_list(obj: Mapping[str, Any], key: str, n: int) -> list[Any]:
    if key not in obj:
        raise BoardParseError(f"board JSON has no {key!r} list ($.{key})")
    value = obj[key]
    if not isinstance(value, list):
        raise BoardParseError(f"$.{key} must be a list, got {type(value).__name__}")
    if len(value) != n:
        raise BoardParseError(f"$.{key} has {len(value)} entries, expected {n}")
    return value


def _resource_letter(value: Any, path: str) -> str:
    if isinstance(value, str):
        v = value.strip()
        if v in TILE_COUNTS:
            return v
        if v.lower() in _NAME_ALIASES:
            return _NAME_ALIASES[v.lower()]
    raise BoardParseError(
        f"{path}: unknown resource {value!r}; expected wood, brick, sheep, grain, ore or desert"
    )


def _port_letter(p: Mapping[str, Any], path: str) -> str:
    kind = p.get("kind")
    res = p.get("resource")
    if kind == "3:1":
        if res is not None:
            raise BoardParseError(f"{path}: a 3:1 port has no resource, got {res!r}")
        return "3"
    if kind == "2:1":
        letter = _resource_letter(res, f"{path}.resource")
        if letter == DESERT:
            raise BoardParseError(f"{path}.resource: there is no desert port")
        return letter
    raise BoardParseError(f"{path}.kind must be '3:1' or '2:1', got {kind!r}")


def _validate(resources: tuple[str, ...], numbers: tuple[int | None, ...], ports: tuple[str, ...]) -> None:
    """Check lengths, letters and the base game's counts; messages quote the share code."""
    if len(resources) != N_HEXES:
        raise BoardParseError(f"a board has {N_HEXES} hexes, got {len(resources)} resources")
    if len(numbers) != N_HEXES:
        raise BoardParseError(f"a board has {N_HEXES} hexes, got {len(numbers)} numbers")
    for i, (r, n) in enumerate(zip(resources, numbers, strict=True)):
        if r not in TILE_COUNTS:
            raise BoardParseError(f"unknown resource letter {r!r} in hex {i}; expected one of W B S G O D")
        if r == DESERT and n is not None:
            raise BoardParseError(f"the desert has no number, got 'D{n}' (hex {i})")
        if r != DESERT:
            if n is None:
                raise BoardParseError(f"hex {i} {r!r} has no number (only the desert has none)")
            if isinstance(n, bool) or not isinstance(n, int):
                raise BoardParseError(f"hex {i} '{r}{n}': number must be an integer")
            _check_number(n, f"hex {i} '{r}{n}'")
    for k, p in enumerate(ports):
        if p not in _PORT_LETTERS:
            raise BoardParseError(f"unknown port letter {p!r} at slot {k}; expected '3' or W B S G O")
    code = (
        "-".join(r if n is None else f"{r}{n}" for r, n in zip(resources, numbers, strict=True))
        + "~"
        + "".join(ports)
    )
    got = Counter(resources)
    tile_diffs = [
        f"{expected} {RESOURCE_NAMES[letter]} tile{'s' if expected > 1 else ''} ({letter}) expected, "
        f"got {got[letter]}"
        for letter, expected in TILE_COUNTS.items()
        if got[letter] != expected
    ]
    if tile_diffs:
        raise BoardParseError(f"wrong tiles ({'; '.join(tile_diffs)}) in {code!r}")
    tokens = Counter(n for n in numbers if n is not None)
    want = Counter(NUMBER_TOKENS)
    if tokens != want:
        diffs = [f"{want[n]} x {n} expected, got {tokens[n]}" for n in sorted(PIPS) if tokens[n] != want[n]]
        raise BoardParseError(f"wrong number tokens ({'; '.join(diffs)}) in {code!r}")
    if len(ports) != N_PORTS:
        raise BoardParseError(
            f"{N_PORTS} ports expected, got {len(ports)} in {''.join(ports)!r} (board {code!r})"
        )
    pc = Counter(ports)
    pwant = Counter(PORT_KINDS)
    if pc != pwant:
        diffs = [
            f"{pwant[k]} '{k}' port{'s' if pwant[k] > 1 else ''} expected, got {pc[k]}"
            for k in _PORT_LETTERS
            if pc[k] != pwant[k]
        ]
        raise BoardParseError(f"wrong ports ({'; '.join(diffs)}) in {''.join(ports)!r}")
