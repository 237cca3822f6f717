"""A plain, per-phase BFS implementation of every measure: the reference for tests and benchmarks.

It follows the spec's words one power and one unit at a time, with Python dicts and lists, and runs a
breadth-first search for every distance it needs *at every phase* (no precomputed distance tables; only
the map's adjacency lists).  It is deliberately straightforward: it is the literal reading that
:mod:`boardeval.diplomacy.measures` (vectorised over precomputed tables) must agree with, value for value
(``tests/diplomacy/test_plain.py``), and the baseline of ``benchmarks/diplomacy_measures.py``.

Not part of the public face (``boardeval.diplomacy.__all__``): import it from here.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence

from boardeval.diplomacy._catalog import COHESION_NS
from boardeval.diplomacy.graph import MapGraph, load_map_graph, province_of
from boardeval.diplomacy.measures import FEAR_HORIZON
from boardeval.diplomacy.records import GameRecord, Position, positions_of, start_position

__all__ = ["Adjacency", "plain_measures"]

Key = tuple[str, str | None, str, str | None]
"""(phase, power, measure, other) -- the columns of the tidy table, without the value."""
INF = math.inf


class Adjacency:
    """Adjacency lists of a map: province graph, army graph (provinces), fleet graph (fleet locations)."""

    def __init__(self, graph: MapGraph) -> None:
        self.graph = graph
        n = len(graph.provinces)
        self.province = [[int(j) for j in range(n) if graph.adjacent[i, j]] for i in range(n)]
        self.army = [[int(j) for j in range(n) if graph.army_adjacent[i, j]] for i in range(n)]
        nf = len(graph.fleet_locations)
        self.fleet = [[int(j) for j in range(nf) if graph.fleet_adjacent[i, j]] for i in range(nf)]


def _bfs(sources: Iterable[int], neighbours: Sequence[Sequence[int]]) -> dict[int, int]:
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for s in sources:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        here = queue.popleft()
        for nxt in neighbours[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def _route_fear(dist: dict[str, float], candidates: list[str], k: int) -> dict[str, float]:
    """Windsor's swiftest route: the k nearest candidates plus ties at the cut-off -> score per centre."""
    if k <= 0 or not candidates:
        return {}
    ordered = sorted(candidates, key=lambda c: dist[c])
    cut = dist[ordered[min(k, len(ordered)) - 1]]
    return {c: max(0.0, FEAR_HORIZON - dist[c]) for c in candidates if dist[c] <= cut}


class _Phase:
    """One phase being measured the plain way: its board as dicts and lists, and where its values go."""

    def __init__(self, graph: MapGraph, adj: Adjacency, pos: Position, out: dict[Key, float | None]) -> None:
        self.graph = graph
        self.adj = adj
        self.out = out
        self.name = pos.phase
        powers = graph.powers
        self.powers = powers
        self.pidx = graph.province_index
        self.scs = {p: list(pos.centers[i]) for i, p in enumerate(powers)}
        self.units = {p: list(pos.units[i]) for i, p in enumerate(powers)}
        self.count = {p: len(self.scs[p]) for p in powers}
        self.homes = {p: [graph.sc_names[i] for i in graph.homes[k]] for k, p in enumerate(powers)}

    def put(self, power: str | None, measure: str, other: str | None, value: float | None) -> None:
        """Record one value (an infinite one as None, undefined)."""
        if value is not None and not math.isfinite(value):
            value = None
        self.out[self.name, power, measure, other] = value

    def touching(self, x: int, y: int) -> bool:
        """Adjacent on the province graph, or the same province."""
        return x == y or bool(self.graph.adjacent[x, y])

    def sc_distances(self, sources: Iterable[int]) -> dict[str, float]:
        """Tempo distance (BFS on the province graph) from the sources to every supply centre."""
        d = _bfs(sources, self.adj.province)
        return {s: float(d.get(self.pidx[s], INF)) for s in self.graph.sc_names}


def _progress(ph: _Phase, start_progress: float) -> None:
    """The three game-progress measures and personal progress."""
    win = ph.graph.win
    squares = sum(c * c for c in ph.count.values())
    progress = squares / win**2
    ph.put(None, "progress", None, progress)
    ph.put(None, "progress_as_written", None, squares / (2 * (len(ph.graph.sc_names) / 2) ** 2))
    ph.put(None, "progress_from_zero", None, (progress - start_progress) / (1 - start_progress))
    for p in ph.powers:
        ph.put(p, "personal_progress", None, ph.count[p] / win)


def _static_fear(ph: _Phase) -> None:
    """Recomputed from the homes each phase, by BFS."""
    win, homes = ph.graph.win, ph.homes
    for b in ph.powers:
        dist = ph.sc_distances(ph.pidx[h] for h in homes[b])
        route = _route_fear(dist, [s for s in ph.graph.sc_names if s not in homes[b]], win - len(homes[b]))
        for a in ph.powers:
            if a != b:
                ph.put(a, "fear_static", b, float(sum(route.get(h, 0.0) for h in homes[a])))


