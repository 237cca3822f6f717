"""``boardeval morris eval|best|play|match``: evaluation, AI and why-panel commands."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the evaluation and AI commands to the ``morris`` group."""
