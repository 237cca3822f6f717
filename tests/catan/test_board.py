"""Board model: topology from geometry (spec anchors), share codes, JSON, validation messages, swaps."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardeval.catan.board import (
    DESERT_INDEX,
    NUMBER_TOKENS,
    PIPS,
    PORT_KINDS,
    SWAP_KINDS,
    TILE_COUNTS,
    Board,
    BoardError,
    BoardParseError,
)
from boardeval.catan.topology import (
    CENTRE_HEX,
    CORNER_HEXES,
    EDGE_HEXES,
    HEX_CUBE,
    HEX_EDGES,
    HEX_NEIGHBOURS,
    PORT_SPOTS,
    ROADS,
    SPOT_HEX_MATRIX,
    SPOT_HEXES,
    SPOT_NEIGHBOURS,
    SPOT_XY,
    Topology,
)
from boardeval.core import CatanError

SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def test_spec_anchors() -> None:
    assert SPOT_HEXES[0] == (0,)
    assert SPOT_HEXES[2] == (0, 1)
    assert SPOT_HEXES[9] == (0, 3, 4)
    assert SPOT_HEXES[20] == (4, 8, 9)
    assert SPOT_HEXES[53] == (18,)
    assert PORT_SPOTS[0] == (26, 37)


def test_counts_and_shapes() -> None:
    assert len(HEX_CUBE) == 19 and len(SPOT_HEXES) == 54 and len(ROADS) == 72
    assert HEX_EDGES.shape == (42, 2) and bool(np.all(HEX_EDGES[:, 0] < HEX_EDGES[:, 1]))
    assert len({tuple(e) for e in HEX_EDGES.tolist()}) == 42
    assert SPOT_HEX_MATRIX.shape == (54, 19)
    # every hex has 6 corners; corner spots count: 18 coastal singles, 12 two-hex, 24 three-hex
    assert SPOT_HEX_MATRIX.sum(axis=0).tolist() == [6] * 19
    assert Counter(len(h) for h in SPOT_HEXES) == {1: 18, 2: 12, 3: 24}
    # zig-zag line sizes 7, 9, 11, 11, 9, 7: y grows by line and x ascends within a line
    bounds = np.cumsum([0, 7, 9, 11, 11, 9, 7])
    for a, b in itertools.pairwise(bounds):
        assert bool(np.all(np.diff(SPOT_XY[a:b, 0]) > 0))
    assert bool(np.all(SPOT_XY[bounds[1:-1], 1] > SPOT_XY[bounds[1:-1] - 1, 1] - 1.0))


def test_hex_rows_and_adjacency() -> None:
    rows = [[i for i, c in enumerate(HEX_CUBE) if c[2] == z] for z in range(-2, 3)]
    assert rows == [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18]]
    assert HEX_NEIGHBOURS[9] == (4, 5, 8, 10, 13, 14)
    assert HEX_NEIGHBOURS[0] == (1, 3, 4)
    assert HEX_NEIGHBOURS[7] == (3, 8, 12)
    assert sum(len(n) == 6 for n in HEX_NEIGHBOURS) == 7
    for i, nb in enumerate(HEX_NEIGHBOURS):
        for j in nb:
            assert i in HEX_NEIGHBOURS[j]
    assert CORNER_HEXES == (0, 2, 7, 11, 16, 18) and CENTRE_HEX == 9
    assert EDGE_HEXES == (1, 3, 4, 5, 6, 8, 10, 12, 13, 14, 15, 17)


def test_spot_adjacency_consistent_with_roads() -> None:
    assert all(len(n) in (2, 3) for n in SPOT_NEIGHBOURS)
    assert sum(len(n) for n in SPOT_NEIGHBOURS) == 2 * 72
    for a, b in ROADS:
        assert a < b and b in SPOT_NEIGHBOURS[a]
        # road ends share at least one hex
        assert set(SPOT_HEXES[a]) & set(SPOT_HEXES[b])


def test_ports_on_the_coast() -> None:
    spots = [s for pair in PORT_SPOTS for s in pair]
    assert len(set(spots)) == 18
    for a, b in PORT_SPOTS:
        assert (a, b) in ROADS
        assert len(SPOT_HEXES[a]) < 3 and len(SPOT_HEXES[b]) < 3


def test_generic_topology_small_frame() -> None:
    seven = [(0, 0, 0), (1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1)]
    t = Topology(tuple(seven))
    assert t.n_hexes == 7 and t.n_spots == 24 and len(t.roads) == 30
    assert t.hex_edges.shape == (12, 2)
    assert t.centre_hex == 3 and len(t.hex_neighbours[3]) == 6
    with pytest.raises(CatanError, match="cube"):
        Topology(((1, 1, 1),))


def test_spec_code_parses_and_round_trips() -> None:
    b = Board.parse(SPEC_CODE)
    assert b.code() == SPEC_CODE and str(b) == SPEC_CODE
    assert b.resources[0] == "O" and b.numbers[0] == 10 and b.numbers[9] is None
    assert b.desert == 9 and b.resource_index[9] == DESERT_INDEX
    assert b.pips.sum() == 58 and b.pips[9] == 0
    assert b.pips.tolist() == [0 if n is None else PIPS[n] for n in b.numbers]
    assert b.ports == tuple("3S3W3B3GO")
    assert Board.parse("  " + SPEC_CODE + "\n") == b


@pytest.mark.parametrize("seed", range(300))
def test_random_round_trips(seed: int) -> None:
    b = Board.random(seed)
    assert Board.parse(b.code()) == b
    assert Board.from_json(b.to_json()) == b
    assert Board.from_json(json.dumps(b.to_json())) == b
    assert Counter(b.resources) == TILE_COUNTS
    assert sorted(n for n in b.numbers if n is not None) == list(NUMBER_TOKENS)
    assert sorted(b.ports) == sorted(PORT_KINDS)


def test_random_is_deterministic_and_varied() -> None:
    assert Board.random(42) == Board.random(42)
    assert Board.random(np.random.default_rng(5)) == Board.random(5)
    assert len({Board.random(s).code() for s in range(50)}) == 50


def test_json_shape() -> None:
    d = Board.parse(SPEC_CODE).to_json()
    assert d["hexes"][0] == {"id": 0, "resource": "ore", "number": 10}
    assert d["hexes"][9] == {"id": 9, "resource": "desert", "number": None}
    assert d["ports"][0] == {"slot": 0, "kind": "3:1", "resource": None, "spots": [26, 37]}
    assert d["ports"][1]["kind"] == "2:1" and d["ports"][1]["resource"] == "sheep"


BAD_CODES = [
    (SPEC_CODE.replace("-S11~", "~"), "has 18 hexes"),
    (SPEC_CODE.replace("~", "-"), "'~'"),
    (SPEC_CODE.replace("O10-", "X10-", 1), "unknown resource letter 'X'"),
    (SPEC_CODE.replace("O10-", "o10-", 1), "upper case"),
    (SPEC_CODE.replace("-D-", "-D5-"), "'D5'"),
    (SPEC_CODE.replace("O10-", "O-", 1), "'O' has no number"),
    (SPEC_CODE.replace("O10-", "O7-", 1), "7 is not a number token"),
    (SPEC_CODE.replace("O10-", "O13-", 1), "number 13 out of range"),
    (SPEC_CODE.replace("O10-", "Oten-", 1), "'ten' is not a number"),
    (SPEC_CODE.replace("O10-", "-", 1), "empty"),
    (SPEC_CODE.replace("S2-", "S02-", 1), "leading zero"),
    (SPEC_CODE.replace("O10-", "W10-", 1), "3 ore tiles (O) expected, got 2"),
    (SPEC_CODE.replace("S2-", "S3-", 1), "1 x 2 expected, got 0"),
    (SPEC_CODE.replace("~3S3W3B3GO", "~3S3W3B3G"), "9 ports expected, got 8 in '3S3W3B3G'"),
    (SPEC_CODE.replace("~3S3W3B3GO", "~3S3W3B3GX"), "unknown port letter 'X'"),
    (SPEC_CODE.replace("~3S3W3B3GO", "~3S3W3B3G3"), "4 '3' ports expected, got 5"),
]


@pytest.mark.parametrize(("code", "message"), BAD_CODES)
def test_bad_codes_rejected_with_quote(code: str, message: str) -> None:
    with pytest.raises(BoardParseError) as info:
        Board.parse(code)
    assert message in str(info.value)


def test_desert_with_number_rejected_in_constructor() -> None:
    b = Board.parse(SPEC_CODE)
    nums = list(b.numbers)
    nums[9], nums[18] = 11, None
    with pytest.raises(BoardParseError, match="desert has no number"):
        Board(b.resources, tuple(nums), b.ports)


BAD_JSON = [
    ("{", "not valid JSON"),
    ("[]", "must be an object"),
    ('{"ports": []}', "no 'hexes'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_JSON)
def test_bad_json_text(text: str, message: str) -> None:
    with pytest.raises(BoardParseError, match=message):
        Board.from_json(text)


def _mutated(path: tuple[str | int, ...], value: object) -> dict[str, object]:
    d = Board.parse(SPEC_CODE).to_json()
    target: object = d
    for p in path[:-1]:
        target = target[p]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hexes", 3, "resource"), "gold", r"\$\.hexes\[3\]\.resource: unknown resource 'gold'"),
        (("hexes", 3, "number"), 7, r"\$\.hexes\[3\]\.number: 7"),
        (("hexes", 3, "number"), None, r"\$\.hexes\[3\]\.number is missing"),
        (("hexes", 9, "number"), 6, r"\$\.hexes\[9\]: the desert has no number"),
        (("hexes", 3, "id"), 4, r"\$\.hexes\[4\]\.id: hex 4 is listed twice"),
        (("ports", 2, "kind"), "4:1", r"\$\.ports\[2\]\.kind"),
        (("ports", 2, "spots"), [1, 2], r"\$\.ports\[2\]\.spots"),
        (("hexes",), [], r"\$\.hexes has 0 entries"),
    ],
)
def test_bad_json_fields_name_the_path(path: tuple[str | int, ...], value: object, message: str) -> None:
    with pytest.raises(BoardParseError, match=message):
        Board.from_json(_mutated(path, value))


def test_json_accepts_synonyms_and_letters() -> None:
    d = Board.parse(SPEC_CODE).to_json()
    d["hexes"][2]["resource"] = "lumber"
    d["hexes"][0]["resource"] = "O"
    assert Board.from_json(d) == Board.parse(SPEC_CODE)


def test_swaps_keep_the_invariants() -> None:
    b = Board.parse(SPEC_CODE)
    s = b.with_swapped_hexes(0, 9)
    assert s.resources[9] == "O" and s.numbers[9] == 10 and s.numbers[0] is None
    r = b.with_swapped_resources(0, 1)
    assert r.resources[:2] == ("S", "O") and r.numbers[:2] == (10, 2)
    rd = b.with_swapped_resources(0, 9)  # desert rule: the whole tiles swap
    assert rd == s
    n = b.with_swapped_numbers(0, 1)
    assert n.resources[:2] == ("O", "S") and n.numbers[:2] == (2, 10)
    with pytest.raises(CatanError, match="desert"):
        b.with_swapped_numbers(0, 9)
    p = b.with_swapped_ports(0, 1)
    assert p.ports[:2] == ("S", "3")


def test_from_arrays_round_trip() -> None:
    b = Board.random(7)
    assert Board.from_arrays(b.resource_index, b.number_array, "".join(b.ports)) == b


def test_swaps_check_their_indices() -> None:
    b = Board.parse(SPEC_CODE)
    with pytest.raises(BoardError, match=r"port slot must be an integer 0\.\.8, got 9"):
        b.with_swapped_ports(0, 9)
    with pytest.raises(BoardError, match=r"hex must be an integer 0\.\.18, got -1"):
        b.with_swapped_hexes(0, -1)  # no silent wrap-around to hex 18
    with pytest.raises(BoardError, match="got 19"):
        b.with_swapped_resources(19, 0)
    with pytest.raises(BoardError, match="got True"):
        b.with_swapped_numbers(True, 2)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="unknown swap kind 'tiles'"):
        b.with_swapped("tiles", 0, 1)
    assert issubclass(BoardError, CatanError) and issubclass(BoardParseError, BoardError)


def test_with_swapped_speaks_the_one_vocabulary() -> None:
    b = Board.parse(SPEC_CODE)
    assert b.with_swapped("hexes", 0, 9) == b.with_swapped_hexes(0, 9)
    assert b.with_swapped("resources", 0, 1).resources[:2] == ("S", "O")
    assert b.with_swapped("resources", 0, 1).numbers[:2] == (10, 2)  # tokens stay
    assert b.with_swapped("numbers", 0, 1).numbers[:2] == (2, 10)
    assert b.with_swapped("ports", 0, 1).ports[:2] == ("S", "3")
    assert SWAP_KINDS == ("hexes", "resources", "numbers", "ports")


def test_from_text_reads_codes_and_json(tmp_path: Path) -> None:
    b = Board.random(12)
    assert Board.from_text(f"  {b.code()}\n") == b
    assert Board.from_text(json.dumps(b.to_json(), indent=2)) == b
    with pytest.raises(BoardParseError, match="not valid JSON"):
        Board.from_text("{oops")
    with pytest.raises(BoardParseError, match="'~'"):
        Board.from_text("hello")
    path = tmp_path / "board.json"
    path.write_text(json.dumps(b.to_json()), encoding="utf-8")
    assert Board.load(path) == b
    path.write_text(b.code(), encoding="utf-8")
    assert Board.load(str(path)) == b
    with pytest.raises(BoardParseError, match="does not exist"):
        Board.load(tmp_path / "missing.json")
    path.write_text('{"hexes": []}', encoding="utf-8")
    with pytest.raises(BoardParseError, match=r"board file .*board\.json.*\$\.hexes has 0 entries"):
        Board.load(path)


def test_names_a_player_reads() -> None:
    """Issue 23: hexes by what they hold, spots by what they touch (hexes in id order, then the harbour)."""
    board = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")
    assert board.hex_name(0) == "ore 10" and board.hex_name(9) == "desert"
    assert board.spot_name(9) == "ore 10 · grain 12 · brick 6"  # spot 9 touches hexes 0, 3, 4
    assert board.spot_name(20) == "brick 6 · wood 11 · desert"
    assert board.spot_name(0) == "ore 10 · 3:1 harbour"
    assert board.port_name(1) == "2:1 sheep harbour"
    with pytest.raises(BoardError, match=r"spot must be an integer 0\.\.53, got 54"):
        board.spot_name(54)
