"""The engine's convoy-path table of a map: built under our control, or refused where it must not be built.

A ``diplomacy.Game`` needs, per map, a table of every convoy path (``Map.convoy_paths``). The engine ships
it for 11 maps (``diplomacy/maps/convoy_paths_cache.pkl``); for the others (``colonial``, ``empire``,
``known_world_901``, ``world``) its first ``Map(name)`` builds it (``diplomacy.utils.convoy_paths``):
``print``\\ s on stdout (a ``--json`` output was no longer JSON), a process pool plus a manager process and
a progress thread that each print a traceback on Ctrl-C, tens of minutes and gigabytes for ``world``
(figures: ``docs/reliability.md``, Request bounds; ``benchmarks/diplomacy_map_load.py``).

:func:`prepare_map` builds the same table with the engine's own per-coast search
(``_get_convoy_paths``), on :func:`boardeval.core.map_jobs` (progress, Ctrl-C: the workers stop at once,
no traceback, :class:`~boardeval.core.JobsInterrupted`), prints nothing, and stores it where the engine
looks (its in-memory cache and its on-disk cache ``~/.cache/diplomacy``, written atomically), so the
engine never builds it itself. :func:`engine_game` is ``diplomacy.Game(map_name=...)`` after
:func:`prepare_map`: every ``Game`` of this library is made through it.

A long-running server must never start such a build from a request: :func:`forbid_convoy_builds` makes
:func:`prepare_map` raise :class:`MapNotPreparedError` instead (the web answers 422 saying why). The
measures never need the table (``load_map_graph`` reads maps without it).
"""

from __future__ import annotations

import functools
import os
import pickle
from collections import OrderedDict
from pathlib import Path
from typing import Any

from boardeval.core import DiplomacyError, Progress, map_jobs
from boardeval.core.files import write_atomic
from boardeval.diplomacy.graph import _plain_engine_map, load_map_graph

__all__ = [
    "MapNotPreparedError",
    "convoy_table_ready",
    "engine_game",
    "forbid_convoy_builds",
    "prepare_map",
]

_BUILDS_ALLOWED = [True]


class MapNotPreparedError(DiplomacyError):
    """The map's convoy-path table is not built and building it is not allowed here (a server)."""


def forbid_convoy_builds(forbid: bool = True) -> None:
    """Make :func:`prepare_map` refuse to build a missing table (:class:`MapNotPreparedError`) in this
    process; ``forbid_convoy_builds(False)`` allows it again."""
    _BUILDS_ALLOWED[0] = not forbid


def _engine_modules() -> tuple[Any, Any]:
    import diplomacy.engine.map as engine_map
    import diplomacy.utils.convoy_paths as convoy_paths

    return engine_map, convoy_paths


def _map_file(name: str) -> str:
    from diplomacy import settings

    return os.path.join(settings.PACKAGE_DIR, "maps", f"{name}.map")


def _disk_table(name: str) -> dict[int, list[Any]] | None:
    """The map's table from the engine's on-disk cache in the home folder (``~/.cache/diplomacy``), or None.

    Another process may have built it since this one imported the engine, which read its caches (the
    shipped one and this one) into ``CONVOYS_PATH_CACHE`` once. The file is read again only when it has
    changed (its size and time), and its maps are remembered, so asking again costs a ``stat``."""
    _, convoy_paths = _engine_modules()
    path = convoy_paths.EXTERNAL_CACHE_PATH
    try:
        stat = os.stat(path)
    except OSError:
        return None
    digest = convoy_paths.get_file_md5(_map_file(name))
    stamp = (path, stat.st_mtime_ns, stat.st_size)
    if _SEEN.get("stamp") == stamp and digest not in _SEEN.get("digests", ()):
        return None
    data = _read_cache(path, convoy_paths.__VERSION__)
    _SEEN.update(stamp=stamp, digests=frozenset(data))
    table: dict[int, list[Any]] | None = data.get(digest)
    return table


_SEEN: dict[str, Any] = {}
"""The home cache file last read (path, time, size) and the map digests it held."""


