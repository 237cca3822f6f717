"""Constants and small helpers shared by the web tests and their fixtures (tests/web/conftest.py).

Test modules import from here, never from conftest.py or from one another.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "GUARD_MS",
    "HTTP_GUARD",
    "SCREENSHOTS",
    "SETTLED",
    "Held",
    "free_port",
    "job_ended",
    "page_number",
    "quick_selector_waits",
    "screenshot",
    "wait_for_job",
]

CHROMIUM = Path("/usr/lib/chromium/chromium-headless-shell")
"""Debian's chromium, its headless build (package ``chromium-headless-shell``, the same chromium version and
Blink as the ``chromium`` package): the browser tests drive it and never download one. It is the browser
Playwright itself runs for headless tests; the full ``chromium`` in headless mode cost 58 CPU-s for the 76
browser tests against this one's 38 (one warm ``pytest -n 2 -m browser`` run each, process accounting; wall
63 -> 48 s), the same tests passing (issue 22). The benchmarks that show pages to a person (first render,
screenshots) drive the full ``chromium`` (``benchmarks/_harness.py``)."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # offline: every request that does not go to 127.0.0.1 (loopback is never proxied) goes to a proxy on a
    # closed port and fails, before it leaves the machine. It replaced a Playwright route on every request
    # (each one a round trip chromium -> Playwright's driver -> this process -> back, and routing turns
    # chromium's cache off): 0.6 CPU-s per browser test (tests/web/conftest.py's ``_Tab``)
    "--proxy-server=http://127.0.0.1:9",
]

GUARD_MS = 300_000
"""Playwright's wait limit in the browser tests (ms): a hang guard only, far above a normal wait. Every wait
ends on a signal the page gives (a text, an element, an idle form); on the shared 2-core machine at load
15-20 a web job took over a minute, so a limit near the normal time let the machine's speed decide the
verdict (issue 22)."""

HTTP_GUARD = 300.0
"""httpx's timeout for the tests' own API calls (s): a hang guard (httpx's default 5 s failed under load)."""

SCREENSHOTS = Path("/tmp/boardeval-web-shots")
"""Where the browser tests leave full-page screenshots for a person to look at (:func:`screenshot`)."""
SCREENSHOTS_ENV = "BOARDEVAL_WEB_SHOTS"
"""Set to 1 to have the browser tests take their screenshots (:func:`screenshot`)."""


def screenshot(page: Any, name: str) -> None:
    """A full-page screenshot of ``page`` as :data:`SCREENSHOTS`/``name``, for a person to look at, when
    ``BOARDEVAL_WEB_SHOTS=1``. Not a check (nothing reads them) and ~0.4 CPU-s of chromium each: a normal
    test run takes none (issue 22). ``benchmarks/web_screenshots.py`` makes the docs' screenshots."""
    if os.environ.get(SCREENSHOTS_ENV, "") not in ("", "0"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


_PRESENT = "s => { try { return document.querySelector(s) !== null; } catch (e) { return true; } }"
"""True once a CSS selector matches; true at once for a selector that is not CSS (Playwright's own)."""


def quick_selector_waits(page: Any) -> Any:
    """``page`` with a ``wait_for_selector`` that notices the element within 20 ms of its arrival.

    Playwright's own wait looks for the element after 0, 20, 70, 170 and 270 ms, then every 500 ms (its
    back-off, for waits longer than 2.5 s: ours have a 300 s hang guard): an element that arrived after
    300 ms was seen at 770 ms. The browser tests wait ~60 times for an answer that takes about that long,
    and the tail of each wait was idle time of the whole run. This wrapper first waits in the page itself
    (polling every 20 ms) until the selector matches, then calls Playwright's wait, which finds it at its
    first look and checks what it always checks (visible, or the given ``state``). Waits for an element to
    go (``hidden``, ``detached``) are Playwright's alone."""
    real = page.wait_for_selector

    def wait_for_selector(selector: str, *, state: str | None = None, **kwargs: Any) -> Any:
        if state in (None, "visible", "attached"):
            timeout = kwargs.get("timeout")
            page.wait_for_function(_PRESENT, arg=selector, polling=20, timeout=timeout)
        return real(selector, state=state, **kwargs)

    page.wait_for_selector = wait_for_selector
    return page


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Client(Protocol):
    """A ``TestClient`` or an ``httpx.Client`` with the app's base URL."""

    def get(self, url: str) -> Any: ...


def job_ended(job: dict[str, Any]) -> bool:
    """The job has finished one way or another (done, failed or cancelled)."""
    return job["state"] in ("done", "failed", "cancelled")


def wait_for_job(
    client: _Client,
    job_id: str,
    until: Callable[[dict[str, Any]], bool] = job_ended,
    timeout: float = 2 * HTTP_GUARD,
) -> dict[str, Any]:
    """Poll ``GET /api/jobs/{id}`` until the job's own view says ``until`` (default: it has ended) and
    return that view. The job's state is the signal; ``timeout`` only turns a hang into a failure (jobs
    run in worker processes: a fresh app's first job waits for the fork server to load the libraries,
    seconds on a quiet machine, a minute or more when 8 engineers share its 2 cores)."""
    deadline = time.monotonic() + timeout
    while True:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()
        if until(job):
            return job
        assert time.monotonic() < deadline, f"job {job_id} did not get there in {timeout:.0f} s: {job}"
        time.sleep(0.02)


def page_number(x: float, digits: int) -> str:
    """A number as the pages print it (``BE.fmt`` in common.js): an integer without decimals, anything
    else with ``digits`` decimals (the Catan page takes them from ``DISPLAY_DIGITS``)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.{digits}f}"


SETTLED = "() => new Promise(r => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r))))"
"""Resolves once the page has run its queued tasks and drawn twice: what an answer it received did is on
screen."""


class Held:
    """Holds every request matching ``pattern`` until :meth:`release` (the AI "thinks" as long as we like)."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.page, self.pattern, self.routes = page, pattern, []  # type: ignore[var-annotated]
        self.failed: list[str] = []
        self.ended: list[Any] = []  # requests that failed (aborted) or finished
        page.on("requestfailed", lambda req: (self.failed.append(req.url), self.ended.append(req)))
        page.on("requestfinished", lambda req: self.ended.append(req))
        page.route(pattern, self._hold)

    def _hold(self, route: Any) -> None:
        self.routes.append(route)

    def _until(self, done: Any, what: str) -> None:
        """Let Playwright deliver the page's events until ``done()`` (the guard fails the test)."""
        for _ in range(GUARD_MS // 10):
            if done():
                return
            self.page.wait_for_timeout(10)  # pumps the events; the condition decides, not this pause
        raise AssertionError(what)

    def wait(self, count: int = 1) -> None:
        self._until(lambda: len(self.routes) >= count, f"no request to {self.pattern} was made")

    def release(self) -> None:
        """Let the held requests reach the server (those the page aborted fail quietly), and wait until
        each has ended (failed or answered) and the page has dealt with what came back: a stale answer
        that (wrongly) lands is on screen when this returns."""
        self.page.unroute(self.pattern, self._hold)
        for route in self.routes:
            with contextlib.suppress(Exception):  # the page already aborted it
                route.continue_()
        held = [route.request for route in self.routes]
        self._until(lambda: all(r in self.ended for r in held), f"a held {self.pattern} request never ended")
        self.page.evaluate(SETTLED)
