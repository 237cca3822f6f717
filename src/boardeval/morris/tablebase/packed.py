"""The tablebase packed for the compiled search: two flat arrays (issue 25 section 1).

The compiled search probes every covered node of its tree, so it reads the tables without Python: an
``index`` array (header, binomials, symmetries, the reduced rows of :mod:`.index`) and a ``data`` array (every
built sub-database's cells, one after the other). The layout is the search's ask, written down in
``boardeval.morris._search.endgame`` (constants ``P_*``); this module fills it from a built folder.

``data`` lives in a file beside the tables, ``packed-<digest>.bin`` (the digest is taken over the manifest's
checksums, so a rebuilt sub-database gets a new file), ``index`` in ``packed-<digest>.index.npy``: both are
written once, after every table's checksum was verified, and later processes read the index (~1 MB) and map
the data (copy-on-write ``mmap``: no read at start-up, the pages are shared
between processes through the page cache, so two match workers hold 67 MB (K = 5) or 825 MB (K = 6) once,
not twice). The file is written one table at a time, so packing never holds more than the largest table
(K <= 8 packs into 9.75 GB); only a folder that cannot be written to gets the data packed in memory.

**Cold pages and** :func:`prefetch_tablebase`. A probe of a page that is not in the page cache reads the
disk inside the search: on a cold cache (after a reboot, or once the kernel reclaimed an idle file) a
random probe of the K <= 7 file cost 1.08 ms against 1.7 us warm, both called from Python (each fault reads
~1 MB around it), and a 0.5 s search of a placing position whose tree reaches the 7-men tables went from
depth 15-16 (1.2-1.7 M nodes) to depth 8-9 (41-59 k nodes); the first game of a match on a cold cache ran
at 0.2-1.3 M nodes a second instead of 3-4 M (issue 25, twenty-first session; the twentieth session's
shallow first searches). :func:`prefetch_tablebase` asks the kernel to read the whole file ahead (8 MB
``POSIX_FADV_WILLNEED`` requests from a daemon thread: no copy, the GIL released): 3.6 GB resident 3.8 s
after a cold start, 0.045 s of requests when it already is. It is **not** called when the tables are
mapped: a search running beside the read-ahead waits behind it (the same 0.5 s search: depth 2, 138
nodes, 1.26 s), so it is for a process with time to spare before its first search (the web app once its
workers are up, ``morris play`` before the game's first turns, which probe none).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import mmap
import os
import threading
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core.files import write_atomic
from boardeval.morris._search.endgame import (
    P_BINOM,
    P_MASK,
    P_ROR,
    P_SLOTS,
    P_SOR,
    P_SUB,
    P_SYM,
    P_TABLES,
    PACK_FORMAT,
)
from boardeval.morris.tablebase.files import load_table, save_npy, sub_name
from boardeval.morris.tablebase.index import SYM_BYTES, binomials, prime_row_lists, rows

__all__ = ["PREFETCH_SHARE", "Packed", "pack", "prefetch_tablebase", "prime_rows"]

PREFETCH_SHARE = 0.75
"""The most :func:`prefetch_tablebase` reads ahead, as a share of the available memory: more would push
out other pages and not stay (K <= 9 packs into ~19 GB)."""

PREFETCH_STEP = 8 << 20
"""Bytes per read-ahead request: one request for a whole file read only its first 8 MB here (the kernel caps
a request), so a file is asked for in steps of this size."""

Packed = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]


def _index(entries: dict[tuple[int, int], tuple[int, int, int, int]]) -> npt.NDArray[np.int64]:
    """The ``index`` array: header with the sub-databases' (offset, columns, bits, width), then the tables."""
    parts: list[npt.NDArray[np.int64]] = []
    head = np.zeros(P_TABLES, dtype=np.int64)
    head[0] = PACK_FORMAT
    head[P_BINOM : P_BINOM + 625] = binomials().reshape(-1)
    head[P_SYM : P_SYM + 16 * 768] = SYM_BYTES.reshape(-1)
    at = P_TABLES
    for a in sorted({a for a, _b in entries}):
        r = rows(a)
        for slot, arr in ((P_ROR, r.row_of_rank), (P_SOR, r.sym_of_rank), (P_MASK, r.masks)):
            head[slot + a] = at
            parts.append(np.asarray(arr, dtype=np.int64))
            at += len(arr)
    for (a, b), (offset, cols, bits, width) in entries.items():
        at_sub = P_SUB + 4 * (P_SLOTS * a + b)
        head[at_sub : at_sub + 4] = (offset, cols, bits, width)
    return np.concatenate([head, *parts])


def _digest(manifest: dict[str, Any], keys: list[tuple[int, int]]) -> str:
    subs = manifest["subdatabases"]
    text = "".join(f"{sub_name(a, b)}:{subs[sub_name(a, b)]['sha256']};" for a, b in keys)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _map(path: Path, size: int) -> npt.NDArray[np.uint8] | None:
    """The file's bytes as a writable array over a private (copy-on-write) mapping; None if unusable."""
    try:
        if path.stat().st_size != size:
            return None
        with path.open("rb") as fh:
            mm = mmap.mmap(fh.fileno(), size, access=mmap.ACCESS_COPY)
    except (OSError, ValueError):
        return None
    return np.frombuffer(mm, dtype=np.uint8)


