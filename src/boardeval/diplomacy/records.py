"""Game records: the engine's saved-game JSON / JSONL and live ``diplomacy.Game`` objects, per phase.

A record is a sequence of :class:`Position` (one per phase): each power's units and supply centres.
Everything is validated against the map while loading, so the measures never meet an unknown power or
province: a bad record raises a :class:`RecordError` subclass whose message names the game, the phase
and the field::

    game '00128f1d', phase 'F1902M', state.units.ITALY[2]: unknown province 'XYZ' in unit 'A XYZ'

Dislodged units (the engine writes them as ``'*A SEV'`` during retreat phases) are kept, flagged
``dislodged=True``: they are still on the board until the retreat is resolved.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardeval.core import DiplomacyError
from boardeval.diplomacy.graph import MapGraph, UnknownMapError, load_map_graph, province_of

__all__ = [
    "GameRecord",
    "Position",
    "RecordError",
    "RecordFormatError",
    "RecordStateError",
    "Unit",
    "UnknownPowerError",
    "UnknownProvinceError",
    "load_records",
    "random_game",
    "record_from_game",
    "record_from_saved",
    "save_records",
    "shipped_game_paths",
    "start_position",
]


class RecordError(DiplomacyError):
    """A game record that cannot be read; the message names the game, the phase and the field."""

    def __init__(
        self, message: str, *, game: str | None = None, phase: str | None = None, field: str | None = None
    ) -> None:
        where = []
        if game is not None:
            where.append(f"game {game!r}")
        if phase is not None:
            where.append(f"phase {phase!r}")
        if field is not None:
            where.append(field)
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.game = game
        self.phase = phase
        self.field = field


class RecordFormatError(RecordError):
    """The file is not valid JSON / JSONL, or a record lacks its required structure."""


class RecordStateError(RecordError):
    """A phase without a usable ``state`` (missing, not an object, no units or centres)."""


class UnknownPowerError(RecordError):
    """A power name that the record's map does not have."""


class UnknownProvinceError(RecordError):
    """A unit or centre on a province (or coast) that the record's map does not have."""


@dataclass(frozen=True, order=True)
class Unit:
    """One unit: ``kind`` 'A' (army) or 'F' (fleet) at ``location`` (a province or coast, ``'STP/SC'``)."""

    kind: str
    location: str
    dislodged: bool = False

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Parse the engine's notation: ``'A BUD'``, ``'F STP/SC'``, ``'*F SEV'`` (dislodged)."""
        raw = text.strip()
        dislodged = raw.startswith("*")
        parts = raw.lstrip("*").split()
        if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
            raise ValueError(f"malformed unit {text!r} (expected e.g. 'A BUD' or 'F STP/SC')")
        return cls(parts[0].upper(), parts[1].upper(), dislodged)

    def format(self) -> str:
        """The engine's notation; ``Unit.parse(u.format()) == u``."""
        return ("*" if self.dislodged else "") + f"{self.kind} {self.location}"

    @property
    def province(self) -> str:
        """The unit's province (coast dropped)."""
        return province_of(self.location)


@dataclass(frozen=True)
class Position:
    """The board at one phase: per power (in the map's power order) its units and owned centres."""

    phase: str
    units: tuple[tuple[Unit, ...], ...]
    centers: tuple[tuple[str, ...], ...]

    def owner_of(self, graph: MapGraph) -> dict[str, str]:
        """``{centre: power}`` for every owned centre."""
        return {c: graph.powers[p] for p, cs in enumerate(self.centers) for c in cs}


@dataclass(frozen=True)
class GameRecord:
    """One game: its id, map and positions in phase order."""

    game_id: str
    map_name: str
    phases: tuple[Position, ...]

    @property
    def graph(self) -> MapGraph:
        """The map's graph and distance tables (cached per map)."""
        return load_map_graph(self.map_name)


# --------------------------------------------------------------------------------------------------------
# Validation


