"""A stand-in sub-command module for the root group's tests (tests/cli/test_main.py).

``app`` is a command group whose commands raise what real commands raise: a library input error, an
interrupted batch of jobs. ``register`` adds one more command, as ``catan_generate.register`` does.
"""

from __future__ import annotations

import typer

from boardeval.core import JobsInterrupted, ParamsError

app = typer.Typer(no_args_is_help=True)


@app.command("bad")
def bad(value: str) -> None:
    """Reject VALUE the way a library function rejects bad input."""
    raise ParamsError(f"value must be a number, got {value!r} [not markup]")


@app.command("interrupt")
def interrupt() -> None:
    """Stop as a Ctrl-C during a batch of jobs does, with 2 of 5 finished."""
    raise JobsInterrupted({0: "a", 1: "b"}, 5)


def register(target: typer.Typer) -> None:
    """Add ``extra`` to ``target``."""

    @target.command("extra")
    def extra() -> None:
        """An extension command."""
        typer.echo("extra ran")


@app.command("json")
def json_command(
    printed: bool = typer.Option(False, "--printed", help="Print the kept result before the Ctrl-C."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Stop as a Ctrl-C does: after printing a partial result (``--printed``) or before any."""
    from boardeval.cli.common import print_json

    if printed and as_json:
        print_json({"board": "kept", "games": [], "interrupted": True})
    raise KeyboardInterrupt