def available_memory() -> int:
    """``MemAvailable`` of ``/proc/meminfo`` in bytes (0 where it cannot be read)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def prefetch_tablebase(directory: Path) -> threading.Thread | None:
    """Ask the kernel to read a folder's packed tables into the page cache, in the background (see the
    module docstring: for a process with time to spare before its first search).

    Returns the started daemon thread, or None where nothing is asked: no packed file in the folder, no
    ``posix_fadvise`` (not Linux), or files larger than :data:`PREFETCH_SHARE` of the available memory."""
    try:
        files = [(p, p.stat().st_size) for p in sorted(Path(directory).glob("packed-*.bin"))]
    except OSError:
        return None
    total = sum(size for _p, size in files)
    if not files or not hasattr(os, "posix_fadvise") or total > PREFETCH_SHARE * available_memory():
        return None

    def run() -> None:
        for path, size in files:
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                for offset in range(0, size, PREFETCH_STEP):
                    os.posix_fadvise(fd, offset, PREFETCH_STEP, os.POSIX_FADV_WILLNEED)
            except OSError:
                pass  # a hint only: the probes read what they need
            finally:
                os.close(fd)

    thread = threading.Thread(target=run, name="tablebase-prefetch", daemon=True)
    thread.start()
    return thread


def pack(
    directory: Path, manifest: dict[str, Any], keys: list[tuple[int, int]]
) -> tuple[Packed, dict[tuple[int, int], npt.NDArray[np.integer[Any]]]]:
    """The packed form of the sub-databases ``keys`` of a built folder, and each table as a view into it.

    Reads (and checks) every table once, the first time; afterwards maps the packed file written then.
    """
    subs = manifest["subdatabases"]
    entries: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    shapes: dict[tuple[int, int], tuple[int, int, np.dtype[Any]]] = {}
    offset = 0
    for a, b in keys:
        entry = subs[sub_name(a, b)]
        dtype = np.dtype(entry["dtype"])
        cols = comb(24 - a, b)
        n_rows = _row_count(entry, a, cols)
        entries[(a, b)] = (offset, cols, int(entry["distance_bits"]), dtype.itemsize)
        shapes[(a, b)] = (n_rows, cols, dtype)
        offset += n_rows * cols * dtype.itemsize
        offset += (-offset) % 8  # every table aligned for its dtype's views
    size = max(offset, 1)
    path = directory / f"packed-{_digest(manifest, keys)}.bin"
    index_path = path.with_suffix(".index.npy")
    data = _map(path, size)
    if data is None:
        tables = [(entries[key][0], subs[sub_name(*key)]) for key in keys]
        try:  # one table at a time into the file, then mapped: never the whole packed data in memory
            write_atomic(path, functools.partial(_write_packed, directory, tables, size))
        except OSError:
            pass
        else:
            data = _map(path, size)
            with contextlib.suppress(OSError):
                for old in directory.glob("packed-*"):
                    if old.name.split(".")[0] != path.name.split(".")[0]:
                        old.unlink(missing_ok=True)
        if data is None:  # a read-only folder: the packed data in memory
            data = np.zeros(size, dtype=np.uint8)
            for at, entry in tables:
                raw = _raw(directory, entry)
                data[at : at + raw.size] = raw
    index = _read_index(index_path)
    if index is None:
        index = _index(entries)  # the reduced rows of up to 8 men (~3 s of CPU for K = 8), once
        with contextlib.suppress(OSError):  # a read-only folder: the index is computed again next time
            write_atomic(index_path, lambda tmp: save_npy(tmp, index))
    views: dict[tuple[int, int], npt.NDArray[np.integer[Any]]] = {}
    for key, (n_rows, cols, dtype) in shapes.items():
        at = entries[key][0]
        views[key] = data[at : at + n_rows * cols * dtype.itemsize].view(dtype).reshape(n_rows, cols)
    return (index, data), views


def _raw(directory: Path, entry: dict[str, Any]) -> npt.NDArray[np.uint8]:
    """One table's cells as bytes, its checksum verified."""
    return np.ascontiguousarray(load_table(directory, entry)).view(np.uint8).reshape(-1)


def _write_packed(directory: Path, tables: list[tuple[int, dict[str, Any]]], size: int, tmp: Path) -> None:
    """The packed data file: each table's bytes at its offset, zeros between (alignment), ``size`` bytes."""
    with tmp.open("wb") as fh:
        for at, entry in tables:
            fh.seek(at)
            fh.write(_raw(directory, entry).data)
        fh.truncate(size)


def _row_count(entry: dict[str, Any], a: int, cols: int) -> int:
    """The stored rows of a sub-database with ``a`` men to move: its manifest's ``stored_slots`` (rows x
    columns, written by the build) divided by ``cols``; else counted from the reduced rows, which costs
    ~0.15 s of CPU per process (issue 25 section 3: the first answer's start-up)."""
    slots = entry.get("stored_slots")
    if isinstance(slots, int) and slots > 0 and slots % cols == 0:
        return slots // cols
    return len(rows(a).masks)


def _read_index(path: Path) -> npt.NDArray[np.int64] | None:
    """The ``index`` array written beside the packed data by an earlier process, None if unusable."""
    try:
        index = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if index.dtype != np.int64 or index.ndim != 1 or len(index) <= P_TABLES or index[0] != PACK_FORMAT:
        return None
    return index


def prime_rows(index: npt.NDArray[np.int64]) -> list[int]:
    """Hand the packed index's reduced rows to the Python probes (:func:`.index.prime_row_lists`), so a
    first probe of a 7-men table does not compute them inside a move's time (~1 s; issue 25, twentieth
    session). Returns the men counts handed over."""
    starts = sorted(int(index[P_ROR + a]) for a in range(P_SLOTS) if index[P_ROR + a] > 0)
    done = []
    for a in range(P_SLOTS):
        ror, sor, masks = (int(index[slot + a]) for slot in (P_ROR, P_SOR, P_MASK))
        if ror == 0:
            continue
        n = comb(24, a)
        end = min((s for s in starts if s > masks), default=len(index))
        prime_row_lists(a, index[ror : ror + n], index[sor : sor + n], index[masks:end])
        done.append(a)
    return done
