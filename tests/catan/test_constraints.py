"""Board rules: each checker on hand-made boards that break and keep it; CP-SAT encodings agree with the
checkers; parsing errors name the rule text and list the valid rules."""

from __future__ import annotations

import itertools

import pytest

from boardeval.catan import RULES, Board, RuleError, check_rules, parse_rule, rule_violations
from boardeval.catan._generate.anneal import anneal
from boardeval.catan._generate.cp import satisfy
from boardeval.catan.board import SWAP_KINDS
from boardeval.catan.constraints import Rule, connected_sets
from boardeval.core import CatanError
from tests.catan.rule_agreement import RULE_TEXTS, assert_agree

# The spec's board, laid out (hex: resource+number):
#         0:O10  1:S2   2:W9
#      3:G12  4:B6   5:S4   6:B10
#   7:G9   8:W11  9:D   10:W3  11:O8
#     12:W8  13:O3  14:G4  15:S5
#       16:B5  17:G6  18:S11                 ports 3S3W3B3GO
EX = Board.parse("O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO")


def test_catan_error_is_exported_from_core() -> None:
    assert issubclass(RuleError, CatanError)


def test_same_resource_neighbours_by_hand() -> None:
    v = parse_rule("no-same-resource-neighbours").violations(EX)
    # S 1-5, G 3-7, W 8-12, G 14-17, S 15-18 (read off the diagram)
    assert len(v) == 5 and "hexes 1 and 5 are both sheep" in v
    moved = EX.with_swapped_resources(1, 11)  # ore onto hex 1 (next to ore 0), sheep onto 11 (next to 15)
    v2 = parse_rule("no-same-resource-neighbours").violations(moved)
    assert v2 == [
        "hexes 0 and 1 are both ore",
        "hexes 3 and 7 are both grain",
        "hexes 8 and 12 are both wood",
        "hexes 11 and 15 are both sheep",
        "hexes 14 and 17 are both grain",
        "hexes 15 and 18 are both sheep",
    ]


def test_68_neighbours() -> None:
    rule = parse_rule("no-68-neighbours")
    assert rule.holds(EX)
    bad = EX.with_swapped_numbers(0, 11)  # 8 onto hex 0, next to hex 4's 6
    assert rule.violations(bad) == ["hexes 0 and 4 hold 8 and 6"]


def test_equal_number_neighbours() -> None:
    rule = parse_rule("no-equal-number-neighbours")
    assert rule.holds(EX)
    bad = EX.with_swapped_numbers(1, 6)  # 10 onto hex 1, next to hex 0's 10
    assert "hexes 0 and 1 both hold 10" in rule.violations(bad)


def test_2_12_apart() -> None:
    rule = parse_rule("2-12-apart")
    assert rule.holds(EX)  # 2 on hex 1, 12 on hex 3: not neighbours
    bad = EX.with_swapped_numbers(0, 3)  # 12 onto hex 0, next to hex 1's 2
    assert rule.violations(bad) == ["hexes 0 and 1 hold the 2 and the 12"]


def test_wood_brick_apart() -> None:
    rule = parse_rule("wood-brick-apart")
    assert len(rule.violations(EX)) == 4  # 2-6, 4-8, 6-10, 12-16
    assert "wood and brick touch at hexes 2 and 6" in rule.violations(EX)


def test_68_different_resources() -> None:
    rule = parse_rule("68-different-resources")
    assert rule.holds(EX)  # 6 on B, G; 8 on O, W
    bad = EX.with_swapped_numbers(4, 14)  # hex 14 (grain) gets the 6: grain holds two
    assert rule.violations(bad) == ["grain holds 2 of the 6s and 8s (hexes 14, 17)"]


def test_max_spot_pips() -> None:
    assert parse_rule("max-spot-pips=12").holds(EX)
    assert "spot 9 (10-12-6) has 9 pips > 8" in parse_rule("max-spot-pips=8").violations(EX)
    bad = EX.with_swapped_numbers(0, 11).with_swapped_numbers(3, 15)  # spot 9 = 8-5-6 = 14 pips
    assert "spot 9 (8-5-6) has 14 pips > 12" in parse_rule("max-spot-pips=12").violations(bad)


def test_min_spot_pips_counts_the_desert_as_zero() -> None:
    assert parse_rule("min-spot-pips=4").holds(EX)
    v = parse_rule("min-spot-pips=5").violations(EX)
    assert v == ["spot 31 (11-D-3) has 4 pips < 5"]


def test_max_cluster() -> None:
    assert parse_rule("max-cluster=2").holds(EX)
    assert len(parse_rule("max-cluster=1").violations(EX)) == 5
    bad = EX.with_swapped_resources(4, 15)  # sheep onto hex 4: 1-4-5 is a sheep triangle
    assert "sheep cluster of 3 hexes (1, 4, 5) > 2" in parse_rule("max-cluster=2").violations(bad)
    assert parse_rule("max-cluster=3").holds(bad)


def test_desert() -> None:
    assert parse_rule("desert=centre").holds(EX)
    assert parse_rule("desert=any").holds(EX)
    assert parse_rule("desert=coast").violations(EX) == ["the desert is on hex 9, not on the coast"]
    moved = EX.with_swapped_hexes(9, 0)
    assert parse_rule("desert=coast").holds(moved) and not parse_rule("desert=center").holds(moved)


