"""Fixtures for the web tests: an in-process TestClient, and a real uvicorn server + Debian's chromium.

Browser tests never download a browser: they drive Debian's headless chromium (``helpers.CHROMIUM``) through
Playwright, and FAIL (not skip) when it is missing, so CI notices. The server runs uvicorn in a thread on
127.0.0.1 with a free port.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from tests.web.helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GUARD_MS,
    HTTP_GUARD,
    free_port,
    quick_selector_waits,
)


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
    """Debian's headless chromium through Playwright. Missing chromium is a failure, not a skip."""
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install Debian's chromium-headless-shell (`make browser`); browser tests"
        " never download one"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


VIEWPORT = {"width": 1280, "height": 900}
"""The ``page`` fixture's window (a test that needs another sets it; the next test gets this one back)."""

# Events a test may listen to on the shared tab; what a test added is removed after it (the tab's own stay).
_EVENTS = (
    "close", "console", "crash", "dialog", "domcontentloaded", "download", "filechooser", "frameattached",
    "framedetached", "framenavigated", "load", "pageerror", "popup", "request", "requestfailed",
    "requestfinished", "response", "websocket", "worker",
)  # fmt: skip


class _Tab:
    """The worker's one browser tab for the ``page`` fixture, with what the fixture promises each test: any
    request to a host other than the local server blocked and recorded in ``outside_requests``, and the
    page's JavaScript errors in ``console_errors``. A new browser context and page cost chromium about a
    second of CPU each (measured: 1.6 CPU-s per /morris visit in a fresh page, 0.6 in a reused one), the
    browser tests' largest cost; so the tab is made once and reset between tests (:meth:`reset`)."""

    def __init__(self, browser: Any, live_server: str) -> None:
        self.browser, self.live_server = browser, live_server
        self.context: Any = None
        self.page: Any = None

    def _request(self, request: Any) -> None:
        """Record a request to anywhere but the local server (the browser's proxy setting makes it fail:
        ``CHROMIUM_ARGS``); a listener, not a route: routing every request cost 0.6 CPU-s per test."""
        url = request.url
        if not (url.startswith(self.live_server) or url.startswith("data:") or url.startswith("blob:")):
            self.page.outside_requests.append(url)

    def _open(self) -> None:
        self.context = self.browser.new_context(viewport=VIEWPORT)
        pg = self.page = quick_selector_waits(self.context.new_page())
        pg.outside_requests = []
        pg.console_errors = []
        pg.on("request", self._request)
        pg.on("pageerror", lambda exc: pg.console_errors.append(str(exc)))
        self.own = {event: pg._impl_obj.listeners(event) for event in _EVENTS}

    def start(self) -> Any:
        """The tab for the next test: blank, the default window, fresh records, nothing of earlier tests."""
        if self.page is None or self.page.is_closed():
            self._open()
        pg = self.page
        pg.outside_requests = []
        pg.console_errors = []
        if pg.viewport_size != VIEWPORT:
            pg.set_viewport_size(VIEWPORT)
        pg.set_default_timeout(GUARD_MS)  # a hang guard for every wait_for_*: a signal ends each wait
        return pg

    def reset(self) -> None:
        """Undo what a test did to the tab: its routes and listeners go, the page goes blank (which stops
        its timers and aborts its requests), the pointer returns to the corner with no button down. If the
        tab cannot be reset (it crashed, or the test closed it), the next test gets a new one."""
        pg = self.page
        try:
            pg.unroute_all(behavior="ignoreErrors")
            impl = pg._impl_obj
            for event in _EVENTS:
                for listener in impl.listeners(event):
                    if listener not in self.own[event]:
                        impl.remove_listener(event, listener)
            pg.goto("about:blank")
            pg.mouse.up()
            pg.mouse.move(0, 0)
        except Exception:  # a broken tab: the next test must not inherit it
            self.close()

    def close(self) -> None:
        if self.context is not None:
            with contextlib.suppress(Exception):
                self.context.close()
        self.context = self.page = None


@pytest.fixture(scope="session")
def _tab(browser: Any, live_server: str) -> Iterator[_Tab]:
    tab = _Tab(browser, live_server)
    yield tab
    tab.close()


@pytest.fixture
def page(_tab: _Tab) -> Iterator[Any]:
    """The worker's browser tab, blank, for one test; any request to a host other than the local server is
    blocked and recorded. Shared between tests (a fresh context per test was the browser tests' largest
    cost) and reset after each: the test's routes, listeners and window size do not reach the next test."""
    yield _tab.start()
    _tab.reset()
