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
options and the search's source code, comments and docstrings left out): after a change of the evaluation
or the engine, a resumed build searches again instead of silently reusing entries of the old search, and
says how many it passed over.
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
from boardeval.morris._evaluate import MATE_BOUND
from boardeval.morris._search.opening import OUTCOMES
from boardeval.morris.board import MEN_PER_SIDE
from boardeval.morris.book.store import IS_CURRENT, Book, BookEntry, BookError, canonical_text
from boardeval.morris.rules import Position, Turn
from boardeval.morris.tablebase.probe import Tablebase

__all__ = [
    "BookBuild",
    "BookJob",
    "back_up",
    "book_line",
    "book_positions",
    "build_book",
    "check_line",
    "code_text",
    "file_digest",
    "full_tables",
    "is_current",
    "proven_value",
    "search_key",
    "search_position",
]

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


def book_line(ply: int, rows: dict[str, dict[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    """The positions of ply ``ply`` on the book's own lines for the side to move there: that side plays
    the book's move (``rows[text]["move"]``, canonical frame) at each of its turns, the other side any
    legal turn. Returns the canonical texts of ply ``ply - 1`` (the other side to move; each mapped to a
    position it came from) and of ply ``ply`` (each mapped to a parent at ``ply - 1``). A book whose side
    plays its moves meets only these positions of that ply: 93 of the 4,200 at ply 4 for White, 619 at
    ply 5 for Black, 666 at ply 6 for White (the shipped book's moves)."""
    start = canonical_text(Position.start())[0]
    levels: list[dict[str, str]] = [{start: ""}]
    side = ply % 2
    for _ in range(ply):
        nxt: dict[str, str] = {}
        for text in levels[-1]:
            pos = Position.parse(text)
            turns = [Turn.parse(rows[text]["move"])] if pos.side == side else pos.legal_turns()
            for turn in turns:
                child = pos.copy()
                child.push(turn)
                nxt.setdefault(canonical_text(child)[0], text)
        levels.append(nxt)
    return levels[-2], levels[-1]


def check_line(ply: int, rows: dict[str, dict[str, Any]]) -> None:
    """Check a line ply's proven values against the book's earlier ones: every position of ply ``ply - 1``
    on the line (the other side to move) is worth the best of its children's values, negated -- its own
    value where the book holds it, else the negated value of the position whose book move led to it (a
    book move keeps its position's value). Two independent sets of exact searches must agree here; a
    :class:`BookError` names the first position where they do not."""
    parents, _children = book_line(ply, rows)
    for text, came_from in parents.items():
        own = rows.get(text, {}).get("value")
        worth = VALUES[own] if own else -VALUES[rows[came_from]["value"]]
        pos = Position.parse(text)
        best = -2
        for turn in pos.legal_turns():
            child = pos.copy()
            child.push(turn)
            best = max(best, -VALUES[rows[canonical_text(child)[0]]["value"]])
        if best != worth:
            raise BookError(
                f"book position {text!r}: its value by the exact searches of ply {ply} ({best:+d}) is not "
                f"the one the book gives it ({worth:+d})"
            )


@dataclass(frozen=True)
class BookJob:
    """One book position to search: its canonical text, the depth, the weight profile, a checkpoint folder."""

    text: str
    depth: int
    profile: str
    checkpoint: str | None = None
    key: str = ""
    """The builder's :func:`search_key` (a worker running other code refuses the job); an exact job's ends
    in :data:`EXACT_TAG`."""
    tablebase: str | None = None
    """A folder of tables of every moving position (K <= 9): the job is of the book's exact ply or a line
    ply, searched to the last placement, where every line ends in the tables' value (:func:`build_book`)."""


@cache
def search_key(profile: str) -> str:
    """What a book entry depends on besides its position and depth, as a short digest: the weights'
    values (not the profile's name: an edited profile is another search), the engine options of
    :func:`search_position`, and the search's code -- the compiled sources (which cover the evaluation's
    phase and norm tables and the features, :data:`~boardeval.morris._search.compiled.sources.CACHE_SOURCES`)
    plus the engine driver, its options and the ``Searcher`` -- each as :func:`code_text`, so an edit of a
    comment or a docstring leaves the book current (since issue 25's twenty-ninth session: the key hashed
    the files' raw bytes before, and a docstring edit made the shipped book say "by another version of the
    search" until ~6 h of CPU searched it again). ~0.3 s (parsing 18 files): :func:`is_current` asks
    :func:`file_digest` first."""
    what, files = _keyed(profile)
    h = hashlib.sha256(KEY_FORMAT.encode() + what)
    for path in files:
        h.update(b"\0" + code_text(path.read_text(encoding="utf-8")).encode())
    return h.hexdigest()[:16]


@cache
def file_digest(profile: str) -> str:
    """The same inputs as :func:`search_key`, the files as they are (bytes): ~1 ms. A book records it
    beside its key, so a process running the very files the book was made by knows it is current without
    parsing them (a player's first answer)."""
    what, files = _keyed(profile)
    h = hashlib.sha256(b"boardeval-morris-file-digest/1\n" + what)
    for path in files:
        h.update(b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def is_current(meta: dict[str, Any]) -> bool:
    """Whether a book of this ``meta`` was made by the search running now: the same files (its
    ``file_digest``, fast), else the same code (its ``search_key``: only comments, docstrings or blank
    lines differ). Raises :class:`~boardeval.core.BoardevalError` for a profile this installation lacks."""
    profile = str(meta.get("weights", "base"))
    if meta.get("file_digest") == file_digest(profile):
        return True
    key = meta.get("search_key")
    return isinstance(key, str) and key == search_key(profile)


def _keyed(profile: str) -> tuple[bytes, tuple[Path, ...]]:
    """What the keys digest: the weights' values and engine options (JSON), and the search's files."""
    from boardeval.morris._evaluate import load_weights
    from boardeval.morris._search import searcher
    from boardeval.morris._search.compiled import engine, options
    from boardeval.morris._search.compiled.sources import CACHE_SOURCES

    what = {
        "weights": {k: float(v) for k, v in sorted(load_weights(profile).items())},
        "options": asdict(options.EngineOptions(threads=1)),
    }
    files = (*CACHE_SOURCES, *(Path(m.__file__ or "") for m in (engine, options, searcher)))
    return json.dumps(what, sort_keys=True).encode(), files


KEY_FORMAT = "boardeval-morris-search-key/2\n"
"""The first bytes :func:`search_key` hashes: a key of another definition never equals one of this."""


def code_text(source: str) -> str:
    """``source`` (a Python module's text) without what cannot change what it does: comments, string
    statements (docstrings, the strings documenting a constant), trailing spaces and blank lines.

    The statements are found by :mod:`ast` (an expression statement whose value is a string constant is a
    no-op wherever it stands), the comments by :mod:`tokenize`; every other character, indentation
    included, stays where it was, so two texts are equal only where their code is."""
    import ast
    import io
    import tokenize

    lines = io.StringIO(source).readlines()  # rows end at "\n" only, as for ast and tokenize
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(row: int, col: int) -> int:  # ast and tokenize: 1-based rows; ast's columns count UTF-8 bytes
        return starts[row - 1] + len(lines[row - 1].encode("utf-8")[:col].decode("utf-8"))

    cut: list[tuple[int, int]] = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            assert node.end_lineno is not None and node.end_col_offset is not None
            cut.append((offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)))
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:  # tokenize's columns count characters
            cut.append((starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1]))
    kept, at = [], 0
    for a, b in sorted(cut):
        if a >= at:
            kept.append(source[at:a])
            at = b
    kept.append(source[at:])
    return "\n".join(line.rstrip() for line in "".join(kept).splitlines() if line.strip()) + "\n"


LAST_PLACEMENT = 2 * MEN_PER_SIDE
"""Plies from the start to the end of placing: a search of ply ``p`` to depth ``LAST_PLACEMENT - p`` reaches
the last placement."""

MAX_LINE_PLIES = 4
"""Most line plies a build may ask for (with the shipped book's moves, ply 6's lines hold 666 positions for
White, ply 7's 5,087 for Black)."""

EXACT_TAG = "+K9"
"""Appended to :func:`search_key` in the checkpoints of the exact ply: searched with the K <= 9 tables."""

VALUES: dict[str, int] = OUTCOMES
"""A position's exact value for the side to move, as a number (negated from the other side's view)."""

IS_CURRENT.append(is_current)  # Book.stale() asks the store's hook (the store does not import the search)


def _checkpoint_file(folder: Path, text: str, depth: int, key: str) -> Path:
    return folder / (hashlib.sha256(f"{text}|{depth}|{key}".encode()).hexdigest()[:24] + ".json")


def _resume(job: BookJob, rows: dict[str, dict[str, Any]]) -> bool:
    """Take ``job``'s finished search from its checkpoint into ``rows`` (True), or say it is still to do."""
    if job.checkpoint is None:
        return False
    path = _checkpoint_file(Path(job.checkpoint), job.text, job.depth, job.key)
    if not path.is_file():
        return False
    try:
        rows[job.text] = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        path.unlink()  # a torn checkpoint: search it again
        return False
    return True


def _check_seed(book: Book, depths: list[int], exact_ply: int | None, key: str) -> None:
    """A book whose entries may stand in for this build's searches: made by the same search (its
    ``search_key``), with the same depths and the same exact ply (else a :class:`ParamsError` saying
    which differs)."""
    theirs = book.meta.get("search_key")
    if theirs != key:
        raise ParamsError(
            f"--from-book: the book was made by another search (search key {theirs!r}, this search's "
            f"{key!r}): its entries cannot stand in for this build's searches"
        )
    if book.meta.get("depths") != depths or book.meta.get("exact_ply") != exact_ply:
        raise ParamsError(
            f"--from-book: the book was built with --depths {book.meta.get('depths')} and exact ply "
            f"{book.meta.get('exact_ply')}, this build asks for {depths} and exact ply {exact_ply}"
        )


def _take_from_book(job: BookJob, book: Book | None, rows: dict[str, dict[str, Any]]) -> bool:
    """Take ``job``'s entry from ``book`` (checked by :func:`_check_seed`) into ``rows`` and its checkpoint
    (True), or say the book does not hold it (an exact job needs an exact entry)."""
    entry = None if book is None else book.entries.get(job.text)
    exact = job.tablebase is not None
    if entry is None or entry.exact != exact or (exact and not entry.value):
        return False
    row: dict[str, Any] = {
        "text": job.text, "move": str(entry.move), "depth": entry.depth, "score": entry.score,
        "nodes": entry.nodes, "pv": [str(t) for t in entry.pv], "cpu_seconds": 0.0, "asked": job.depth,
        "key": job.key, "from_book": True,
    }  # fmt: skip
    if exact:
        row |= {"value": entry.value, "exact": True}
    rows[job.text] = row
    _save(job, row)
    return True


def _known(job: BookJob, book: Book | None, rows: dict[str, dict[str, Any]]) -> str | None:
    """Where ``job``'s row came from without a search, now in ``rows``: ``"checkpoint"`` or ``"book"``
    (``from_book``); None when it is still to search."""
    if _resume(job, rows):
        return "checkpoint"
    return "book" if _take_from_book(job, book, rows) else None


def _save(job: BookJob, row: dict[str, Any]) -> None:
    """Write ``row`` as ``job``'s checkpoint when the build has a folder (a killed build keeps it)."""
    if job.checkpoint is not None:
        path = _checkpoint_file(Path(job.checkpoint), job.text, job.depth, job.key)
        write_atomic(path, json.dumps(row).encode())


def _stale_jobs(folder: Path | None, jobs: Sequence[BookJob]) -> int:
    """How many of ``jobs`` have a checkpoint in ``folder`` from another search (each job's own key)."""
    if folder is None:
        return 0
    return sum(
        _stale_checkpoints(folder, {(j.text, j.depth) for j in jobs if j.key == key}, key)
        for key in {j.key for j in jobs}
    )


def _search_all(
    jobs: Sequence[BookJob],
    rows: dict[str, dict[str, Any]],
    *,
    workers: int,
    address: str | None,
    progress: Progress | None,
) -> tuple[int, bool]:
    """Search ``jobs`` into ``rows``, the deepest first (they take longest, so the pool's last jobs are
    short); returns how many finished and whether the run was interrupted (the finished ones are kept)."""
    ordered = sorted(jobs, key=lambda j: (-j.depth, -j.text.count(".")))
    try:
        done = map_jobs(
            search_position, ordered, workers=workers, address=address, progress=progress, label="book"
        )
        interrupted = False
    except JobsInterrupted as exc:
        done = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    for row in done:
        rows[row["text"]] = row
    return len(done), interrupted


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


@cache
def full_tables(folder: str) -> Tablebase:
    """The tables in ``folder``, opened once per process; they must cover every moving position (else a
    :class:`ParamsError` naming the folder and what it covers)."""
    tables = Tablebase.open(folder)
    if tables.max_men < MEN_PER_SIDE:
        raise ParamsError(
            f"--tablebase {folder!r}: the exact ply needs tables of every moving position (K <= "
            f"{MEN_PER_SIDE}); these cover K <= {tables.max_men}"
        )
    return tables


def proven_value(score: float) -> str | None:
    """The value a search to the last placement with :func:`full_tables` proves for the side to move:
    every line ends in the tables' value or a game end, so a draw scores 0 and a win or loss lies past the
    mate bound (faster wins higher); any other score is a static one, and None says the search was not
    exact."""
    if abs(score) < 1e-9:
        return "draw"
    if abs(score) > MATE_BOUND:
        return "win" if score > 0 else "loss"
    return None


def search_position(job: BookJob) -> dict[str, Any]:
    """Search one book position to its fixed depth (a fresh engine, every default technique, one thread,
    no tablebase unless the job is the exact ply: nothing of the machine's) and return the entry as a
    dict; the checkpoint is written first when a folder is given (a killed build keeps it)."""
    from boardeval.morris._evaluate import Evaluator, load_weights
    from boardeval.morris._search.compiled.options import EngineOptions
    from boardeval.morris._search.searcher import Searcher

    if job.key and search_key(job.profile) != job.key.removesuffix(EXACT_TAG):
        raise BookError(
            f"book position {job.text!r}: this worker's search (weights, engine options or code) is not the "
            "builder's; run the build with the same boardeval on every worker"
        )
    pos = Position.parse(job.text)
    cpu = time.process_time()
    tables = None if job.tablebase is None else full_tables(job.tablebase)
    searcher = Searcher(
        Evaluator(load_weights(job.profile)), tablebase=tables, options=EngineOptions(threads=1)
    )
    res = searcher.compiled().search(pos, depth=job.depth)
    assert res.move is not None
    value = None if tables is None else proven_value(res.score)
    if tables is not None and value is None:
        raise BookError(
            f"book position {job.text!r}: the search to depth {job.depth} with the tables scored "
            f"{res.score:+.2f}, not a proven value (does the depth reach the last placement?)"
        )
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
    if value is not None:
        row["value"] = value
        row["exact"] = True
    _save(job, row)
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
    searched_again: tuple[str, ...] = ()
    """Positions of the plies before the exact one whose book move did not keep the value (searched again
    among the turns that do: :func:`back_up`)."""
    lines: tuple[int, ...] = ()
    """Positions of each line ply (:func:`book_line`), in order."""
    from_book: int = 0
    """Positions taken from the ``from_book`` book instead of a search (counted in ``resumed`` too)."""


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
    tablebase: str | Path | None = None,
    line_plies: int = 0,
    from_book: Book | None = None,
) -> BookBuild:
    """Search the first ``len(depths)`` plies (ply ``i`` to depth ``depths[i]``) and return the book.

    ``checkpoint``: a folder for the finished positions (created; a rerun resumes from it). The deepest
    plies go first (they take longest, so the pool's last jobs are short).

    ``tablebase``: a folder of tables of every moving position (K <= 9). The last ply is then the *exact
    ply*: its positions are searched with the tables to a depth that reaches the last placement, below
    which every line ends in the tables' exact value, so each entry's value (win, draw or loss for the side
    to move, with best play by both; the tables know no turn limit) is proven and its move keeps it. Every
    child of a position of an earlier ply is a position of the next ply, so the earlier plies' exact
    values follow by minimax over the book (:func:`back_up`), and each of their book moves (searched
    without tables, by the evaluation) is checked to keep its position's value; one that does not is
    searched again among the turns that do. Ply 3's 428 positions to depth 15 take ~3 h of one core.

    ``line_plies``: that many plies more past the exact one, also proven with the tables, but only along
    the book's own lines (:func:`book_line`: the side to move there has played the book's moves, the
    other side anything), which is all a player that follows the book meets: ply 4's 93 positions for
    White, ply 5's 619 for Black and ply 6's 666 for White instead of every class (4,200 at ply 4). Each
    line ply is checked against the values before it (:func:`check_line`). Two line plies are searched at
    a time (a side's line ply needs its moves two plies earlier).

    ``from_book``: a book made by this same search with the same depths and exact ply (else a
    :class:`ParamsError`), e.g. the shipped one: each position it holds is taken from it instead of
    searched (an exact or line position only from a proven entry), as from a checkpoint; so one more line
    ply costs only its own searches. The fixed-depth searches are deterministic, so the entries are the
    ones a build from scratch writes; the book's ``cpu_seconds`` then adds the given book's."""
    depths = _check_depths(depths)
    if line_plies and tablebase is None:
        raise ParamsError("--line-plies needs --tablebase (the line plies are proven with the tables)")
    if not 0 <= line_plies <= MAX_LINE_PLIES:
        raise ParamsError(f"--line-plies must be in 0..{MAX_LINE_PLIES}, got {line_plies}")
    exact_ply = None
    if tablebase is not None:
        exact_ply = len(depths) - 1
        placements = LAST_PLACEMENT - exact_ply
        if depths[-1] < placements:
            raise ParamsError(
                f"--depths {','.join(map(str, depths))} with --tablebase: the last ply ({exact_ply}) is "
                f"searched exactly and needs depth >= {placements} (to the last placement), got {depths[-1]}"
            )
        full_tables(str(tablebase))  # a clear error here, not in every worker
    start = time.perf_counter()
    folder = Path(checkpoint) if checkpoint is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    levels = book_positions(len(depths))
    key = search_key(profile)
    exact_key = key + EXACT_TAG
    if from_book is not None:
        _check_seed(from_book, depths, exact_ply, key)
    where = None if folder is None else str(folder)
    rows: dict[str, dict[str, Any]] = {}
    jobs: list[BookJob] = []
    seeded = 0
    for ply, texts in enumerate(levels):
        exact = ply == exact_ply
        ply_key = exact_key if exact else key
        tables = str(tablebase) if exact else None
        for text in texts:
            job = BookJob(text, depths[ply], profile, where, ply_key, tables)
            how = _known(job, from_book, rows)
            if how is None:
                jobs.append(job)
            seeded += how == "book"
    resumed = len(rows)
    stale = _stale_jobs(folder, jobs)
    searched, interrupted = _search_all(jobs, rows, workers=workers, address=address, progress=progress)
    complete = not interrupted and len(rows) == sum(len(t) for t in levels)
    changed: list[str] = []
    if exact_ply is not None and complete:
        changed = back_up(levels, rows, profile)
    line_sizes: list[int] = []
    first = len(depths)
    for pair in range(first, first + line_plies, 2):
        if not complete:
            break
        plies = [p for p in (pair, pair + 1) if p < first + line_plies]
        line_jobs: list[BookJob] = []
        for ply in plies:
            texts = sorted(book_line(ply, rows)[1])
            line_sizes.append(len(texts))
            for text in texts:
                job = BookJob(text, LAST_PLACEMENT - ply, profile, where, exact_key, str(tablebase))
                how = _known(job, from_book, rows)
                if how is None:
                    line_jobs.append(job)
                else:
                    resumed += 1
                    seeded += how == "book"
        stale += _stale_jobs(folder, line_jobs)
        more, interrupted = _search_all(line_jobs, rows, workers=workers, address=address, progress=progress)
        searched += more
        complete = not interrupted
        if complete:
            for ply in plies:
                check_line(ply, rows)
    entries = {
        text: BookEntry(
            Turn.parse(r["move"]), int(r["depth"]), round(float(r["score"]), 4), int(r["nodes"]),
            tuple(Turn.parse(t) for t in r["pv"]), value=str(r.get("value", "")), exact=bool(r.get("exact")),
        )
        for text, r in rows.items()
    }  # fmt: skip
    cpu = sum(float(r.get("cpu_seconds", 0.0)) for r in rows.values())
    if seeded and from_book is not None:
        cpu += float(from_book.meta.get("cpu_seconds") or 0.0)  # what the taken entries cost to search
    cpu = round(cpu, 1)
    from boardeval.morris._search.compiled.options import EngineOptions

    meta = {
        "rules": "standard",
        "command": command or f"boardeval morris book build --depths {','.join(map(str, depths))}",
        "depths": depths,
        "weights": profile,
        "options": {k: v for k, v in asdict(EngineOptions(threads=1)).items()},
        "search_key": key,  # the checkpoints' key: a player tells a book of another search (Book.stale)
        "file_digest": file_digest(profile),  # the same, quick to check where the files are the same
        "positions": len(rows),
        "complete": complete,
        "cpu_seconds": cpu,
    }
    if exact_ply is not None:
        meta["exact_ply"] = exact_ply
        meta["tablebase"] = f"K <= {MEN_PER_SIDE}: every moving position"
        meta["searched_again"] = changed
    if line_plies:
        meta["line_plies"] = list(range(first, first + line_plies))
    book = Book(entries, meta)
    return BookBuild(
        book,
        searched,
        resumed,
        sum(len(t) for t in levels) + sum(line_sizes),
        interrupted,
        time.perf_counter() - start,
        cpu,
        stale,
        tuple(changed),
        tuple(line_sizes),
        seeded,
    )


def back_up(levels: Sequence[Sequence[str]], rows: dict[str, dict[str, Any]], profile: str) -> list[str]:
    """Give every position of the plies before the exact (last) one its exact value, by minimax over the
    next ply's values (every child of a ply's position is a canonical position of the next ply), and check
    its book move: a move whose child is worth less than the position is searched again, to the same
    depth and without tables, among the turns that keep the value. Changes ``rows`` in place; returns the
    positions whose move changed."""
    from boardeval.morris._evaluate import Evaluator, load_weights
    from boardeval.morris._search.compiled.options import EngineOptions
    from boardeval.morris._search.searcher import Searcher

    value = {text: VALUES[rows[text]["value"]] for text in levels[-1]}
    changed: list[str] = []
    for ply in range(len(levels) - 2, -1, -1):
        for text in levels[ply]:
            pos, row = Position.parse(text), rows[text]
            worth: dict[Turn, int] = {}
            for turn in pos.legal_turns():
                child = pos.copy()
                child.push(turn)
                worth[turn] = -value[canonical_text(child)[0]]
            best = max(worth.values())
            value[text] = best
            row["value"] = next(k for k, v in VALUES.items() if v == best)
            if worth[Turn.parse(row["move"])] < best:
                keep = [t for t, v in worth.items() if v == best]
                searcher = Searcher(Evaluator(load_weights(profile)), options=EngineOptions(threads=1))
                res = searcher.compiled().search(
                    pos, depth=int(row.get("asked", row["depth"])), root_moves=keep
                )
                assert res.move is not None
                row.update(
                    was=row["move"], move=str(res.move), depth=res.depth, score=res.score, nodes=res.nodes,
                    pv=[str(t) for t in res.pv[:12]],
                )  # fmt: skip
                changed.append(text)
    return changed
