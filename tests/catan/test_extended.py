"""The 5-6 player board (``layout="extended"``): topology, counts, share code, JSON, spots, rendering."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardeval.catan.board import LAYOUTS, Board, BoardError, BoardParseError
from boardeval.catan.render import board_svg
from boardeval.catan.spots import evaluate_spot, evaluate_spots, spot_scores_batch
from boardeval.catan.topology import BASE_TOPOLOGY, EXTENDED_TOPOLOGY, Topology
from tests.catan.rule_agreement import EXTENDED_RULE_TEXTS

EXT = EXTENDED_TOPOLOGY

# A hand-laid extended board: the tiles, tokens and harbours of thisisrandy/catan-randomizer's 5-6 player
# example (docs/catan.md cites it), rows 3-4-5-6-5-4-3 read top to bottom, left to right.
HAND = (
    "W4-S5-G2-B6-O11-B10-S8-D-W12-G12-W9-G4-G3-W10-O3-B6-B5-W8-S9-O5-G2-D-S3-B8-S4-S9-O6-O11-G11-W10"
    "~3S33BSW3G3O"
)


def test_extended_topology_counts() -> None:
    assert (EXT.n_hexes, EXT.n_spots, EXT.n_ports) == (30, 80, 11)
    assert len(EXT.roads) == 109  # Euler: V - E + F = 2 with 80 spots and 30 + 1 faces
    assert len(EXT.hex_edges) == 71
    rows = Counter(c[2] for c in EXT.hex_cubes)
    assert [rows[z] for z in sorted(rows)] == [3, 4, 5, 6, 5, 4, 3]
    # spots on 1, 2 or 3 hexes: 30 coast spots touch one hex, 2 * 25... counted from the incidence
    per_spot = Counter(len(h) for h in EXT.spot_hexes)
    assert sum(k * n for k, n in per_spot.items()) == 6 * 30
    assert all(len(nb) in (2, 3) for nb in EXT.spot_neighbours)


def test_extended_regions_defined_like_the_base_board() -> None:
    # corners: hexes with exactly three land neighbours (6, as on the base board)
    assert EXT.corner_hexes == (0, 2, 12, 17, 27, 29)
    assert all(len(EXT.hex_neighbours[h]) == 3 for h in EXT.corner_hexes)
    # centre: the hexes nearest the centroid; on the 6-row's middle two
    assert EXT.centre_hexes == (14, 15)
    assert BASE_TOPOLOGY.centre_hexes == (9,)
    assert len(EXT.edge_hexes) == 30 - 6 - 2
    with pytest.raises(Exception, match="2 centre hexes"):
        _ = EXT.centre_hex


def test_extended_harbour_slots_clockwise_on_the_coast() -> None:
    coast = {s for s, hexes in enumerate(EXT.spot_hexes) if len(hexes) < 3}
    assert len(EXT.port_spots) == 11
    assert len({s for pair in EXT.port_spots for s in pair}) == 22  # no spot serves two harbours
    for a, b in EXT.port_spots:
        assert a in coast and b in coast and (a, b) in EXT.roads
    # clockwise (screen y down: growing angle) from the top-left harbour
    centre = EXT.hex_centres.mean(axis=0)
    angles = [np.arctan2(*(EXT.spot_xy[list(p)].mean(axis=0) - centre)[::-1]) for p in EXT.port_spots]
    unwrapped = np.unwrap(angles)
    assert all(np.diff(unwrapped) > 0) and unwrapped[-1] - unwrapped[0] < 2 * np.pi


def test_topology_rebuilt_from_its_cubes_is_identical() -> None:
    again = Topology(tuple(reversed(EXT.hex_cubes)), EXT.port_frame)
    assert again.spot_hexes == EXT.spot_hexes and again.roads == EXT.roads
    assert again.port_spots == EXT.port_spots


def test_hand_checked_board() -> None:
    b = Board.parse(HAND)
    assert b.layout == "extended" and b.n_hexes == 30 and b.n_ports == 11
    assert b.deserts == (7, 21)
    assert Counter(b.resources) == Counter(LAYOUTS["extended"].tile_counts)
    assert sorted(n for n in b.numbers if n is not None) == sorted(LAYOUTS["extended"].number_tokens)
    # spot 0 is the top-left corner of hex 0 (wood 4): one hex, 3 pips, on harbour slot 0 (3:1)
    assert EXT.spot_hexes[0] == (0,)
    assert b.spot_port(0) == "3"
    e = evaluate_spot(b, 0)
    assert e.extras["production"]["wood"] == 3.0
    # the spot below the two centre hexes, where hexes 14 (ore 3), 15 (brick 6) and 20 (grain 2) meet:
    # 2 ore pips, 5 brick pips, 1 grain pip
    (s,) = [s for s, h in enumerate(EXT.spot_hexes) if h == (14, 15, 20)]
    assert evaluate_spots(b).production[s].tolist() == [0.0, 5.0, 0.0, 1.0, 2.0]
    # energy by hand: corners 0, 2, 12, 17, 27, 29 hold 4, 2, 3, 8, 11, 10 = 3+1+2+5+2+3 = 16 pips;
    # centre 14, 15 hold 3 and 6 = 7 pips; the edges the other 88 - 23 = 65 pips over 22 hexes
    from boardeval.catan.energy import board_energy

    e = board_energy(b)
    assert e.extras["region_mean_pips"] == pytest.approx({"corners": 16 / 6, "centre": 3.5, "edges": 65 / 22})
    # grain 12-3 (hexes 8, 13), ore 3-5 (14, 19), brick 6-5 (15, 16), sheep 4-9 (24, 25); no 6/8 touch
    assert e.extras["same_resource_pair_hexes"] == [[8, 13], [14, 19], [15, 16], [24, 25]]
    assert e.extras["high_number_pair_hexes"] == []


def test_counts_components() -> None:
    spec = LAYOUTS["extended"]
    assert dict(spec.tile_counts) == {"W": 6, "B": 5, "S": 6, "G": 6, "O": 5, "D": 2}
    tokens = Counter(spec.number_tokens)
    assert tokens == {2: 2, 12: 2, **{n: 3 for n in (3, 4, 5, 6, 8, 9, 10, 11)}}
    assert Counter(spec.port_kinds) == {"3": 5, "S": 2, "W": 1, "B": 1, "G": 1, "O": 1}


def test_random_extended_boards_round_trip_code_and_json() -> None:
    for seed in range(300):
        b = Board.random(seed, layout="extended")
        assert b.layout == "extended"
        assert Board.parse(b.code()) == b
        assert Board.from_json(json.dumps(b.to_json())) == b
        assert Board.from_text(b.code(), "extended") == b
    assert Board.random(5) == Board.random(5, layout="base")
    assert Board.random(5, layout="extended") == Board.random(5, layout="extended")


def test_base_json_without_layout_is_base() -> None:
    b = Board.random(1)
    doc = b.to_json()
    assert doc["layout"] == "base"
    del doc["layout"]
    assert Board.from_json(doc) == b


@pytest.mark.parametrize(
    ("text", "layout", "message"),
    [
        (HAND.split("~")[0] + "~3S3W3B3GO", None, "has 30 hexes (5-6 player extension) but 9 port letters"),
        (Board.random(1).code(), "extended", "has 19 hexes: a base board"),
        (HAND, "base", "has 30 hexes: a extended board"),
        (HAND.replace("W4-", "W5-", 1), None, "wrong number tokens on the extended board"),
        (HAND.replace("G2-", "G6-", 1), None, "2 x 2 expected, got 1; 3 x 6 expected, got 4"),
        (HAND.replace("S5-", "O5-", 1), None, "6 sheep tiles (S) expected, got 5"),
        (HAND[:-1] + "3", None, "wrong ports on the extended board"),
    ],
)
def test_bad_extended_input_names_what_is_wrong(text: str, layout: str | None, message: str) -> None:
    with pytest.raises(BoardParseError) as info:
        Board.parse(text, layout)
    assert message in str(info.value)


def test_bad_extended_json() -> None:
    doc = Board.parse(HAND).to_json()
    with pytest.raises(BoardParseError, match=r"\$.hexes has 30 entries, expected 19 \(base layout\)"):
        Board.from_json({k: v for k, v in doc.items() if k != "layout"})
    with pytest.raises(BoardParseError, match="'huge' is not a layout"):
        Board.from_json({**doc, "layout": "huge"})
    with pytest.raises(BoardParseError, match="not the base layout asked for"):
        Board.from_json(doc, "base")
    bad = json.loads(json.dumps(doc))
    bad["ports"][3]["spots"] = [0, 1]
    with pytest.raises(BoardParseError, match=r"\$.ports\[3\].spots \[0, 1\] do not match slot 3"):
        Board.from_json(bad)
    with pytest.raises(BoardParseError, match="unknown board layout 'huge'"):
        Board.random(1, layout="huge")


def test_extended_swaps_keep_layout_and_check_indices() -> None:
    b = Board.parse(HAND)
    assert b.with_swapped("ports", 0, 10).layout == "extended"
    assert b.with_swapped_hexes(0, 29).resources[29] == "W"
    with pytest.raises(BoardError, match=r"0\.\.29"):
        b.with_swapped_hexes(0, 30)
    with pytest.raises(BoardError, match=r"0\.\.10"):
        b.with_swapped_ports(0, 11)


def test_extended_spots_batch_matches_reference() -> None:
    boards = [Board.random(s, layout="extended") for s in range(4)]
    batch = spot_scores_batch(
        np.stack([b.resource_index for b in boards]),
        np.stack([b.pips for b in boards]),
        np.stack([b.port_index for b in boards]),
    )
    assert batch.shape == (4, 80)
    for k, b in enumerate(boards):
        table = evaluate_spots(b)
        assert len(table) == 80
        ref = [evaluate_spot(b, s).total for s in range(80)]
        assert batch[k].tolist() == pytest.approx(ref, rel=1e-12)
        assert table.scores.tolist() == pytest.approx(ref, rel=1e-12)
    with pytest.raises(Exception, match=r"\(B, 30\), \(B, 30\), \(B, 11\)"):
        spot_scores_batch(np.zeros((1, 30), int), np.zeros((1, 30)), np.zeros((1, 9), int))


def test_extended_svg() -> None:
    b = Board.parse(HAND)
    svg = board_svg(b, evaluate_spots(b))
    assert svg.count('class="hex"') == 30
    assert svg.count('<g class="spot"') == 80
    assert svg.count('class="port"') == 11
    assert 'data-layout="extended"' in svg


def test_generator_layouts_and_bounds() -> None:
    from boardeval.catan._generate.common import ENERGY_SCALE, REGION_OF, energy_lower_bound
    from boardeval.catan._generate.layouts import gen_layout, region_lower_bound

    base, ext = gen_layout("base"), gen_layout("extended")
    assert (base.scale, base.factors, base.region_of) == (ENERGY_SCALE, (2, 12, 1), REGION_OF)
    assert (ext.scale, ext.factors) == (39204, (11, 33, 3))  # regions 6 / 2 / 22, lcm 66
    assert region_lower_bound(10, "base") == energy_lower_bound((100, 150, 10)) == 20
    assert region_lower_bound(10, "extended") == 720
    # the scaled variance is exact: the float energy's variance times the scale
    b = Board.parse(HAND)
    from boardeval.catan.energy import board_energy

    sums = [0, 0, 0]
    for h, p in enumerate(b.pips.tolist()):
        sums[ext.region_of[h]] += p
    var = board_energy(b)["pip_variance"].raw
    assert ext.variance_numerator(*sums) == round(var * ext.scale)


def test_anneal_extended() -> None:
    from boardeval.catan._generate.anneal import anneal
    from boardeval.catan.energy import board_energy

    start = Board.random(4, layout="extended")
    r = anneal(4, layout="extended")
    assert r.board.layout == "extended"
    assert r.energy.total == pytest.approx(board_energy(r.board).total)
    assert r.energy.total <= board_energy(start).total


@pytest.mark.parametrize("text", EXTENDED_RULE_TEXTS)
def test_rules_checker_and_cp_agree_on_extended_boards(text: str) -> None:
    """Each rule on the 5-6 player board: a satisfying board (random, else annealed with the rule as a
    penalty) and a violating one (random, else one swap away), and the checker and the CP encoding agree
    on both and on random extended boards."""
    from boardeval.catan import parse_rule
    from boardeval.catan._generate.anneal import anneal
    from tests.catan.rule_agreement import assert_agree

    rule = parse_rule(text)
    randoms = [Board.random(s, layout="extended") for s in range(30)]
    good = next((b for b in randoms if rule.holds(b)), None)
    if good is None:
        good = anneal(0, [rule], steps=2000, restarts=2, layout="extended").board
    assert good.layout == "extended" and rule.holds(good), text
    swaps = (good.with_swapped("hexes", a, b) for a in range(30) for b in range(a + 1, 30))
    bad = next(b for b in (*randoms, *swaps) if not rule.holds(b))
    assert_agree(text, rule, good, bad, randoms[:4])


def test_rules_on_two_deserts_and_six_hot_tokens() -> None:
    from boardeval.catan import parse_rule

    b = Board.parse(HAND)  # deserts on hexes 7 (coast) and 21 (inland)
    assert parse_rule("desert=coast").violations(b) == ["the desert is on hex 21, not on the coast"]
    assert len(parse_rule("desert=centre").violations(b)) == 2
    # 68-different-resources allows two of the six 6s and 8s per resource on this board
    hot = [h for h, n in enumerate(b.numbers) if n in (6, 8)]
    assert len(hot) == 6
    per = Counter(b.resources[h] for h in hot)
    assert parse_rule("68-different-resources").holds(b) == (max(per.values()) <= 2)


def test_cp_satisfy_and_count_on_extended() -> None:
    from boardeval.catan import check_rules, count_boards
    from boardeval.catan._generate.cp import satisfy

    rules = ["no-68-neighbours", "2-12-apart", "desert=coast", "max-spot-pips=12"]
    b = satisfy(rules, seed=2, layout="extended")
    assert b.layout == "extended" and all(check_rules(b, rules).values())
    n, complete = count_boards(rules, limit=3, layout="extended")
    assert (n, complete) == (3, False)


# -- CLI ---------------------------------------------------------------------------------------------------


def _cli(args: list[str], code: int = 0) -> str:
    from typer.testing import CliRunner

    from boardeval.cli.main import app

    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, result.output
    return result.output


def test_cli_random_layout_and_players() -> None:
    ext = Board.random(7, layout="extended")
    assert _cli(["catan", "random", "--seed", "7", "--layout", "extended"]).strip() == ext.code()
    assert _cli(["catan", "random", "--seed", "7", "--players", "6"]).strip() == ext.code()
    assert _cli(["catan", "random", "--seed", "7", "--players", "4"]).strip() == Board.random(7).code()
    d = json.loads(_cli(["catan", "random", "--seed", "7", "--players", "5", "--json"]))
    assert d["layout"] == "extended" and Board.from_json(d) == ext
    out = _cli(["catan", "random", "--seed", "7", "--players", "6", "--layout", "base"], code=2)
    assert "--players 6 needs the extended layout, but --layout base was given" in out
    assert "got 'huge'" in _cli(["catan", "random", "--seed", "7", "--layout", "huge"], code=2)


def test_cli_commands_detect_the_layout_from_the_board(tmp_path: Path) -> None:
    b = Board.parse(HAND)
    spots = json.loads(_cli(["catan", "spots", HAND, "--json"]))
    assert len(spots["spots"]) == 80 and spots["board"] == HAND
    energy = json.loads(_cli(["catan", "energy", HAND, "--json"]))
    from boardeval.catan import board_energy

    assert energy["energy"] == pytest.approx(board_energy(b).total)
    assert "layout: extended (5-6 player extension)" in _cli(["catan", "show", HAND])
    path = tmp_path / "board.json"
    path.write_text(json.dumps(b.to_json()))
    assert len(json.loads(_cli(["catan", "spots", str(path), "--json"]))["spots"]) == 80
    svg = tmp_path / "b.svg"
    _cli(["catan", "svg", HAND, "--out", str(svg)])
    assert svg.read_text().count('class="hex"') == 30
    bad = HAND.split("~")[0] + "~3S3W3B3GO"
    assert "9 port letters" in _cli(["catan", "spots", bad], code=2)


def test_cli_generate_extended_and_base_only_commands() -> None:
    d = json.loads(
        _cli(["catan", "generate", "--method", "anneal", "--seed", "1", "--layout", "extended", "--json"])
    )
    board = Board.parse(d["board"])
    assert board.layout == "extended" and d["optimal"] is True
    d = json.loads(
        _cli(["catan", "generate", "--method", "random", "--seed", "1", "--players", "5", "--json"])
    )
    assert Board.parse(d["board"]).layout == "extended"
    out = _cli(["catan", "blog-model", "tiles", "--layout", "extended"], code=2)
    assert "base board only" in out
    out = _cli(["catan", "playtest", HAND, "--games", "1"], code=2)
    assert "catanatron has no 5-6 player map" in out


def test_catanatron_io_refuses_extended_boards() -> None:
    from boardeval.catan.catanatron_io import CatanatronLayoutError, to_catanatron_map

    with pytest.raises(CatanatronLayoutError, match="catanatron has no 5-6 player map"):
        to_catanatron_map(Board.parse(HAND))


def test_every_generator_and_the_dial_on_extended() -> None:
    from boardeval.catan import generate

    a = generate("anneal", 2, rules=["no-68-neighbours", "max-spot-pips=12"], layout="extended")
    assert a.board.layout == "extended" and all(a.rules.values()), a.board.code()
    # (the annealer's penalties can trap a desert next to the centre: moving it there would bring a 6/8
    # pair, a barrier of one more violation; the exact methods have no such trap)
    for method, rules in (("cp", ["no-68-neighbours", "desert=centre"]), ("tournament", ["desert=centre"])):
        r = generate(method, 2, rules=rules, layout="extended")
        assert r.board.layout == "extended" and all(r.rules.values()), (method, r.board.code())
        assert set(r.board.deserts) == {14, 15}  # both deserts on the two centre hexes
        if method == "tournament":  # seed 2 draws its deserts on hexes 11 and 15: one whole-tile move
            assert r.swaps is not None
            assert [(s.a, s.b) for s in r.swaps if s.kind == "hexes"] == [(11, 14)]
    dial = [generate("anneal", 2, fairness=f, layout="extended").energy.total for f in (0.0, 0.5, 1.0)]
    assert dial[0] >= dial[1] >= dial[2] and dial[2] == pytest.approx(720 / 39204)
