"""``boardeval catan generate|optimum|count-boards|blog-model``: JSON shapes, determinism, error exits."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from boardeval.catan import Board, board_energy, check_rules
from boardeval.cli.main import app
from tests.cli.json_shapes import assert_same_fields

runner = CliRunner()
ENERGY_KEYS = {"same_resource_pairs", "high_number_pairs", "pip_variance", "ports", "energy"}


def _ok(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("method", ["random", "anneal", "cp", "tournament"])
def test_generate_json_shape(method: str) -> None:
    args = ["catan", "generate", "--method", method, "--seed", "4", "--rule", "max-spot-pips=12", "--json"]
    d = json.loads(_ok(args))
    assert {"board", "energy", "rules", "method", "seconds"} <= set(d)
    assert d["method"] == method and set(d["energy"]) == ENERGY_KEYS
    board = Board.parse(d["board"])
    assert math.isclose(d["energy"]["energy"], board_energy(board).total)
    assert d["rules"] == check_rules(board, ["max-spot-pips=12"])
    if method in ("anneal", "cp"):
        assert isinstance(d["optimal"], bool)
    if method == "tournament":
        assert isinstance(d["swaps"], int) and d["swaps"] == len(d["swap_list"])
    assert json.loads(_ok(args))["board"] == d["board"]


def test_generate_energy_keys_match_energy_command() -> None:
    d = json.loads(
        _ok(["catan", "generate", "--method", "anneal", "--seed", "2", "--fairness", "0.5", "--json"])
    )
    e = json.loads(_ok(["catan", "energy", d["board"], "--json"]))
    assert e == d["energy"]
    assert d["fairness"] == 0.5


def test_generate_rich_summary() -> None:
    out = _ok(["catan", "generate", "--method", "tournament", "--seed", "1"])
    assert "swaps" in out and "max-spot-pips=12" in out


def test_optimum_json() -> None:
    d = json.loads(_ok(["catan", "optimum", "--rule", "no-68-neighbours", "--json"]))
    assert set(d) == {"energy", "code", "board", "optimal", "seconds"} and d["optimal"] is True
    assert d["code"] == d["board"]
    assert_same_fields("catan optimum", d)
    assert math.isclose(d["energy"]["energy"], 20 / 1296)
    assert math.isclose(board_energy(Board.parse(d["board"])).total, d["energy"]["energy"])


def test_blog_model_counts_and_list() -> None:
    assert _ok(["catan", "blog-model", "tiles", "--count"]).strip() == "96"
    assert _ok(["catan", "blog-model", "markers", "--threshold", "21", "--count"]).strip() == "0"
    out = _ok(["catan", "blog-model", "markers", "--threshold", "22", "--list", "1"])
    assert out.splitlines() == [
        " [7, 9, 6]",
        " [8, 5, 4, 11]",
        "[10, 3, 12, 5, 4]",
        " [8, 2, 3, 11]",
        " [9, 10, 6]",
    ]
    d = json.loads(_ok(["catan", "blog-model", "tiles", "--list", "2", "--json"]))
    assert len(d["solutions"]) == 2


def test_count_boards_json() -> None:
    d = json.loads(_ok(["catan", "count-boards", "--rule", "max-spot-pips=7", "--json"]))
    assert d == {"count": 0, "complete": True, "rules": ["max-spot-pips=7"]}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["catan", "generate", "--rule", "bogus"], "unknown rule 'bogus'"),
        (["catan", "generate", "--rule", "max-cluster=9"], "max-cluster=9"),
        (["catan", "generate", "--fairness", "1.5"], "fairness"),
        (["catan", "generate", "--ports", "even"], "unknown ports mode 'even'"),
        (["catan", "generate", "--ports", "Balanced"], "random, fixed, balanced"),
        (["catan", "generate", "--seed", "-3"], "--seed"),
        (["catan", "generate", "--method", "cp", "--rule", "max-spot-pips=6"], "no board satisfies"),
        (["catan", "optimum", "--rule", "min-spot-pips=13"], "no board satisfies"),
        (["catan", "blog-model", "markers", "--threshold", "1"], "threshold"),
        (["catan", "blog-model", "tiles", "--list", "-1"], "--list"),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr
    assert "Traceback" not in result.output


def test_generate_ports_modes() -> None:
    """``--ports``: the JSON says which mode ran; the default is balanced for anneal and fixed for random;
    fixed keeps the drawn board's harbours."""
    from boardeval.catan import Board

    d = json.loads(_ok(["catan", "generate", "--method", "anneal", "--seed", "3", "--json"]))
    assert d["ports"] == "balanced" and d["energy"]["ports"] == 0
    d = json.loads(_ok(["catan", "generate", "--method", "random", "--seed", "3", "--json"]))
    assert d["ports"] == "fixed" and d["board"] == Board.random(3).code()
    d = json.loads(
        _ok(["catan", "generate", "--method", "anneal", "--seed", "3", "--ports", "fixed", "--json"])
    )
    assert d["ports"] == "fixed" and d["board"].split("~")[1] == Board.random(3).code().split("~")[1]
    out = _ok(["catan", "generate", "--method", "random", "--seed", "3", "--ports", "balanced"])
    assert "ports" in out and "balanced" in out and "harbours" in out
