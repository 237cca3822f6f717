"""Game records: the engine's saved-game JSON / JSONL and live ``diplomacy.Game`` objects, per phase.

A record is a sequence of :class:`Position` (one per phase): each power's units and supply centres.
Everything is validated against the map while loading, so the measures never meet an unknown power or
province: a bad record raises a :class:`RecordError` subclass whose message names the game, the phase
and the field::

    game '00128f1d', phase 'F1902M', state.units.ITALY[2]: unknown province 'XYZ' in unit 'A XYZ'

Dislodged units (the engine writes them as ``'*A SEV'`` during retreat phases) are kept, flagged
``dislodged=True``: they are still on the board until the retreat is resolved.

Size: about 685 lines: one format (the engine's saved game, JSON and JSONL) with its pydantic models,
the checks against the map that run while loading, and the value types they build; the checks and the
models are read together when the format changes.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from boardeval.core import DiplomacyError
from boardeval.core.inputs import check_depth, loads_json, validation_message
from boardeval.core.numbers import quote
from boardeval.diplomacy.graph import MapGraph, UnknownMapError, load_map_graph, province_of

__all__ = [
    "MAX_RECORD_CHARS",
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
        """Parse the engine's notation: ``'A BUD'``, ``'F STP/SC'``, ``'*F SEV'`` (dislodged).

        Exactly as the engine writes it: upper case, one space, no padding (``'a bud'``, ``' A BUD'``,
        ``'A  BUD'`` are refused, not fixed up). A bad text raises :class:`RecordStateError` quoting it.
        """
        m = _UNIT_RE.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            hint = (
                " (upper case, as the engine writes it)"
                if isinstance(text, str) and _UNIT_RE.fullmatch(text.upper())
                else ""
            )
            raise RecordStateError(
                f"malformed unit {quote(text)}{hint}: expected e.g. 'A BUD', 'F STP/SC' or '*F SEV'"
            )
        return cls(m.group(2), m.group(3), m.group(1) == "*")

    def format(self) -> str:
        """The engine's notation; ``Unit.parse(u.format()) == u``."""
        return ("*" if self.dislodged else "") + f"{self.kind} {self.location}"

    @functools.cached_property
    def province(self) -> str:
        """The unit's province (coast dropped); computed once per unit (checked units are shared)."""
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
# Validation: the saved-game format as strict pydantic models, then the map checks

MAX_RECORD_CHARS = 32_000_000
"""Largest JSON document read (one game, or one JSONL line): a long human game with its press is a few MB;
the shared limit of :mod:`boardeval.core.inputs` (1,000,000 characters) is for board and parameter files."""

_UNIT_RE = re.compile(r"^(\*?)([AF]) ([A-Z0-9]+(?:/[A-Z]{2})?)$")
_PHASE_RE = re.compile(r"^([SFW])([0-9]{4})([MRA])$")
_SEASON_TYPES = {"S": "MR", "F": "MR", "W": "A"}
COMPLETED = "COMPLETED"
"""The engine's name for the phase after the end of a finished game (only ever the last phase)."""


