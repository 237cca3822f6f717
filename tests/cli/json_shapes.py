"""A check shared by the tests that read a command's ``--json`` document: the empty document the root
prints after a Ctrl-C before any result (``cli/empty_json.py``) names the same fields (issue 22).

Each test that already runs a command with ``--json`` passes the document it got to
:func:`assert_same_fields`, so a field renamed or added in a command, and not in its empty document, fails
where the command is tested (at no extra run).
"""

from __future__ import annotations

from typing import Any

from boardeval.cli.empty_json import UNFLAGGED, empty_document

SOMETIMES: dict[str, frozenset[str]] = {
    "catan generate": frozenset(
        {
            "optimal",
            "swaps",
            "swap_list",
            "fairness",
            "moves",
            "rounds",
            "displaced_min",
            "swaps_proven_minimal",
            "objective",
            "energy_weight",
            "evaluations",
        }
    ),
    "catan blog-model": frozenset({"threshold", "count", "solutions"}),
    "catan playtest": frozenset({"planned"}),
    "diplomacy tournament": frozenset({"requested"}),
    "morris perft": frozenset({"divide", "first_turns_done", "first_turns"}),
    "morris match": frozenset({"records"}),
    "morris tune": frozenset({"written"}),
    "morris tune-play": frozenset({"final_match", "written"}),
}
"""Fields a command prints only with some options or only after a Ctrl-C (``--divide``, a tournament
repair's swaps, ``planned`` of an interrupted play-test, ...)."""


def assert_same_fields(command: str, document: Any) -> None:
    """``document`` (what ``boardeval COMMAND ... --json`` printed) and the command's empty document
    name the same fields, but for the fields printed only sometimes (:data:`SOMETIMES`)."""
    empty = empty_document(command)
    if command in UNFLAGGED:  # data through and through: only the container
        assert type(document) is type(empty), (command, type(document))
        return
    assert isinstance(document, dict), (command, document)
    sometimes = SOMETIMES.get(command, frozenset()) | {"interrupted"}
    printed, named = set(document) - sometimes, set(empty) - sometimes
    assert printed == named, (
        f"{command}: printed but not in the empty document: {sorted(printed - named)}; "
        f"in the empty document but not printed: {sorted(named - printed)}"
    )
    assert empty["interrupted"] is True
    for key in set(empty) & set(document):
        if isinstance(document[key], list):
            assert empty[key] == [], (command, key)  # lists are empty lists, everything else null
        elif key != "interrupted":
            assert empty[key] is None, (command, key)
