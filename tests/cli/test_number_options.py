"""Every numeric option of ``boardeval`` reads its text through the shared number reader (issue 24).

Typer converts ``int``/``float`` options itself, and its conversion (like Python's ``int()``) takes
``0_1``, ``+3``, `` 3`` and full-width digits: ``catan generate --fairness 0_1`` was read as 1.0. The walk
below visits every command of the tree (loading every lazy sub-command) and fails on a numeric option
whose ``parser=`` is not a :class:`~boardeval.cli.options.NumberReader`, so a new option cannot bypass it;
then it feeds every such reader the odd spellings and checks each is refused, quoting the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer._click.core import Command, Parameter
from typer._click.exceptions import UsageError
from typer._click.types import FloatParamType, FuncParamType, IntParamType
from typer.testing import CliRunner

from boardeval.cli.main import COMMANDS, app, load_command
from boardeval.cli.options import NumberReader

runner = CliRunner()


def _walk(command: Command, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Parameter]]:
    subcommands = getattr(command, "commands", None)  # a group (Typer's own group class)
    if subcommands is not None:
        for name, sub in subcommands.items():
            yield from _walk(sub, (*path, name))
        return
    for param in command.params:
        yield path, param


def _leaf_type(param: Parameter) -> Any:
    """``int`` or ``float`` for a numeric parameter (read by a NumberReader or by Typer's own number types,
    ``int``/``float`` annotations and their ranges); None otherwise."""
    kind = param.type
    if isinstance(kind, FuncParamType) and isinstance(kind.func, NumberReader):
        return int if kind.func.kind == "int" else float
    if isinstance(kind, IntParamType):  # IntRange too
        return int
    if isinstance(kind, FloatParamType):
        return float
    return None


def _options() -> list[tuple[str, str, Any, Any, Any]]:
    """(command path, option name, leaf type, parser, default) of every parameter of every command."""
    out = []
    for name in COMMANDS:
        for path, param in _walk(load_command(name), (name,)):
            label = (param.opts or [param.name or "?"])[0]
            parser = getattr(param.type, "func", None)
            out.append((" ".join(path), label, _leaf_type(param), parser, param.default))
    return out


OPTIONS = _options()
NUMERIC = [(cmd, opt, parser) for cmd, opt, leaf, parser, _ in OPTIONS if leaf in (int, float)]


def test_the_walk_sees_the_whole_tree() -> None:
    """The walk is not vacuous: it reaches options of every game and the issue's examples."""
    seen = {(cmd, opt) for cmd, opt, _ in NUMERIC}
    for example in [
        ("morris match", "--games"),
        ("morris match", "--workers"),
        ("morris best", "--candidates"),
        ("catan generate", "--fairness"),
        ("catan optimum", "--time-limit"),
        ("catan playtest", "--games"),
        ("diplomacy random-game", "--max-phases"),
        ("diplomacy measures", "--game-index"),
        ("web", "--port"),
        ("morris perft", "--depth"),
    ]:
        assert example in seen, example
    assert len(NUMERIC) >= 60, len(NUMERIC)


def test_every_numeric_option_uses_the_shared_reader() -> None:
    bypass = [(cmd, opt) for cmd, opt, parser in NUMERIC if not isinstance(parser, NumberReader)]
    assert not bypass, (
        f"numeric options converted by Typer itself (give them parser=int_option/...): {bypass}"
    )
    for cmd, opt, parser in NUMERIC:
        assert parser.name == opt, (cmd, opt, parser.name)  # the message names the option typed


ODD_INTEGERS = [
    "0_1",
    "1_0",
    " 1",
    "1 ",
    "+1",
    "-0",
    "\uff11",
    "\u0661",
    "1e3",
    "1.0",
    "0x1",
    "",
    "01",
    "9" * 5000,
]
ODD_DECIMALS = [
    "0_1",
    " 0.5",
    "0.5 ",
    "+0.5",
    "-0",
    "-0.0",
    ".5",
    "5.",
    "\uff11",
    "nan",
    "inf",
    "1e999",
    "0x1",
    "",
]


@pytest.mark.parametrize(("cmd", "opt", "parser"), NUMERIC, ids=[f"{c} {o}" for c, o, _ in NUMERIC])
def test_every_numeric_option_refuses_the_odd_spellings(cmd: str, opt: str, parser: NumberReader) -> None:
    for text in ODD_INTEGERS if parser.kind == "int" else ODD_DECIMALS:
        with pytest.raises(UsageError) as caught:
            parser(text)
        message = caught.value.format_message()
        assert message.startswith(f"{opt}: "), message
        assert repr(text)[:30] in message or "characters" in message, (text, message)


def test_defaults_pass_the_reader_and_good_values_are_read() -> None:
    """The readers take every option's own default (Typer passes it through the parser) and plain text."""
    for cmd, opt, _, parser, default in OPTIONS:
        if not isinstance(parser, NumberReader):
            continue
        if isinstance(default, int | float):
            assert parser(default) == default, (cmd, opt, default)
        if parser.kind == "int":
            text = str(int(parser.lo))
        else:
            text = f"{(parser.lo + min(parser.hi, parser.lo + 1)) / 2 if parser.lo_open else parser.lo:.2f}"
        assert parser(text) == float(text), (cmd, opt, text)
    result = runner.invoke(app, ["morris", "perft", "--depth", "2", "--json"])
    assert result.exit_code == 0 and '"count": 552' in result.stdout, result.output


def test_help_names_each_reader_by_its_kind() -> None:
    """A ``parser=`` option's help metavar is the reader's kind (``--top <int>``), not Typer's fallback for
    a callable without a name (``<function>``)."""
    commands = sorted({cmd for cmd, _, _ in NUMERIC})
    for cmd in commands:
        result = runner.invoke(app, [*cmd.split(), "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (cmd, result.output)
        assert "<function>" not in result.output, (cmd, result.output)
    result = runner.invoke(app, ["catan", "spots", "--help"], env={"COLUMNS": "200"})
    assert any("--top" in line and "<int>" in line for line in result.output.splitlines()), result.output
    assert any(
        "--fairness" in line and "<float>" in line
        for line in runner.invoke(
            app, ["catan", "generate", "--help"], env={"COLUMNS": "200"}
        ).output.splitlines()
    )