class _Strict(BaseModel):
    """Strict types (``"1"`` is not an int, ``1`` is not text) and no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid")


class _SavedModel(_Strict):
    """One saved game (``diplomacy.utils.export.to_saved_game_format``): ``id``, ``map``, ``rules``,
    ``phases`` (each phase is checked on its own, so that errors name it)."""

    id: str | None = None
    map: str = "standard"
    rules: list[str] = []
    phases: list[Any]


class _PhaseModel(_Strict):
    """One phase: its name, the board (``state``) and what the engine stored about the phase."""

    name: str | None = None
    state: dict[str, Any] | None = None
    orders: dict[str, list[str] | None] = {}
    results: dict[str, list[Any]] = {}
    messages: list[dict[str, Any]] | dict[str, Any] = []


class _StateModel(_Strict):
    """A phase's ``state``: units and centres per power (read), plus the engine's other fields (typed)."""

    units: dict[str, list[str] | None]
    centers: dict[str, list[str] | None]
    name: str | None = None
    timestamp: int | None = None
    zobrist_hash: str | None = None
    note: str | None = None
    retreats: dict[str, dict[str, Any]] = {}
    homes: dict[str, list[str] | None] = {}
    influence: dict[str, list[str] | None] = {}
    civil_disorder: dict[str, int] = {}
    builds: dict[str, dict[str, Any]] = {}
    game_id: str | None = None
    map: str | None = None
    rules: list[str] = []


def _power_lists(
    value: Mapping[str, list[str] | None], graph: MapGraph, *, game: str, phase: str, field: str
) -> dict[int, list[str]]:
    """``{power index: items}``; power names are the map's, spelled exactly (the engine's upper case)."""
    out: dict[int, list[str]] = {}
    for power, items in value.items():
        if power not in graph.power_index:
            hint = " (power names are upper case)" if power.strip().upper() in graph.power_index else ""
            raise UnknownPowerError(
                f"unknown power {quote(power)}{hint} on map {graph.name!r} "
                f"(powers: {', '.join(graph.powers)})",
                game=game,
                phase=phase,
                field=f"{field}.{power}",
            )
        out[graph.power_index[power]] = list(items or [])
    return out


def _unit(graph: MapGraph, text: str, *, game: str, phase: str, field: str) -> Unit:
    """One unit string of a record, checked against the map (province, and where its kind may stand)."""
    try:
        unit = Unit.parse(text)
    except RecordStateError as exc:
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
    """Raise :class:`RecordStateError` when a centre is owned by two powers (or listed twice)."""
    seen: dict[str, str] = {}
    for p, owned_here in enumerate(centers):
        for c in owned_here:
            if c in seen:
                owners = (
                    f"listed twice for {seen[c]}"
                    if seen[c] == graph.powers[p]
                    else f"owned by both {seen[c]} and {graph.powers[p]}"
                )
                raise RecordStateError(
                    f"centre {c!r} is {owners}", game=game, phase=phase, field="state.centers"
                )
            seen[c] = graph.powers[p]


def _check_one_unit_a_province(
    graph: MapGraph, units: list[tuple[Unit, ...]], *, game: str, phase: str
) -> None:
    """Raise :class:`RecordStateError` when two units stand in one province (coasts count as the
    province). A dislodged unit (``*A SEV``) shares its province with the unit that dislodged it, so
    dislodged units are checked among themselves."""
    seen: dict[tuple[str, bool], tuple[str, Unit]] = {}
    for p, owned in enumerate(units):
        for unit in owned:
            key = (unit.province, unit.dislodged)
            if key in seen:
                other_power, other = seen[key]
                raise RecordStateError(
                    f"two units in province {unit.province!r}: {other_power} {other.format()!r} and "
                    f"{graph.powers[p]} {unit.format()!r}",
                    game=game,
                    phase=phase,
                    field="state.units",
                )
            seen[key] = (graph.powers[p], unit)


def _centre(graph: MapGraph, centre: str, *, game: str, phase: str, field: str) -> str:
    """One owned centre of a record, exactly as the map names it (``'BUD'``): a supply centre is a province,
    so ``'STP/SC'`` is refused, and so are ``'bud'``, ``'SwE'``, ``' BUD'`` (issue 24: they were upper-cased
    and their coast dropped silently); the message names the spelling meant."""
    if isinstance(centre, str) and centre in graph.sc_index:
        return centre
    near = province_of(centre.strip()) if isinstance(centre, str) else None
    if near is not None and near in graph.sc_index:
        why = "without a coast" if "/" in centre else "upper case, without spaces"
        hint = f": write {near!r} (a supply centre is written as the map names it, {why})"
    else:
        hint = ""
    raise UnknownProvinceError(
        f"{quote(centre)} is not a supply centre on map {graph.name!r}{hint}",
        game=game,
        phase=phase,
        field=field,
    )


def _check_unit_counts(graph: MapGraph, units: Mapping[int, list[str]], *, game: str, phase: str) -> None:
    """Raise :class:`RecordStateError` when a power has more units than the map has supply centres (a unit
    needs a centre at the adjustment that built it; issue 24: AUSTRIA with 35 units loaded). Checked on
    the raw lists, before any unit is read."""
    limit = len(graph.sc_names)
    for p, owned in units.items():
        if len(owned) > limit:
            raise RecordStateError(
                f"{graph.powers[p]} has {len(owned)} units, more than the {limit} supply centres of map "
                f"{graph.name!r}",
                game=game,
                phase=phase,
                field=f"state.units.{graph.powers[p]}",
            )


def _state_model(state: Any, *, game: str, phase: str) -> _StateModel:
    """``state`` checked by :class:`_StateModel`; problems are :class:`RecordStateError` naming the field."""
    if not isinstance(state, Mapping):
        raise RecordStateError(
            f"phase has no state object (got {quote(state)})", game=game, phase=phase, field="state"
        )
    for key in ("units", "centers"):
        if key not in state:
            raise RecordStateError(f"state has no {key!r}", game=game, phase=phase, field=f"state.{key}")
    try:
        return _StateModel.model_validate(dict(state))
    except ValidationError as exc:
        raise RecordStateError(validation_message(exc, root="state"), game=game, phase=phase) from None


T = TypeVar("T")

_CHECKED_MAX = 20_000
"""Most unit and centre texts remembered as checked per map (a map has a few thousand valid ones)."""


@functools.lru_cache(maxsize=32)
def _checked(map_name: str) -> tuple[dict[str, Unit], dict[str, str]]:
    """Per map: unit texts and centre texts already checked and found valid, with what they read as.

    A game repeats the same few hundred unit and centre texts in every phase: each is parsed and checked
    against the map once (issue 24: 132,000 unit checks were a third of loading 3,000 games). Only valid
    texts are kept, so a bad one is checked, and its error raised naming the phase and field, every time."""
    return {}, {}


def _each_checked(
    texts: Sequence[str], good: dict[str, T], field: str, check: Callable[[str, str], T]
) -> tuple[T, ...]:
    """``check(text, f"{field}[i]")`` of every text, except those ``good`` already holds (checked before);
    the new good ones are added to ``good``."""
    out: list[T] = []
    for i, text in enumerate(texts):
        value = good.get(text)
        if value is None:
            value = good[text] = check(text, f"{field}[{i}]")
        out.append(value)
    return tuple(out)


def _position(graph: MapGraph, phase: str, state: Any, *, game: str) -> Position:
    """One phase's ``state`` (units and centres per power) as a validated :class:`Position`."""
    model = _state_model(state, game=game, phase=phase)
    raw_units = _power_lists(model.units, graph, game=game, phase=phase, field="state.units")
    raw_centers = _power_lists(model.centers, graph, game=game, phase=phase, field="state.centers")
    _check_unit_counts(graph, raw_units, game=game, phase=phase)
    units: list[tuple[Unit, ...]] = []
    centers: list[tuple[str, ...]] = []
    good_units, good_centres = _checked(graph.name)
    if len(good_units) + len(good_centres) > _CHECKED_MAX:
        good_units.clear()
        good_centres.clear()

    def unit(text: str, field: str) -> Unit:
        return _unit(graph, text, game=game, phase=phase, field=field)

    def centre(text: str, field: str) -> str:
        return _centre(graph, text, game=game, phase=phase, field=field)

    for p, power in enumerate(graph.powers):  # per power: its units, then its centres
        units.append(_each_checked(raw_units.get(p, []), good_units, f"state.units.{power}", unit))
        centers.append(_each_checked(raw_centers.get(p, []), good_centres, f"state.centers.{power}", centre))
    _check_one_unit_a_province(graph, units, game=game, phase=phase)
    _check_no_shared_centres(graph, centers, game=game, phase=phase)
    return Position(phase=phase, units=tuple(units), centers=tuple(centers))


