"""``--json`` always prints exactly one JSON document (issue 22): a command stopped by Ctrl-C before any
result prints its empty document, flagged ``"interrupted": true`` (cli/empty_json.py), exit 130.

Unit tests of the root group's rule for every command with ``--json`` (the Ctrl-C is raised where the
command's module is loaded: the start-up window every command has); the real-signal tests are in
tests/interrupts (each parses stdout as one document; ``catan generate --method cp`` stopped before its
first board prints the empty one).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boardeval.cli.main as main_module
from boardeval.cli.empty_json import EMPTY_JSON, UNFLAGGED, empty_document, json_command
from boardeval.cli.main import COMMANDS, LazyCommand, app, load_command
from tests.cli.json_shapes import assert_same_fields

CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"


def _json_commands(command: Any, path: str) -> set[str]:
    """The paths of the commands under ``command`` that take ``--json``."""
    subs = getattr(command, "commands", None)
    if subs is not None:
        return {p for name, sub in subs.items() for p in _json_commands(sub, f"{path} {name}")}
    return {path} if any("--json" in getattr(p, "opts", ()) for p in command.params) else set()


def test_every_command_with_json_has_an_empty_document() -> None:
    found = {p for name in COMMANDS for p in _json_commands(load_command(name), name)}
    assert "morris tablebase probe" in found  # the walk sees nested groups
    assert sorted(found) == sorted(EMPTY_JSON)


@pytest.mark.parametrize("command", sorted(EMPTY_JSON))
def test_ctrl_c_before_any_result_prints_the_empty_document(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(name: str) -> Any:
        raise KeyboardInterrupt  # as a Ctrl-C while the command's module (and its game) is imported

    monkeypatch.setattr(main_module, "load_command", interrupted)
    result = CliRunner().invoke(app, [*command.split(), "--json"])
    assert result.exit_code == 130
    assert json.loads(result.stdout) == empty_document(command)  # one document, nothing else
    assert result.stderr == "interrupted: nothing to keep\n"
    doc = empty_document(command)
    if command in UNFLAGGED:
        assert doc in ([], {})
    else:
        assert doc["interrupted"] is True and len(doc) > 2


def test_without_json_nothing_is_printed_on_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(name: str) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(main_module, "load_command", interrupted)
    result = CliRunner().invoke(app, ["catan", "generate", "--method", "anneal"])
    assert result.exit_code == 130 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["catan", "spots", CODE, "--json"], "catan spots"),
        (["morris", "tablebase", "probe", "W w 0 0", "--dir", "x", "--json"], "morris tablebase probe"),
        (["diplomacy", "measures", "--json", "--", "--weird-file"], "diplomacy measures"),
        (["catan", "spots", CODE, "--", "--json"], None),  # a file named --json, not the option
        (["catan", "spots", CODE], None),
        (["catan", "show", CODE, "--json"], None),  # no JSON document: Typer refuses the option
        (["web", "--json"], None),
    ],
)
def test_the_command_and_json_are_read_from_the_arguments(args: list[str], command: str | None) -> None:
    assert json_command(args) == command


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "fake", LazyCommand("tests.cli.fake_commands", "Fake."))
    monkeypatch.setitem(EMPTY_JSON, "fake json", {"board": None, "games": []})


def test_a_document_printed_before_the_ctrl_c_is_the_only_one(fake: None) -> None:
    result = CliRunner().invoke(app, ["fake", "json", "--printed", "--json"])
    assert result.exit_code == 130
    assert json.loads(result.stdout) == {"board": "kept", "games": [], "interrupted": True}


def test_a_command_that_kept_nothing_gets_the_empty_document(fake: None) -> None:
    result = CliRunner().invoke(app, ["fake", "json", "--json"])
    assert result.exit_code == 130
    assert json.loads(result.stdout) == {"interrupted": True, "board": None, "games": []}


_HELD = """
import os, signal, sys
from boardeval.cli.common import json_documents, print_json

class Out:
    def write(self, text):  # Ctrl-C in the middle of writing the document
        os.kill(os.getpid(), signal.SIGINT)
        sys.__stdout__.write(text[:10])
        sys.__stdout__.write(text[10:])
    def flush(self):
        sys.__stdout__.flush()

sys.stdout = Out()
try:
    print_json({"board": "x" * 1000})
except KeyboardInterrupt:
    sys.__stderr__.write(f"raised after {json_documents()} document\\n")
"""


def test_a_ctrl_c_during_the_write_waits_for_the_whole_document() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _HELD],
        capture_output=True,
        text=True,
        timeout=60,
        # pytest started in the background (``cmd &``) has SIGINT ignored, which the child inherits: then the
        # Ctrl-C it sends itself did nothing (as in tests/interrupts/helpers.py, it gets the default back)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert json.loads(proc.stdout) == {"board": "x" * 1000}
    assert proc.stderr == "raised after 1 document\n"


# -- the empty documents name the fields the commands print (the expensive commands are checked where
# their own tests run them with --json: tests/catan, tests/morris, tests/interrupts)


@pytest.fixture(scope="module")
def game_file() -> Path:
    from boardeval.diplomacy import shipped_game_paths

    return shipped_game_paths()[0]


CHEAP: list[tuple[str, list[str]]] = [
    ("catan random", ["--seed", "1"]),
    ("catan spots", [CODE]),
    ("catan energy", [CODE]),
    ("catan generate", ["--method", "random", "--seed", "1"]),
    ("catan count-boards", ["--limit", "2"]),
    ("catan blog-model", ["markers", "--threshold", "22", "--list", "1"]),
    ("catan advise", [CODE, "--taken", "12"]),
    ("catan equity", [CODE]),
    ("catan playtest", [CODE, "--games", "1"]),
    ("diplomacy measures", ["--start", "-m", "progress"]),
    ("diplomacy fear", ["--static"]),
    ("diplomacy alliances", ["GAME"]),
    ("diplomacy evaluate", ["GAME"]),
    ("morris perft", ["--depth", "2"]),
    ("morris eval", ["WW.BB................... w 7 7"]),
    ("morris match", ["--white", "random", "--black", "random", "--games", "1"]),
]


@pytest.mark.parametrize(("command", "args"), CHEAP, ids=[c for c, _ in CHEAP])
def test_the_empty_document_names_the_printed_fields(command: str, args: list[str], game_file: Path) -> None:
    argv = [*command.split(), *(str(game_file) if a == "GAME" else a for a in args), "--json"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert_same_fields(command, json.loads(result.stdout))
