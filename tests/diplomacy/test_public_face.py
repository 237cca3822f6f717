"""The public face of ``boardeval.diplomacy``: what it exports, what importing it costs, one catalogue."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

import boardeval.diplomacy as dip
from boardeval.diplomacy import MEASURE_INFO, MEASURES, GameRecord, compute_measures

HEAVY = ("pandas", "matplotlib", "diplomacy")


def _loaded_after(code: str) -> dict[str, bool]:
    """Which heavy packages a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded: dict[str, bool] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_the_package_loads_no_engine_pandas_or_matplotlib() -> None:
    assert _loaded_after("import boardeval.diplomacy") == dict.fromkeys(HEAVY, False)
    # A tidy table loads pandas (and the engine, for the map), still no matplotlib; a chart loads it.
    table = (
        "from boardeval.diplomacy import measures_table, start_position\nmeasures_table([start_position()])"
    )
    assert _loaded_after(table) == {"pandas": True, "matplotlib": False, "diplomacy": True}
    assert _loaded_after("from boardeval.diplomacy import chart_svg")["matplotlib"]


def test_every_exported_name_resolves_and_the_reference_is_private() -> None:
    # 34 for the measures (MapNotPreparedError among their errors), 11 for the bots, 5 for the map
    # (3 of them its convoy-path table: prepare_map, convoy_table_ready, forbid_convoy_builds), 13 for the
    # fitted evaluation
    assert len(dip.__all__) == len(set(dip.__all__)) == 64
    for name in dip.__all__:
        assert getattr(dip, name) is not None, name
        assert name in dir(dip)
    for internal in ("plain_measures", "MEASURE_KINDS", "series_figure", "POWER_COLOURS", "province_of"):
        assert internal not in dip.__all__
    from boardeval.diplomacy._plain import plain_measures

    assert callable(plain_measures)


def test_the_catalogue_covers_every_measure(human_games: list[GameRecord]) -> None:
    gm = compute_measures(human_games[0])
    assert tuple(MEASURE_INFO) == MEASURES and len(MEASURES) == 19
    for name, info in MEASURE_INFO.items():
        assert info.name == name and info.kind in ("position", "power", "table", "pair")
        assert info.caption.startswith(info.label)
        assert info.scale == (100.0 if info.unit == "%" else 1.0)
        rank = {"position": 1, "power": 2, "table": 3, "pair": 3}[info.kind]
        assert np.asarray(gm.series(name)).ndim == rank, name
    assert [m for m, i in MEASURE_INFO.items() if i.unit == "%"] == [
        "progress",
        "progress_as_written",
        "progress_from_zero",
    ]
    assert MEASURE_INFO["personal_progress"].caption == "Personal progress (SCs / R)"
    assert MEASURE_INFO["fear_dynamic"].note == "row fears column"
