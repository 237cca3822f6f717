"""Building the tablebase: sub-databases in dependency order, each solved, checked and stored at once.

:func:`build_tablebase` builds every sub-database with 3 <= a, b <= K that is not built yet, group by group
(:func:`subdatabase_pairs`: a pair ``{(a, b), (b, a)}`` is solved together, after the smaller sub-databases
its captures lead into). :func:`solve_pair` drives the compiled retrograde analysis of :mod:`.retrograde`
in chunks (progress between them, Ctrl-C through); each finished sub-database is written with its manifest
entry (:mod:`.files`), so an interrupted build keeps everything finished so far usable.

Usage::

    build_tablebase(4, progress=cb)            # 3v3, 4v3 + 3v4, 4v4 (built in that order)
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core import JobsInterrupted, ParamsError, Progress, map_jobs, report
from boardeval.core.files import write_atomic
from boardeval.morris.board import N_POINTS
from boardeval.morris.tablebase.files import (
    MANIFEST,
    MAX_MEN,
    TablebaseError,
    decoded,
    default_tablebase_dir,
    encode,
    file_sha256,
    read_manifest,
    save_npy,
    sub_name,
)
from boardeval.morris.tablebase.index import combos, rows

__all__ = ["BuildReport", "Solved", "build_tablebase", "solve_pair", "subdatabase_pairs"]


def subdatabase_pairs(max_men: int) -> list[list[tuple[int, int]]]:
    """The sub-databases up to ``max_men`` grouped in build order.

    Each group is a pair ``[(a, b), (b, a)]`` (or ``[(a, a)]``); groups come by total men ascending, so
    every capture target ``(b - 1, a)`` is built before the group that needs it.
    """
    if not isinstance(max_men, int) or isinstance(max_men, bool) or not 3 <= max_men <= MAX_MEN:
        raise ParamsError(f"--max-men must be an integer 3..{MAX_MEN}, got {max_men!r}")
    groups = []
    for total in range(6, 2 * max_men + 1):
        for a in range(max_men, 2, -1):
            b = total - a
            if 3 <= b <= a:
                groups.append([(a, b)] if a == b else [(a, b), (b, a)])
    return groups


@dataclass
class BuildReport:
    """What a build did: sub-databases built now, found already built (``adopted``: of these, the ones a
    killed build had finished but not yet recorded), and whether Ctrl-C stopped it."""

    directory: Path
    built: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    adopted: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


@cache
def _tables(max_k: int = MAX_MEN) -> tuple[npt.NDArray[Any], ...]:
    """The lookup tables the compiled kernels read, in the order of ``retrograde``'s ``tabs`` indices, with
    rows for men counts 0..``max_k`` (a group reads no larger count: the reduced rows of 9 men take ~2 s,
    which a build of K <= 4 need not pay)."""
    from boardeval.morris.board import ADJ_MASK, MILL_MASKS, POINT_MILL_MASKS
    from boardeval.morris.tablebase.index import SYM_BYTES, SYMMETRIES, binomials

    binom = binomials()
    ks = range(max_k + 1)
    width = max(len(combos(k)) for k in ks)
    n_rows = max(len(rows(k).masks) for k in range(3, max_k + 1))
    by_k = np.zeros((max_k + 1, width), dtype=np.int64)
    row_of = np.zeros((max_k + 1, width), dtype=np.int32)
    sym_of = np.zeros((max_k + 1, width), dtype=np.int8)
    masks = np.zeros((max_k + 1, n_rows), dtype=np.int64)
    stab = np.zeros((max_k + 1, n_rows, 16), dtype=np.int8)
    stab_n = np.ones((max_k + 1, n_rows), dtype=np.int8)
    for k in ks:
        by_k[k, : len(combos(k))] = combos(k)
        if k < 3:
            continue
        r = rows(k)
        row_of[k, : len(r.row_of_rank)] = r.row_of_rank
        sym_of[k, : len(r.sym_of_rank)] = r.sym_of_rank
        masks[k, : len(r.masks)] = r.masks
        for i, st in enumerate(r.stabilisers):
            stab[k, i, : len(st)] = st
            stab_n[k, i] = len(st)
    rank_t = np.zeros((3, 17, 256), dtype=np.int64)
    for byte in range(3):
        for below in range(17):
            for v in range(256):
                bits = [8 * byte + q for q in range(8) if v >> q & 1]
                if below + len(bits) <= N_POINTS:
                    rank_t[byte, below, v] = sum(comb(p, below + j + 1) for j, p in enumerate(bits))
    pc8 = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
    comp = np.array(
        [[SYMMETRIES.index(tuple(h[g[p]] for p in range(N_POINTS))) for g in SYMMETRIES] for h in SYMMETRIES],
        dtype=np.int8,
    )
    return (
        rank_t, pc8, row_of, sym_of, masks, stab, stab_n, comp, SYM_BYTES, binom,
        np.array(ADJ_MASK, dtype=np.int64), np.array(POINT_MILL_MASKS, dtype=np.int64),
        np.array(MILL_MASKS, dtype=np.int64), by_k,
    )  # fmt: skip


@dataclass
class Solved:
    """One solved sub-database: the reduced table (-1 draw, else distance) and each cell's stabiliser order.

    ``stab`` is 0 on non-canonical cells (duplicates of a class stored in the same row).
    """

    key: tuple[int, int]
    table: npt.NDArray[np.int16]
    stab: npt.NDArray[np.uint8]


def capture_schedule(
    levels: npt.NDArray[np.int16], cell_type: Any
) -> tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.int64]]:
    """The cells scheduled at each level (``levels[i] > 0``), in cell order: level v is
    ``cells[bounds[v]:bounds[v + 1]]`` (a compiled counting sort: no argsort indices at the solver's peak)."""
    import boardeval.morris.tablebase.retrograde as nb

    counts = nb.level_counts(levels)
    bounds = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    cells: npt.NDArray[np.integer[Any]] = np.empty(int(bounds[-1]), dtype=cell_type)
    nb.schedule_cells(levels, bounds, cells)
    return cells, bounds


def _group_name(group: list[tuple[int, int]]) -> str:
    """A group's name in progress lines and record files: ``"9v5+5v9"``, ``"7v7"``."""
    return "+".join(sub_name(*k) for k in group)


def _write_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    write_atomic(directory / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())


def solve_pair(
    group: list[tuple[int, int]],
    directory: Path,
    manifest: dict[str, Any],
    progress: Progress | None = None,
    done_before: int = 0,
    total: int = 0,
) -> list[Solved]:
    """Solve one group (see :func:`subdatabase_pairs`) over symmetry classes.

    Capture targets are read from ``directory`` (their entries in ``manifest``). Ctrl-C between compiled
    chunks raises KeyboardInterrupt; nothing is written here.
    """
    import boardeval.morris.tablebase.retrograde as nb

    tabs = _tables(max(max(key) for key in group))
    shapes = [(len(rows(a).masks), comb(N_POINTS - a, b)) for a, b in group]
    sizes = [r * c for r, c in shapes]
    n_total = sum(sizes)
    offsets = [0, sizes[0]]
    dist = np.full(n_total, -1, dtype=np.int16)
    counter = np.zeros(n_total, dtype=np.uint16)
    stab = np.zeros(n_total, dtype=np.uint8)
    capw = np.zeros(n_total, dtype=np.int16)
    capb = np.full(n_total, -1, dtype=np.int16)
    label = _group_name(group)
    done = done_before
    report(progress, done, total, f"{label}: starting (the first build compiles the solver, ~20 s)")
    for m, (a, b) in enumerate(group):
        target = (b - 1, a)
        if b - 1 >= 3:
            entry = manifest["subdatabases"].get(sub_name(*target))
            if entry is None:
                raise TablebaseError(f"sub-database {sub_name(*target)} must be built before {label}")
            cap_table = decoded(directory, entry)
        else:
            cap_table = np.zeros((1, 1), dtype=np.int16)
        n_rows, ncol = shapes[m]
        chunk = max(1, 100_000 // ncol)
        for start in range(0, n_rows, chunk):
            end = min(n_rows, start + chunk)
            nb.init_rows(a, b, start, end, offsets[m], tabs, cap_table, dist, counter, stab, capw, capb)
            done += (end - start) * ncol
            report(progress, done, total, f"{label}: scanning turns")

    # cell numbers as 4-byte integers while they fit (every pair up to 8v7 + 7v8, 1.08 billion cells): the
    # frontier holds one slot per cell, so this is 4 of the ~9 bytes a cell the solver holds at its peak
    cell_type = np.int32 if n_total < 2**31 else np.int64

    def at(level: int, cells: npt.NDArray[np.integer[Any]], bounds: npt.NDArray[np.int64]) -> Any:
        return cells[bounds[level] : bounds[level + 1]] if level + 1 < len(bounds) else cells[:0]

    win_idx, win_b = capture_schedule(capw, cell_type)
    del capw
    blk_idx, blk_b = capture_schedule(capb, cell_type)
    del capb
    last = max(len(win_b), len(blk_b)) - 2  # the highest scheduled level (counts has max + 1 entries)
    frontier: npt.NDArray[np.integer[Any]] = np.empty(n_total, dtype=cell_type)
    zeros = np.flatnonzero(dist == 0)
    frontier[: len(zeros)] = zeros
    fill = len(zeros)
    start = 0
    level = 0
    a0, b0 = group[0]
    two = len(group) == 2
    while True:
        if level % 2 == 1:
            fill = nb.apply_scheduled_wins(level, at(level, win_idx, win_b), dist, frontier, fill)
        elif level > 0:
            fill = nb.apply_block_releases(level, at(level, blk_idx, blk_b), dist, counter, frontier, fill)
        end = fill
        if start == end and level > last:
            break
        step = 200_000
        for s0 in range(start, end, step):
            fill = nb.process_level(
                level, s0, min(end, s0 + step), fill, a0, b0, offsets[1] if two else n_total, two, tabs,
                dist, counter, stab, frontier,
            )  # fmt: skip
            report(progress, done, total, f"{label}: level {level}, {fill:,} classes decided")
        start = end
        level += 1
    del counter, frontier, win_idx, blk_idx
    out = []
    for key, off, size, shape in zip(group, offsets, sizes, shapes, strict=False):
        table = dist[off : off + size].reshape(shape)  # views: no copy of the pair's cells
        nb.fill_duplicates(key[0], key[1], table, tabs)
        out.append(Solved(key, table, stab[off : off + size].reshape(shape)))
    return out


def _store(directory: Path, solved: Solved, seconds: float) -> dict[str, Any]:
    """Write the table of one sub-database; return its manifest entry (with stats over all positions)."""
    a, b = solved.key
    full = solved.table
    code, shift = encode(full)
    name = sub_name(a, b)
    path = directory / f"{name}.npy"
    write_atomic(path, functools.partial(save_npy, array=code))
    dtype = str(code.dtype)
    del code
    stats = _stats(full, solved.stab)
    positions = stats["positions"]
    if positions != comb(N_POINTS, a) * comb(N_POINTS - a, b):
        raise TablebaseError(f"{name}: orbit sizes add up to {positions}, not to every position")
    return {
        "mover_men": a,
        "opponent_men": b,
        "file": path.name,
        "positions": positions,
        "symmetry_classes": stats["symmetry_classes"],
        "stored_slots": int(full.size),
        **{k: v for k, v in stats.items() if k not in ("positions", "symmetry_classes")},
        "dtype": dtype,
        "distance_bits": shift,
        "bytes": path.stat().st_size,
        "sha256": file_sha256(path),
        "build_seconds": round(seconds, 3),
        "built_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


def _stats(full: npt.NDArray[np.int16], stab: npt.NDArray[np.uint8]) -> dict[str, int]:
    """A solved table's counts over all positions (each class weighted by its orbit size, ``16 / |stab|``)
    and over classes, a block of rows at a time: whole-table temporaries cost ~20 bytes a cell, more than
    the solver itself holds for the largest pairs."""
    names = ("positions", "symmetry_classes", "wins", "losses", "draws", "classes_won", "classes_lost",
             "classes_drawn", "longest_win", "longest_loss")  # fmt: skip
    out = dict.fromkeys(names, 0)
    step = max(1, (1 << 24) // max(1, full.shape[1]))
    for r0 in range(0, full.shape[0], step):
        d = full[r0 : r0 + step]
        live = stab[r0 : r0 + step] > 0
        weight = np.where(live, 16 // np.maximum(stab[r0 : r0 + step], 1), 0).astype(np.int64)
        wins = live & (d > 0) & (d % 2 == 1)
        losses = live & (d >= 0) & (d % 2 == 0)
        draws = live & (d == -1)
        out["positions"] += int(weight.sum())
        out["symmetry_classes"] += int(live.sum())
        for total, classes, mask in (("wins", "classes_won", wins), ("losses", "classes_lost", losses),
                                     ("draws", "classes_drawn", draws)):  # fmt: skip
            out[total] += int(weight[mask].sum())
            out[classes] += int(mask.sum())
        out["longest_win"] = max(out["longest_win"], int(d[wins].max(initial=0)))
        out["longest_loss"] = max(out["longest_loss"], int(d[losses].max(initial=0)))
    return out


FINISHED_SUFFIX = ".finished.json"
"""A group solved by a pool worker leaves ``<names>.finished.json`` (its manifest entries) beside its tables:
the manifest is the parent's to write, and the parent records a side-by-side batch only when all of it is
done, so a build killed meanwhile (a closed terminal, an ended session: no Ctrl-C to catch) lost the groups
that had finished (in K = 9's batch of 14 men, 9v5 + 5v9 was done 14 minutes before the batch). The next
build adopts each such file whose tables match its checksums (:func:`_adopt_finished`)."""


def _build_group_job(job: tuple[list[tuple[int, int]], str]) -> list[dict[str, Any]]:
    """Process-pool job: solve and store one group (reads the manifest for its capture targets)."""
    group, folder = job
    directory = Path(folder)
    t0 = time.perf_counter()
    solved = solve_pair(group, directory, read_manifest(directory))
    seconds = time.perf_counter() - t0
    entries = [_store(directory, s, seconds) for s in solved]
    record = (json.dumps(entries, indent=2) + "\n").encode()
    write_atomic(directory / f"{_group_name(group)}{FINISHED_SUFFIX}", record)
    return entries


def _forget_finished(directory: Path, groups: Iterable[list[tuple[int, int]]]) -> None:
    """Remove the groups' ``*.finished.json`` files once the manifest holds their entries."""
    for group in groups:
        (directory / f"{_group_name(group)}{FINISHED_SUFFIX}").unlink(missing_ok=True)


def _adopt_finished(directory: Path, manifest: dict[str, Any]) -> list[str]:
    """Add the entries of every ``*.finished.json`` whose tables are intact to ``manifest`` (the caller
    writes it) and remove those files; a file whose tables are missing or changed is removed unadopted (its
    group is built again). Returns the sub-databases adopted."""
    adopted = []
    for record_path in sorted(directory.glob(f"*{FINISHED_SUFFIX}")):
        try:
            entries = json.loads(record_path.read_text(encoding="utf-8"))
            intact = all(file_sha256(directory / e["file"]) == e["sha256"] for e in entries)
        except (OSError, ValueError, KeyError, TypeError):
            intact = False
        if intact:
            for entry in entries:
                name = sub_name(entry["mover_men"], entry["opponent_men"])
                manifest["subdatabases"][name] = entry
                adopted.append(name)
        record_path.unlink(missing_ok=True)
    return adopted


def _side_by_side(progress: Progress | None, done: int, total: int, names: str, finished: int, count: int,
                  _label: str) -> None:  # fmt: skip
    """The progress of groups solved side by side (the pool's count of finished jobs)."""
    report(progress, done, total, f"{names} side by side: {finished} of {count} finished")


def build_tablebase(
    max_men: int,
    directory: str | Path | None = None,
    *,
    progress: Progress | None = None,
    workers: int = 1,
    force: bool = False,
) -> BuildReport:
    """Build every sub-database with 3 <= a, b <= ``max_men`` that is not built yet (all with ``force``).

    Groups are built in order (:func:`subdatabase_pairs`); with ``workers=2`` groups of the same total men
    run side by side (``boardeval.core.map_jobs``). Each finished sub-database is written with its manifest
    entry at once, so Ctrl-C (reported as ``interrupted``) keeps everything finished so far usable.
    """
    groups = subdatabase_pairs(max_men)
    if not isinstance(workers, int) or workers < 1:
        raise ParamsError(f"workers must be a positive integer, got {workers!r}")
    path = Path(directory) if directory is not None else default_tablebase_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TablebaseError(f"cannot create tablebase folder {str(path)!r}: {exc}") from None
    manifest = read_manifest(path)
    result = BuildReport(path)
    if force:
        manifest["subdatabases"] = {}
        for stale in path.glob(f"*{FINISHED_SUFFIX}"):
            stale.unlink()
    else:
        result.adopted = _adopt_finished(path, manifest)
        if result.adopted:
            _write_manifest(path, manifest)
    t0 = time.perf_counter()
    todo = []
    for group in groups:
        if all(
            sub_name(*k) in manifest["subdatabases"] and (path / f"{sub_name(*k)}.npy").is_file()
            for k in group
        ):
            result.skipped.extend(sub_name(*k) for k in group)
        else:
            todo.append(group)
    total = sum(len(rows(a).masks) * comb(N_POINTS - a, b) for g in todo for a, b in g)
    done = 0

    def record(entries: Iterable[dict[str, Any]]) -> None:
        for entry in entries:
            name = sub_name(entry["mover_men"], entry["opponent_men"])
            manifest["subdatabases"][name] = entry
            result.built.append(name)
        manifest["built_at"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        _write_manifest(path, manifest)

    try:
        by_total: dict[int, list[list[tuple[int, int]]]] = {}
        for group in todo:
            by_total.setdefault(sum(group[0]), []).append(group)
        for total_men in sorted(by_total):
            batch = by_total[total_men]
            if workers > 1 and len(batch) > 1:
                # the workers report nothing while they solve: say which groups run and how many ended
                names = ", ".join(_group_name(g) for g in batch)
                side_by_side = functools.partial(_side_by_side, progress, done, total, names)
                side_by_side(0, len(batch), "")
                try:
                    jobs = [(g, str(path)) for g in batch]
                    results = map_jobs(_build_group_job, jobs, workers=workers, progress=side_by_side)
                except JobsInterrupted as exc:  # keep the groups that finished
                    for entries in exc.done.values():
                        record(entries)
                    _forget_finished(path, batch)
                    raise
                stored = [entry for entries in results for entry in entries]
                record(stored)  # the whole batch before a report (a Ctrl-C there keeps every group)
                _forget_finished(path, batch)
                # cells, the unit of ``total`` and of the serial path (an entry's "positions" counts every
                # symmetric copy, up to 16 a cell: a K = 9 build reported 21,469,763,488 of 9,193,626,407)
                done += sum(e["stored_slots"] for e in stored)
                report(progress, done, total, "+".join(result.built[-len(stored) :]))
                continue
            for group in batch:
                g0 = time.perf_counter()
                solved = solve_pair(group, path, manifest, progress, done, total)
                seconds = time.perf_counter() - g0
                record(_store(path, s, seconds) for s in solved)
                done += sum(s.table.size for s in solved)
                report(progress, done, total, f"{_group_name(group)} stored")
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - t0
    return result
