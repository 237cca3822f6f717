"""``boardeval catan generate|blog-model|optimum``: the board generators."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the generator commands to the ``catan`` group."""