def _parse_power_lists(
    value: Any, graph: MapGraph, *, game: str, phase: str, field: str
) -> dict[int, list[Any]]:
    if not isinstance(value, Mapping):
        raise RecordStateError(
            f"expected an object of power -> list, got {type(value).__name__}",
            game=game,
            phase=phase,
            field=field,
        )
    out: dict[int, list[Any]] = {}
    for power, items in value.items():
        key = str(power).upper()
        if key not in graph.power_index:
            raise UnknownPowerError(
                f"unknown power {power!r} on map {graph.name!r} (powers: {', '.join(graph.powers)})",
                game=game,
                phase=phase,
                field=f"{field}.{power}",
            )
        if items is None:
            items = []
        if not isinstance(items, list):
            raise RecordStateError(
                f"expected a list, got {type(items).__name__}",
                game=game,
                phase=phase,
                field=f"{field}.{power}",
            )
        out[graph.power_index[key]] = items
    return out


def _unit(graph: MapGraph, text: Any, *, game: str, phase: str, field: str) -> Unit:
    """One unit string of a record, checked against the map (province, and where its kind may stand)."""
    if not isinstance(text, str):
        raise RecordStateError(f"expected a unit string, got {text!r}", game=game, phase=phase, field=field)
    try:
        unit = Unit.parse(text)
    except ValueError as exc:
        raise RecordStateError(str(exc), game=game, phase=phase, field=field) from None
    prov = unit.province
    problem = None
    if prov not in graph.province_index:
        problem = f"unknown province {prov!r} in unit {text!r}"
    elif unit.kind == "F" and unit.location not in graph.fleet_index:
        problem = f"a fleet cannot stand at {unit.location!r} (unit {text!r})"
    elif unit.kind == "A" and ("/" in unit.location or not graph.army_provinces[graph.province_index[prov]]):
        problem = f"an army cannot stand at {unit.location!r} (unit {text!r})"
    if problem is not None:
        raise UnknownProvinceError(f"{problem} on map {graph.name!r}", game=game, phase=phase, field=field)
    return unit


def _check_no_shared_centres(
    graph: MapGraph, centers: list[tuple[str, ...]], *, game: str, phase: str
) -> None:
    """Raise :class:`RecordStateError` when a centre is owned by two powers."""
    seen: dict[str, str] = {}
    for p, owned_here in enumerate(centers):
        for c in owned_here:
            if c in seen:
                raise RecordStateError(
                    f"centre {c!r} is owned by both {seen[c]} and {graph.powers[p]}",
                    game=game,
                    phase=phase,
                    field="state.centers",
                )
            seen[c] = graph.powers[p]


def _centre(graph: MapGraph, centre: Any, *, game: str, phase: str, field: str) -> str:
    """One owned centre of a record (a coast is dropped), checked against the map's supply centres."""
    name = province_of(str(centre))
    if name not in graph.sc_index:
        raise UnknownProvinceError(
            f"{centre!r} is not a supply centre on map {graph.name!r}", game=game, phase=phase, field=field
        )
    return name


def _position(graph: MapGraph, phase: str, state: Any, *, game: str) -> Position:
    """One phase's ``state`` (units and centres per power) as a validated :class:`Position`."""
    if not isinstance(state, Mapping):
        raise RecordStateError("phase has no state object", game=game, phase=phase, field="state")
    for key in ("units", "centers"):
        if key not in state:
            raise RecordStateError(f"state has no {key!r}", game=game, phase=phase, field=f"state.{key}")
    raw_units = _parse_power_lists(state["units"], graph, game=game, phase=phase, field="state.units")
    raw_centers = _parse_power_lists(state["centers"], graph, game=game, phase=phase, field="state.centers")
    units: list[tuple[Unit, ...]] = []
    centers: list[tuple[str, ...]] = []
    for p, power in enumerate(graph.powers):  # per power: its units, then its centres
        units.append(
            tuple(
                _unit(graph, text, game=game, phase=phase, field=f"state.units.{power}[{i}]")
                for i, text in enumerate(raw_units.get(p, []))
            )
        )
        centers.append(
            tuple(
                _centre(graph, centre, game=game, phase=phase, field=f"state.centers.{power}[{i}]")
                for i, centre in enumerate(raw_centers.get(p, []))
            )
        )
    _check_no_shared_centres(graph, centers, game=game, phase=phase)
    return Position(phase=phase, units=tuple(units), centers=tuple(centers))


