"""Entry point of the ``boardeval`` command.

User-input errors (:class:`~boardeval.core.BoardevalError`, and click's usage errors such as
``--seed x``) never show a traceback or a usage box: the root group catches them, prints one red
``error:`` line naming the problem, and exits with code 2 (an interrupted batch of jobs,
:class:`~boardeval.core.JobsInterrupted`, exits 130).

The command starts at once: the root group knows its sub-commands only by name, module and one-line help
(:data:`COMMANDS`), and imports a sub-command's module (and through it numpy, OR-Tools, FastAPI, the
diplomacy engine, ...) only when that sub-command is run or its own help is asked for. ``boardeval
--help`` imports no game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, NoReturn

import typer
from rich.markup import escape
from typer._click.core import Command as _ClickCommand
from typer._click.core import Context as _ClickContext
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperCommand, TyperGroup

from boardeval.cli.common import err_console
from boardeval.core import BoardevalError, JobsInterrupted

__all__ = ["COMMANDS", "LazyCommand", "app", "load_command", "main"]


@dataclass(frozen=True)
class LazyCommand:
    """A root sub-command known by name until it is used.

    ``module`` defines either a Typer ``app`` (added as a command group, like ``app.add_typer``) or a
    ``register(app)`` function that adds one command to the root. Each module in ``extends`` has a
    ``register(app)`` that adds more commands to the group (``catan generate`` lives in its own module).
    ``help`` is the one line the root ``--help`` shows; a test checks it against the loaded command.
    """

    module: str
    help: str
    extends: tuple[str, ...] = ()


COMMANDS: dict[str, LazyCommand] = {
    "web": LazyCommand(
        "boardeval.cli.web",
        "Serve the web app (Catan boards, Morris play-and-explain, Diplomacy charts).",
    ),
    "catan": LazyCommand(
        "boardeval.cli.catan",
        "Catan boards: spots, energy, generators, rendering.",
        extends=("boardeval.cli.catan_generate", "boardeval.cli.catan_playtest"),
    ),
    "morris": LazyCommand(
        "boardeval.cli.morris",
        "Nine Men's Morris: rules, evaluation, AI, why-panel.",
        extends=("boardeval.cli.morris_play", "boardeval.cli.morris_tablebase", "boardeval.cli.morris_tune"),
    ),
    "diplomacy": LazyCommand(
        "boardeval.cli.diplomacy",
        "Diplomacy position measures over game records.",
        extends=("boardeval.cli.diplomacy_bots", "boardeval.cli.diplomacy_eval"),
    ),
}
"""The root's sub-commands, in the order ``--help`` lists them."""


_extended: set[tuple[int, str]] = set()  # (id of a sub-app, extension module) already registered


def load_command(name: str) -> _ClickCommand:
    """Import the module behind root sub-command ``name`` and build its click command."""
    spec = COMMANDS[name]
    module = importlib.import_module(spec.module)
    holder = typer.Typer(add_completion=False)
    holder.callback()(_no_options)  # a callback makes ``holder`` a group whatever it holds
    sub: typer.Typer | None = getattr(module, "app", None)
    if sub is not None:
        for extension in spec.extends:
            if (id(sub), extension) not in _extended:  # once per process: the sub-app is module state
                importlib.import_module(extension).register(sub)
                _extended.add((id(sub), extension))
        holder.add_typer(sub, name=name, help=spec.help)
    else:
        module.register(holder)
    group = typer.main.get_command(holder)
    assert isinstance(group, TyperGroup)
    command = group.commands[name]
    return command


def _no_options() -> None:
    """Placeholder callback of the throw-away group :func:`load_command` builds."""


class _Placeholder(TyperCommand):
    """Stands for an unloaded sub-command in the root help listing: a name and its one-line help."""


class _LazyRootGroup(TyperGroup):
    """Root group: loads sub-commands on first use; library input errors become one red line, exit 2."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._listing = False
        for name, spec in COMMANDS.items():
            self.commands.setdefault(name, _Placeholder(name, help=spec.help))

    def get_command(self, ctx: _ClickContext, cmd_name: str) -> _ClickCommand | None:
        command = self.commands.get(cmd_name)
        if isinstance(command, _Placeholder) and not self._listing:
            command = self.commands[cmd_name] = load_command(cmd_name)
        return command

    def format_help(self, ctx: _ClickContext, formatter: Any) -> None:
        # Listing the sub-commands needs only their names and one-line help: do not import them.
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def make_context(
        self, info_name: str | None, args: list[str], parent: _ClickContext | None = None, **extra: Any
    ) -> _ClickContext:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:  # a bad root option: the same one line as bad input (issue 17)
            _usage_error(exc)

    def invoke(self, ctx: _ClickContext) -> Any:
        try:
            return super().invoke(ctx)
        except BoardevalError as exc:
            err_console.print(f"[red]error: {escape(str(exc))}[/red]", soft_wrap=True)
            raise typer.Exit(2) from None
        except UsageError as exc:  # a bad option value or name (`--seed x`): one line, not Typer's box
            _usage_error(exc)
        except JobsInterrupted as exc:
            err_console.print(f"[yellow]interrupted: {exc}[/yellow]")
            raise typer.Exit(130) from None


def _usage_error(exc: UsageError) -> NoReturn:
    """Print a click usage error as one red ``error:`` line (exit 2); "no arguments: show the help"
    is not an error and passes through."""
    if isinstance(exc, NoArgsIsHelpError):
        raise exc
    where = f"{exc.ctx.command_path}: " if exc.ctx is not None else ""
    message = " ".join(f"{where}{exc.format_message()}".split()).replace("Value error, ", "")
    cause: Any = exc.__cause__  # Typer converts option values with pydantic: its error holds the input
    if hasattr(cause, "errors"):
        try:
            value = repr(cause.errors()[0]["input"])[:80]
        except Exception:  # no input to quote: the message stands as it is
            value = ""
        if value and value not in message:
            message += f", got {value}"
    err_console.print(f"[red]error: {escape(message)}[/red]", soft_wrap=True)
    raise typer.Exit(2) from None


app = typer.Typer(
    cls=_LazyRootGroup,
    name="boardeval",
    help="Evaluate board-game positions, build balanced boards, and explain every number.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Evaluate board-game positions, build balanced boards, and explain every number."""


def main() -> None:
    """Console-script entry point."""
    app()
