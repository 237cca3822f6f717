"""``boardeval diplomacy ...``: position measures, fear tables, charts, random games."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)