def _dynamic_fear(
    ph: _Phase, prev_mutual: dict[tuple[str, str], float] | None
) -> dict[tuple[str, str], float]:
    """Dynamic fear, mutual fear and its change; returns the mutual fear for the next phase."""
    powers, scs = ph.powers, ph.scs
    fear: dict[tuple[str, str], float] = {}
    for b in powers:
        dist = ph.sc_distances(ph.pidx[u.province] for u in ph.units[b])
        owned_b = set(scs[b])
        route = _route_fear(
            dist, [s for s in ph.graph.sc_names if s not in owned_b], ph.graph.win - ph.count[b]
        )
        for a in powers:
            if a != b:
                fear[a, b] = float(sum(route.get(c, 0.0) for c in scs[a]))
                ph.put(a, "fear_dynamic", b, fear[a, b])
    mutual: dict[tuple[str, str], float] = {}
    for i, a in enumerate(powers):
        for b in powers[i + 1 :]:
            mutual[a, b] = fear[a, b] + fear[b, a]
            ph.put(a, "fear_mutual", b, mutual[a, b])
            change = None if prev_mutual is None else mutual[a, b] - prev_mutual[a, b]
            ph.put(a, "fear_mutual_change", b, change)
    return mutual


def _tempi(ph: _Phase, prev_tempi: dict[str, float] | None) -> dict[str, float]:
    """Tempi and their change; returns the tempi for the next phase."""
    tempi: dict[str, float] = {}
    for p in ph.powers:
        d = _bfs((ph.pidx[h] for h in ph.homes[p]), ph.adj.province)
        tempi[p] = float(sum(d.get(ph.pidx[u.province], INF) for u in ph.units[p]))
        ph.put(p, "tempi", None, tempi[p])
        ph.put(p, "tempi_change", None, None if prev_tempi is None else tempi[p] - prev_tempi[p])
    return tempi


def _cohesion(ph: _Phase) -> None:
    """n-incohesion and n-cohesion."""
    for p in ph.powers:
        mine = [ph.pidx[u.province] for u in ph.units[p]]
        nearest: list[list[float]] = []
        for i, here in enumerate(mine):
            d = _bfs([here], ph.adj.province)
            nearest.append(sorted(float(d.get(o, INF)) for j, o in enumerate(mine) if j != i))
        for n in COHESION_NS:
            if len(mine) <= n:
                inc: float | None = None
            else:
                inc = sum(sum(row[:n]) / n for row in nearest) / len(mine)
            ph.put(p, f"incohesion_{n}", None, inc)
            ph.put(p, f"cohesion_{n}", None, None if inc is None or not math.isfinite(inc) else 1.0 / inc)


def _stab_potential(ph: _Phase) -> None:
    """Unit-aware: armies on the army graph, fleets on the fleet graph, any coast."""
    graph, pidx = ph.graph, ph.pidx
    reach: dict[str, dict[str, float]] = {}
    for p in ph.powers:
        army_d = _bfs((pidx[u.province] for u in ph.units[p] if u.kind == "A"), ph.adj.army)
        fleet_d = _bfs((graph.fleet_index[u.location] for u in ph.units[p] if u.kind == "F"), ph.adj.fleet)
        best = {s: float(army_d.get(pidx[s], INF)) for s in graph.sc_names}
        for loc_i, steps in fleet_d.items():
            prov = province_of(graph.fleet_locations[loc_i])
            if prov in best and steps < best[prov]:
                best[prov] = float(steps)
        reach[p] = best
    for a in ph.powers:
        for b in ph.powers:
            if a != b:
                ph.put(a, "stab_potential", b, float(sum(1 for c in ph.scs[a] if reach[b][c] < reach[a][c])))


def _battle_tiedness(ph: _Phase) -> None:
    """Units touching (adjacent or same province) an enemy unit, over units."""
    for p in ph.powers:
        mine = [ph.pidx[u.province] for u in ph.units[p]]
        enemies = [ph.pidx[u.province] for q in ph.powers if q != p for u in ph.units[q]]
        tied = sum(1 for x in mine if any(ph.touching(x, y) for y in enemies))
        ph.put(p, "battle_tiedness", None, tied / len(mine) if mine else None)


def _neighbour_effect(ph: _Phase) -> None:
    """Mean SCs of the other survivors minus mean SCs of the powers touching P's footprint."""
    count = ph.count
    foot = {
        p: {ph.pidx[u.province] for u in ph.units[p]} | {ph.pidx[c] for c in ph.scs[p]} for p in ph.powers
    }
    alive = [p for p in ph.powers if foot[p]]
    for p in ph.powers:
        if p not in alive:
            ph.put(p, "neighbour_effect", None, None)
            continue
        nbrs = [q for q in alive if q != p and any(ph.touching(x, y) for x in foot[p] for y in foot[q])]
        others = [q for q in alive if q != p]
        if not nbrs:
            ph.put(p, "neighbour_effect", None, 0.0)
            continue
        mean_others = sum(count[q] for q in others) / len(others)
        ph.put(p, "neighbour_effect", None, mean_others - sum(count[q] for q in nbrs) / len(nbrs))


def plain_measures(
    record: GameRecord | Sequence[Position], map_name: str | None = None
) -> dict[Key, float | None]:
    """Every measure of every phase, the plain way: ``{(phase, power, measure, other): value}``.

    Keys match the rows of :func:`boardeval.diplomacy.measures_table` (None for undefined values).
    """
    positions, map_name = positions_of(record, map_name)
    graph = load_map_graph(map_name)
    adj = Adjacency(graph)
    start = start_position(map_name)
    start_progress = sum(len(c) ** 2 for c in start.centers) / graph.win**2
    out: dict[Key, float | None] = {}
    prev_tempi: dict[str, float] | None = None
    prev_mutual: dict[tuple[str, str], float] | None = None
    for pos in positions:
        ph = _Phase(graph, adj, pos, out)
        _progress(ph, start_progress)
        _static_fear(ph)
        prev_mutual = _dynamic_fear(ph, prev_mutual)
        prev_tempi = _tempi(ph, prev_tempi)
        _cohesion(ph)
        _stab_potential(ph)
        _battle_tiedness(ph)
        _neighbour_effect(ph)
    return out
