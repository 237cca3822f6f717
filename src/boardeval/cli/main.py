"""Entry point of the ``boardeval`` command.

User-input errors (:class:`~boardeval.core.BoardevalError`, and click's usage errors such as
``--seed x``) never show a traceback or a usage box: the root group catches them, prints one red
``error:`` line naming the problem, and exits with code 2. Ctrl-C: every command prints what it kept,
flagged, and exits 130 (:data:`INTERRUPTED_EXIT`; a command that kept nothing gets one yellow
``interrupted`` line); a pool worker that died exits 1 with one red line (docs/reliability.md, Interrupts).

The command starts at once: the root group knows its sub-commands only by name, module and one-line help
(:data:`COMMANDS`), and imports a sub-command's module (and through it numpy, OR-Tools, FastAPI, the
diplomacy engine, ...) only when that sub-command is run or its own help is asked for. ``boardeval
--help`` imports no game.
"""

from __future__ import annotations

import importlib
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, NoReturn

import typer
from rich.markup import escape
from typer._click.core import Command as _ClickCommand
from typer._click.core import Context as _ClickContext
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperCommand, TyperGroup

from boardeval.cli.common import err_console, json_documents, print_json
from boardeval.cli.empty_json import empty_document, json_command
from boardeval.core import BoardevalError, JobsFailed, JobsInterrupted, worker_failures

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
        extends=(
            "boardeval.cli.catan_generate",
            "boardeval.cli.catan_playtest",
            "boardeval.cli.catan_equity",
        ),
    ),
    "morris": LazyCommand(
        "boardeval.cli.morris",
        "Nine Men's Morris: rules, evaluation, AI, why-panel.",
        extends=(
            "boardeval.cli.morris_play",
            "boardeval.cli.morris_tablebase",
            "boardeval.cli.morris_tune",
            "boardeval.cli.morris_book",
        ),
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
        # which command asked for --json, read before the command is imported (cli/empty_json.py)
        json_for = json_command(list(args))
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:  # a bad root option: the same one line as bad input (issue 17)
            _usage_error(exc)
        ctx.meta[_JSON_FOR] = json_for
        return ctx

    def invoke(self, ctx: _ClickContext) -> Any:
        failures_before = len(worker_failures())  # the failures of this command only (tests run many)
        watch = _JsonWatch(ctx.meta.get(_JSON_FOR))
        with _watch_sigint() as seen:
            try:
                value = super().invoke(ctx)
            except BoardevalError as exc:
                err_console.print(f"[red]error: {escape(str(exc))}[/red]", soft_wrap=True)
                raise typer.Exit(2) from None
            except UsageError as exc:  # a bad option value or name (`--seed x`): one line, not Typer's box
                _usage_error(exc)
            except JobsFailed as exc:  # a worker died and the command did not keep the finished jobs
                err_console.print(f"[red]error: {escape(str(exc))}[/red]", soft_wrap=True)
                raise typer.Exit(1) from None
            except KeyboardInterrupt as exc:  # nothing kept by the command: say so (docs/reliability.md)
                watch.ensure_document()
                what = str(exc) if isinstance(exc, JobsInterrupted) else "interrupted: nothing to keep"
                err_console.print(f"[yellow]{escape(what)}[/yellow]")
                raise typer.Exit(_stop_exit(seen)) from None
            except typer.Exit as exc:  # a command that exits 0 or 130 itself after keeping partial results
                if exc.exit_code == INTERRUPTED_EXIT or (exc.exit_code == 0 and seen):
                    watch.ensure_document()
                if exc.exit_code in (0, INTERRUPTED_EXIT):
                    _interrupt_exit(None, seen, failures_before)
                raise
            if seen:
                watch.ensure_document()
        return _interrupt_exit(value, seen, failures_before)


_JSON_FOR = "boardeval.json_for"
"""``ctx.meta`` key: the command path that asked for ``--json`` (None: no JSON asked)."""


class _JsonWatch:
    """Keeps the ``--json`` rule for one command: after a Ctrl-C, stdout carries exactly one JSON document
    (issue 22). ``ensure_document`` prints the command's empty document, flagged, when the command asked
    for ``--json`` and printed none itself (stopped before any result: cli/empty_json.py)."""

    def __init__(self, command: str | None) -> None:
        self.command = command
        self.printed_before = json_documents()

    def ensure_document(self) -> None:
        if self.command is not None and json_documents() == self.printed_before:
            print_json(empty_document(self.command))


INTERRUPTED_EXIT = 130
"""Exit code of a command stopped by Ctrl-C (128 + SIGINT), also when it printed its partial result
(flagged ``"interrupted": true`` / a yellow ``interrupted:`` line): one rule for every command."""
TERMINATED_EXIT = 143
"""Exit code of a command stopped by SIGTERM (128 + SIGTERM: ``kill PID``, ``timeout``), which it takes as
it takes Ctrl-C (partial result printed and flagged, checkpoints kept)."""
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_EXIT_OF: dict[int, int] = {signal.SIGINT: INTERRUPTED_EXIT, signal.SIGTERM: TERMINATED_EXIT}


@contextmanager
def _watch_sigint() -> Iterator[list[int]]:
    """While a command runs, Ctrl-C raises KeyboardInterrupt as usual and is also remembered (the yielded
    list gets the signal), so that a command that caught it and printed its partial result still exits
    :data:`INTERRUPTED_EXIT`. SIGTERM does the same and exits :data:`TERMINATED_EXIT`: a long job run in
    the background, where the shell starts it with SIGINT ignored (``cmd &``), is stopped with ``kill``
    and keeps its work (it used to die at once, silently, its finished jobs not printed). Not installed off
    the main thread, nor for a signal that is ignored (SIGINT under ``cmd &``)."""
    seen: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield seen
        return
    installed = {}
    for sig in _STOP_SIGNALS:
        previous = signal.getsignal(sig)
        if previous is not signal.SIG_IGN:
            installed[sig] = previous
            signal.signal(sig, on_signal)
    try:
        yield seen
    finally:
        for sig, previous in installed.items():
            signal.signal(sig, previous)


def _stop_exit(seen: list[int]) -> int:
    """The exit code after the signals in ``seen``: the first one's (130 for Ctrl-C, 143 for SIGTERM)."""
    return _EXIT_OF.get(seen[0], INTERRUPTED_EXIT) if seen else INTERRUPTED_EXIT


def _interrupt_exit(value: Any, seen: list[int], failures_before: int) -> Any:
    """After a command returned: exit 130 (143) if Ctrl-C (SIGTERM) stopped it, 1 if a pool worker died
    under it (its partial result is printed and flagged; the failure gets one red line here), else
    ``value``."""
    if seen:
        raise typer.Exit(_stop_exit(seen))
    failures = worker_failures()[failures_before:]
    if failures:
        err_console.print(f"[red]error: {escape(failures[-1])}[/red]", soft_wrap=True)
        raise typer.Exit(1)
    return value


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
    """Console-script entry point.

    After Ctrl-C the process leaves at once: the partial result is printed, the exit handlers run
    (``atexit``: pools, temporary files), and the interpreter's own teardown (hundreds of modules, numba's
    and OR-Tools' finalisers: ~0.7 s after a Morris match, more under load) is skipped, so that an
    interrupted command exits well within 2 s (issue 17, ``tests/interrupts``).
    """
    try:
        app()
    except SystemExit as exc:
        if exc.code in (INTERRUPTED_EXIT, TERMINATED_EXIT):
            _exit_now(exc.code)
        raise


def _exit_now(code: int) -> NoReturn:
    """Run the exit handlers, flush the output and end the process with ``code`` without the teardown."""
    import atexit
    import contextlib
    import os
    import sys

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can be said
            stream.flush()
    os._exit(code)