def phase_order(name: str) -> tuple[int, int, int] | None:
    """``'F1905R'`` -> ``(1905, 1, 1)`` (year, season S/F/W, type M/R/A), ``COMPLETED`` after every
    other phase; ``None`` for a name that is not a phase (``'X1901M'``, ``'W1901M'``, ``'f1901m'``)."""
    if name == COMPLETED:
        return (10**4, 0, 0)
    m = _PHASE_RE.fullmatch(name)
    if m is None or m.group(3) not in _SEASON_TYPES[m.group(1)]:
        return None
    return int(m.group(2)), "SFW".index(m.group(1)), "MRA".index(m.group(3))


def _phase_name(entry: _PhaseModel, i: int, *, game: str, previous: str | None) -> str:
    """The phase's name (its own, else its state's), checked: a phase name, later than the previous one."""
    name = entry.name
    state_name = entry.state.get("name") if isinstance(entry.state, Mapping) else None
    if name is None and isinstance(state_name, str):
        name = state_name
    if not name:
        raise RecordFormatError(f"phase #{i} has no name", game=game, field=f"phases[{i}].name")
    if isinstance(state_name, str) and state_name != name:
        raise RecordFormatError(
            f"phase #{i} is named {name!r} but its state says {quote(state_name)}",
            game=game,
            field=f"phases[{i}].state.name",
        )
    key = phase_order(name)
    if key is None:
        raise RecordFormatError(
            f"phase #{i}: {quote(name)} is not a phase name (season S/F/W, a 4-digit year, type M/R/A: "
            f"S1901M, F1901R, W1901A; or {COMPLETED})",
            game=game,
            field=f"phases[{i}].name",
        )
    if previous is not None:
        before = phase_order(previous)
        if name == previous:
            raise RecordFormatError(
                f"phase #{i}: {name!r} appears twice", game=game, field=f"phases[{i}].name"
            )
        if before is not None and key < before:
            raise RecordFormatError(
                f"phase #{i}: {name!r} comes after {previous!r} (phases must be in game order)",
                game=game,
                field=f"phases[{i}].name",
            )
    return name


