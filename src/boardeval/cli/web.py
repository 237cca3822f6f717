"""``boardeval web``: serve the local web app."""

from __future__ import annotations

import typer

from boardeval.cli.options import int_option
from boardeval.core import ParamsError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(app: typer.Typer) -> None:
    """Add the ``web`` command to the root group."""

    @app.command("web")
    def web(
        host: str = typer.Option("127.0.0.1", help="Interface to bind (local by default)."),
        port: int = typer.Option(8000, "--port", parser=int_option("--port", 1, 65535), help="TCP port."),
    ) -> None:
        """Serve the web app (Catan boards, Morris play-and-explain, Diplomacy charts).

        Pages at http://HOST:PORT/, the JSON API under /api, its reference at /docs (works offline).
        """
        if not host.strip():
            raise ParamsError("--host must name an interface, e.g. 127.0.0.1")
        if host not in LOOPBACK:
            from boardeval.cli.common import err_console

            err_console.print(
                f"[yellow]warning: serving on {host}: the app has no login, anyone who can reach this "
                "address can use it[/yellow]"
            )
        import uvicorn

        from boardeval.web.common import UVICORN_OPTIONS  # h11's head buffer: a 200 KB header is a 431

        uvicorn.run(
            "boardeval.web.app:create_app",
            factory=True,
            host=host,
            port=port,
            log_level="info",
            **UVICORN_OPTIONS,
        )
