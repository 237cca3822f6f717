"""Fixtures for the web tests: an in-process TestClient, and a real uvicorn server + Debian's chromium.

Browser tests never download a browser: they drive ``/usr/bin/chromium`` through Playwright, and FAIL (not
skip) when it is missing, so CI notices. The server runs uvicorn in a thread on 127.0.0.1 with a free port.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from tests.web.helpers import CHROMIUM, CHROMIUM_ARGS, GUARD_MS, HTTP_GUARD, SCREENSHOTS, free_port


@pytest.fixture(scope="session")
def app() -> Any:
    from boardeval.web.app import create_app

    return create_app()


@pytest.fixture(scope="session")
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # running in a thread: leave signals to pytest
        pass


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """Base URL of the app served by uvicorn in a background thread on 127.0.0.1."""
    from boardeval.web.app import create_app
    from boardeval.web.common import UVICORN_OPTIONS

    port = free_port()
    app = create_app()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)
    server = _Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + HTTP_GUARD  # a hang guard: the first answer is the signal
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=HTTP_GUARD).status_code == 200:
                break
        except httpx.HTTPError:  # not listening yet
            time.sleep(0.05)  # polling for the first answer; the answer decides, not this pause
    else:
        raise RuntimeError(f"uvicorn did not start within {HTTP_GUARD:.0f} s")
    # the worker processes (searches, uploads, jobs): the page tests' first AI answer must not wait for the
    # fork server to load the libraries (blocks until they are up; the app started them in the background)
    app.state.tasks.pool.start()
    app.state.jobs.start()
    yield base
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright. Missing chromium is a failure, not a skip."""
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install Debian's chromium (`make browser`); browser tests never download one"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh page; any request to a host other than the local server is blocked and recorded."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.outside_requests = []  # type: ignore[attr-defined]
    pg.console_errors = []  # type: ignore[attr-defined]

    def _route(route: Any) -> None:
        url = route.request.url
        if url.startswith(live_server) or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
        else:
            pg.outside_requests.append(url)  # type: ignore[attr-defined]
            route.abort()

    pg.route("**/*", _route)
    pg.on("pageerror", lambda exc: pg.console_errors.append(str(exc)))  # type: ignore[attr-defined]
    pg.set_default_timeout(GUARD_MS)  # a hang guard for every wait_for_*: a signal ends each wait
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield pg
    context.close()
