"""``boardeval web``: serves the app factory with uvicorn on the given interface; bad ports exit 2."""

from __future__ import annotations

import asyncio
import logging
import traceback
from types import SimpleNamespace
from typing import ClassVar

import pytest
import uvicorn
from typer.testing import CliRunner

from boardeval.cli.main import app
from boardeval.cli.web import ForcedStopFilter
from boardeval.web import workers


class _Recorded:
    """Stands in for ``uvicorn.Server``: records the config it was given instead of serving."""

    configs: ClassVar[list[uvicorn.Config]] = []
    stops: ClassVar[int] = 0

    def __init__(self, config: uvicorn.Config) -> None:
        self.configs.append(config)

    def run(self) -> None:
        pass


def _record(monkeypatch: pytest.MonkeyPatch) -> list[uvicorn.Config]:
    """Record the uvicorn configs instead of serving. The command's last act, killing every worker pool of
    the process, would here kill the pools of the other tests' apps (same process): it is counted instead."""
    _Recorded.configs = []
    _Recorded.stops = 0
    monkeypatch.setattr(uvicorn, "Server", _Recorded)

    def stop() -> None:
        _Recorded.stops += 1

    monkeypatch.setattr(workers, "kill_all_workers", stop)
    return _Recorded.configs


def test_web_runs_uvicorn_with_the_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    configs = _record(monkeypatch)
    result = CliRunner().invoke(app, ["web", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert _Recorded.stops == 1  # no worker process outlives the command
    (config,) = configs
    assert config.app == "boardeval.web.app:create_app"
    assert config.factory is True and config.host == "127.0.0.1" and config.port == 8123
    assert config.timeout_graceful_shutdown == 1  # then the connections are closed (docs/reliability.md)
    assert config.h11_max_incomplete_event_size >= 1024 * 1024  # a 200 KB header is a 431, not a reset


@pytest.mark.parametrize("port", ["0", "70000", "-1"])
def test_bad_port_is_one_line_exit_2(port: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uvicorn, "Server", lambda *a, **k: pytest.fail("uvicorn must not start"))
    result = CliRunner().invoke(app, ["web", "--port", port])
    assert result.exit_code == 2
    assert "port" in result.output.lower()


def test_non_loopback_host_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    configs = _record(monkeypatch)
    result = CliRunner().invoke(app, ["web", "--host", "0.0.0.0", "--port", "8124"])
    assert result.exit_code == 0 and configs[0].host == "0.0.0.0"
    assert "no login" in result.output


def _record_of(message: str) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, message, None, None)


def test_a_second_ctrl_c_logs_no_traceback() -> None:
    """A second Ctrl-C stopped uvicorn at once and it logged the cancelled lifespan task's traceback
    (Starlette's text, as here); the filter drops exactly that record, and only when the stop was forced."""
    try:
        raise asyncio.CancelledError()
    except asyncio.CancelledError:
        cancelled = traceback.format_exc()
    try:
        raise RuntimeError("the app's shutdown failed")
    except RuntimeError:
        other = traceback.format_exc()
    forced, graceful = SimpleNamespace(force_exit=True), SimpleNamespace(force_exit=False)
    assert cancelled.startswith("Traceback") and "CancelledError" in cancelled
    assert not ForcedStopFilter(forced).filter(_record_of(cancelled))
    assert ForcedStopFilter(graceful).filter(_record_of(cancelled))  # not asked for: the traceback stays
    assert ForcedStopFilter(forced).filter(_record_of(other))
    assert ForcedStopFilter(forced).filter(_record_of("Shutting down"))
