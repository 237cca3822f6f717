"""The public face of ``boardeval.catan``: every exported name resolves, and the import stays light."""

from __future__ import annotations

import subprocess
import sys

import boardeval.catan as catan

HEAVY = ("ortools", "catanatron", "matplotlib", "pandas")


def test_every_exported_name_resolves() -> None:
    for name in catan.__all__:
        assert getattr(catan, name) is not None, name
    assert set(catan.__all__) <= set(dir(catan))


def test_lazy_names_are_the_modules_objects() -> None:
    from boardeval.catan._generate.fairness import generate
    from boardeval.catan.constraints import parse_rules

    assert catan.generate is generate and catan.parse_rules is parse_rules


def test_import_loads_no_heavy_dependency() -> None:
    """``import boardeval.catan`` (what ``boardeval catan spots`` pays for) pulls none of the heavy
    packages; the CP-SAT generators load OR-Tools when first used."""
    code = (
        "import sys, boardeval.catan as c\n"
        f"heavy = {HEAVY!r}\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & set(heavy))\n"
        "assert not loaded, loaded\n"
        "c.evaluate_spots(c.Board.random(1)); c.board_energy(c.Board.random(1))\n"
        "assert not {m.split('.')[0] for m in sys.modules} & set(heavy)\n"
        "c.generate('anneal', 1)\n"
        "assert 'ortools' not in sys.modules  # generate loads OR-Tools only for cp / tournament\n"
        "c.optimum\n"
        "assert 'ortools' in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        catan.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")
