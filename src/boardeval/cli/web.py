"""``boardeval web``: serve the local web app."""

from __future__ import annotations

import typer

from boardeval.core import ParamsError


def register(app: typer.Typer) -> None:
    """Add the ``web`` command to the root group."""

    @app.command("web")
    def web(
        host: str = typer.Option("127.0.0.1", help="Interface to bind (local by default)."),
        port: int = typer.Option(8000, help="TCP port."),
    ) -> None:
        """Serve the web app (Catan boards, Morris play-and-explain, Diplomacy charts)."""
        if not 0 < port < 65536:
            raise ParamsError(f"--port must be in 1..65535, got {port}")
        import uvicorn

        uvicorn.run("boardeval.web.app:create_app", factory=True, host=host, port=port, log_level="info")