def record_from_saved(saved: Any, *, source: str = "record") -> GameRecord:
    """Build a :class:`GameRecord` from one saved game (the dict of ``to_saved_game_format``).

    ``source`` names the input in error messages when the game has no id. The format is read strictly
    (docs/reliability.md): known keys only, JSON types as the engine writes them, phase names that are
    phases, in game order, each once; one unit a province; power names spelled as the map spells them.
    """
    if not isinstance(saved, Mapping):
        raise RecordFormatError(f"{source}: a saved game must be a JSON object, got {quote(saved)}")
    given = saved.get("id")
    game: str = given if isinstance(given, str) and given else source
    try:
        model = _SavedModel.model_validate(dict(saved))
    except ValidationError as exc:
        message = validation_message(exc, root="$", fields=list(_SavedModel.model_fields))
        if exc.errors()[0]["type"] == "missing":  # name what was given instead
            message += f", got {quote(dict(saved), 40)}"
        raise RecordFormatError(message, game=game) from None
    try:
        graph = load_map_graph(model.map)
    except UnknownMapError as exc:
        raise RecordFormatError(str(exc), game=game, field="map") from None
    if not model.phases:
        raise RecordFormatError(
            "the record has no phases (expected a non-empty list)", game=game, field="phases"
        )
    out: list[Position] = []
    previous: str | None = None
    for i, raw in enumerate(model.phases):
        if not isinstance(raw, Mapping):
            raise RecordFormatError(
                f"phase #{i} is not an object (got {quote(raw)})", game=game, field=f"phases[{i}]"
            )
        label = raw.get("name") if isinstance(raw.get("name"), str) else None
        try:
            entry = _PhaseModel.model_validate(dict(raw))
        except ValidationError as exc:
            raise RecordFormatError(
                validation_message(exc, root=f"$.phases[{i}]", fields=list(_PhaseModel.model_fields)),
                game=game,
                phase=label,
            ) from None
        if previous == COMPLETED:
            raise RecordFormatError(
                f"phase #{i} comes after {COMPLETED} (the end of the game)", game=game, field=f"phases[{i}]"
            )
        name = _phase_name(entry, i, game=game, previous=previous)
        if entry.state is None:
            raise RecordStateError("phase has no state", game=game, phase=name, field="state")
        out.append(_position(graph, name, entry.state, game=game))
        previous = name
    return GameRecord(game_id=game, map_name=model.map, phases=tuple(out))


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


