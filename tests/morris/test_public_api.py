"""The public face of ``boardeval.morris``: what it exports, and that importing it stays light."""

from __future__ import annotations

import json
import subprocess
import sys

import boardeval.morris as morris

HEAVY = ("numpy", "pyspiel", "open_spiel", "ortools", "matplotlib", "pandas", "fastapi", "numba", "diplomacy")


def test_every_exported_name_exists_and_internals_stay_private() -> None:
    assert len(morris.__all__) == len(set(morris.__all__)) == 73
    for name in morris.__all__:
        assert hasattr(morris, name), name  # the tablebase names load here, on first use
    for internal in ("perft_generic", "alphabeta", "zobrist_of", "NORM", "MILLS", "Status", "make_turn"):
        assert internal not in morris.__all__, internal
    # the implementation modules stay importable for tests and benchmarks, by their private names
    from boardeval.morris._perft import perft_generic
    from boardeval.morris._search.plain import alphabeta

    assert callable(perft_generic) and callable(alphabeta)
    assert callable(morris.search) and callable(morris.evaluate) and callable(morris.features)


def test_import_loads_no_heavy_dependency() -> None:
    """``import boardeval.morris`` (what ``boardeval morris eval`` needs) imports none of HEAVY, nor the
    tablebase (numpy), whose names load on first use."""
    code = (
        "import sys, json, boardeval.morris; "
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))), "
        "'boardeval.morris.tablebase' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    heavy, tablebase = proc.stdout.rsplit(" ", 1)
    assert json.loads(heavy) == [] and tablebase.strip() == "False"


def test_tablebase_names_load_on_first_use() -> None:
    code = "import sys, boardeval.morris as m; t = m.Tablebase; print('numpy' in sys.modules, t.__module__)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["True", "boardeval.morris.tablebase.probe"]
