"""The ``boardeval`` console script: Ctrl-C during start-up ends as any other Ctrl-C does.

Importing the command line (Typer, Rich, :mod:`boardeval.core`) takes ~0.3 s; a Ctrl-C in that time used
to print Python's KeyboardInterrupt traceback. Here it prints ``interrupted: nothing to keep``, with
``--json`` the command's empty document (``cli/empty_json.py``: stdout always carries one JSON document),
and exits 130 (docs/reliability.md, Interrupts). Once imported, :func:`boardeval.cli.main.main` runs
the command.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

# This module imports nothing but ``sys`` (already loaded) before its ``try``: even ``typing`` takes tens
# of milliseconds, and a Ctrl-C then would still end in a traceback.


def main() -> None:
    """Console-script entry point: import the command line, then run it."""
    try:
        from boardeval.cli.main import main as run_cli
    except KeyboardInterrupt:
        _interrupted_at_start()
        return
    run_cli()


def _interrupted_at_start() -> None:
    """Ctrl-C before the command line was imported: the empty JSON document if ``--json`` was asked,
    one ``interrupted`` line on stderr, exit 130."""
    import json
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the document
    from boardeval.cli.empty_json import empty_document, json_command

    command = json_command(sys.argv[1:])
    if command is not None:
        sys.stdout.write(json.dumps(empty_document(command), separators=(", ", ": ")) + "\n")
        sys.stdout.flush()
    sys.stderr.write("interrupted: nothing to keep\n")
    sys.stderr.flush()
    raise SystemExit(130)