def _is_document(line: str, source: str) -> bool:
    """True if ``line`` alone is a complete JSON value (then the text is JSONL, one document a line)."""
    try:
        check_depth(line, source, error=RecordFormatError, max_chars=MAX_RECORD_CHARS)
        json.loads(line)
    except (ValueError, RecordFormatError):  # JSONDecodeError, an integer over 4,300 digits, too deep
        return False
    return True


def _iter_json_documents(text: str, source: str) -> Iterator[tuple[int, Any]]:
    """Yield (line number, object): one document for a JSON file, one per non-blank line for JSONL.

    The text is JSONL when it has several non-blank lines and the first is a complete JSON value on its
    own; otherwise it is one (perhaps pretty-printed) JSON document. Every document is read by
    :func:`~boardeval.core.inputs.loads_json` (no duplicate keys, no NaN, integers of at most 30 digits,
    at most 32 levels of nesting), with a size limit of :data:`MAX_RECORD_CHARS` characters.
    """
    if not text.strip():
        raise RecordFormatError(f"{source}: the file is empty")
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) <= 1 or not _is_document(lines[0][1], source):
        yield lines[0][0], loads_json(text, source, error=RecordFormatError, max_chars=MAX_RECORD_CHARS)
        return
    for n, line in lines:
        yield n, loads_json(line, f"{source} line {n}", error=RecordFormatError, max_chars=MAX_RECORD_CHARS)


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
        if len(label) > 255 or not label.isprintable():  # a very long or odd name is quoted, shortened
            label = quote(label)
        try:
            data = Path(source).read_bytes()
        except FileNotFoundError:
            raise RecordFormatError(f"{label}: no such file") from None
        except OSError as exc:  # strerror only: the exception's text repeats the (maybe huge) name
            raise RecordFormatError(f"{label}: cannot read the file: {exc.strerror or exc}") from None
        except ValueError as exc:  # a name the OS cannot take: a NUL, a lone surrogate (UnicodeEncodeError)
            raise RecordFormatError(f"{label}: not a file name the system accepts ({exc})") from None
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
    if not games:  # a file holding [] (callers used to take games[0]: IndexError)
        raise RecordFormatError(f"{label}: the file holds no game ({quote(text.strip()[:20])})")
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

    They are read in place (never copied: their licence is not ours).  The package is found, not imported
    (importing the engine takes ~0.3 s: the web page lists these games on its first request).
    """
    import importlib.util

    spec = importlib.util.find_spec("diplomacy")
    if spec is None or spec.origin is None:
        return []
    folder = Path(spec.origin).resolve().parent / "tests" / "network"
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
    from boardeval.diplomacy.convoys import engine_game

    if max_phases < 1:
        raise ParamsError(f"max_phases must be >= 1, got {max_phases}")
    graph = load_map_graph(map_name)  # validates the name with a clear error
    rng = make_rng(seed)
    game = engine_game(graph.name, game_id=game_id or f"random-{graph.name}-{seed}")
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
