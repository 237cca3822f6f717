"""``boardeval catan ...``: board codes, spots, energy, rendering (generators: catan_generate.py)."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)
