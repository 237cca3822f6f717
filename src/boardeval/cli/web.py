"""``boardeval web``: serve the local web app."""

from __future__ import annotations

import logging
import signal
from types import FrameType
from typing import Any

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
        _serve(host, port)


SHUTDOWN_GRACE = 1
"""Seconds uvicorn lets requests still in flight finish after Ctrl-C / SIGTERM; then they are cancelled
and the app kills its worker processes (docs/reliability.md, Shutdown: the server is gone within 2 s)."""


def _serve(host: str, port: int) -> None:
    """uvicorn with a short graceful shutdown; the app's start-up line on stderr; no process left after.

    The app starts its worker processes in the background and logs one line when they are ready
    ("... worker processes ready in 3.1 s"). Ctrl-C or SIGTERM kills the workers at once (their work is
    not waited for: a request waiting on it answers 503, a job ends cancelled), then uvicorn closes the
    connections (at most :data:`SHUTDOWN_GRACE` s) and the app shuts down; after that every worker pool
    of this process is shut down again (idempotent) and the fork server is stopped, so nothing outlives
    the command."""
    import uvicorn

    from boardeval.cli.common import err_console
    from boardeval.web.common import UVICORN_OPTIONS  # h11's head buffer: a 200 KB header is a 431
    from boardeval.web.workers import kill_all_workers

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            kill_all_workers()
            if self.should_exit and sig == signal.SIGINT and not self.force_exit:
                err_console.print("boardeval web: a second Ctrl-C: stopping at once")
            super().handle_exit(sig, frame)

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("boardeval web: %(message)s"))
    web_log = logging.getLogger("boardeval.web")
    web_log.addHandler(handler)
    web_log.setLevel(logging.INFO)
    err_console.print("boardeval web: starting the worker processes (searches, uploads, jobs) ...")
    config = uvicorn.Config(
        "boardeval.web.app:create_app",
        factory=True,
        host=host,
        port=port,
        log_level="info",
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
        **UVICORN_OPTIONS,
    )
    server = Server(config)
    quiet = ForcedStopFilter(server)
    logging.getLogger("uvicorn.error").addFilter(quiet)  # after uvicorn set its logging up (in Config)
    try:
        server.run()
    finally:
        logging.getLogger("uvicorn.error").removeFilter(quiet)
        _stop_workers()


class ForcedStopFilter(logging.Filter):
    """Drops the traceback uvicorn logs when a second Ctrl-C stops it at once.

    A second Ctrl-C makes uvicorn leave without the app's shutdown; asyncio then cancels the app's lifespan
    task, Starlette hands uvicorn that ``CancelledError``'s traceback and uvicorn logs it as an error (a
    traceback for a stop the user asked for). The server says "a second Ctrl-C: stopping at once" instead;
    the workers are killed either way (:func:`_serve`). Any other record, and this one without a forced
    stop, is kept."""

    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server  # a uvicorn.Server: its ``force_exit`` is set by the second Ctrl-C

    def filter(self, record: logging.LogRecord) -> bool:
        forced = bool(getattr(self.server, "force_exit", False))
        text = record.getMessage().rstrip()
        return not (forced and text.startswith("Traceback") and text.endswith("CancelledError"))


def _stop_workers() -> None:
    from boardeval.web.workers import kill_all_workers

    kill_all_workers()
