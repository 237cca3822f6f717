"""``boardeval morris ...``: engine commands (perft). Evaluation/AI commands: morris_play.py."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)
