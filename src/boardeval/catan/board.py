"""The Catan board: a resource and number per hex, a port kind per slot, the share code and JSON.

Where hexes, spots and port slots are (their ids, adjacency, corners) is :mod:`boardeval.catan.topology`.

Share code: the 19 hexes in id order, each a resource letter and its number (the desert has none),
joined by ``-``, then ``~`` and the 9 port letters in slot order (``3`` = generic 3:1, a resource
letter = 2:1 of that resource)::

    O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO

Layouts (:data:`LAYOUTS`): ``base`` (19 hexes, 18 tokens, 9 harbours) and ``extended``, the 5-6 player
extension's board (30 hexes in rows 3-4-5-6-5-4-3, tiles 6 wood / 5 brick / 6 sheep / 6 grain / 5 ore /
2 deserts, 28 tokens, 11 harbours: five 3:1, two sheep 2:1, one 2:1 of each other resource). The share
code of an extended board has the same grammar with 30 hexes and 11 harbour letters; the hex count tells
the layout. Board JSON carries ``"layout"`` (absent = ``base``).

Swap vocabulary (:meth:`Board.with_swapped_hexes` and friends, and the generators' ``Swap`` kinds):
``hexes`` = whole tiles (resource and number token move together), ``resources`` = the resources only
(tokens stay), ``numbers`` = the number tokens only (resources stay), ``ports`` = the kinds of two port
slots. Indices are checked (:class:`BoardError` quotes the bad one; negative indices are refused).

Size: about 810 lines, 385 of them the class :class:`Board`: one value type with its three written
forms (share code, JSON, text), their parsers and formatters, and the swaps above. Each form must
round-trip through the same checks (``_validate``), so the forms and the checks stay in one file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.topology import BASE_TOPOLOGY, EXTENDED_TOPOLOGY, PORT_SPOTS, Topology
from boardeval.core import (
    MAX_INPUT_CHARS,
    CatanError,
    SeedLike,
    loads_json,
    make_rng,
    parse_int,
    quote,
    validation_message,
)

__all__ = [
    "COMPLEMENT",
    "DESERT",
    "DESERT_INDEX",
    "LAYOUTS",
    "LAYOUT_NAMES",
    "NUMBER_TOKENS",
    "N_HEXES",
    "N_PORTS",
    "N_SPOTS",
    "PIPS",
    "PIPS_BY_NUMBER",
    "PORT_KINDS",
    "RESOURCES",
    "RESOURCE_NAMES",
    "SWAP_KINDS",
    "TILE_COUNTS",
    "Board",
    "BoardError",
    "BoardParseError",
    "Layout",
    "code_keys",
    "layout_spec",
]

IntArray = npt.NDArray[np.int64]


class BoardError(CatanError):
    """A board operation got bad input (a hex, slot or spot index out of range); the message quotes it."""


class BoardParseError(BoardError):
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
MAX_CODE_CHARS = 200
"""Longest share code text read (a code is at most 66 characters, 104 for the 30-hex board; the slack is
for outer whitespace)."""
_OUTER_SPACE = " \t\r\n"
"""What :meth:`Board.parse` strips around a code (ASCII only: a pasted line or a file's final newline)."""
SWAP_KINDS: tuple[str, ...] = ("hexes", "resources", "numbers", "ports")
"""The swap vocabulary: whole tiles, resources only, number tokens only, port kinds."""
assert (BASE_TOPOLOGY.n_hexes, BASE_TOPOLOGY.n_spots, BASE_TOPOLOGY.n_ports) == (N_HEXES, N_SPOTS, N_PORTS)
assert len(PORT_SPOTS) == N_PORTS


def _frozen(a: IntArray) -> IntArray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Layout:
    """A board layout: its topology and its component counts (tiles, number tokens, harbour kinds)."""

    name: str
    title: str
    topology: Topology
    tile_counts: Mapping[str, int]
    number_tokens: tuple[int, ...]
    port_kinds: tuple[str, ...]

    @property
    def n_hexes(self) -> int:
        return self.topology.n_hexes

    @property
    def n_spots(self) -> int:
        return self.topology.n_spots

    @property
    def n_ports(self) -> int:
        return self.topology.n_ports

    @property
    def n_deserts(self) -> int:
        return self.tile_counts[DESERT]


EXTENDED_TILE_COUNTS: dict[str, int] = {"W": 6, "B": 5, "S": 6, "G": 6, "O": 5, "D": 2}
EXTENDED_NUMBER_TOKENS: tuple[int, ...] = (
    2,
    2,
    *(n for n in (3, 4, 5, 6, 8, 9, 10, 11) for _ in range(3)),
    12,
    12,
)
EXTENDED_PORT_KINDS: tuple[str, ...] = ("3", "3", "3", "3", "3", "W", "B", "S", "S", "G", "O")
LAYOUTS: dict[str, Layout] = {
    "base": Layout("base", "base game (3-4 players)", BASE_TOPOLOGY, TILE_COUNTS, NUMBER_TOKENS, PORT_KINDS),
    "extended": Layout(
        "extended",
        "5-6 player extension",
        EXTENDED_TOPOLOGY,
        EXTENDED_TILE_COUNTS,
        EXTENDED_NUMBER_TOKENS,
        EXTENDED_PORT_KINDS,
    ),
}
"""Layout name -> :class:`Layout`. Component counts of the extended board: docs/catan.md (with sources)."""
LAYOUT_NAMES: tuple[str, ...] = tuple(LAYOUTS)
_LAYOUT_BY_HEXES: dict[int, Layout] = {spec.n_hexes: spec for spec in LAYOUTS.values()}
assert len(EXTENDED_NUMBER_TOKENS) == 28 and sum(EXTENDED_TILE_COUNTS.values()) == 30
assert sum(EXTENDED_TILE_COUNTS.values()) - EXTENDED_TILE_COUNTS[DESERT] == len(EXTENDED_NUMBER_TOKENS)


def code_keys(code: str) -> dict[str, str]:
    """The share code's keys in a JSON shape: ``{"code": code, "board": code}``.

    ``code`` is the share code's one name in every ``--json`` shape of the CLI and every web API answer
    (issue 22). ``board`` repeats it for one release (0.1.x; removed in 0.2) because the shapes of
    ``spots``, ``generate``, ``optimum``, ``playtest``, ``advise`` and ``study`` named it so before;
    scripts should read ``code``.
    """
    return {"code": code, "board": code}


def layout_spec(layout: str) -> Layout:
    """The :class:`Layout` of a layout name (``"base"`` or ``"extended"``); anything else raises
    :class:`BoardParseError` quoting it."""
    if isinstance(layout, str) and layout in LAYOUTS:
        return LAYOUTS[layout]
    raise BoardParseError(f"unknown board layout {quote(layout)}; expected one of {', '.join(LAYOUT_NAMES)}")


# ---------------------------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A board: a resource and number per hex, and a port kind per slot, on a layout.

    ``resources``: 19 letters from ``WBSGOD`` (exactly one ``D``); ``numbers``: the token on each hex,
    ``None`` on the desert; ``ports``: 9 letters from ``3WBSGO``. Construction validates the counts of
    the base game (tiles 4/3/4/4/3/1, the 18 tokens, ports 4x3 + one per resource) and raises
    :class:`BoardParseError` quoting what is wrong. ``layout="extended"``: the 5-6 player board (30
    hexes, two deserts, 28 tokens, 11 harbours; :data:`LAYOUTS`), validated against its own counts.
    """

    resources: tuple[str, ...]
    numbers: tuple[int | None, ...]
    ports: tuple[str, ...]
    layout: str = "base"

    def __post_init__(self) -> None:
        object.__setattr__(self, "resources", tuple(self.resources))
        object.__setattr__(self, "numbers", tuple(self.numbers))
        object.__setattr__(self, "ports", tuple(self.ports))
        _validate(self.resources, self.numbers, self.ports, layout_spec(self.layout))

    @property
    def spec(self) -> Layout:
        """The board's :class:`Layout` (topology and component counts)."""
        return LAYOUTS[self.layout]

    @property
    def topology(self) -> Topology:
        """Where this board's hexes, spots, roads and harbour slots are."""
        return LAYOUTS[self.layout].topology

    @property
    def n_hexes(self) -> int:
        return len(self.resources)

    @property
    def n_spots(self) -> int:
        return self.topology.n_spots

    @property
    def n_ports(self) -> int:
        return len(self.ports)

    # -- share code -------------------------------------------------------------------------------------

    @classmethod
    def parse(cls, code: str, layout: str | None = None) -> Board:
        """Parse a share code such as ``O10-S2-...-S11~3S3W3B3GO``.

        The layout is the one with the code's hex count (19: ``base``, 30: ``extended``); a given
        ``layout`` must agree (a base code read as ``extended`` raises, naming both).

        Grammar (exactly; :mod:`boardeval.core.numbers` reads the numbers)::

            code   = hex 18*("-" hex) "~" 9*port        outer ASCII whitespace (a pasted line) is ignored
            hex    = letter [number]                    letter in W B S G O D (upper case)
            number = nonzero-digit [digit]              ASCII digits, no sign, no leading zero
            port   = "3" | W | B | S | G | O

        then the base game's counts (:class:`Board`). Anything else raises :class:`BoardParseError`
        quoting the bad cell or the code.
        """
        if not isinstance(code, str):
            raise BoardParseError(f"board code must be text, got {type(code).__name__}")
        if len(code) > MAX_CODE_CHARS:
            raise BoardParseError(
                f"board code {quote(code)} is too long: a share code has at most {MAX_CODE_CHARS} characters"
            )
        want = None if layout is None else layout_spec(layout)
        text = code.strip(_OUTER_SPACE)
        if text.count("~") != 1:
            raise BoardParseError(
                f"board code {quote(text)} must be 19 hexes (30 on the 5-6 player board) joined by '-', "
                f"then '~' and 9 (11) port letters (found {text.count('~')} '~')"
            )
        hex_part, port_part = text.split("~")
        cells = hex_part.split("-")
        spec = _LAYOUT_BY_HEXES.get(len(cells))
        if spec is None:
            expected = f"{want.n_hexes}" if want else " or ".join(str(n) for n in _LAYOUT_BY_HEXES)
            raise BoardParseError(f"board code {quote(text)} has {len(cells)} hexes, expected {expected}")
        if want is not None and spec is not want:
            raise BoardParseError(
                f"board code {quote(text)} has {len(cells)} hexes: a {spec.name} board "
                f"({spec.title}), not the {want.name} layout asked for ({want.n_hexes} hexes)"
            )
        if len(port_part) != spec.n_ports and any(len(port_part) == o.n_ports for o in LAYOUTS.values()):
            raise BoardParseError(
                f"board code {quote(text)} has {len(cells)} hexes ({spec.title}) but {len(port_part)} port "
                f"letters {quote(port_part)}; the {spec.name} board has {spec.n_ports} harbours"
            )
        # Syntax only: split each cell into a letter and digits; the constructor's _validate checks the
        # letters, the numbers and the base game's counts, with messages that quote the cell.
        resources: list[str] = []
        numbers: list[int | None] = []
        for i, cell in enumerate(cells):
            if not cell:
                raise BoardParseError(f"hex {i} is empty in board code {quote(text)}")
            letter, digits = cell[0], cell[1:]
            resources.append(letter)
            if not digits:
                numbers.append(None)
                continue
            where = f"hex {i} {quote(cell)}"
            numbers.append(parse_int(digits, where, lo=0, hi=99, error=BoardParseError, noun="a number"))
        return cls(tuple(resources), tuple(numbers), tuple(port_part), spec.name)

    def code(self) -> str:
        """The share code (inverse of :meth:`parse`)."""
        cells = [r if n is None else f"{r}{n}" for r, n in zip(self.resources, self.numbers, strict=True)]
        return "-".join(cells) + "~" + "".join(self.ports)

    def __str__(self) -> str:
        return self.code()

    # -- JSON ---------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-able dict with names; hexes carry id, resource name and number, ports their spots.

        ``{"layout": "base", "hexes": [{"id": 0, "resource": "ore", "number": 10}, ...],
        "ports": [{"slot": 0, "kind": "3:1", "resource": null, "spots": [26, 37]}, ...]}``
        (a 2:1 port: ``"kind": "2:1", "resource": "wood"``).
        """
        port_spots = self.topology.port_spots
        return {
            "layout": self.layout,
            "hexes": [
                {"id": i, "resource": RESOURCE_NAMES[r], "number": n}
                for i, (r, n) in enumerate(zip(self.resources, self.numbers, strict=True))
            ],
            "ports": [
                {
                    "slot": k,
                    "kind": "3:1" if p == "3" else "2:1",
                    "resource": None if p == "3" else RESOURCE_NAMES[p],
                    "spots": list(port_spots[k]),
                }
                for k, p in enumerate(self.ports)
            ],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str, layout: str | None = None) -> Board:
        """Read :meth:`to_json`'s shape (a dict or JSON text). Errors name the JSON path.

        ``$.layout`` (``"base"`` or ``"extended"``) picks the layout; absent means ``base`` (files written
        before the 5-6 player board). A given ``layout`` must agree with it.

        The document is validated by a strict pydantic model (:func:`_json_schema`): unknown or misspelled
        keys, duplicate keys, wrong types (``"10"`` for 10, ``10.0``, ``true``), over-long integers and
        nesting deeper than :data:`~boardeval.core.MAX_DEPTH` are refused. Resources are the lower-case
        names (``"wood"``, also ``"lumber"``, ``"wool"``, ``"wheat"``) or the upper-case letters, exactly
        (no padding, no other case). Hexes must be listed with ids 0..18 (any order, each once; a missing
        ``id`` is the position). A port's ``spots``, when given, must be its slot's two spots in
        increasing order (a check that the file uses our slot numbering). An optional top-level ``code``
        (``boardeval catan random --json`` writes one) must be the share code of the same board.
        """
        if isinstance(obj, str):
            obj = loads_json(obj, "board JSON", error=BoardParseError)
        if not isinstance(obj, Mapping):
            raise BoardParseError(f"board JSON must be an object, got {type(obj).__name__}")
        name = obj.get("layout", "base")
        if not isinstance(name, str) or name not in LAYOUTS:
            raise BoardParseError(
                f"board JSON: $.layout {quote(name)} is not a layout; "
                f"expected one of {', '.join(LAYOUT_NAMES)}"
            )
        spec = LAYOUTS[name]
        if layout is not None and layout_spec(layout) is not spec:
            given = repr(name) if "layout" in obj else "absent"
            raise BoardParseError(
                f"board JSON is a {spec.name} board ($.layout {given}), not the {layout} layout asked for"
            )
        n_hexes, n_ports = spec.n_hexes, spec.n_ports
        for key, n in (("hexes", n_hexes), ("ports", n_ports)):  # counts first: cheap, and before types
            if key not in obj:
                raise BoardParseError(f"board JSON has no {key!r} list ($.{key})")
            value = obj[key]
            if isinstance(value, list) and len(value) != n:
                raise BoardParseError(
                    f"board JSON: $.{key} has {len(value)} entries, expected {n} ({spec.name} layout)"
                )
        from pydantic import ValidationError

        model = _json_schema(spec.name)
        try:
            doc = model.model_validate(dict(obj))
        except ValidationError as exc:
            raise BoardParseError(f"board JSON: {validation_message(exc, root='$')}") from None
        resources: list[str] = [""] * n_hexes
        numbers: list[int | None] = [None] * n_hexes
        for hid, h, path in _json_entries(doc.hexes, "hexes", "id", n_hexes):
            resources[hid] = _resource_letter(h.resource, f"{path}.resource")
            numbers[hid] = _json_number(h.number, resources[hid], path)
        ports: list[str] = [""] * n_ports
        port_spots = spec.topology.port_spots
        for slot, p, path in _json_entries(doc.ports, "ports", "slot", n_ports):
            ports[slot] = _port_letter(p.kind, p.resource, path)
            if p.spots is not None and p.spots != list(port_spots[slot]):
                raise BoardParseError(
                    f"{path}.spots {quote(p.spots)} do not match slot {slot}, whose spots are "
                    f"{list(port_spots[slot])} (in that order)"
                )
        board = cls(tuple(resources), tuple(numbers), tuple(ports), spec.name)
        if doc.code is not None and doc.code != board.code():
            raise BoardParseError(
                f"board JSON: $.code {quote(doc.code)} does not match the hexes and ports ({board.code()!r})"
            )
        return board

    # -- text and files -----------------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, layout: str | None = None) -> Board:
        """A board from typed or pasted text: the board JSON when it starts with ``{``, else a share code.
        ``layout``, when given, must be the text's layout."""
        if not isinstance(text, str):
            raise BoardParseError(f"board text must be a string, got {type(text).__name__}")
        stripped = text.strip(_OUTER_SPACE)
        return cls.from_json(stripped, layout) if stripped.startswith("{") else cls.parse(stripped, layout)

    @classmethod
    def load(cls, path: str | Path) -> Board:
        """Read a board file (share code or JSON, as :meth:`from_text`); errors name the file."""
        p = Path(path)
        if not p.is_file():
            raise BoardParseError(f"board file {str(path)!r} does not exist")
        try:
            if p.stat().st_size > 4 * MAX_INPUT_CHARS:  # refuse before reading a huge file into memory
                raise BoardParseError(f"too large ({p.stat().st_size} bytes)")
            return cls.from_text(p.read_text(encoding="utf-8"))
        except BoardParseError as exc:
            raise BoardParseError(f"board file {str(path)!r}: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardParseError(f"cannot read board file {str(path)!r}: {exc}") from None

    # -- construction helpers ----------------------------------------------------------------------------

    @classmethod
    def random(cls, seed: SeedLike, layout: str = "base") -> Board:
        """A uniform shuffle of the tiles, the tokens (on the non-desert hexes) and the ports of a layout
        (base: 19 tiles, 18 tokens, 9 ports; extended: 30, 28, 11). Base boards are those of earlier
        versions for the same seed."""
        spec = layout_spec(layout)
        rng = make_rng(seed)
        tiles = [letter for letter, n in spec.tile_counts.items() for _ in range(n)]
        resources = [tiles[i] for i in rng.permutation(len(tiles))]
        tokens = [spec.number_tokens[i] for i in rng.permutation(len(spec.number_tokens))]
        ports = [spec.port_kinds[i] for i in rng.permutation(len(spec.port_kinds))]
        it = iter(tokens)
        numbers = tuple(None if r == DESERT else next(it) for r in resources)
        return cls(tuple(resources), numbers, tuple(ports), spec.name)

    @classmethod
    def from_arrays(
        cls,
        resource_index: Sequence[int] | IntArray,
        numbers: Sequence[int] | IntArray,
        ports: str | Sequence[str],
        layout: str | None = None,
    ) -> Board:
        """Build from a resource-index array (desert = ``DESERT_INDEX``) and a numbers array (0 = none).
        The layout defaults to the one with that many hexes."""
        letters = (*RESOURCES, DESERT)
        res = tuple(letters[int(i)] for i in resource_index)
        nums = tuple(None if int(n) == 0 else int(n) for n in numbers)
        if layout is None:
            spec = _LAYOUT_BY_HEXES.get(len(res))
            layout = spec.name if spec else "base"
        return cls(res, nums, tuple(ports), layout)

    def with_swapped(self, kind: str, a: int, b: int) -> Board:
        """Swap by kind, in the one swap vocabulary (:data:`SWAP_KINDS`, module docstring): ``"hexes"``,
        ``"resources"``, ``"numbers"`` or ``"ports"``."""
        if kind == "hexes":
            return self.with_swapped_hexes(a, b)
        if kind == "resources":
            return self.with_swapped_resources(a, b)
        if kind == "numbers":
            return self.with_swapped_numbers(a, b)
        if kind == "ports":
            return self.with_swapped_ports(a, b)
        raise BoardError(f"unknown swap kind {kind!r}; expected one of {', '.join(SWAP_KINDS)}")

    def with_swapped_hexes(self, i: int, j: int) -> Board:
        """Swap two whole tiles: resource and number move together (always valid)."""
        i, j = _check_index(i, self.n_hexes, "hex"), _check_index(j, self.n_hexes, "hex")
        r, n = list(self.resources), list(self.numbers)
        r[i], r[j] = r[j], r[i]
        n[i], n[j] = n[j], n[i]
        return Board(tuple(r), tuple(n), self.ports, self.layout)

    def with_swapped_resources(self, i: int, j: int) -> Board:
        """Swap the resources of two hexes; number tokens stay where they are.

        Desert rule: if either hex is the desert, the desert takes its (absent) number along and the
        other hex's token moves with it, i.e. the whole tiles swap, so the desert never holds a token.
        """
        i, j = _check_index(i, self.n_hexes, "hex"), _check_index(j, self.n_hexes, "hex")
        if DESERT in (self.resources[i], self.resources[j]):
            return self.with_swapped_hexes(i, j)
        r = list(self.resources)
        r[i], r[j] = r[j], r[i]
        return Board(tuple(r), self.numbers, self.ports, self.layout)

    def with_swapped_numbers(self, i: int, j: int) -> Board:
        """Swap the number tokens of two non-desert hexes (resources stay). The desert has no token to
        swap, so naming it raises :class:`BoardError`."""
        i, j = _check_index(i, self.n_hexes, "hex"), _check_index(j, self.n_hexes, "hex")
        if self.numbers[i] is None or self.numbers[j] is None:
            raise BoardError(f"cannot swap numbers of hexes {i} and {j}: the desert has no number token")
        n = list(self.numbers)
        n[i], n[j] = n[j], n[i]
        return Board(self.resources, tuple(n), self.ports, self.layout)

    def with_swapped_ports(self, a: int, b: int) -> Board:
        """Swap the port kinds of two slots (0..8; 0..10 on the extended board)."""
        a, b = _check_index(a, self.n_ports, "port slot"), _check_index(b, self.n_ports, "port slot")
        p = list(self.ports)
        p[a], p[b] = p[b], p[a]
        return Board(self.resources, self.numbers, tuple(p), self.layout)

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
        """Hex id of the (first) desert."""
        return self.resources.index(DESERT)

    @property
    def deserts(self) -> tuple[int, ...]:
        """Hex ids of the deserts (one on the base board, two on the extended board)."""
        return tuple(i for i, r in enumerate(self.resources) if r == DESERT)

    def spot_port(self, spot: int) -> str | None:
        """Port letter at a spot (``"3"`` or a resource letter), or ``None``."""
        slot = int(self.topology.spot_port[_check_index(spot, self.n_spots, "spot")])
        return None if slot < 0 else self.ports[slot]

    # names a player reads: a hex by what it holds, a spot by what it touches (issue 23: one board
    # language; the ids stay available, but a player should not need them)

    def hex_name(self, hex_id: int) -> str:
        """What a hex holds: ``"wood 8"``, ``"desert"``."""
        h = _check_index(hex_id, self.n_hexes, "hex")
        number = self.numbers[h]
        return RESOURCE_NAMES[self.resources[h]] + ("" if number is None else f" {number}")

    def port_name(self, slot: int) -> str:
        """What a harbour trades: ``"3:1 harbour"``, ``"2:1 wood harbour"``."""
        kind = self.ports[_check_index(slot, self.n_ports, "port slot")]
        return "3:1 harbour" if kind == "3" else f"2:1 {RESOURCE_NAMES[kind]} harbour"

    def spot_name(self, spot: int) -> str:
        """What a settlement spot touches, hexes in id order then its harbour:
        ``"sheep 6 · ore 5 · wood 8"``, ``"wood 8 · 3:1 harbour"``."""
        s = _check_index(spot, self.n_spots, "spot")
        parts = [self.hex_name(h) for h in self.topology.spot_hexes[s]]
        slot = int(self.topology.spot_port[s])
        if slot >= 0:
            parts.append(self.port_name(slot))
        return " · ".join(parts)


def _check_index(value: int, n: int, what: str) -> int:
    """``value`` as an int in ``0..n-1``; anything else (negative, too large, not an integer) raises
    :class:`BoardError` quoting it (no silent wrap-around of negative indices)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < n:
        raise BoardError(f"{what} must be an integer 0..{n - 1}, got {value!r}")
    return int(value)


def _check_number(n: int, where: str) -> int:
    if n == 7:
        raise BoardParseError(f"{where}: 7 is not a number token (the robber's roll)")
    if n not in PIPS:
        raise BoardParseError(f"{where}: number {n} out of range (tokens are 2..6 and 8..12)")
    return n


@cache
def _json_schema(layout: str = "base") -> Any:
    """The pydantic model of board JSON (built on first use: the CLI does not import pydantic for codes).

    Strict types, no unknown keys::

        {"code"?: str,
         "hexes": [{"id"?: int 0..18, "resource": str, "number"?: int 0..99 | null}, ...],
         "ports": [{"slot"?: int 0..8, "kind": "3:1" | "2:1", "resource"?: str | null,
                    "spots"?: [int 0..53, int 0..53] | null}, ...]}

    The list lengths (19 hexes, 9 ports) are checked before it, ids, resource names and the game's
    counts after it, with messages of their own.
    """
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Field

    spec = LAYOUTS[layout]
    strict = ConfigDict(strict=True, extra="forbid")
    Spot = Annotated[int, Field(ge=0, le=spec.n_spots - 1)]

    class HexJson(BaseModel):
        model_config = strict
        id: Annotated[int, Field(ge=0, le=spec.n_hexes - 1)] = -1  # the default (never validated): position
        resource: str
        number: Annotated[int, Field(ge=0, le=99)] | None = None

    class PortJson(BaseModel):
        model_config = strict
        slot: Annotated[int, Field(ge=0, le=spec.n_ports - 1)] = -1
        kind: Literal["3:1", "2:1"]
        resource: str | None = None
        spots: Annotated[list[Spot], Field(min_length=2, max_length=2)] | None = None

    class BoardJson(BaseModel):
        model_config = strict
        layout: Literal["base", "extended"] = "base"
        code: str | None = None
        hexes: list[HexJson]
        ports: list[PortJson]

    return BoardJson


def _json_entries(entries: list[Any], key: str, id_key: str, n: int) -> list[tuple[int, Any, str]]:
    """The ``n`` validated entries of list ``key``, each with its id (``id_key``; -1, i.e. absent, means
    its position; ids 0..n-1, each once) and its JSON path for messages."""
    seen: set[int] = set()
    out: list[tuple[int, Any, str]] = []
    for k, entry in enumerate(entries):
        path = f"$.{key}[{k}]"
        i = getattr(entry, id_key)
        i = k if i == -1 else i
        if i in seen:
            what = "hex" if key == "hexes" else "slot"
            raise BoardParseError(f"board JSON: {path}.{id_key}: {what} {i} is listed twice")
        seen.add(i)
        out.append((i, entry, path))
    return out


def _json_number(num: int | None, letter: str, path: str) -> int | None:
    """A hex's ``number`` field: None on the desert, else a valid token."""
    if letter == DESERT:
        if num is not None:
            raise BoardParseError(f"board JSON: {path}: the desert has no number, got {num!r}")
        return None
    if num is None:
        raise BoardParseError(f"board JSON: {path}.number is missing (only the desert has none)")
    return _check_number(num, f"board JSON: {path}.number")


_JSON_RESOURCES = ", ".join(f"{name!r}" for name in _NAME_ALIASES)


def _resource_letter(value: str | None, path: str) -> str:
    """A resource written as its lower-case name (or alias) or its upper-case letter, exactly."""
    if value in TILE_COUNTS:
        return value
    if value in _NAME_ALIASES:
        return _NAME_ALIASES[value]
    hint = ""
    if isinstance(value, str):
        v = value.strip().lower()
        if v in _NAME_ALIASES or v.upper() in TILE_COUNTS:
            hint = " (names are lower case, letters upper case, without spaces)"
    raise BoardParseError(
        f"board JSON: {path}: unknown resource {quote(value)}{hint}; expected one of {_JSON_RESOURCES} "
        "or a letter W B S G O D"
    )


def _port_letter(kind: str, res: str | None, path: str) -> str:
    if kind == "3:1":
        if res is not None:
            raise BoardParseError(f"board JSON: {path}: a 3:1 port has no resource, got {quote(res)}")
        return "3"
    letter = _resource_letter(res, f"{path}.resource")
    if letter == DESERT:
        raise BoardParseError(f"board JSON: {path}.resource: there is no desert port")
    return letter


def _validate(
    resources: tuple[str, ...], numbers: tuple[int | None, ...], ports: tuple[str, ...], spec: Layout
) -> None:
    """Check lengths, letters and the layout's counts; messages quote the cell or the share code."""
    where = "" if spec.name == "base" else f" ({spec.title})"
    if len(resources) != spec.n_hexes:
        raise BoardParseError(
            f"a {spec.name} board has {spec.n_hexes} hexes{where}, got {len(resources)} resources"
        )
    if len(numbers) != spec.n_hexes:
        raise BoardParseError(
            f"a {spec.name} board has {spec.n_hexes} hexes{where}, got {len(numbers)} numbers"
        )
    for i, (r, n) in enumerate(zip(resources, numbers, strict=True)):
        _validate_hex(i, r, n)
    for k, p in enumerate(ports):
        if not isinstance(p, str) or len(p) != 1 or p not in _PORT_LETTERS:
            raise BoardParseError(
                f"unknown port letter {quote(p)} at slot {k} in ports {quote(''.join(map(str, ports)))}; "
                "expected "
                "'3' (3:1) or a resource letter W B S G O (2:1)"
            )
    _validate_counts(resources, numbers, ports, spec)


def _validate_hex(i: int, r: str, n: int | None) -> None:
    """One hex: a known resource letter, and a token 2..6 / 8..12 unless it is the desert."""
    if not isinstance(r, str) or r not in TILE_COUNTS:
        hint = " (letters are upper case)" if isinstance(r, str) and r.upper() in TILE_COUNTS else ""
        raise BoardParseError(
            f"unknown resource letter {quote(r)} in hex {i}; expected one of W B S G O D{hint}"
        )
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99):
        raise BoardParseError(f"hex {i} {r!r}: number must be an integer token, got {quote(n)}")
    if r == DESERT:
        if n is not None:
            raise BoardParseError(f"the desert has no number, got 'D{n}' (hex {i})")
        return
    if n is None:
        raise BoardParseError(f"hex {i} {r!r} has no number (only the desert has none)")
    _check_number(n, f"hex {i} '{r}{n}'")


def _validate_counts(
    resources: tuple[str, ...], numbers: tuple[int | None, ...], ports: tuple[str, ...], spec: Layout
) -> None:
    """The layout's counts. Base: tiles 4/3/4/4/3/1, the 18 tokens, 9 ports (four 3:1, one per resource);
    extended: tiles 6/5/6/6/5/2, the 28 tokens, 11 ports (five 3:1, two sheep, one of each other)."""
    what = "" if spec.name == "base" else f" on the {spec.name} board ({spec.title})"
    code = (
        "-".join(r if n is None else f"{r}{n}" for r, n in zip(resources, numbers, strict=True))
        + "~"
        + "".join(ports)
    )
    got = Counter(resources)
    tile_diffs = [
        f"{expected} {RESOURCE_NAMES[letter]} tile{'s' if expected > 1 else ''} ({letter}) expected, "
        f"got {got[letter]}"
        for letter, expected in spec.tile_counts.items()
        if got[letter] != expected
    ]
    if tile_diffs:
        raise BoardParseError(f"wrong tiles{what} ({'; '.join(tile_diffs)}) in {code!r}")
    tokens = Counter(n for n in numbers if n is not None)
    want = Counter(spec.number_tokens)
    if tokens != want:
        diffs = [f"{want[n]} x {n} expected, got {tokens[n]}" for n in sorted(PIPS) if tokens[n] != want[n]]
        raise BoardParseError(f"wrong number tokens{what} ({'; '.join(diffs)}) in {code!r}")
    if len(ports) != spec.n_ports:
        raise BoardParseError(
            f"{spec.n_ports} ports expected{what}, got {len(ports)} in {''.join(ports)!r} (board {code!r})"
        )
    pc = Counter(ports)
    pwant = Counter(spec.port_kinds)
    if pc != pwant:
        diffs = [
            f"{pwant[k]} '{k}' port{'s' if pwant[k] > 1 else ''} expected, got {pc[k]}"
            for k in _PORT_LETTERS
            if pc[k] != pwant[k]
        ]
        raise BoardParseError(f"wrong ports{what} ({'; '.join(diffs)}) in {''.join(ports)!r}")
