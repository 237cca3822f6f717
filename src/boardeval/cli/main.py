"""Entry point of the ``boardeval`` command.

User-input errors (:class:`~boardeval.core.BoardevalError`) never show a traceback: the root group
catches them, prints one red line naming the problem, and exits with code 2.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from typer._click.core import Context as _ClickContext
from typer.core import TyperGroup

from boardeval.cli import catan, catan_generate, diplomacy, morris, morris_play, web
from boardeval.cli.common import err_console
from boardeval.core import BoardevalError, JobsInterrupted

__all__ = ["app", "main"]


class _ErrorHandlingGroup(TyperGroup):
    """Root group: turns library input errors into one red line and exit code 2."""

    def invoke(self, ctx: _ClickContext) -> Any:
        try:
            return super().invoke(ctx)
        except BoardevalError as exc:
            err_console.print(f"[red]error: {escape(str(exc))}[/red]", soft_wrap=True)
            raise typer.Exit(2) from None
        except JobsInterrupted as exc:
            err_console.print(f"[yellow]interrupted: {exc}[/yellow]")
            raise typer.Exit(130) from None


app = typer.Typer(
    cls=_ErrorHandlingGroup,
    name="boardeval",
    help="Evaluate board-game positions, build balanced boards, and explain every number.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(catan.app, name="catan", help="Catan boards: spots, energy, generators, rendering.")
app.add_typer(morris.app, name="morris", help="Nine Men's Morris: rules, evaluation, AI, why-panel.")
app.add_typer(diplomacy.app, name="diplomacy", help="Diplomacy position measures over game records.")
catan_generate.register(catan.app)
morris_play.register(morris.app)
web.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
