"""Constants and small helpers shared by the web tests and their fixtures (tests/web/conftest.py).

Test modules import from here, never from conftest.py or from one another.
"""

from __future__ import annotations

import socket
from pathlib import Path

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "SCREENSHOTS", "free_port"]

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium: the browser tests drive it and never download one."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

SCREENSHOTS = Path("/tmp/boardeval-web-shots")
"""Where the browser tests leave full-page screenshots for a person to look at."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
