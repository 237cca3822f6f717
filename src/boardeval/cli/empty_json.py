"""The ``--json`` document of every command, emptied: what a command prints when Ctrl-C stops it before it
has any result (issue 22).

The rule (README, docs/reliability.md): with ``--json``, stdout always carries exactly one JSON document,
also after Ctrl-C. A command that has a partial result prints it, flagged ``"interrupted": true``; one
stopped before any result (during start-up, or before its first board, game or fit) gets the document
below from the root group (``cli/main.py``): every field of the command's document, ``null`` (lists
empty), with ``"interrupted": true``. A script piping into ``jq`` keeps working, and ``interrupted`` tells
it the result is missing. Documents that are data through and through keep their shape and carry the flag
only on stderr and in the exit code 130: the rows of ``diplomacy measures`` (a JSON list: ``[]``) and the
per-power maps of ``diplomacy fear`` and ``diplomacy evaluate`` (``{}``: an ``"interrupted"`` key would read
as a power).

Kept apart from the commands on purpose: the root may need the document before the command's module is
imported (Ctrl-C during start-up), and importing it loads the game's libraries. ``tests/cli`` checks that
every command with ``--json`` has an entry here and that the entries name the fields the commands print.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["EMPTY_JSON", "UNFLAGGED", "empty_document", "json_command"]

_N = None  # a field with no value yet

EMPTY_JSON: dict[str, Any] = {
    # catan
    "catan random": {"code": _N, "layout": _N, "hexes": [], "ports": []},
    "catan spots": {"code": _N, "board": _N, "spots": []},
    "catan energy": {
        "same_resource_pairs": _N,
        "high_number_pairs": _N,
        "pip_variance": _N,
        "ports": _N,
        "energy": _N,
    },
    "catan generate": {
        "code": _N,
        "board": _N,
        "energy": _N,
        "rules": _N,
        "method": _N,
        "seed": _N,
        "seconds": _N,
        "ports": _N,
        "seat_equity": _N,
    },
    "catan equity": {
        "code": _N,
        "layout": _N,
        "seats": [],
        "win_probabilities": [],
        "spread": _N,
        "opening_spread": _N,
        "draft": _N,
        "why": [],
        "model": _N,
        "note": _N,
    },
    "catan optimum": {"energy": _N, "code": _N, "board": _N, "optimal": _N, "seconds": _N},
    "catan count-boards": {"count": _N, "complete": _N, "rules": []},
    "catan blog-model": {"model": _N, "threshold": _N, "count": _N, "solutions": []},
    "catan playtest": {
        "code": _N,
        "board": _N,
        "games": _N,
        "planned": _N,
        "players": [],
        "seats": [],
        "turns": _N,
        "unfinished": _N,
        "seconds": _N,
    },
    "catan advise": {
        "code": _N,
        "board": _N,
        "taken": [],
        "seat": _N,
        "pick": _N,
        "first": _N,
        "spot": _N,
        "score": _N,
        "why": _N,
        "spot_breakdown": _N,
        "alternatives": [],
    },
    "catan study": {
        "seed": _N,
        "games_per_board": _N,
        "players": [],
        "levels": [],
        "boards": [],
        "seconds": _N,
    },
    "catan tune-spots": {
        "seed": _N,
        "lineup": [],
        "trials": [],
        "planned_trials": _N,
        "best": _N,
        "default": _N,
        "importances": _N,
        "fresh": _N,
        "seconds": _N,
    },
    # diplomacy
    "diplomacy measures": [],
    "diplomacy fear": {},
    "diplomacy tournament": {"games": _N, "requested": _N, "bots": []},
    "diplomacy evaluate": {},
    "diplomacy alliances": {"game": _N, "rule": _N, "threshold": _N, "years": []},
    # morris
    "morris perft": {
        "position": _N,
        "variant": _N,
        "depth": _N,
        "convention": _N,
        "count": _N,
        "first_turns_done": _N,
        "first_turns": _N,
    },
    "morris eval": {"phase": _N, "side": _N, "features": _N, "breakdown": _N, "score": _N, "verdict": _N},
    "morris best": {
        "move": _N,
        "score": _N,
        "white_score": _N,
        "verdict": _N,
        "pv": [],
        "depth": _N,
        "nodes": _N,
        "seconds": _N,
        "tablebase": _N,
        "book": _N,
        "why": _N,
    },
    "morris book probe": {"position": _N, "book": _N},
    "morris match": {
        "player_a": _N,
        "player_b": _N,
        "games": _N,
        "wins": _N,
        "draws": _N,
        "losses": _N,
        "score": _N,
    },
    "morris tablebase stats": {"directory": _N, "variant": _N, "subdatabases": []},
    "morris tablebase probe": {
        "position": _N,
        "side": _N,
        "value": _N,
        "distance": _N,
        "summary": _N,
        "turns": [],
    },
    "morris tune": {
        "seed": _N,
        "positions": _N,
        "tablebase_positions": _N,
        "placing_positions": _N,
        "k": _N,
        "tuned": _N,
        "profiles": [],
        "questions": [],
        "seconds": _N,
    },
    "morris tune-play": {"start": _N, "steps": [], "final": _N, "seconds": _N},
}
"""Command path -> its ``--json`` document with every field empty (``"interrupted"`` is added). Catan's
documents carry the share code as ``code`` and, for one release, as ``board`` too (README)."""

UNFLAGGED = frozenset({"diplomacy measures", "diplomacy fear", "diplomacy evaluate"})
"""Commands whose document is data through and through (a list of rows, a map keyed by power): their
empty document is ``[]`` / ``{}``, without an ``"interrupted"`` key (the flag is on stderr)."""


def empty_document(command: str) -> Any:
    """A fresh copy of ``command``'s empty document, flagged ``"interrupted": true`` unless
    :data:`UNFLAGGED`."""
    doc = copy.deepcopy(EMPTY_JSON[command])
    if command in UNFLAGGED:
        return doc
    return {"interrupted": True, **doc}


def json_command(args: list[str]) -> str | None:
    """The command path of a ``boardeval ARGS`` call that asked for ``--json`` (e.g. ``"morris
    tablebase stats"``), or None: no ``--json`` before a ``--``, or a command without a JSON document.
    Read from the raw arguments, so it works before the command's module is even imported."""
    words: list[str] = []
    for arg in args:
        if arg == "--" or arg.startswith("-"):
            break
        candidate = " ".join([*words, arg])
        if not any(key == candidate or key.startswith(candidate + " ") for key in EMPTY_JSON):
            break
        words.append(arg)
    command = " ".join(words)
    asked = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    return command if asked and command in EMPTY_JSON else None
