"""Every ``--json`` command of the README prints JSON on stdout, and only JSON, on a cold cache (issue 24 §2).

The commands are read from README.md's ``sh`` blocks (the ones before them that make their input files run
too: a random game, a bot game, a tablebase), scaled down where they play many games, and run on a cold
``diplomacy`` engine cache: ``HOME`` is an empty folder, so the engine's convoy-path cache
(``~/.cache/diplomacy``) holds nothing and the tablebase folder is empty. Plus the issue's case: the start
measures of maps whose convoy table the engine does not ship (``empire``, ``world``); their first use
printed "Generating convoy paths" on stdout, before the JSON.

The commands come in four parts (Catan, Morris, Diplomacy, the issue's maps), one test each so that pytest's
workers share them out; each part has a cold cache of its own (a fresh ``HOME``) and first runs the README
lines that make its inputs. Within a part the commands run one after another in ONE fresh Python process
(``_RUNNER``), each with file descriptor 1 pointed at its own file: whatever anything writes on stdout (the
library, a dependency's ``print``, a worker process) lands in that file, as it would in a pipe.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

SCALE = [  # README figure -> a smaller one: same command, same output shape, seconds not minutes
    (r"--games \d+", "--games 2"),
    (r"--max-men \d+", "--max-men 3"),
    (r"--max-year \d+", "--max-year 1902"),
    (r"(random-game [^#]*--seed \d+)", r"\1 --max-phases 4"),
    (r"--depth 4", "--depth 2"),
]
NEEDS = ("game.jsonl", "game.json", "tablebase")
"""Input files of the --json commands, made by README lines that come before them."""

EXTRA = [
    "diplomacy measures --start --map empire --json",  # issue 24: its first use printed on stdout
    "diplomacy measures --start --map world --json",
    "diplomacy fear --static --map world --json",
]

_RUNNER = r"""
import json, os, shlex, sys
from boardeval.cli.main import app

commands, folder = json.loads(sys.argv[1]), sys.argv[2]
done = []
for k, command in enumerate(commands):
    path = os.path.join(folder, f"stdout-{k}.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(fd, 1)
    try:
        app(shlex.split(command), prog_name="boardeval")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(fd)
    done.append([command, code, path])
with open(os.path.join(folder, "done.json"), "w") as fh:
    json.dump(done, fh)
"""


def readme_commands() -> tuple[list[str], list[str]]:
    """(the README's ``--json`` commands, the README commands that make their inputs), as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.startswith("boardeval "):
                lines.append(re.sub(r"\s+#.*$", "", line).strip())
    code = re.search(r"boardeval catan show (\S+)", text)
    assert code is not None, "README.md should show a share code with `boardeval catan show`"
    lines = [line.replace("CODE", code.group(1)) for line in lines]
    wanted = [line for line in lines if " --json" in line]
    makers: dict[str, str] = {}  # what it makes -> the first README line that makes it
    for line in lines:
        made = "tablebase" if "tablebase build" in line else None
        found = re.search(r"--out (game\.jsonl?)(\s|$)", line)
        made = found.group(1) if found else made
        if " --json" not in line and made in NEEDS and made not in makers:
            makers[made] = line
    return wanted, list(makers.values())


def _scaled(line: str) -> str:
    for pattern, repl in SCALE:
        line = re.sub(pattern, repl, line)
    return line.removeprefix("boardeval ")


def _parts() -> dict[str, list[str]]:
    """The commands to run, in README order, by part: each game's makers, then its ``--json`` commands."""
    wanted, makers = readme_commands()
    parts: dict[str, list[str]] = {}
    for line in [*makers, *wanted]:
        command = _scaled(line)
        parts.setdefault(command.split()[0], []).append(command)
    parts["maps"] = list(EXTRA)
    return parts


PARTS = _parts()


def test_the_readme_has_json_commands_of_every_game_and_their_makers() -> None:
    wanted, makers = readme_commands()
    assert len(wanted) >= 15, wanted  # the README's --json examples of all three games
    assert len(makers) == len(NEEDS), makers
    assert set(PARTS) == {"catan", "morris", "diplomacy", "maps"}, PARTS
    assert sum(len(commands) for commands in PARTS.values()) == len(wanted) + len(makers) + len(EXTRA)


@pytest.mark.parametrize("part", list(PARTS))
def test_every_readme_json_command_prints_only_json_on_a_cold_cache(part: str, tmp_path: Path) -> None:
    commands = PARTS[part]
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "COLUMNS": "200"}
    env.pop("XDG_CACHE_HOME", None)
    run = subprocess.run(
        [sys.executable, "-c", _RUNNER, json.dumps(commands), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    done = json.loads((tmp_path / "done.json").read_text())
    assert [c for c, _, _ in done] == commands
    for command, code, path in done:
        out = Path(path).read_text(encoding="utf-8")
        assert code == 0, f"boardeval {command}: exit {code}\n{run.stderr[-2000:]}"
        assert "Generating convoy paths" not in out
        if " --json" in command:
            try:
                json.loads(out)
            except ValueError as exc:
                pytest.fail(f"boardeval {command}: stdout is not JSON ({exc}): {out[:300]!r}")