def record_from_saved(saved: Any, *, source: str = "record") -> GameRecord:
    """Build a :class:`GameRecord` from one saved game (the dict of ``to_saved_game_format``).

    ``source`` names the input in error messages when the game has no id.
    """
    if not isinstance(saved, Mapping):
        raise RecordFormatError(f"{source}: a saved game must be a JSON object, got {type(saved).__name__}")
    game = str(saved.get("id") or source)
    map_name = saved.get("map", "standard")
    if not isinstance(map_name, str):
        raise RecordFormatError(f"map must be a string, got {map_name!r}", game=game, field="map")
    try:
        graph = load_map_graph(map_name)
    except UnknownMapError as exc:
        raise RecordFormatError(str(exc), game=game, field="map") from None
    phases = saved.get("phases")
    if not isinstance(phases, list) or not phases:
        raise RecordFormatError(
            "the record has no phases (expected a non-empty list)", game=game, field="phases"
        )
    out: list[Position] = []
    for i, entry in enumerate(phases):
        if not isinstance(entry, Mapping):
            raise RecordFormatError(f"phase #{i} is not an object", game=game, field=f"phases[{i}]")
        name = entry.get("name")
        state = entry.get("state")
        if not isinstance(name, str) and isinstance(state, Mapping):
            name = state.get("name")
        if not isinstance(name, str) or not name:
            raise RecordFormatError(f"phase #{i} has no name", game=game, field=f"phases[{i}].name")
        if state is None:
            raise RecordStateError("phase has no state", game=game, phase=name, field="state")
        out.append(_position(graph, name, state, game=game))
    return GameRecord(game_id=game, map_name=map_name, phases=tuple(out))


def record_from_game(game: Any) -> GameRecord:
    """Build a :class:`GameRecord` from a live ``diplomacy.Game``: its phase history and current phase."""
    from diplomacy.utils.export import to_saved_game_format

    try:
        saved = to_saved_game_format(game)
    except Exception as exc:
        raise RecordFormatError(f"not a diplomacy.Game the engine can export: {exc}") from exc
    return record_from_saved(saved, source=str(getattr(game, "game_id", "game")))


def start_position(map_name: str = "standard") -> Position:
    """The map's starting position (its ``UNITS``/``CENTERS`` lines), named after its first phase."""
    graph = load_map_graph(map_name)
    state = {
        "units": {p: list(us) for p, us in zip(graph.powers, graph.start_units, strict=True)},
        "centers": {p: list(cs) for p, cs in zip(graph.powers, graph.start_centers, strict=True)},
    }
    return _position(graph, graph.first_phase, state, game=f"start of {map_name}")


def _iter_json_documents(text: str, source: str) -> Iterator[tuple[int, Any]]:
    """Yield (line number, object): one document for a JSON file, one per non-blank line for JSONL."""
    stripped = text.strip()
    if not stripped:
        raise RecordFormatError(f"{source}: the file is empty")
    try:
        yield 1, json.loads(stripped)
        return
    except json.JSONDecodeError as error:
        whole_error = error
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) <= 1:
            raise RecordFormatError(
                f"{source}: broken JSON at line {whole_error.lineno} column {whole_error.colno}: "
                f"{whole_error.msg}"
            ) from None
    for i, (n, line) in enumerate(lines):
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            if i == 0:  # not JSONL at all: a (pretty-printed) JSON document broken somewhere
                raise RecordFormatError(
                    f"{source}: broken JSON at line {whole_error.lineno} column {whole_error.colno}: "
                    f"{whole_error.msg}"
                ) from None
            raise RecordFormatError(
                f"{source}: broken JSON on line {n} (column {exc.colno}): {exc.msg}"
            ) from None


RecordSource = str | os.PathLike[str] | bytes | bytearray
"""What :func:`load_records` reads: a path, or the contents themselves (text or UTF-8 bytes)."""


def _is_text(source: str) -> bool:
    """A string is the contents, not a path, when it is blank or starts (after spaces) with ``{`` or ``[``."""
    head = source.lstrip()[:1]
    return head in ("", "{", "[")


def _read_source(source: RecordSource, name: str | None) -> tuple[str, str]:
    """(text, label for error messages) of a path, text or bytes; a bad file raises RecordFormatError."""
    if isinstance(source, str) and _is_text(source):
        return _universal_newlines(source), name or "<text>"
    if isinstance(source, (bytes, bytearray)):
        label = name or "<bytes>"
        data = bytes(source)
    else:
        label = name or str(Path(source))
        try:
            data = Path(source).read_bytes()
        except FileNotFoundError:
            raise RecordFormatError(f"{label}: no such file") from None
        except OSError as exc:
            raise RecordFormatError(f"{label}: cannot read the file: {exc}") from None
    try:
        return _universal_newlines(data.decode("utf-8")), label
    except UnicodeDecodeError as exc:
        raise RecordFormatError(f"{label}: cannot read the file: {exc}") from None