def test_resource_pips_band() -> None:
    # W 4+2+2+5 = 13, B 5+3+4 = 12, S 1+3+4+2 = 10, G 1+4+3+5 = 13, O 3+5+2 = 10
    assert parse_rule("resource-pips-band=10..13").holds(EX)
    assert parse_rule("resource-pips-band=11..13").violations(EX) == [
        "sheep has 10 pips, outside 11..13",
        "ore has 10 pips, outside 11..13",
    ]


def test_no_port_own_resource() -> None:
    rule = parse_rule("no-port-own-resource")
    # slot 0 is the port east of hex 11 (spots 26 and 37): an ore 2:1 port there touches ore hex 11
    ore_at_0 = EX.with_swapped_ports(0, 8)
    assert "the 2:1 ore port (slot 0) touches ore hex 11" in rule.violations(ore_at_0)
    generic_everywhere_near_own = EX.with_swapped_ports(1, 0)  # sheep port away from sheep 15/18
    assert not any("sheep" in v for v in rule.violations(generic_everywhere_near_own))


def test_port_min_pips() -> None:
    # slot 1 holds EX's sheep port; spot 44 (hexes 14, 15, 18: G4, S5, S11), within two roads, makes
    # 4 + 2 = 6 sheep pips; no spot within two roads makes 7
    assert parse_rule("port-min-pips=0").holds(EX)
    six = [v for v in parse_rule("port-min-pips=7").violations(EX) if "sheep" in v]
    assert six == [
        "the 2:1 sheep port (slot 1): no spot within two roads makes 7 sheep pips (best: 6 at spot 44)"
    ]
    assert not any("sheep" in v for v in parse_rule("port-min-pips=6").violations(EX))
    assert len(parse_rule("port-min-pips=15").violations(EX)) == 5  # every 2:1 port
    with pytest.raises(RuleError, match="port-min-pips"):
        parse_rule("port-min-pips=16")


def test_parse_errors_name_the_rule_and_list_valid_ones() -> None:
    with pytest.raises(RuleError, match=r"unknown rule 'no-such-rule'; valid rules: .*max-spot-pips=N"):
        parse_rule("no-such-rule")
    for text, frag in [
        ("max-spot-pips", "needs a value"),
        ("max-spot-pips=x", "'x' is not an integer"),
        ("max-spot-pips=99", "0..15"),
        ("max-cluster=0", "1..4"),
        ("desert=north", "any, centre, coast"),
        ("resource-pips-band=9", "LO..HI"),
        ("resource-pips-band=14..9", "LO <= HI"),
        ("no-68-neighbours=3", "takes no parameter"),
    ]:
        with pytest.raises(RuleError, match=frag) as info:
            parse_rule(text)
        assert repr(text) in str(info.value)


def test_rule_text_round_trip() -> None:
    for text in ["no-68-neighbours", "max-spot-pips=12", "desert=coast", "resource-pips-band=9..14"]:
        assert parse_rule(text).text == text
        assert parse_rule(parse_rule(text).text) == parse_rule(text)
    assert check_rules(EX, ["desert=centre"]) == {"desert=centre": True}
    assert rule_violations(EX, []) == {}


def test_connected_sets_counts() -> None:
    assert len(connected_sets(2)) == 42  # the hex edges
    for s in connected_sets(3):
        assert len(s) == 3


def test_every_rule_family_is_covered() -> None:
    assert {parse_rule(t).name for t in RULE_TEXTS} == set(RULES)


def _one_swap_neighbours(board: Board) -> list[Board]:
    """Every board one swap away (the four swap kinds), in a fixed order."""
    out = []
    for kind in SWAP_KINDS:
        n = 9 if kind == "ports" else 19
        for a, b in itertools.combinations(range(n), 2):
            if kind == "numbers" and None in (board.numbers[a], board.numbers[b]):
                continue
            out.append(board.with_swapped(kind, a, b))
    return out


def _satisfying_and_violating(rule: Rule) -> tuple[Board, Board]:
    """A board the checker says satisfies ``rule`` and one it says breaks it, found without the CP
    encoding: EX or a random board (else our annealer with the rule as a penalty, which runs on the
    checkers), and the first board one swap away that the checker rejects (a near miss)."""
    good = next((b for b in (EX, *(Board.random(s) for s in range(40))) if rule.holds(b)), None)
    if good is None:
        good = anneal(0, [rule], steps=3000, restarts=4).board
    bad = next(
        b for b in (*_one_swap_neighbours(good), *(Board.random(s) for s in range(40))) if not rule.holds(b)
    )
    return good, bad


@pytest.mark.parametrize("text", RULE_TEXTS)
def test_cp_encoding_agrees_with_checker(text: str) -> None:
    """Every rule gets a satisfying and a violating board, and the checker and the CP encoding must agree
    on both (an encoding that forbids everything, or nothing, fails), on random boards too, and on the
    board CP-SAT itself builds for the rule."""
    rule = parse_rule(text)
    good, bad = _satisfying_and_violating(rule)
    assert_agree(text, rule, good, bad, (Board.random(s) for s in range(6)))
    built = satisfy([rule], seed=3)
    assert rule.holds(built), (text, built.code())
