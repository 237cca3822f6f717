"""Endgame tablebase of the moving/flying phases, computed here by retrograde analysis (spec section 4).

Covers every position with no men in hand and 3 <= w, b <= K men on the board, either side to move, under
the standard rules of :mod:`.rules` (a side with 3 men flies; a side with 2 men or without a legal turn
loses; a mill removes one man, not from a mill unless all are in mills). Values are win / loss / draw for
the side to move with the distance to the end in turns (see :mod:`._tb_build` for the convention: a loss
has an even distance, 0 = no legal turn now; a win an odd one; capturing the third-to-last man wins in 1).
"Draw" means that no side can force a win: only repetition or the turn limit could end the game. The
200-turn limit and threefold repetition are not part of the values (a win longer than the turns left
under ``max_turns`` is still reported as a win).

Storage: one ``.npy`` per sub-database ``(a, b)`` = "the side to move has a men, the other b" (White to move
with w = 4, b = 3 is in "4v3", Black to move in the same position in "3v4"), symmetry-reduced rows (see
:mod:`._tb_index`), one byte (or two, if a distance exceeds 63) per slot: 2 bits of value (0 draw, 1 win,
2 loss) above the distance. ``manifest.json`` beside them records the rules, counts, checksums and build
times. Default folder: ``platformdirs.user_cache_dir("boardeval")/tablebase/standard``.

Usage::

    build_tablebase(4, progress=cb)            # 3v3, 4v3 + 3v4, 4v4 (built in that order)
    tb = Tablebase.open()
    tb.probe(Position.parse("WWW.......BBB........... w 0 0"))   # TBResult(value, distance, turns)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from math import comb
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import platformdirs

from boardeval.core import JobsInterrupted, MorrisError, ParamsError, Progress, map_jobs, report
from boardeval.morris._tb_index import SYM_BYTES, canonical, combos, rows
from boardeval.morris.board import N_POINTS
from boardeval.morris.rules import SIDE_NAMES, Position, Turn

__all__ = [
    "MAX_MEN",
    "BuildReport",
    "MissingTablebaseError",
    "TBResult",
    "TBTurn",
    "TBValue",
    "Tablebase",
    "TablebaseError",
    "TablebaseRangeError",
    "build_tablebase",
    "default_tablebase_dir",
    "subdatabase_pairs",
]

TBValue = Literal["win", "loss", "draw"]

#: The largest men count per side a build accepts (6v6: 2.5 billion positions, ~4 GB while solving).
MAX_MEN = 6
MANIFEST = "manifest.json"
FORMAT = "boardeval-morris-tablebase/1"
VARIANT = "standard"
RULES = (
    "standard: a side with 3 men flies; a side with 2 men or no legal turn loses; a mill removes one man, "
    "not from a mill unless all are in mills; repetition and the turn limit are not counted (draw = no "
    "forced win)"
)
_CODE_VALUES: tuple[TBValue, ...] = ("draw", "win", "loss")


class TablebaseError(MorrisError):
    """A tablebase problem: missing or corrupt files, a bad build request."""


class MissingTablebaseError(TablebaseError):
    """No tablebase (or not the needed sub-database) in the folder; the message names the build command."""


class TablebaseRangeError(TablebaseError):
    """A position the tablebase does not cover: men in hand, too many or too few men, no flying."""


def default_tablebase_dir() -> Path:
    """``platformdirs.user_cache_dir("boardeval")/tablebase/standard`` (outside the repository)."""
    return Path(platformdirs.user_cache_dir("boardeval")) / "tablebase" / VARIANT


def _build_command(max_men: int, directory: Path) -> str:
    return f"boardeval morris tablebase build --max-men {max_men} --dir {directory}"


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


def _name(a: int, b: int) -> str:
    return f"{a}v{b}"


# ------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class TBTurn:
    """One legal turn with its value for the side to move and the distance to the end after playing it."""

    turn: Turn
    value: TBValue
    distance: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"turn": str(self.turn), "value": self.value, "distance": self.distance}


@dataclass(frozen=True)
class TBResult:
    """A probe: ``value`` for the side to move, ``distance`` in turns (None for a draw), every turn rated.

    ``turns`` is sorted best first: wins by shortest distance, draws, then losses by longest distance; the
    first turn is a best line's next turn (empty if the side to move has no legal turn: a loss at 0).
    """

    position: str
    side: str
    value: TBValue
    distance: int | None
    turns: tuple[TBTurn, ...] = field(default=())

    @property
    def best(self) -> TBTurn | None:
        """The best turn (None when there is no legal turn)."""
        return self.turns[0] if self.turns else None

    def summary(self) -> str:
        """In words, e.g. ``"white wins in 7"``, ``"black loses in 4"``, ``"draw"``."""
        if self.value == "draw":
            return "draw"
        verb = "wins" if self.value == "win" else "loses"
        return f"{self.side} {verb} in {self.distance}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "position": self.position,
            "side": self.side,
            "value": self.value,
            "distance": self.distance,
            "summary": self.summary(),
            "turns": [t.to_dict() for t in self.turns],
        }


def _turn_order(t: TBTurn) -> tuple[int, int]:
    d = t.distance or 0
    if t.value == "win":
        return (0, d)
    if t.value == "draw":
        return (1, 0)
    return (2, -d)


# ---------------------------------------------------------------------------------------------- probe


class Tablebase:
    """A built tablebase folder: covers, probes and stats (sub-databases load on first use)."""

    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self._tables: dict[tuple[int, int], npt.NDArray[np.integer[Any]]] = {}
        self._keys = set(self.subdatabases)
        self._shifts = {k: int(manifest["subdatabases"][_name(*k)]["distance_bits"]) for k in self._keys}

    @classmethod
    def open(cls, directory: str | Path | None = None) -> Tablebase:
        """Open the tablebase in ``directory`` (default :func:`default_tablebase_dir`).

        Raises :class:`MissingTablebaseError` naming the build command if there is none.
        """
        path = Path(directory) if directory is not None else default_tablebase_dir()
        manifest_path = path / MANIFEST
        if not manifest_path.is_file():
            raise MissingTablebaseError(
                f"no tablebase in {str(path)!r}: build one with `{_build_command(4, path)}`"
            )
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TablebaseError(f"cannot read {str(manifest_path)!r}: {exc}") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise TablebaseError(
                f"{str(manifest_path)!r} is not a {FORMAT} manifest; rebuild with `{_build_command(4, path)}`"
            )
        return cls(path, manifest)

    @property
    def subdatabases(self) -> list[tuple[int, int]]:
        """The built sub-databases ``(a, b)`` (side to move has a men), in build order."""
        subs = self.manifest.get("subdatabases", {})
        return sorted(
            ((s["mover_men"], s["opponent_men"]) for s in subs.values()), key=lambda k: (sum(k), -k[0])
        )

    @property
    def max_men(self) -> int:
        """The largest K such that every sub-database with 3 <= a, b <= K is built (2 if none)."""
        have = set(self.subdatabases)
        k = 2
        while k < MAX_MEN and all((a, b) in have for a in range(3, k + 2) for b in range(3, k + 2)):
            k += 1
        return k

    def stats(self) -> list[dict[str, Any]]:
        """Per sub-database: positions, wins, losses, draws, symmetry classes, longest win, ... (manifest)."""
        subs = self.manifest.get("subdatabases", {})
        return [dict(subs[_name(a, b)]) for a, b in self.subdatabases]

    def covers(self, position: Position) -> bool:
        """True if ``position`` is in a built sub-database (no men in hand, flying rules, 3..K men each)."""
        try:
            self._key(position)
        except TablebaseError:
            return False
        return True

    def _key(self, position: Position) -> tuple[int, int]:
        if not isinstance(position, Position):
            raise TablebaseRangeError(f"expected a Position, got {position!r}")
        text = position.text()
        if position.hand[0] or position.hand[1]:
            raise TablebaseRangeError(
                f"position {text!r} has men in hand: the tablebase covers the moving/flying phases only "
                "(no men in hand)"
            )
        if not position.variant.flying:
            raise TablebaseRangeError(
                f"the tablebase is built for rules with flying (standard), not for variant {position.variant}"
            )
        s = position.side
        a, b = position.men[s].bit_count(), position.men[s ^ 1].bit_count()
        if a < 3 or b < 3:
            raise TablebaseRangeError(
                f"position {text!r} has {a} men for the side to move and {b} for the other: the game is over "
                "below 3 men, the tablebase covers 3 or more on each side"
            )
        if max(a, b) > MAX_MEN:
            raise TablebaseRangeError(
                f"position {text!r} has {a} men for the side to move and {b} for the other: the tablebase "
                f"covers at most {MAX_MEN} men per side"
            )
        if (a, b) not in self._available():
            built = ", ".join(_name(*k) for k in self.subdatabases) or "none"
            raise MissingTablebaseError(
                f"position {text!r} needs sub-database {_name(a, b)} ({SIDE_NAMES[s]} to move with {a} men "
                f"against {b}), which is not built in {str(self.directory)!r} (built: {built}); build it "
                f"with `{_build_command(max(a, b), self.directory)}`"
            )
        return a, b

    def _available(self) -> set[tuple[int, int]]:
        return self._keys

    def _table(self, a: int, b: int) -> npt.NDArray[np.integer[Any]]:
        key = (a, b)
        if key not in self._tables:
            self._tables[key] = _load_table(self.directory, self.manifest["subdatabases"][_name(a, b)])
        return self._tables[key]

    def _shift(self, a: int, b: int) -> int:
        return self._shifts[(a, b)]

    def lookup_sides(self, own: int, opp: int) -> tuple[TBValue, int | None]:
        """Value and distance of a side-relative position (``own`` = bitboard of the side to move).

        A side with fewer than 3 men has lost: ``own`` below 3 men is a loss at 0 (for callers that apply a
        capture themselves). Raises :class:`MissingTablebaseError` if the sub-database is not built.
        """
        a, b = own.bit_count(), opp.bit_count()
        if a < 3:
            return "loss", 0
        if (a, b) not in self._available():
            raise MissingTablebaseError(
                f"sub-database {_name(a, b)} is not built in {str(self.directory)!r}; build it with "
                f"`{_build_command(max(a, b), self.directory)}`"
            )
        row, col = canonical(own, opp)
        table = self._tables.get((a, b))
        if table is None:
            table = self._table(a, b)
        code: int = table.item(row, col)
        shift = self._shifts[(a, b)]
        value = _CODE_VALUES[code >> shift]
        return value, (None if value == "draw" else code & ((1 << shift) - 1))

    def lookup_many(self, own: npt.NDArray[np.int64], opp: npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
        """Distances of many side-relative positions of one sub-database at once (-1 = draw).

        ``own`` / ``opp``: int64 bitboards (side to move / other side), all with the same men counts. The
        value follows from the distance: odd = win, even = loss (for the side to move). Vectorised numpy,
        for batch work (tuning data, checks).
        """
        own = np.asarray(own, dtype=np.int64)
        opp = np.asarray(opp, dtype=np.int64)
        if own.size == 0:
            return np.zeros(0, dtype=np.int16)
        a, b = int(own.flat[0]).bit_count(), int(opp.flat[0]).bit_count()
        if (a, b) not in self._available():
            raise MissingTablebaseError(
                f"sub-database {_name(a, b)} is not built in {str(self.directory)!r}; build it with "
                f"`{_build_command(max(a, b), self.directory)}`"
            )
        table = self._table(a, b).astype(np.int32)
        shift = self._shift(a, b)
        r = rows(a)
        rk = np.searchsorted(combos(a), own)
        if not (np.array_equal(combos(a)[np.minimum(rk, len(combos(a)) - 1)], own) and not (own & opp).any()):
            raise TablebaseRangeError(f"lookup_many needs disjoint bitboards of {a} and {b} men throughout")
        row = r.row_of_rank[rk]
        g = r.sym_of_rank[rk].astype(np.int64)
        sym = SYM_BYTES
        opp2 = sym[g, 0, opp & 0xFF] | sym[g, 1, (opp >> 8) & 0xFF] | sym[g, 2, opp >> 16]
        free = ~r.masks[row]
        rel = np.zeros_like(opp2)
        slot = np.zeros_like(opp2)
        for p in range(N_POINTS):
            rel |= ((opp2 >> p) & 1) << slot
            slot += (free >> p) & 1
        col = np.searchsorted(combos(b), rel)
        if not np.array_equal(combos(b)[np.minimum(col, len(combos(b)) - 1)], rel):
            raise TablebaseRangeError(f"lookup_many needs {b} men on the other side throughout")
        code = table[row, col]
        dist = (code & ((1 << shift) - 1)).astype(np.int16)
        dist[(code >> shift) == 0] = -1
        return dist

    def lookup(self, position: Position) -> tuple[TBValue, int | None]:
        """Value and distance of ``position`` for the side to move, without rating its turns (fast path)."""
        self._key(position)
        s = position.side
        return self.lookup_sides(position.men[s], position.men[s ^ 1])

    def probe(self, position: Position) -> TBResult:
        """Value, distance and every legal turn's value (best first) of a covered position.

        Raises :class:`TablebaseRangeError` for positions with men in hand or out of range and
        :class:`MissingTablebaseError` (naming the build command) when the sub-database is not built.
        """
        self._key(position)
        s = position.side
        value, distance = self.lookup_sides(position.men[s], position.men[s ^ 1])
        fresh = Position(list(position.men), (0, 0), s, variant=position.variant)  # no history: no draw
        rated = []
        for turn in fresh.legal_turns():
            fresh.push(turn)
            v, d = self.lookup_sides(fresh.men[s ^ 1], fresh.men[s])
            fresh.pop()
            mine: TBValue = "draw" if v == "draw" else ("win" if v == "loss" else "loss")
            rated.append(TBTurn(turn, mine, None if d is None else d + 1))
        rated.sort(key=_turn_order)
        return TBResult(position.text(), SIDE_NAMES[s], value, distance, tuple(rated))


def _load_table(directory: Path, entry: dict[str, Any]) -> npt.NDArray[np.integer[Any]]:
    path = directory / entry["file"]
    build = _build_command(max(entry["mover_men"], entry["opponent_men"]), directory)
    try:
        data = path.read_bytes()
    except OSError:
        raise MissingTablebaseError(
            f"tablebase file {str(path)!r} is missing; rebuild with `{build}`"
        ) from None
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise TablebaseError(
            f"tablebase file {str(path)!r} is corrupt (checksum); rebuild with `{build} --force`"
        )
    table = np.load(path, allow_pickle=False)
    expected = (
        len(rows(entry["mover_men"]).masks),
        comb(N_POINTS - entry["mover_men"], entry["opponent_men"]),
    )
    if table.shape != expected:
        raise TablebaseError(f"tablebase file {str(path)!r} has shape {table.shape}, expected {expected}")
    return table  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------- build


@dataclass
class BuildReport:
    """What a build did: sub-databases built now, found already built, and whether Ctrl-C stopped it."""

    directory: Path
    built: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


def _read_manifest(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("format") == FORMAT:
                return data
        except ValueError:
            pass
    return {"format": FORMAT, "variant": VARIANT, "rules": RULES, "subdatabases": {}}


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _decoded(directory: Path, entry: dict[str, Any]) -> npt.NDArray[np.int16]:
    """A stored table as int16 distances (-1 = draw), the form the compiled lookup reads."""
    table = _load_table(directory, entry).astype(np.int32)
    shift = int(entry["distance_bits"])
    value = table >> shift
    dist = (table & ((1 << shift) - 1)).astype(np.int16)
    dist[value == 0] = -1
    return dist


def _encode(dist: npt.NDArray[np.int16]) -> tuple[npt.NDArray[np.integer[Any]], int]:
    longest = int(dist.max(initial=0))
    shift, dtype = (6, np.uint8) if longest < 64 else (14, np.uint16)
    if longest >= 1 << 14:
        raise TablebaseError(f"distance {longest} does not fit the 14-bit distance field")
    value = np.where(dist < 0, 0, np.where(dist % 2 == 1, 1, 2)).astype(np.int32)
    code = (value << shift) | np.maximum(dist, 0).astype(np.int32)
    return code.astype(dtype), shift


@cache
def _tables() -> tuple[npt.NDArray[Any], ...]:
    """The lookup tables the compiled kernels read, in the order of ``_tb_build``'s ``tabs`` indices."""
    from boardeval.morris._tb_index import SYM_BYTES, SYMMETRIES, binomials
    from boardeval.morris.board import ADJ_MASK, MILL_MASKS, POINT_MILL_MASKS

    binom = binomials()
    ks = range(MAX_MEN + 1)
    width = max(len(combos(k)) for k in ks)
    n_rows = max(len(rows(k).masks) for k in range(3, MAX_MEN + 1))
    by_k = np.zeros((MAX_MEN + 1, width), dtype=np.int64)
    row_of = np.zeros((MAX_MEN + 1, width), dtype=np.int32)
    sym_of = np.zeros((MAX_MEN + 1, width), dtype=np.int8)
    masks = np.zeros((MAX_MEN + 1, n_rows), dtype=np.int64)
    stab = np.zeros((MAX_MEN + 1, n_rows, 16), dtype=np.int8)
    stab_n = np.ones((MAX_MEN + 1, n_rows), dtype=np.int8)
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
    import boardeval.morris._tb_build as nb

    tabs = _tables()
    shapes = [(len(rows(a).masks), comb(N_POINTS - a, b)) for a, b in group]
    sizes = [r * c for r, c in shapes]
    n_total = sum(sizes)
    offsets = [0, sizes[0]]
    dist = np.full(n_total, -1, dtype=np.int16)
    counter = np.zeros(n_total, dtype=np.uint16)
    stab = np.zeros(n_total, dtype=np.uint8)
    capw = np.zeros(n_total, dtype=np.int16)
    capb = np.full(n_total, -1, dtype=np.int16)
    label = "+".join(_name(*k) for k in group)
    done = done_before
    report(progress, done, total, f"{label}: starting (the first build compiles the solver, ~20 s)")
    for m, (a, b) in enumerate(group):
        target = (b - 1, a)
        if b - 1 >= 3:
            entry = manifest["subdatabases"].get(_name(*target))
            if entry is None:
                raise TablebaseError(f"sub-database {_name(*target)} must be built before {label}")
            cap_table = _decoded(directory, entry)
        else:
            cap_table = np.zeros((1, 1), dtype=np.int16)
        n_rows, ncol = shapes[m]
        chunk = max(1, 100_000 // ncol)
        for start in range(0, n_rows, chunk):
            end = min(n_rows, start + chunk)
            nb.init_rows(a, b, start, end, offsets[m], tabs, cap_table, dist, counter, stab, capw, capb)
            done += (end - start) * ncol
            report(progress, done, total, f"{label}: scanning turns")

    def schedule(levels: npt.NDArray[np.int16]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int16]]:
        idx = np.flatnonzero(levels > 0)
        order = np.argsort(levels[idx], kind="stable")
        return idx[order].astype(np.int64), levels[idx][order]

    win_idx, win_lv = schedule(capw)
    blk_idx, blk_lv = schedule(capb)
    del capw, capb
    last = int(max(win_lv.max(initial=0), blk_lv.max(initial=0)))
    frontier = np.empty(n_total, dtype=np.int64)
    zeros = np.flatnonzero(dist == 0)
    frontier[: len(zeros)] = zeros
    fill = len(zeros)
    start = 0
    level = 0
    a0, b0 = group[0]
    two = len(group) == 2
    while True:
        if level % 2 == 1:
            lo, hi = np.searchsorted(win_lv, level, "left"), np.searchsorted(win_lv, level, "right")
            fill = nb.apply_scheduled_wins(level, win_idx[lo:hi], dist, frontier, fill)
        elif level > 0:
            lo, hi = np.searchsorted(blk_lv, level, "left"), np.searchsorted(blk_lv, level, "right")
            fill = nb.apply_block_releases(level, blk_idx[lo:hi], dist, counter, frontier, fill)
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
    out = []
    for key, off, size, shape in zip(group, offsets, sizes, shapes, strict=False):
        table = dist[off : off + size].reshape(shape).copy()
        nb.fill_duplicates(key[0], key[1], table, tabs)
        out.append(Solved(key, table, stab[off : off + size].reshape(shape).copy()))
    return out