def _universal_newlines(text: str) -> str:
    """CRLF and lone CR line ends as LF, as a file read in text mode has them (error line numbers agree)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_records(source: RecordSource, *, name: str | None = None) -> list[GameRecord]:
    """Load every game of a saved-game JSON document (one game, or a list) or JSONL (one game a line).

    ``source`` is a path (``str`` or ``os.PathLike``), or the contents themselves: ``bytes`` (UTF-8), or a
    ``str`` that starts with ``{`` or ``[`` (any other string is a path; a :class:`~pathlib.Path` always is
    one).  ``name`` labels the input in error messages (default: the path, ``<text>`` or ``<bytes>``), e.g.
    the file name of an upload.

    Raises :class:`RecordFormatError` for a missing or unreadable file, bytes that are not UTF-8, or broken
    JSON (with the line number), and the other :class:`RecordError` subclasses for bad contents.
    """
    text, label = _read_source(source, name)
    games: list[GameRecord] = []
    for line, doc in _iter_json_documents(text, label):
        docs: Iterable[Any] = doc if isinstance(doc, list) else [doc]
        for k, item in enumerate(docs):
            where = f"{label}:{line}" if not isinstance(doc, list) else f"{label}[{k}]"
            games.append(record_from_saved(item, source=where))
    return games


def positions_of(
    record: GameRecord | Sequence[Position], map_name: str | None = None
) -> tuple[Sequence[Position], str]:
    """The positions and map of a record, or of bare positions on ``map_name`` (default ``"standard"``).

    Every measure implementation takes either; this is the one place that tells them apart.
    """
    if isinstance(record, GameRecord):
        return record.phases, record.map_name
    return record, map_name or "standard"


def shipped_game_paths() -> list[Path]:
    """The three real human games shipped inside the installed ``diplomacy`` package's tests.

    They are read in place (never copied: their licence is not ours).
    """
    import diplomacy

    folder = Path(diplomacy.__file__).resolve().parent / "tests" / "network"
    return [folder / f"{i}.json" for i in (1, 2, 3) if (folder / f"{i}.json").is_file()]


def random_game(
    seed: int, *, map_name: str = "standard", max_phases: int = 40, game_id: str | None = None
) -> Any:
    """Play a seeded game of uniformly random legal orders with the engine; return the ``diplomacy.Game``.

    Every phase, each power picks, for each of its orderable locations, one order uniformly from
    ``game.get_all_possible_orders()`` (lists sorted first, so the choice does not depend on set order),
    with a numpy Generator from ``make_rng(seed)``.  Stops when the record holds ``max_phases`` phases
    (the last one unplayed, as the engine exports it) or when the game is done.  Same seed and map,
    same game.
    """
    from boardeval.core import ParamsError, make_rng
    from diplomacy import Game

    if max_phases < 1:
        raise ParamsError(f"max_phases must be >= 1, got {max_phases}")
    graph = load_map_graph(map_name)  # validates the name with a clear error
    rng = make_rng(seed)
    game = Game(map_name=graph.name, game_id=game_id or f"random-{graph.name}-{seed}")
    for _ in range(max_phases - 1):
        if game.is_game_done:
            break
        possible = game.get_all_possible_orders()
        for power in sorted(game.powers):
            orders = []
            for loc in sorted(game.get_orderable_locations(power)):
                options = sorted(possible.get(loc, []))
                if options:
                    orders.append(options[int(rng.integers(len(options)))])
            game.set_orders(power, orders)
        game.process()
    return game


def save_records(games: Iterable[Any], path: str | os.PathLike[str]) -> int:
    """Write live ``diplomacy.Game`` objects as JSONL (one saved game a line); return the number written.

    Timestamps are the engine's own, so two runs differ only in those fields.
    """
    from diplomacy.utils.export import to_saved_game_format

    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for game in games:
            out.write(json.dumps(to_saved_game_format(game)) + "\n")
            count += 1
    return count
