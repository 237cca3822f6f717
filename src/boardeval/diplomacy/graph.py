"""Province graphs and all-pairs distance tables for any map the ``diplomacy`` engine loads.

Three distance tables are built once per map (numpy, cached per map name) and shared by every measure:

```
  tempo[p, q]   provinces x provinces   fewest moves on the PROVINCE graph: the union of army and
                                        fleet adjacency, coasts merged into their province
                                        (SPA/NC -> SPA), no convoys.  "One tempo = one unit moving
                                        one province."
  army[p, q]    provinces x provinces   fewest army moves (army graph only; no convoys, so an army
                                        that cannot walk there stays unreachable = inf).
  fleet[l, q]   fleet locs x provinces  fewest fleet moves from fleet location l (coast-aware:
                                        SPA/NC and SPA/SC are different rows) to ANY coast of
                                        province q (a fleet "reaches" a split-coast province
                                        through any of its coasts).
```

Unreachable entries are ``numpy.inf`` (the tables are float64 so that ``inf`` propagates honestly through
sums and minima).  Impassable (``SHUT``) provinces such as Switzerland are not in the graph at all.

Nothing here knows the standard map: provinces, centres, powers, homes and the victory threshold are
read from :class:`diplomacy.Map`.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core import DiplomacyError, near_name, pick_name

__all__ = [
    "UNREACHABLE",
    "MapGraph",
    "UnknownMapError",
    "available_maps",
    "load_map_graph",
    "province_of",
]

UNREACHABLE = float("inf")
"""The distance between two places no unit can connect (e.g. an army and an island, without convoys)."""

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


class UnknownMapError(DiplomacyError):
    """A map name the ``diplomacy`` engine does not ship (or cannot load)."""


def province_of(location: str) -> str:
    """The province of a location: the part before a coast suffix, upper-cased (``'spa/nc'`` -> ``'SPA'``)."""
    return location.split("/", 1)[0].upper()


def available_maps() -> list[str]:
    """Names of the maps shipped with the installed ``diplomacy`` package (``diplomacy/maps/*.map``)."""
    import diplomacy

    folder = os.path.join(os.path.dirname(diplomacy.__file__), "maps")
    return sorted(name[:-4] for name in os.listdir(folder) if name.endswith(".map"))


def _all_pairs_bfs(adjacent: BoolArray) -> FloatArray:
    """All-pairs shortest path lengths on an unweighted directed graph, by level-synchronous BFS.

    ``adjacent[i, j]`` says one step goes from i to j.  Every level is one boolean matrix product over
    all sources at once, so the cost is (diameter) products of an n x n matrix: microseconds for ~80
    provinces, a few milliseconds for the largest shipped maps.
    """
    n = adjacent.shape[0]
    dist = np.full((n, n), UNREACHABLE)
    step = adjacent.astype(np.int32)
    seen = np.eye(n, dtype=bool)
    frontier = seen.copy()
    dist[seen] = 0.0
    level = 0
    while frontier.any():
        level += 1
        nxt = (frontier.astype(np.int32) @ step) > 0
        nxt &= ~seen
        dist[nxt] = float(level)
        seen |= nxt
        frontier = nxt
    return dist


def pack_rows(mask: BoolArray) -> npt.NDArray[np.uint64]:
    """Pack a boolean matrix ``[rows, n]`` into bitsets ``[rows, ceil(n / 64)]``: bit j%64 of word j//64."""
    rows, n = mask.shape
    words = max(1, (n + 63) // 64)
    padded = np.zeros((rows, words * 64), dtype=bool)
    padded[:, :n] = mask
    return np.ascontiguousarray(np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64))


@dataclass(frozen=True, eq=False)
class CompactTables:
    """The distance tables as small unsigned integers, and adjacency as bitsets, for the hot loops.

    Distances on the shipped maps are below 255, so ``uint8`` with ``far`` (= 255) standing for
    unreachable: sorting, minima and comparisons on one byte per entry are several times faster than on
    float64, and ``far`` orders after every real distance, as ``inf`` does.  (``uint16`` if a map ever
    needs it.)  Bitsets: row i has bit j set when province j is adjacent to i or i itself.
    """

    far: int
    tempo: npt.NDArray[np.unsignedinteger]
    tempo_sc: npt.NDArray[np.unsignedinteger]
    unit_sc: npt.NDArray[np.unsignedinteger]
    near_bits: npt.NDArray[np.uint64]
    """``[province, words]``: the province and its neighbours on the province graph."""
    self_bits: npt.NDArray[np.uint64]
    """``[province, words]``: the province alone."""

    @staticmethod
    def build(graph: MapGraph) -> CompactTables:
        """Convert one map's tables (called once per map through :attr:`MapGraph.compact`)."""
        finite = [t[np.isfinite(t)] for t in (graph.tempo, graph.army, graph.fleet)]
        top = max((int(f.max()) for f in finite if f.size), default=0)
        dtype = np.uint8 if top < 255 else np.uint16
        far = int(np.iinfo(dtype).max)

        def small(table: FloatArray) -> npt.NDArray[np.unsignedinteger]:
            out: npt.NDArray[np.unsignedinteger] = np.where(np.isfinite(table), table, far).astype(dtype)
            out.setflags(write=False)
            return out

        n = len(graph.provinces)
        return CompactTables(
            far=far,
            tempo=small(graph.tempo),
            tempo_sc=small(graph.tempo_sc),
            unit_sc=small(graph.unit_sc),
            near_bits=pack_rows(graph.adjacent | np.eye(n, dtype=bool)),
            self_bits=pack_rows(np.eye(n, dtype=bool)),
        )


@dataclass(frozen=True, eq=False)
class MapGraph:
    """One map's provinces, centres, powers and precomputed distance tables (see the module docstring).

    Build with :func:`load_map_graph` (cached per map name).  Indices: provinces are numbered in sorted
    name order; ``scs`` lists the province index of every supply centre in sorted name order; powers are
    numbered in the engine's order (alphabetical on the shipped maps).
    """

    name: str
    provinces: tuple[str, ...]
    powers: tuple[str, ...]
    sc_names: tuple[str, ...]
    fleet_locations: tuple[str, ...]
    first_phase: str
    """The map's first phase in short form (``'S1901M'``), used to name its starting position."""
    win: int
    """Supply centres needed to win (R): the map's VICTORY setting when it has one, else |SC| // 2 + 1."""
    homes: tuple[tuple[int, ...], ...]
    """Per power, the SC indices (into ``sc_names``) of its original home centres."""
    start_units: tuple[tuple[str, ...], ...]
    """Per power, the map's starting units as engine strings (``'F STP/SC'``)."""
    start_centers: tuple[tuple[str, ...], ...]
    """Per power, the map's starting centres (province names)."""
    tempo: FloatArray = field(repr=False)
    army: FloatArray = field(repr=False)
    fleet: FloatArray = field(repr=False)
    adjacent: BoolArray = field(repr=False)
    """Province graph adjacency (no diagonal)."""
    army_adjacent: BoolArray = field(repr=False)
    """Army moves between provinces (no convoys)."""
    fleet_adjacent: BoolArray = field(repr=False)
    """Fleet moves between fleet locations (coast-aware), indexed like ``fleet_locations``."""
    army_provinces: BoolArray = field(repr=False)
    """Which provinces an army may stand in (not water)."""
    province_index: dict[str, int] = field(repr=False)
    sc_index: dict[str, int] = field(repr=False)
    power_index: dict[str, int] = field(repr=False)
    fleet_index: dict[str, int] = field(repr=False)
    sc_provinces: IntArray = field(repr=False)
    """Province index of every SC (length = number of SCs)."""
    root_map: str = ""
    """The map this one is a variant of (its ``MAP standard.map`` line), else its own name."""

    # ----- derived tables (cheap views computed once) -------------------------------------------------

    @functools.cached_property
    def adjacent_or_same(self) -> BoolArray:
        """Province adjacency with the diagonal set: "adjacent or in the same province"."""
        return self.adjacent | np.eye(len(self.provinces), dtype=bool)

    @functools.cached_property
    def home_tempo(self) -> FloatArray:
        """``[power, province]``: tempo distance from the power's nearest ORIGINAL home centre."""
        out = np.full((len(self.powers), len(self.provinces)), UNREACHABLE)
        for p, homes in enumerate(self.homes):
            if homes:
                out[p] = self.tempo[self.sc_provinces[list(homes)]].min(axis=0)
        return out

    @functools.cached_property
    def home_mask(self) -> BoolArray:
        """``[power, sc]``: True where the SC is one of the power's original home centres."""
        mask = np.zeros((len(self.powers), len(self.sc_names)), dtype=bool)
        for p, homes in enumerate(self.homes):
            mask[p, list(homes)] = True
        return mask

    @functools.cached_property
    def tempo_sc(self) -> FloatArray:
        """``[province, sc]``: tempo distance from a province to every supply centre."""
        return np.ascontiguousarray(self.tempo[:, self.sc_provinces])

    @functools.cached_property
    def unit_sc(self) -> FloatArray:
        """``[unit row, sc]``: unit-aware distance to every SC.

        Rows ``0..N-1`` are armies by province (army graph), rows ``N..N+F-1`` fleets by fleet location
        (fleet graph, any coast of the target counts).  See :meth:`unit_row`.
        """
        return np.ascontiguousarray(
            np.vstack([self.army[:, self.sc_provinces], self.fleet[:, self.sc_provinces]])
        )

    @functools.cached_property
    def unit_codes(self) -> dict[tuple[str, str], tuple[int, int]]:
        """``(kind, location) -> (province index, row of unit_sc)`` for every unit the map allows."""
        codes: dict[tuple[str, str], tuple[int, int]] = {}
        for prov, name in enumerate(self.provinces):
            if self.army_provinces[prov]:
                codes["A", name] = (prov, prov)
        for loc in self.fleet_locations:
            codes["F", loc] = (self.province_index[province_of(loc)], self.unit_row("F", loc))
        return codes

    @functools.cached_property
    def compact(self) -> CompactTables:
        """Small-integer distance tables and bit-packed adjacency (see :class:`CompactTables`)."""
        return CompactTables.build(self)

    def unit_row(self, kind: str, location: str) -> int:
        """The row of :attr:`unit_sc` for a unit of ``kind`` ('A'/'F') at ``location``."""
        if kind == "F":
            return len(self.provinces) + self.fleet_index[location.upper()]
        return self.province_index[province_of(location)]

    @functools.cached_property
    def fleet_location_province(self) -> IntArray:
        """Province index of every fleet location."""
        return np.array(
            [self.province_index[province_of(loc)] for loc in self.fleet_locations], dtype=np.int64
        )

    # ----- look-ups with clear errors -----------------------------------------------------------------

    def power(self, name: str) -> int:
        """Index of a power named exactly as the map spells it (``AUSTRIA``; ``austria`` is refused, naming
        the spelling meant: issue 24), or :class:`DiplomacyError` naming the map's powers."""
        return self.power_index[pick_name(name, self.powers, "power", error=DiplomacyError)]

    def province(self, name: str) -> int:
        """Index of the province of a location (``'stp/sc'`` -> STP), or :class:`DiplomacyError`."""
        try:
            return self.province_index[province_of(name)]
        except KeyError:
            raise DiplomacyError(f"unknown province {name!r} on map {self.name!r}") from None

    def describe(self) -> dict[str, Any]:
        """A short JSON-able summary (sizes, R, powers) for reports and the CLI."""
        return {
            "map": self.name,
            "provinces": len(self.provinces),
            "supply_centres": len(self.sc_names),
            "win": self.win,
            "powers": list(self.powers),
            "homes": {p: [self.sc_names[i] for i in h] for p, h in zip(self.powers, self.homes, strict=True)},
        }


class _LazyAbuts(dict[tuple[str, str, str, str], int]):
    """The engine map's ``abuts_cache``, filled on demand: the same answers, from the same ``Map._abuts``.

    The engine's ``Map.build_cache`` answers every ``(unit type, location, order type, location)`` query in
    advance, ``2 x 3 x locations^2`` of them (40,344 on ``standard``, 274,776 on ``world``): 88% of a map's
    load under a profiler (all 14 maps 4.5 CPU-s with it, 1.8 without), while the graph asks a few thousand
    (a move to each neighbour). ``Map.abuts`` reads the cache with ``get(query, 0)``: here a query
    the engine would have answered is computed once and kept, and any other gets the engine's 0.
    """

    def __init__(self, engine_map: Any) -> None:
        super().__init__()
        self._map = engine_map
        self._locs = frozenset(loc.upper() for loc in engine_map.locs)

    def get(self, key: tuple[str, str, str, str], default: Any = None) -> Any:  # type: ignore[override]
        known = super().get(key)  # one look-up: the values are ints, never None
        if known is not None:
            return known
        unit, loc, order, other = key
        if (
            unit not in ("A", "F")
            or order not in ("-", "S", "C")
            or loc not in self._locs
            or other not in self._locs
        ):
            return default  # not a query the engine's cache holds
        value: int = self._map._abuts(*key)
        self[key] = value
        return value


@functools.cache
def _lazy_map_class() -> type:
    """The engine's ``Map`` with :class:`_LazyAbuts` instead of the full ``abuts_cache`` (made on first use:
    the engine is imported only when a map is loaded). The rest of ``build_cache``, the coasts and the
    destinations with coasts, is the engine's two loops as the pinned engine has them (copied: its method
    does all three at once); ``tests/diplomacy/test_graph.py`` compares all of it with the engine's own."""
    from diplomacy.engine.map import Map

    class _LazyMap(Map):  # type: ignore[misc]
        __slots__ = ()

        def build_cache(self) -> None:
            for loc in self.locs:
                self.loc_coasts[loc.upper()] = [
                    m.upper() for m in self.locs if loc.upper()[:3] == m.upper()[:3]
                ]
            self.abuts_cache = _LazyAbuts(self)  # type: ignore[misc]  # a slot of Map's (mypy cannot see it)
            for loc in self.locs:
                loc = loc.upper()
                hops = [near.upper() for near in self.abut_list(loc, incl_no_coast=True)]
                coasts = [self.find_coasts(dest) for dest in hops]
                self.dest_with_coasts[loc] = list({c for sub in coasts for c in sub})

    return _LazyMap


def _plain_engine_map(name: str, *, lazy: bool = True) -> Any:
    """The engine's ``Map`` of ``name`` without its convoy-path table and with its adjacency answered on
    demand (:class:`_LazyAbuts`).

    ``Map(name)`` builds that table on the first load of a map the engine does not ship it for (``world``:
    tens of minutes on several processes, see ``boardeval.diplomacy.prepare_map``); the graph needs no
    convoys, so it reads the map with ``use_cache=False``. A map already loaded the engine's way (a
    ``Game`` on it exists) is reused: for a name in the engine's map cache ``Map(name, use_cache=False)``
    returns an object its constructor leaves empty. The map read here is the graph's alone: it never goes
    into the engine's map cache, so games and orders still get the engine's own ``Map``. ``lazy=False``:
    the engine's full adjacency cache (the convoy-path search asks most of its queries, many times over,
    and the engine's ``dict.get`` answers faster than :class:`_LazyAbuts`'s).
    """
    from diplomacy.engine.map import MAP_CACHE

    cached = MAP_CACHE.get(name)
    if cached is not None:
        return cached
    if not lazy:
        from diplomacy.engine.map import Map

        return Map(name, use_cache=False)
    return _lazy_map_class()(name, use_cache=False)


def _load_engine_map(name: str) -> Any:
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise UnknownMapError(f"unknown map {name!r}: give one of {', '.join(available_maps())}")
    if name not in available_maps():
        near = near_name(name, available_maps())
        hint = f": did you mean {near!r}? (map names are written exactly as listed)" if near else ""
        raise UnknownMapError(f"unknown map {name!r}{hint}: give one of {', '.join(available_maps())}")
    try:
        engine_map = _plain_engine_map(name)
    except Exception as exc:  # the engine raises bare exceptions for broken map files
        raise UnknownMapError(f"map {name!r} could not be loaded by the diplomacy engine: {exc}") from exc
    if engine_map.error:
        raise UnknownMapError(f"map {name!r} has errors in the diplomacy engine: {engine_map.error[:3]}")
    return engine_map


@dataclass(frozen=True)
class _Adjacency:
    """The three move graphs of an engine map, as boolean matrices (see :func:`_adjacency`)."""

    provinces: tuple[str, ...]
    province_index: dict[str, int]
    fleet_locations: tuple[str, ...]
    fleet_index: dict[str, int]
    army: BoolArray  # [province, province]
    fleet: BoolArray  # [fleet location, fleet location]
    province: BoolArray  # [province, province]: army or fleet moves, coasts merged
    fleet_province: IntArray  # province index of every fleet location
    army_provinces: BoolArray  # where an army may stand


def _adjacency(m: Any) -> _Adjacency:
    """Read the army, fleet and province graphs from an engine map (no convoys, no diagonal)."""
    passable = [loc for loc in m.locs if m.area_type(loc) not in (None, "SHUT")]
    provinces = tuple(sorted({province_of(loc) for loc in passable}))
    pidx = {p: i for i, p in enumerate(provinces)}
    n = len(provinces)

    army_locs = [loc.upper() for loc in passable if m.is_valid_unit("A " + loc.upper())]
    fleet_locs = tuple(sorted({loc.upper() for loc in passable if m.is_valid_unit("F " + loc.upper())}))
    fidx = {loc: i for i, loc in enumerate(fleet_locs)}

    army_adj = np.zeros((n, n), dtype=bool)
    for loc in army_locs:
        for other in m.abut_list(loc, incl_no_coast=True):
            if m.abuts("A", loc, "-", other.upper()):
                army_adj[pidx[province_of(loc)], pidx[province_of(other)]] = True
    fleet_adj = np.zeros((len(fleet_locs), len(fleet_locs)), dtype=bool)
    for loc in fleet_locs:
        for other in m.abut_list(loc):
            target = other.upper()
            if target in fidx and m.abuts("F", loc, "-", target):
                fleet_adj[fidx[loc], fidx[target]] = True

    # The province graph: army moves plus fleet moves with coasts merged into provinces.
    fleet_prov = np.array([pidx[province_of(loc)] for loc in fleet_locs], dtype=np.int64)
    province_adj = army_adj.copy()
    src, dst = np.nonzero(fleet_adj)
    province_adj[fleet_prov[src], fleet_prov[dst]] = True
    np.fill_diagonal(province_adj, False)
    np.fill_diagonal(army_adj, False)
    army_ok = np.zeros(n, dtype=bool)
    army_ok[[pidx[province_of(loc)] for loc in army_locs]] = True
    return _Adjacency(
        provinces=provinces,
        province_index=pidx,
        fleet_locations=fleet_locs,
        fleet_index=fidx,
        army=army_adj,
        fleet=fleet_adj,
        province=province_adj,
        fleet_province=fleet_prov,
        army_provinces=army_ok,
    )


def _distances(adj: _Adjacency) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The tempo, army and fleet distance tables of the module docstring."""
    tempo = _all_pairs_bfs(adj.province)
    army = _all_pairs_bfs(adj.army)
    army[~adj.army_provinces, :] = UNREACHABLE
    army[:, ~adj.army_provinces] = UNREACHABLE
    fleet_loc_dist = _all_pairs_bfs(adj.fleet)
    # Reduce the target axis from fleet locations to provinces: min over the province's coasts.
    fleet = np.full((len(adj.fleet_locations), len(adj.provinces)), UNREACHABLE)
    for j, prov in enumerate(adj.fleet_province):
        fleet[:, prov] = np.minimum(fleet[:, prov], fleet_loc_dist[:, j])
    return tempo, army, fleet


@functools.lru_cache(maxsize=16)
def load_map_graph(name: str = "standard") -> MapGraph:
    """Build (once per process, cached) the :class:`MapGraph` of an engine map by name.

    Raises :class:`UnknownMapError` for a name that is not among :func:`available_maps`.  The graph is
    read without the engine's convoy-path table and with its adjacency answered on demand
    (:func:`_plain_engine_map`), so every map loads in under a second (``known_world_901``, the largest,
    ~0.75 CPU-s; all 14 maps 1.8 CPU-s, 4.5 with the engine's full adjacency cache; ``standard`` 0.02).
    """
    m = _load_engine_map(name)
    adj = _adjacency(m)
    tempo, army, fleet = _distances(adj)
    pidx = adj.province_index

    sc_names = tuple(sorted(province_of(sc) for sc in m.scs))
    sidx = {s: i for i, s in enumerate(sc_names)}
    powers = tuple(p.upper() for p in m.powers)
    homes = tuple(
        tuple(sorted(sidx[province_of(h)] for h in m.homes.get(p, []) if province_of(h) in sidx))
        for p in m.powers
    )
    start_units = tuple(tuple(u.upper() for u in m.units.get(p, [])) for p in m.powers)
    start_centers = tuple(tuple(province_of(c) for c in m.centers.get(p, [])) for p in m.powers)
    victory = m.victory[0] if m.victory else len(sc_names) // 2 + 1

    for table in (tempo, army, fleet, adj.province, adj.army, adj.fleet):
        table.setflags(write=False)
    sc_provinces = np.array([pidx[s] for s in sc_names], dtype=np.int64)
    sc_provinces.setflags(write=False)
    return MapGraph(
        name=name,
        provinces=adj.provinces,
        powers=powers,
        sc_names=sc_names,
        fleet_locations=adj.fleet_locations,
        first_phase=str(m.phase_abbr(m.phase)) if m.phase else "START",
        win=int(victory),
        homes=homes,
        start_units=start_units,
        start_centers=start_centers,
        tempo=tempo,
        army=army,
        fleet=fleet,
        adjacent=adj.province,
        army_adjacent=adj.army,
        fleet_adjacent=adj.fleet,
        army_provinces=adj.army_provinces,
        province_index=pidx,
        sc_index=sidx,
        power_index={p: i for i, p in enumerate(powers)},
        fleet_index=adj.fleet_index,
        sc_provinces=sc_provinces,
        root_map=str(m.root_map or name),
    )
