"""Charts of the measures: time series (one line per power) and heatmaps of the pair tables.

Drawn with matplotlib's Agg backend (no display needed) to SVG or PNG, chosen by the file suffix.

Power colours follow the board's traditional ones, adjusted so every line reads on a white background::

    AUSTRIA  red          #c62828        ITALY    green        #2e7d32
    ENGLAND  navy         #1a237e        RUSSIA   grey-purple  #8e7cc3  (the board's white is invisible)
    FRANCE   light blue   #42a5f5        TURKEY   dark yellow  #e0b000  (pure yellow is unreadable)
    GERMANY  dark grey    #424242

Powers of other maps get matplotlib's ``tab10`` colours in power order.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from boardeval.core import ParamsError
from boardeval.diplomacy.measures import MEASURE_KINDS, validate_measures

__all__ = ["POWER_COLOURS", "chart_measure", "power_colour", "save_chart", "series_figure", "table_figure"]

POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#c62828",
    "ENGLAND": "#1a237e",
    "FRANCE": "#42a5f5",
    "GERMANY": "#424242",
    "ITALY": "#2e7d32",
    "RUSSIA": "#8e7cc3",
    "TURKEY": "#e0b000",
}

LABELS: dict[str, str] = {
    "progress": "game progress (%)",
    "progress_as_written": "game progress, seed's formula (%)",
    "progress_from_zero": "game progress from zero (%)",
    "personal_progress": "personal progress (%)",
}
MAX_PAIRS = 8
"""Pair charts show at most this many pairs (those with the highest peak values)."""
PERCENT = {"progress", "progress_as_written", "progress_from_zero", "personal_progress", "battle_tiedness"}


def power_colour(power: str, order: int = 0) -> str:
    """The chart colour of a power: the traditional one, else ``tab10`` by its index on the map."""
    if power in POWER_COLOURS:
        return POWER_COLOURS[power]
    cmap = matplotlib.colormaps["tab10"]
    r, g, b, _ = cmap(order % 10)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _phases(table: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(table["phase"].tolist()))


def _ticks(ax: Axes, phases: list[str]) -> None:
    """Label at most ~16 ticks, preferring spring movement phases (one per game year)."""
    marks = [i for i, p in enumerate(phases) if p.startswith("S") and p.endswith("M")]
    if not marks:
        marks = list(range(len(phases)))
    if len(marks) > 16:
        marks = marks[:: math.ceil(len(marks) / 16)]
    ax.set_xticks(marks)
    ax.set_xticklabels([phases[i] for i in marks], rotation=45, ha="right", fontsize=8)


def series_figure(table: pd.DataFrame, measure: str, title: str | None = None) -> Figure:
    """A time-series figure of one measure from a tidy table (:func:`measures_table`).

    Per-power measures: one line per power in its colour.  Per-position measures: one line.  Unordered
    pair measures (``fear_mutual``...): one line per pair that is ever non-zero, labelled ``A–B``.
    Ordered tables (``fear_dynamic``, ``stab_potential``, ``fear_static``) are drawn as heatmaps instead:
    use :func:`table_figure`.
    """
    name = validate_measures([measure])[0]
    kind = MEASURE_KINDS[name]
    if kind == "table":
        raise ParamsError(f"{name} is a power x power table: draw it as a heatmap (table_figure)")
    rows = table[table["measure"] == name]
    if rows.empty:
        raise ParamsError(f"the table has no rows for measure {name!r}")
    phases = _phases(table)
    pos = {p: i for i, p in enumerate(phases)}
    scale = 100.0 if name in PERCENT else 1.0
    fig, ax = plt.subplots(figsize=(10, 5.2), dpi=110)
    powers = list(dict.fromkeys(p for p in table["power"].tolist() if isinstance(p, str)))
    if kind == "position":
        xs = [pos[p] for p in rows["phase"]]
        ax.plot(xs, rows["value"].to_numpy(dtype=float) * scale, color="#333333", lw=2, label=name)
    elif kind == "power":
        for i, power in enumerate(powers):
            sel = rows[rows["power"] == power]
            xs = [pos[p] for p in sel["phase"]]
            ax.plot(
                xs,
                sel["value"].to_numpy(dtype=float) * scale,
                color=power_colour(power, i),
                lw=2,
                label=power.title(),
                marker="o",
                ms=2.5,
            )
    else:
        # One line per pair; only the MAX_PAIRS pairs with the highest peak, so the chart stays legible.
        series = []
        for (a, b), sel in rows.groupby(["power", "other"], sort=False, observed=True):
            values = sel["value"].to_numpy(dtype=float)
            peak = float(np.nanmax(np.abs(values), initial=0.0))
            if peak > 0:
                series.append((peak, str(a), str(b), [pos[p] for p in sel["phase"]], values))
        series.sort(key=lambda item: -item[0])
        cmap = matplotlib.colormaps["tab10"]
        for i, (_, a, b, xs, values) in enumerate(series[:MAX_PAIRS]):
            ax.plot(xs, values * scale, lw=1.8, color=cmap(i % 10), label=f"{a[:3].title()}–{b[:3].title()}")
        if len(series) > MAX_PAIRS:
            title = title or f"{name.replace('_', ' ')} (the {MAX_PAIRS} pairs with the highest peaks)"
    ax.set_xlim(-0.5, len(phases) - 0.5)
    _ticks(ax, phases)
    ax.set_ylabel(LABELS.get(name, name.replace("_", " ") + (" (%)" if name in PERCENT else "")))
    ax.set_title(title or name.replace("_", " "))
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def table_figure(
    table: pd.DataFrame, measure: str, phase: str | None = None, title: str | None = None
) -> Figure:
    """A heatmap of a power x power measure at one phase (default: the last), "row ... column"."""
    name = validate_measures([measure])[0]
    if MEASURE_KINDS[name] not in ("table", "pair"):
        raise ParamsError(f"{name} is not a power x power table: draw it as a time series (series_figure)")
    phases = _phases(table)
    if not phases:
        raise ParamsError("the table is empty")
    chosen = phase or phases[-1]
    if chosen not in phases:
        raise ParamsError(f"unknown phase {chosen!r}: the record has {phases[0]} .. {phases[-1]}")
    rows = table[(table["measure"] == name) & (table["phase"] == chosen)]
    if rows.empty:
        raise ParamsError(f"the table has no rows for measure {name!r} at phase {chosen!r}")
    powers = list(dict.fromkeys(p for p in table["power"].tolist() if isinstance(p, str)))
    idx = {p: i for i, p in enumerate(powers)}
    grid = np.full((len(powers), len(powers)), np.nan)
    for a, b, v in zip(rows["power"], rows["other"], rows["value"], strict=True):
        grid[idx[a], idx[b]] = v
        if MEASURE_KINDS[name] == "pair":
            grid[idx[b], idx[a]] = v
    size = 1.0 + 0.75 * len(powers)
    fig, ax = plt.subplots(figsize=(size + 1.5, size), dpi=110)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="Reds", vmin=0)
    ax.set_xticks(range(len(powers)))
    ax.set_yticks(range(len(powers)))
    ax.set_xticklabels([p.title() for p in powers], rotation=45, ha="right")
    ax.set_yticklabels([p.title() for p in powers])
    top = np.nanmax(grid) if np.isfinite(grid).any() else 0.0
    for i in range(len(powers)):
        for j in range(len(powers)):
            if np.isfinite(grid[i, j]):
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:g}",
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if top and grid[i, j] > 0.6 * top else "black",
                )
    reading = {
        "fear_static": "row fears column",
        "fear_dynamic": "row fears column",
        "stab_potential": "row can be stabbed by column",
    }.get(name, "")
    ax.set_xlabel(reading)
    ax.set_title(title or f"{name.replace('_', ' ')} at {chosen}")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig


def save_chart(fig: Figure, out: str | os.PathLike[str]) -> Path:
    """Save a figure as SVG or PNG (by the suffix of ``out``) and close it; return the path."""
    path = Path(out)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        plt.close(fig)
        raise ParamsError(f"chart file {str(out)!r} must end in .svg or .png")
    if not path.parent.exists():
        plt.close(fig)
        raise ParamsError(f"chart file {str(out)!r}: folder {str(path.parent)!r} does not exist")
    try:
        fig.savefig(path, format=fmt, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def chart_measure(
    table: pd.DataFrame,
    measure: str,
    out: str | os.PathLike[str],
    phase: str | None = None,
    title: str | None = None,
) -> Path:
    """Draw one measure to ``out`` (.svg/.png): a heatmap for ordered power x power tables (at ``phase``,
    default the last), otherwise a time series.  Returns the written path."""
    name = validate_measures([measure])[0]
    if MEASURE_KINDS[name] == "table" or phase is not None:
        return save_chart(table_figure(table, name, phase, title), out)
    return save_chart(series_figure(table, name, title), out)
