"""Charts of the measures: time series (one line per power) and heatmaps of the pair tables.

Drawn with matplotlib's Agg backend (no display needed), as SVG text (:func:`chart_svg`), PNG bytes
(:func:`chart_png`) or a file (:func:`chart_measure`, SVG or PNG by the suffix).  Axis labels and units
come from the measure catalogue (:data:`boardeval.diplomacy.MEASURE_INFO`), as on the CLI and the web
page; power colours from :func:`boardeval.diplomacy.power_colour`.  matplotlib's global state is not
thread-safe: a server draws one chart at a time.
"""

from __future__ import annotations

import io
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
from boardeval.diplomacy._catalog import MEASURE_INFO, validate_measures
from boardeval.diplomacy._colours import POWER_COLOURS, power_colour

__all__ = [
    "POWER_COLOURS",
    "chart_figure",
    "chart_measure",
    "chart_png",
    "chart_svg",
    "power_colour",
    "save_chart",
    "series_figure",
    "table_figure",
]

MAX_PAIRS = 8
"""Pair charts show at most this many pairs (those with the highest peak values)."""
CHART_FORMATS = ("svg", "png")


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


def _pair_lines(ax: Axes, rows: pd.DataFrame, pos: dict[str, int], scale: float) -> int:
    """One line per pair that is ever non-zero, only the MAX_PAIRS with the highest peak (so the chart
    stays legible); returns how many pairs were non-zero."""
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
    return len(series)


PAST_100_NOTE = {
    "progress": "100% = one power on R centres (a win); the index goes past 100% after that",
}
"""What the 100% line of a per-cent measure means, written on the chart when the values pass 100."""


def _value_axis(ax: Axes, name: str, unit: str) -> None:
    """Readable y axis: ticks at round steps (1, 2, 2.5, 5 x 10^k); an axis of values that are never
    negative starts at 0 (not below, as matplotlib's margin would put it); a per-cent axis whose values
    pass 100 gets a dotted 100% line with a note on why the index can exceed 100."""
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    values = [v for line in ax.get_lines() for v in np.asarray(line.get_ydata(), dtype=float).ravel()]
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return
    low, high = min(finite), max(finite)
    if low >= 0:
        ax.set_ylim(bottom=0, top=high * 1.05 if high > 0 else 1.0)
    if unit == "%" and high > 100:
        ax.axhline(100, color="#555555", lw=1, ls=":")
        note = PAST_100_NOTE.get(name, "the index is not capped at 100%")
        ax.annotate(
            note,
            xy=(0.01, 100),
            xycoords=("axes fraction", "data"),
            xytext=(0, 4),
            textcoords="offset points",
            fontsize=8,
            color="#333333",
        )


def series_figure(table: pd.DataFrame, measure: str, title: str | None = None) -> Figure:
    """A time-series figure of one measure from a tidy table (:func:`measures_table`).

    Per-power measures: one line per power in its colour.  Per-position measures: one line.  Unordered
    pair measures (``fear_mutual``...): one line per pair that is ever non-zero, labelled ``A–B``.
    Ordered tables (``fear_dynamic``, ``stab_potential``, ``fear_static``) are drawn as heatmaps instead:
    use :func:`table_figure`.
    """
    info = MEASURE_INFO[validate_measures([measure])[0]]
    name, kind = info.name, info.kind
    if kind == "table":
        raise ParamsError(f"{name} is a power x power table: draw it as a heatmap (table_figure)")
    rows = table[table["measure"] == name]
    if rows.empty:
        raise ParamsError(f"the table has no rows for measure {name!r}")
    phases = _phases(table)
    pos = {p: i for i, p in enumerate(phases)}
    scale = info.scale
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
    elif _pair_lines(ax, rows, pos, scale) > MAX_PAIRS:
        title = title or f"{name.replace('_', ' ')} (the {MAX_PAIRS} pairs with the highest peaks)"
    ax.set_xlim(-0.5, len(phases) - 0.5)
    _value_axis(ax, name, info.unit)
    _ticks(ax, phases)
    ax.set_ylabel(info.caption)
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
    info = MEASURE_INFO[validate_measures([measure])[0]]
    name = info.name
    if info.kind not in ("table", "pair"):
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
        if info.kind == "pair":
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
    ax.set_xlabel(info.note)  # how to read it: "row fears column", ...
    ax.set_title(title or f"{name.replace('_', ' ')} at {chosen}")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig


def chart_figure(
    table: pd.DataFrame, measure: str, phase: str | None = None, title: str | None = None
) -> Figure:
    """The figure of one measure: a heatmap for ordered power x power tables, or for any pair measure
    when ``phase`` is given (default: the last phase), otherwise a time series."""
    name = validate_measures([measure])[0]
    if MEASURE_INFO[name].kind == "table" or phase is not None:
        return table_figure(table, name, phase, title)
    return series_figure(table, name, title)


def _render(fig: Figure, fmt: str) -> bytes:
    """The figure as SVG or PNG bytes; the figure is closed."""
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format=fmt, bbox_inches="tight")
    finally:
        plt.close(fig)
    return buffer.getvalue()


def chart_svg(table: pd.DataFrame, measure: str, phase: str | None = None, title: str | None = None) -> str:
    """One measure drawn as SVG text (see :func:`chart_figure` for which chart)."""
    return _render(chart_figure(table, measure, phase, title), "svg").decode("utf-8")


def chart_png(table: pd.DataFrame, measure: str, phase: str | None = None, title: str | None = None) -> bytes:
    """One measure drawn as PNG bytes (see :func:`chart_figure` for which chart)."""
    return _render(chart_figure(table, measure, phase, title), "png")


def save_chart(fig: Figure, out: str | os.PathLike[str]) -> Path:
    """Save a figure as SVG or PNG (by the suffix of ``out``) and close it; return the path."""
    path = Path(out)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in CHART_FORMATS:
        plt.close(fig)
        raise ParamsError(f"chart file {str(out)!r} must end in .svg or .png")
    if not path.parent.exists():
        plt.close(fig)
        raise ParamsError(f"chart file {str(out)!r}: folder {str(path.parent)!r} does not exist")
    path.write_bytes(_render(fig, fmt))
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
    return save_chart(chart_figure(table, measure, phase, title), out)
