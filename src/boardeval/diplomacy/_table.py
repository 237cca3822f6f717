"""The tidy table of the measures: one row per (phase, power, measure, other), as pandas and as JSON rows.

Kept apart from :mod:`boardeval.diplomacy.measures` (numpy only) so that pandas is imported when a table
is first asked for, not when the package is imported.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from boardeval.core import Progress, report
from boardeval.diplomacy._catalog import MEASURE_KINDS, validate_measures
from boardeval.diplomacy.graph import FloatArray, IntArray
from boardeval.diplomacy.measures import GameMeasures, compute_measures
from boardeval.diplomacy.records import GameRecord, Position

__all__ = ["games_table", "measures_table", "table_rows"]


def _categorical(codes: IntArray, names: Sequence[str]) -> Any:
    """A pandas Categorical from integer codes (-1 = missing)."""
    return pd.Categorical.from_codes(codes, categories=pd.Index(list(names)))


def _blocks(gm: GameMeasures, measures: Sequence[str]) -> pd.DataFrame:
    """The tidy rows of the chosen measures, built from index arrays per measure kind, phase-major."""
    n_t, n_p = len(gm.phases), len(gm.powers)
    phase_idx: list[IntArray] = []
    power_idx: list[IntArray] = []
    other_idx: list[IntArray] = []
    measure_idx: list[IntArray] = []
    values: list[FloatArray] = []
    t_pp, a_pp, b_pp = np.meshgrid(np.arange(n_t), np.arange(n_p), np.arange(n_p), indexing="ij")
    off_diag = a_pp != b_pp
    upper = a_pp < b_pp
    t_p, a_p = np.meshgrid(np.arange(n_t), np.arange(n_p), indexing="ij")
    for m_i, name in enumerate(measures):
        kind = MEASURE_KINDS[name]
        data = gm.series(name)
        if kind == "position":
            phase_idx.append(np.arange(n_t))
            power_idx.append(np.full(n_t, -1))
            other_idx.append(np.full(n_t, -1))
            values.append(data)
        elif kind == "power":
            phase_idx.append(t_p.ravel())
            power_idx.append(a_p.ravel())
            other_idx.append(np.full(n_t * n_p, -1))
            values.append(data.ravel())
        else:
            mask = off_diag if kind == "table" else upper
            phase_idx.append(t_pp[mask])
            power_idx.append(a_pp[mask])
            other_idx.append(b_pp[mask])
            values.append(np.asarray(data)[mask])
        measure_idx.append(np.full(len(values[-1]), m_i))
    ph = np.concatenate(phase_idx)
    order = np.argsort(ph, kind="stable")
    # Categorical columns built from integer codes: no per-row Python objects (missing power = NaN).
    powers = list(gm.powers)
    if len(set(gm.phases)) == len(gm.phases):
        phase_col: Any = _categorical(ph[order], gm.phases)
    else:  # repeated phase names (hand-built positions): plain strings
        phase_col = np.array(gm.phases, dtype=object)[ph[order]]
    return pd.DataFrame(
        {
            "phase": phase_col,
            "power": _categorical(np.concatenate(power_idx)[order], powers),
            "measure": _categorical(np.concatenate(measure_idx)[order], measures),
            "other": _categorical(np.concatenate(other_idx)[order], powers),
            "value": np.concatenate(values).astype(np.float64)[order],
        }
    )


def measures_table(
    record: GameRecord | Sequence[Position] | GameMeasures,
    measures: Iterable[str] | None = None,
    map_name: str | None = None,
) -> pd.DataFrame:
    """The tidy table: columns ``phase, power, measure, other, value``, phase-major in record order.

    ``phase``, ``power``, ``measure`` and ``other`` are pandas categoricals (cheap to build and to filter:
    ``table[table.measure == "tempi"]``); a missing power or other is NaN in the frame and None in
    :func:`table_rows`.

    ``power`` is None for per-position measures; ``other`` names the second power of table and pair
    measures (None otherwise); ``value`` is NaN where a measure is undefined (e.g. ``incohesion_3`` of a
    power with 3 units).  ``measures`` restricts the measures (default: all of :data:`MEASURES`).
    """
    chosen = validate_measures(measures)
    gm = record if isinstance(record, GameMeasures) else compute_measures(record, map_name)
    return _blocks(gm, chosen)


def table_rows(table: pd.DataFrame) -> list[dict[str, object]]:
    """The tidy table as JSON-ready rows ``{"phase", "power", "measure", "other", "value"}``.

    Undefined values (NaN, and infinite distances) become None; everything else is a plain float.
    """
    values = table["value"].to_numpy(dtype=np.float64)
    finite = np.isfinite(values)

    def name(x: object) -> str | None:
        return x if isinstance(x, str) else None

    rows: list[dict[str, object]] = [
        {"phase": ph, "power": name(pw), "measure": m, "other": name(o), "value": float(v) if ok else None}
        for ph, pw, m, o, v, ok in zip(
            table["phase"].tolist(),
            table["power"].tolist(),
            table["measure"].tolist(),
            table["other"].tolist(),
            values.tolist(),
            finite.tolist(),
            strict=True,
        )
    ]
    if "game" in table.columns:
        rows = [{"game": g, **row} for g, row in zip(table["game"].tolist(), rows, strict=True)]
    return rows


def games_table(
    records: Sequence[GameRecord],
    measures: Iterable[str] | None = None,
    *,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """The tidy tables of many games stacked, with a leading ``game`` column (the record's id).

    Reports ``(done, total, game id)`` to ``progress`` after each game.  On Ctrl-C it stops and returns
    the finished games' rows, with ``table.attrs["interrupted"] = True``.
    """
    chosen = validate_measures(measures)
    parts: list[pd.DataFrame] = []
    interrupted = False
    try:
        for i, record in enumerate(records):
            part = measures_table(record, chosen)
            part.insert(0, "game", record.game_id)
            parts.append(part)
            report(progress, i + 1, len(records), record.game_id)
    except KeyboardInterrupt:
        interrupted = True
    if parts:
        table = pd.concat(parts, ignore_index=True)
        for column in ("phase", "power", "other", "measure"):
            table[column] = table[column].astype(object).where(table[column].notna(), None)
    else:
        table = pd.DataFrame(columns=["game", "phase", "power", "measure", "other", "value"])
    table.attrs["interrupted"] = interrupted
    return table
