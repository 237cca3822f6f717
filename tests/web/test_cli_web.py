"""``boardeval web``: serves the app factory with uvicorn on the given interface; bad ports exit 2."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from boardeval.cli.main import app


def test_web_runs_uvicorn_with_the_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append((a, k)))
    result = CliRunner().invoke(app, ["web", "--port", "8123"])
    assert result.exit_code == 0, result.output
    ((args, kwargs),) = calls
    assert args == ("boardeval.web.app:create_app",)
    assert kwargs["factory"] is True and kwargs["host"] == "127.0.0.1" and kwargs["port"] == 8123
    assert kwargs["h11_max_incomplete_event_size"] >= 1024 * 1024  # a 200 KB header is a 431, not a reset


@pytest.mark.parametrize("port", ["0", "70000", "-1"])
def test_bad_port_is_one_line_exit_2(port: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("uvicorn must not start"))
    result = CliRunner().invoke(app, ["web", "--port", port])
    assert result.exit_code == 2
    assert "port" in result.output.lower()


def test_non_loopback_host_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append(k))
    result = CliRunner().invoke(app, ["web", "--host", "0.0.0.0", "--port", "8124"])
    assert result.exit_code == 0 and calls[0]["host"] == "0.0.0.0"
    assert "no login" in result.output
