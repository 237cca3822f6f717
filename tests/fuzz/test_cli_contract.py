"""The CLI contract over mutated inputs (issue 17): a Catan command either succeeds (exit 0) or prints
exactly one line starting ``error:`` on stderr and exits 2 - never a traceback, never Typer's usage box.

Runs the root app (``boardeval.cli.main.app``, the lazy group that turns errors into one line) through
Typer's ``CliRunner``, with arguments drawn from mutated share codes, board files, parameter and weight
files, seeds and rules. The generators run with ``--method random`` (the others are long searches whose
bad-input paths are the same option readers).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardeval.catan import Board, SpotParams, energy_weights
from boardeval.cli.main import app
from tests.fuzz.catan_strategies import VALID_RULES, rule_texts, share_codes
from tests.fuzz.diplomacy_strategies import ODD_PHASES, record_texts
from tests.fuzz.morris_strategies import move_lists, position_texts, variant_texts
from tests.fuzz.strategies import mutated_json, mutated_text, odd_numbers

runner = CliRunner()
SPEC_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"

# CLI runs cost ~10x a library call: a tenth of the profile's examples (the deep profile: 1,000 runs).
CLI_EXAMPLES = max(30, settings().max_examples // 10)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="boardeval-cli-fuzz-") as d:
        yield Path(d)


def _safe(text: str) -> str:
    """Command-line arguments cannot hold NUL or lone surrogates (the OS would refuse them)."""
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


@st.composite
def catan_invocations(draw: st.DrawFn, folder: Path) -> list[str]:
    """A ``boardeval catan ...`` argument list with one or two mutated inputs."""
    command = draw(
        st.sampled_from(["spots", "energy", "show", "random", "generate", "file", "params", "weights"])
    )
    code = _safe(draw(share_codes()))
    json_flag = ["--json"] if draw(st.booleans()) else []
    if command in ("spots", "energy"):
        return ["catan", command, code, *json_flag]
    if command == "show":
        return ["catan", "show", code, "--top", _safe(draw(odd_numbers()))]
    if command == "random":
        return ["catan", "random", "--seed", _safe(draw(odd_numbers() | mutated_text("7"))), *json_flag]
    if command == "generate":
        rules = [_safe(draw(rule_texts())) for _ in range(draw(st.integers(0, 2)))]
        seed = _safe(draw(st.sampled_from(["0", "3"]) | odd_numbers()))
        return [
            "catan",
            "generate",
            "--method",
            "random",
            "--seed",
            seed,
            *(a for r in rules for a in ("--rule", r)),
            *json_flag,
        ]
    if command == "file":
        doc = draw(mutated_json(Board.parse(SPEC_CODE).to_json()))
        path = folder / "board.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return ["catan", draw(st.sampled_from(["spots", "energy"])), str(path), *json_flag]
    if command == "params":
        doc = draw(mutated_json(SpotParams().to_dict()))
        path = folder / "params.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return ["catan", "spots", SPEC_CODE, "--params", str(path), *json_flag]
    doc = draw(mutated_json(dict(energy_weights())))
    path = folder / "weights.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return ["catan", "energy", SPEC_CODE, "--weights", str(path), *json_flag]


# perft depths: small valid ones (a large one runs for minutes) and every odd spelling of a number
PERFT_DEPTHS = ["0", "1", "2", "+1", "01", "\uff11", "1_0", "-1", "", "x", " 1", "9" * 30, "9" * 5000]


@st.composite
def morris_invocations(draw: st.DrawFn) -> list[str]:
    """A ``boardeval morris ...`` argument list with mutated positions, move lists, variants, depths."""
    command = draw(st.sampled_from(["perft", "eval", "eval-moves", "best"]))
    json_flag = ["--json"] if draw(st.booleans()) else []
    variant = ["--variant", _safe(draw(variant_texts()))] if draw(st.booleans()) else []
    if command == "perft":
        where = draw(st.sampled_from(["position", "moves", "none"]))
        extra = (
            ["--position", _safe(draw(position_texts()))]
            if where == "position"
            else ["--moves", _safe(draw(move_lists()))]
            if where == "moves"
            else []
        )
        return [
            "morris",
            "perft",
            "--depth",
            draw(st.sampled_from(PERFT_DEPTHS)),
            *extra,
            *variant,
            *json_flag,
        ]
    if command == "eval":
        return ["morris", "eval", _safe(draw(position_texts())), *variant, *json_flag]
    if command == "eval-moves":
        return ["morris", "eval", "--moves", _safe(draw(move_lists())), *variant, *json_flag]
    return ["morris", "best", _safe(draw(position_texts())), "--depth", "1", *variant, *json_flag]


@st.composite
def diplomacy_invocations(draw: st.DrawFn, folder: Path) -> list[str]:
    """A ``boardeval diplomacy ...`` argument list with a mutated record file and odd phases."""
    path = folder / draw(st.sampled_from(["game.json", "games.jsonl"]))
    path.write_bytes(draw(record_texts()).encode("utf-8", "surrogatepass"))
    command = draw(st.sampled_from(["measures", "fear", "games"]))
    index = (
        ["--game-index", draw(st.sampled_from(["0", "1", "-1", "x", "+0"]))] if draw(st.booleans()) else []
    )
    if command == "measures":
        return ["diplomacy", "measures", str(path), *index, *(["--json"] if draw(st.booleans()) else [])]
    if command == "fear":
        phase = ["--phase", _safe(draw(st.sampled_from(ODD_PHASES)))] if draw(st.booleans()) else []
        return ["diplomacy", "fear", str(path), *phase, *index, "--json"]
    return ["diplomacy", "games", str(path)]


def _check_contract(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code == 0:
        assert result.exception is None, (args, result.exception)
        if "--json" in args:
            json.loads(result.stdout)  # valid JSON: no Infinity, no NaN
        return
    assert result.exit_code == 2, (args, result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)


@settings(max_examples=CLI_EXAMPLES)
@given(st.data())
def test_catan_commands_succeed_or_print_one_error_line(workdir: Path, data: st.DataObject) -> None:
    _check_contract(data.draw(catan_invocations(workdir)))


@settings(max_examples=CLI_EXAMPLES)
@given(morris_invocations())
def test_morris_commands_succeed_or_print_one_error_line(args: list[str]) -> None:
    _check_contract(args)


@settings(max_examples=CLI_EXAMPLES)
@given(st.data())
def test_diplomacy_commands_succeed_or_print_one_error_line(workdir: Path, data: st.DataObject) -> None:
    _check_contract(data.draw(diplomacy_invocations(workdir)))


@pytest.mark.parametrize(
    "args",
    [
        ["morris", "perft", "--depth", "+2"],
        ["morris", "perft", "--depth", "\uff12"],
        ["morris", "eval", "........................\tw 9 9"],
        ["morris", "eval", "--moves", "d2,f4"],
        ["morris", "eval", "........................ w 9 9", "--variant", "standard,max_turns=+5"],
        ["morris", "eval", "........................ w 9 9", "--variant", "OpenSpiel"],
        ["diplomacy", "fear", "--static", "--map", "narnia"],
        ["diplomacy", "measures", "/no/such/game.json"],
    ],
)
def test_morris_and_diplomacy_bad_input_is_one_line(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def test_diplomacy_empty_phase_and_empty_list_are_errors(workdir: Path) -> None:
    """Issue 17: ``fear --phase ''`` meant the last phase; a file holding ``[]`` was an IndexError."""
    from boardeval.diplomacy import shipped_game_paths

    game = str(shipped_game_paths()[2])
    for phase in ("", " ", " S1901M"):
        result = runner.invoke(app, ["diplomacy", "fear", game, "--phase", phase])
        assert result.exit_code == 2 and "--phase" in result.stderr, result.output
    empty = workdir / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    result = runner.invoke(app, ["diplomacy", "measures", str(empty)])
    assert result.exit_code == 2 and "holds no game ('[]')" in result.stderr, result.output


@pytest.mark.parametrize(
    "args",
    [
        ["catan", "random", "--seed", "x"],
        ["catan", "random", "--seed"],
        ["catan", "random", "--no-such-option"],
        ["catan", "spots", SPEC_CODE, "--top", "x"],
        ["catan", "generate", "--method", "nope"],
        ["catan", "generate", "--fairness", "nan"],
        ["catan", "optimum", "--time-limit", "nan"],
        ["catan", "optimum", "--time-limit", "inf"],
        ["catan", "no-such-command"],
        ["no-such-group"],
        ["--no-such-root-option"],
        ["catan", "generate", "--rule", "MAX-CLUSTER=2"],
        ["catan", "generate", "--rule", "desert\r=any"],
        ["catan", "generate", "--rule", "max-cluster=\uff12"],
    ],
)
def test_usage_errors_are_one_line(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Usage:" not in result.output and "Traceback" not in result.output


def test_rules_listed_are_the_valid_ones() -> None:
    result = runner.invoke(
        app,
        [
            "catan",
            "generate",
            "--method",
            "random",
            "--json",
            *(a for r in VALID_RULES[:3] for a in ("--rule", r)),
        ],
    )
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["rules"]) == set(VALID_RULES[:3])
