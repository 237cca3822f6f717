"""Probing the tablebase: :class:`Tablebase` opens a built folder and answers value, distance and every
turn's value for a covered position (sub-databases load on first use).

Covers every position with no men in hand and 3 <= w, b <= K men on the board, either side to move, under
the standard rules of :mod:`boardeval.morris.rules` (a side with 3 men flies; a side with 2 men or without a
legal turn loses; a mill removes one man, not from a mill unless all are in mills). Values are win / loss /
draw for the side to move with the distance to the end in turns (see :mod:`.retrograde` for the convention:
a loss has an even distance, 0 = no legal turn now; a win an odd one; capturing the third-to-last man wins
in 1). "Draw" means that no side can force a win: only repetition or the turn limit could end the game. The
200-turn limit and threefold repetition are not part of the values (a win longer than the turns left under
``max_turns`` is still reported as a win).

Usage::

    tb = Tablebase.open()
    tb.probe(Position.parse("WWW.......BBB........... w 0 0"))   # TBResult(value, distance, turns)

The search does not import this module: it asks a tablebase through the small interface of
``boardeval.morris._search.endgame`` (python-chess's ``chess.syzygy`` / Stockfish's ``tbprobe`` split).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.morris.board import N_POINTS
from boardeval.morris.rules import SIDE_NAMES, Position, Turn
from boardeval.morris.tablebase.files import (
    CODE_VALUES,
    FORMAT,
    MANIFEST,
    MAX_MEN,
    MissingTablebaseError,
    TablebaseError,
    TablebaseRangeError,
    TBValue,
    build_command,
    default_tablebase_dir,
    load_table,
    sub_name,
)
from boardeval.morris.tablebase.index import SYM_BYTES, canonical, combos, rows

__all__ = ["TBResult", "TBTurn", "Tablebase"]

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
        self._packed: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]] | None = None
        self._shifts = {k: int(manifest["subdatabases"][sub_name(*k)]["distance_bits"]) for k in self._keys}

    @classmethod
    def open(cls, directory: str | Path | None = None) -> Tablebase:
        """Open the tablebase in ``directory`` (default :func:`default_tablebase_dir`).

        Raises :class:`MissingTablebaseError` naming the build command if there is none.
        """
        path = Path(directory) if directory is not None else default_tablebase_dir()
        manifest_path = path / MANIFEST
        if not manifest_path.is_file():
            raise MissingTablebaseError(
                f"no tablebase in {str(path)!r}: build one with `{build_command(4, path)}`"
            )
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TablebaseError(f"cannot read {str(manifest_path)!r}: {exc}") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise TablebaseError(
                f"{str(manifest_path)!r} is not a {FORMAT} manifest; rebuild with `{build_command(4, path)}`"
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
        return [dict(subs[sub_name(a, b)]) for a, b in self.subdatabases]

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
        if (a, b) not in self._available():
            built = ", ".join(sub_name(*k) for k in self.subdatabases) or "none"
            raise MissingTablebaseError(
                f"position {text!r} needs sub-database {sub_name(a, b)} ({SIDE_NAMES[s]} to move with {a} "
                f"men against {b}), which is not built in {str(self.directory)!r} (built: {built}); build it "
                f"with `{build_command(max(a, b), self.directory)}`"
            )
        return a, b

    def _available(self) -> set[tuple[int, int]]:
        return self._keys

    def _table(self, a: int, b: int) -> npt.NDArray[np.integer[Any]]:
        key = (a, b)
        if key not in self._tables:
            self._tables[key] = load_table(self.directory, self.manifest["subdatabases"][sub_name(a, b)])
        return self._tables[key]

    def packed(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Every built sub-database packed for the compiled search, ``(index, data)`` (the layout of
        ``boardeval.morris._search.endgame``; :mod:`.packed`). Packed once per folder and mapped afterwards;
        the tables this object probes become views into the packed data (one copy in memory)."""
        if self._packed is None:
            from boardeval.morris.tablebase.packed import pack, prime_rows

            self._packed, views = pack(self.directory, self.manifest, self.subdatabases)
            self._tables.update(views)
            prime_rows(self._packed[0])  # the probes' row tables from the index, not computed again
        return self._packed

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
                f"sub-database {sub_name(a, b)} is not built in {str(self.directory)!r}; build it with "
                f"`{build_command(max(a, b), self.directory)}`"
            )
        row, col = canonical(own, opp)
        table = self._tables.get((a, b))
        if table is None:
            table = self._table(a, b)
        code: int = table.item(row, col)
        shift = self._shifts[(a, b)]
        value = CODE_VALUES[code >> shift]
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
                f"sub-database {sub_name(a, b)} is not built in {str(self.directory)!r}; build it with "
                f"`{build_command(max(a, b), self.directory)}`"
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