def _store(directory: Path, solved: Solved, seconds: float) -> dict[str, Any]:
    """Write the table of one sub-database; return its manifest entry (with stats over all positions)."""
    a, b = solved.key
    full = solved.table
    code, shift = _encode(full)
    name = _name(a, b)
    path = directory / f"{name}.npy"
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as fh:
        np.save(fh, code, allow_pickle=False)
    os.replace(tmp, path)
    live = solved.stab > 0
    weight = np.where(live, 16 // np.maximum(solved.stab, 1), 0).astype(np.int64)  # orbit sizes
    wins = live & (full > 0) & (full % 2 == 1)
    losses = live & (full >= 0) & (full % 2 == 0)
    draws = live & (full == -1)
    positions = int(weight.sum())
    if positions != comb(N_POINTS, a) * comb(N_POINTS - a, b):
        raise TablebaseError(f"{name}: orbit sizes add up to {positions}, not to every position")
    return {
        "mover_men": a,
        "opponent_men": b,
        "file": path.name,
        "positions": positions,
        "symmetry_classes": int(live.sum()),
        "stored_slots": int(code.size),
        "wins": int(weight[wins].sum()),
        "losses": int(weight[losses].sum()),
        "draws": int(weight[draws].sum()),
        "classes_won": int(wins.sum()),
        "classes_lost": int(losses.sum()),
        "classes_drawn": int(draws.sum()),
        "longest_win": int(full[wins].max(initial=0)),
        "longest_loss": int(full[losses].max(initial=0)),
        "dtype": str(code.dtype),
        "distance_bits": shift,
        "bytes": path.stat().st_size,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "build_seconds": round(seconds, 3),
        "built_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


def _build_group_job(job: tuple[list[tuple[int, int]], str]) -> list[dict[str, Any]]:
    """Process-pool job: solve and store one group (reads the manifest for its capture targets)."""
    group, folder = job
    directory = Path(folder)
    t0 = time.perf_counter()
    solved = solve_pair(group, directory, _read_manifest(directory))
    seconds = time.perf_counter() - t0
    return [_store(directory, s, seconds) for s in solved]


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
    manifest = _read_manifest(path)
    if force:
        manifest["subdatabases"] = {}
    result = BuildReport(path)
    t0 = time.perf_counter()
    todo = []
    for group in groups:
        if all(
            _name(*k) in manifest["subdatabases"] and (path / f"{_name(*k)}.npy").is_file() for k in group
        ):
            result.skipped.extend(_name(*k) for k in group)
        else:
            todo.append(group)
    total = sum(len(rows(a).masks) * comb(N_POINTS - a, b) for g in todo for a, b in g)
    done = 0

    def record(entries: Iterable[dict[str, Any]]) -> None:
        for entry in entries:
            name = _name(entry["mover_men"], entry["opponent_men"])
            manifest["subdatabases"][name] = entry
            result.built.append(name)
        manifest["built_at"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        _write_atomic(path / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())

    try:
        by_total: dict[int, list[list[tuple[int, int]]]] = {}
        for group in todo:
            by_total.setdefault(sum(group[0]), []).append(group)
        for total_men in sorted(by_total):
            batch = by_total[total_men]
            if workers > 1 and len(batch) > 1:
                try:
                    results = map_jobs(_build_group_job, [(g, str(path)) for g in batch], workers=workers)
                except JobsInterrupted as exc:  # keep the groups that finished
                    for entries in exc.done.values():
                        record(entries)
                    raise
                for entries in results:
                    record(entries)
                    done += sum(e["positions"] for e in entries)
                    report(progress, done, total, "+".join(result.built[-len(entries) :]))
                continue
            for group in batch:
                g0 = time.perf_counter()
                solved = solve_pair(group, path, manifest, progress, done, total)
                seconds = time.perf_counter() - g0
                record(_store(path, s, seconds) for s in solved)
                done += sum(s.table.size for s in solved)
                report(progress, done, total, f"{'+'.join(_name(*k) for k in group)} stored")
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - t0
    return result
