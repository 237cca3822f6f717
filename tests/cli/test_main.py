"""The root ``boardeval`` group: lazy sub-commands, one red line and exit 2 for bad input, 130 for Ctrl-C."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

import boardeval.cli.main as main_module
from boardeval.cli.main import COMMANDS, LazyCommand, app, load_command

HEAVY = ("numpy", "ortools", "fastapi", "diplomacy", "matplotlib", "pandas")
GAMES = ("boardeval.catan", "boardeval.morris", "boardeval.diplomacy", "boardeval.web")


def _modules_after(code: str) -> set[str]:
    """The names in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_imports_no_heavy_package() -> None:
    loaded = _modules_after("import boardeval.cli.main")
    assert "boardeval.cli.main" in loaded and "typer" in loaded  # the probe did import the CLI
    assert sorted(m for m in (*HEAVY, *GAMES) if m in loaded) == []
    assert not {m for m in loaded if m.startswith(("boardeval.cli.catan", "boardeval.cli.morris"))}


def test_root_help_imports_no_game() -> None:
    code = (
        "import sys\nfrom boardeval.cli.main import main\nsys.argv = ['boardeval', '--help']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
    )
    loaded = _modules_after(code)
    assert "typer.rich_utils" in loaded  # the help was rendered
    assert sorted(m for m in (*HEAVY, *GAMES) if m in loaded) == []
    assert sorted(m for m in loaded if m.startswith("boardeval.cli.")) == [
        "boardeval.cli.common",
        "boardeval.cli.empty_json",  # plain data: the --json documents a Ctrl-C leaves (issue 22)
        "boardeval.cli.main",
    ]


def test_help_lists_every_command_in_order_with_its_line() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    rows = [ln.strip("│ ").split(None, 1) for ln in result.output.splitlines() if ln.startswith("│ ")]
    listed = [(r[0], r[1].strip(" │")) for r in rows if r and not r[0].startswith("-")]
    assert listed == [(name, spec.help) for name, spec in COMMANDS.items()]
    assert [name for name, _ in listed] == ["web", "catan", "morris", "diplomacy"]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_listed_help_is_the_loaded_commands_help(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    first_line = (command.help or "").strip().splitlines()[0]
    assert first_line == COMMANDS[name].help


@pytest.mark.parametrize(
    ("name", "extension"), [(n, e) for n, spec in COMMANDS.items() for e in spec.extends]
)
def test_each_extension_adds_its_commands_to_its_group(name: str, extension: str) -> None:
    recorder = typer.Typer()
    importlib.import_module(extension).register(recorder)
    added = [c.name for c in recorder.registered_commands] + [g.name for g in recorder.registered_groups]
    assert added and all(added)
    group = load_command(name)
    assert isinstance(group, TyperGroup)
    assert set(added) <= set(group.commands), f"{extension} commands missing from `boardeval {name}`"


def test_every_register_function_in_the_cli_is_wired() -> None:
    cli = Path(main_module.__file__ or "").parent
    registering = set()
    for path in cli.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name == "register" for n in tree.body):
            registering.add(f"boardeval.cli.{path.stem}")
    wired = {e for spec in COMMANDS.values() for e in spec.extends}
    wired |= {spec.module for spec in COMMANDS.values()}
    assert "boardeval.cli.web" in registering  # the scan sees the root's own command module
    assert sorted(registering - wired) == [], "add these modules to COMMANDS in cli/main.py"


def test_commands_run_after_loading() -> None:
    result = CliRunner().invoke(app, ["web", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output


def test_extensions_add_commands_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        COMMANDS,
        "fake",
        LazyCommand("tests.cli.fake_commands", "Fake.", extends=("tests.cli.fake_commands",)),
    )
    runner = CliRunner()
    for _ in range(2):  # each invocation builds the root group afresh; the extension registers once
        result = runner.invoke(app, ["fake", "extra"])
        assert result.exit_code == 0, result.output
        assert result.output == "extra ran\n"
    from tests.cli import fake_commands

    names = [c.name for c in fake_commands.app.registered_commands]
    assert names == ["bad", "interrupt", "json", "extra"]


def test_library_error_is_one_red_line_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "fake", LazyCommand("tests.cli.fake_commands", "Fake."))
    result = CliRunner().invoke(app, ["fake", "bad", "x7"])
    assert result.exit_code == 2
    assert result.output == "error: value must be a number, got 'x7' [not markup]\n"


def test_interrupted_jobs_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "fake", LazyCommand("tests.cli.fake_commands", "Fake."))
    result = CliRunner().invoke(app, ["fake", "interrupt"])
    assert result.exit_code == 130
    assert result.output == "interrupted: kept 2 of 5 jobs\n"


def test_unknown_command_suggests_the_near_one() -> None:
    result = CliRunner().invoke(app, ["catn"])
    assert result.exit_code == 2
    assert "No such command 'catn'" in result.output
    assert "Did you mean 'catan'?" in result.output


def test_bad_input_is_one_red_line_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from boardeval.cli.main import main; main()", "web", "--port", "0"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert lines == ["error: -c web: --port: '0' is out of range 1..65535"]


def test_progress_bar_only_where_rich_draws_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A stderr that is no terminal (and no FORCE_COLOR) gets no bar at all: the callback is None; with
    FORCE_COLOR (what the interrupt tests set) the bar and its callback are there."""
    from boardeval.cli.common import progress_bar

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    with (tmp_path / "stderr").open("w") as err:
        monkeypatch.setattr(sys, "stderr", err)  # a file: not a terminal
        with progress_bar("work") as cb:
            assert cb is None
        monkeypatch.setenv("FORCE_COLOR", "1")
        with progress_bar("work") as cb:
            assert cb is not None
            cb(1, 2, "half")


def test_a_long_build_in_the_background_says_how_far_it_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``tablebase build`` and ``book build`` run for hours, often with stderr in a file: no bar is drawn
    there, so plain lines say how far they are, at most one a minute (the clock is the test's)."""
    import io

    from boardeval.cli.common import PLAIN_EVERY, PlainProgress, progress_bar

    now = [0.0]
    out = io.StringIO()
    plain = PlainProgress("tablebase K=9", 60.0, clock=lambda: now[0], stream=out)
    for t, done, total, message in [
        (0.0, 1, 49, "3v3 stored"),  # a short run says nothing
        (59.9, 2, 49, ""),
        (61.0, 3, 49, "4v4: level 3, 1,024 classes decided"),
        (100.0, 4, 49, ""),  # within a minute of the last line
        (3725.0, 5, 0, "tablebase K=9"),  # the job's label, as map_jobs passes it: not said twice
    ]:
        now[0] = t
        plain(done, total, message)
    assert out.getvalue().splitlines() == [
        "tablebase K=9: 3/49 after 0:01:01 4v4: level 3, 1,024 classes decided",
        "tablebase K=9: 5/? after 1:02:05",
    ]
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    with (tmp_path / "stderr").open("w") as err:
        monkeypatch.setattr(sys, "stderr", err)  # a file: not a terminal
        with progress_bar("book positions", plain_every=PLAIN_EVERY) as cb:
            assert isinstance(cb, PlainProgress) and cb.every == PLAIN_EVERY
        with progress_bar("book positions", plain_every=PLAIN_EVERY, enabled=False) as cb:
            assert cb is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a test runner's capture: no line mixed into it
    with progress_bar("book positions", plain_every=PLAIN_EVERY) as cb:
        assert cb is None
