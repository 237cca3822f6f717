"""Building the opening book: the first plies' positions, each searched to a fixed depth, in parallel.

:func:`book_positions` lists the canonical positions of the first ``len(depths)`` plies from the start
(every turn of both sides, one position per symmetry class: 1, 4, 46, 428, 4,200 classes at plies 0..4).
:func:`build_book` searches ply ``i``'s positions to depth ``depths[i]`` with the compiled search (fixed
depth, no clock: the result does not depend on the machine or its load, so one command reproduces the
file), one job per position through :func:`boardeval.core.map_jobs` (a local process pool, or a Dask
cluster with ``address``). Every finished position is written to a checkpoint folder at once (by the
worker that searched it), so an interrupted or killed build resumes where it stopped: the next run with
the same settings skips the positions already searched. Ctrl-C keeps the finished ones and says so.

A checkpoint is keyed by its position, its depth and :func:`search_key` (the weights' values, the engine
options and the search's source code): after a change of the evaluation or the engine, a resumed build
searches again instead of silently reusing entries of the old search, and says how many it passed over.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boardeval.core import JobsInterrupted, ParamsError, Progress, map_jobs
from boardeval.core.files import write_atomic
from boardeval.morris.book.store import SEARCH_KEY, Book, BookEntry, BookError, canonical_text
from boardeval.morris.rules import Position, Turn

__all__ = ["BookBuild", "BookJob", "book_positions", "build_book", "search_position"]

MAX_DEPTH = 40
"""Deepest search a book position may ask for (depth 20 from the start takes ~100 s of one core, and each
further ply ~2-3x more)."""


def book_positions(plies: int) -> list[list[str]]:
    """The canonical position texts of plies 0..plies-1 from the start, one list per ply (sorted)."""
    level = {canonical_text(Position.start())[0]: Position.start()}
    out = [sorted(level)]
    for _ in range(1, plies):
        nxt: dict[str, Position] = {}
        for pos in level.values():
            for turn in pos.legal_turns():
                child = pos.copy()
                child.push(turn)
                key, _g = canonical_text(child)
                if key not in nxt:
                    nxt[key] = Position.parse(key)
        level = nxt
        out.append(sorted(level))
    return out


@dataclass(frozen=True)
class BookJob:
    """One book position to search: its canonical text, the depth, the weight profile, a checkpoint folder."""

    text: str
    depth: int
    profile: str
    checkpoint: str | None = None
    key: str = ""
    """The builder's :func:`search_key` (a worker running other code refuses the job)."""


@cache
def search_key(profile: str) -> str:
    """What a book entry depends on besides its position and depth, as a short digest: the weights'
    values (not the profile's name: an edited profile is another search), the engine options of
    :func:`search_position`, and the search's code -- the compiled sources' digest (which covers the
    evaluation's phase and norm tables and the features) plus the engine driver, its options and the
    ``Searcher``."""
    from boardeval.morris._evaluate import load_weights
    from boardeval.morris._search import searcher
    from boardeval.morris._search.compiled import engine, options
    from boardeval.morris._search.compiled.sources import digest

    what = {
        "weights": {k: float(v) for k, v in sorted(load_weights(profile).items())},
        "options": asdict(options.EngineOptions(threads=1)),
    }
    code = b"".join(Path(m.__file__ or "").read_bytes() for m in (engine, options, searcher))
    return digest(json.dumps(what, sort_keys=True).encode() + code)[:16]


SEARCH_KEY.append(search_key)  # Book.stale() asks the store's hook (the store does not import the search)


def _checkpoint_file(folder: Path, text: str, depth: int, key: str) -> Path:
    return folder / (hashlib.sha256(f"{text}|{depth}|{key}".encode()).hexdigest()[:24] + ".json")


def _stale_checkpoints(folder: Path, wanted: set[tuple[str, int]], key: str) -> int:
    """Checkpoints in ``folder`` of a wanted (position, depth) searched by another :func:`search_key`
    (or written before checkpoints carried one): the build does not use them."""
    stale = 0
    for path in folder.glob("*.json"):
        try:
            row = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(row, dict) or row.get("key") == key:
            continue
        # the depth asked for (a forced result may stop a search short of it; older rows lack "asked")
        if (row.get("text"), row.get("asked", row.get("depth"))) in wanted:
            stale += 1
    return stale