def _read_cache(path: str, version: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("__version__") == version else {}


def convoy_table_ready(name: str) -> bool:
    """True when the engine has map ``name``'s convoy-path table (in memory or in its on-disk caches):
    ``diplomacy.Game`` on that map then starts at once."""
    load_map_graph(name)  # an unknown name is UnknownMapError
    engine_map, _ = _engine_modules()
    if name in engine_map.CONVOYS_PATH_CACHE:
        return True
    table = _disk_table(name)
    if table is None:
        return False
    engine_map.CONVOYS_PATH_CACHE[name] = table
    return True


class _NoQueue:
    """The progress queue the engine's per-coast search reports to: we count finished coasts instead."""

    def put(self, item: Any) -> None:
        del item


@functools.lru_cache(maxsize=2)
def _search_map(name: str) -> Any:
    """The engine's map of ``name`` without a convoy table (the one the engine already loaded, if any:
    for a cached name ``Map(name, use_cache=False)`` is an empty object), with the engine's full adjacency
    cache: the search asks most of it."""
    return _plain_engine_map(name, lazy=False)


def _coast_paths(job: tuple[str, str, int]) -> list[tuple[str, set[str], set[str]]]:
    """Every convoy path from one coast: the engine's search (a pool job: module level, picklable)."""
    name, coast, max_length = job
    _, convoy_paths = _engine_modules()
    found: list[tuple[str, set[str], set[str]]] = convoy_paths._get_convoy_paths(
        _search_map(name), coast, max_length, _NoQueue()
    )
    return found


def prepare_map(name: str, *, progress: Progress | None = None, workers: int = 1) -> bool:
    """Make sure the engine has map ``name``'s convoy-path table; True if it was built now.

    Built as the engine builds it (the same search per coast, the same buckets by number of fleets, the
    same cache entry) on ``workers`` processes through :func:`boardeval.core.map_jobs`: ``progress`` gets
    ``(coasts done, coasts, label)``; Ctrl-C raises :class:`~boardeval.core.JobsInterrupted` and keeps
    nothing (a partial table is useless). Nothing is printed. After :func:`forbid_convoy_builds`, a
    missing table raises :class:`MapNotPreparedError` instead.
    """
    if convoy_table_ready(name):
        return False
    if not _BUILDS_ALLOWED[0]:
        raise MapNotPreparedError(
            f"map {name!r} needs the diplomacy engine's convoy-path table, which is not built yet; building "
            "it takes minutes to an hour and gigabytes of memory (docs/reliability.md), so it is not done "
            f"here: run `boardeval diplomacy random-game --map {name} --seed 0 --max-phases 1 --out "
            "/tmp/x.jsonl` once on this machine, then try again"
        )
    engine_map, _ = _engine_modules()
    table = _build_table(name, progress, workers)
    engine_map.CONVOYS_PATH_CACHE[name] = table
    _store(name, table)
    return True


def _build_table(name: str, progress: Progress | None, workers: int) -> OrderedDict[int, list[Any]]:
    """The table as ``diplomacy.utils.convoy_paths._build_convoy_paths_cache`` builds it."""
    _, convoy_paths = _engine_modules()
    m = _search_map(name)
    coasts = [
        loc.upper() for loc in m.locs if m.area_type(loc) in convoy_paths.COAST_TYPES and "/" not in loc
    ]
    max_length = convoy_paths.MAX_CONVOY_LENGTH
    found = map_jobs(
        _coast_paths,
        [(name, coast, max_length) for coast in coasts],
        workers=workers,
        progress=progress,
        label=f"convoy paths of map {name!r} (first use)",
    )
    buckets: OrderedDict[int, list[Any]] = OrderedDict((i, []) for i in range(1, len(m.locs) + 1))
    for paths in found:
        for start, fleets, dests in paths:
            buckets[len(fleets)].append((start, fleets, dests))
    return buckets


def _store(name: str, table: OrderedDict[int, list[Any]]) -> None:
    """Add the table to the engine's on-disk cache (``~/.cache/diplomacy``), replacing the file atomically
    (the engine's own writer truncates it in place: a process killed meanwhile left it broken)."""
    _, convoy_paths = _engine_modules()
    path = convoy_paths.EXTERNAL_CACHE_PATH
    data = _read_cache(path, convoy_paths.__VERSION__) or {"__version__": convoy_paths.__VERSION__}
    data[convoy_paths.get_file_md5(_map_file(name))] = table
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        write_atomic(Path(path), pickle.dumps(data))
    except OSError:  # a read-only home: the table stays in memory for this process
        return


def engine_game(map_name: str, **kwargs: Any) -> Any:
    """``diplomacy.Game(map_name=map_name, **kwargs)`` after :func:`prepare_map` (serial build, silent)."""
    from diplomacy import Game

    prepare_map(map_name)
    return Game(map_name=map_name, **kwargs)