def search_position(job: BookJob) -> dict[str, Any]:
    """Search one book position to its fixed depth (a fresh engine, every default technique, one thread,
    no tablebase: nothing of the machine's) and return the entry as a dict; the checkpoint is written
    first when a folder is given (a killed build keeps it)."""
    from boardeval.morris._evaluate import Evaluator, load_weights
    from boardeval.morris._search.compiled.options import EngineOptions
    from boardeval.morris._search.searcher import Searcher

    if job.key and search_key(job.profile) != job.key:
        raise BookError(
            f"book position {job.text!r}: this worker's search (weights, engine options or code) is not the "
            "builder's; run the build with the same boardeval on every worker"
        )
    pos = Position.parse(job.text)
    cpu = time.process_time()
    searcher = Searcher(Evaluator(load_weights(job.profile)), options=EngineOptions(threads=1))
    res = searcher.compiled().search(pos, depth=job.depth)
    assert res.move is not None
    row = {
        "text": job.text,
        "move": str(res.move),
        "depth": res.depth,
        "score": res.score,
        "nodes": res.nodes,
        "pv": [str(t) for t in res.pv[:12]],
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "asked": job.depth,
        "key": job.key,
    }
    if job.checkpoint is not None:
        folder = Path(job.checkpoint)
        path = _checkpoint_file(folder, job.text, job.depth, job.key)
        write_atomic(path, json.dumps(row).encode())
    return row


@dataclass
class BookBuild:
    """What a build did: positions searched now, taken from checkpoints, in all; interrupted or not."""

    book: Book
    searched: int
    resumed: int
    total: int
    interrupted: bool
    seconds: float
    cpu_seconds: float
    stale: int = 0
    """Checkpoints of these positions and depths from another search (weights or engine changed), unused."""


def _check_depths(depths: Sequence[int]) -> list[int]:
    out = list(depths)
    if not out or len(out) > 5:
        raise ParamsError(f"--depths needs 1..5 depths (one per ply from the start), got {len(out)}")
    for d in out:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DEPTH:
            raise ParamsError(f"a book depth must be an integer in 1..{MAX_DEPTH}, got {d!r}")
    return out


def build_book(
    depths: Sequence[int],
    *,
    profile: str = "base",
    checkpoint: str | Path | None = None,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    command: str = "",
) -> BookBuild:
    """Search the first ``len(depths)`` plies (ply ``i`` to depth ``depths[i]``) and return the book.

    ``checkpoint``: a folder for the finished positions (created; a rerun resumes from it). The deepest
    plies go first (they take longest, so the pool's last jobs are short)."""
    depths = _check_depths(depths)
    start = time.perf_counter()
    folder = Path(checkpoint) if checkpoint is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    levels = book_positions(len(depths))
    key = search_key(profile)
    rows: dict[str, dict[str, Any]] = {}
    jobs: list[BookJob] = []
    for ply, texts in enumerate(levels):
        for text in texts:
            path = None if folder is None else _checkpoint_file(folder, text, depths[ply], key)
            if path is not None and path.is_file():
                try:
                    rows[text] = json.loads(path.read_text(encoding="utf-8"))
                    continue
                except ValueError:
                    path.unlink()  # a torn checkpoint: search it again
            jobs.append(BookJob(text, depths[ply], profile, None if folder is None else str(folder), key))
    resumed = len(rows)
    stale = 0 if folder is None else _stale_checkpoints(folder, {(j.text, j.depth) for j in jobs}, key)
    jobs.sort(key=lambda j: (-j.depth, -j.text.count(".")))
    interrupted = False
    try:
        done = map_jobs(
            search_position, jobs, workers=workers, address=address, progress=progress, label="book"
        )
    except JobsInterrupted as exc:
        done = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    for row in done:
        rows[row["text"]] = row
    entries = {
        text: BookEntry(
            Turn.parse(r["move"]), int(r["depth"]), round(float(r["score"]), 4), int(r["nodes"]),
            tuple(Turn.parse(t) for t in r["pv"]),
        )
        for text, r in rows.items()
    }  # fmt: skip
    cpu = round(sum(float(r.get("cpu_seconds", 0.0)) for r in rows.values()), 1)
    from boardeval.morris._search.compiled.options import EngineOptions

    meta = {
        "rules": "standard",
        "command": command or f"boardeval morris book build --depths {','.join(map(str, depths))}",
        "depths": depths,
        "weights": profile,
        "options": {k: v for k, v in asdict(EngineOptions(threads=1)).items()},
        "search_key": key,  # the checkpoints' key: a player tells a book of another search (Book.stale)
        "positions": sum(len(t) for t in levels),
        "complete": not interrupted and len(entries) == sum(len(t) for t in levels),
        "cpu_seconds": cpu,
    }
    book = Book(entries, meta)
    return BookBuild(
        book,
        len(done),
        resumed,
        sum(len(t) for t in levels),
        interrupted,
        time.perf_counter() - start,
        cpu,
        stale,
    )
