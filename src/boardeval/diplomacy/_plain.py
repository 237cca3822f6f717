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


def _phase(
    graph: MapGraph,
    adj: Adjacency,
    pos: Position,
    prev_tempi: dict[str, float] | None,
    prev_mutual: dict[tuple[str, str], float] | None,
    start_progress: float,
    out: dict[Key, float | None],
) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    powers = graph.powers
    pidx = graph.province_index
    win = graph.win
    name = pos.phase
    scs = {p: list(pos.centers[i]) for i, p in enumerate(powers)}
    units = {p: list(pos.units[i]) for i, p in enumerate(powers)}
    count = {p: len(scs[p]) for p in powers}

    def put(power: str | None, measure: str, other: str | None, value: float | None) -> None:
        if value is not None and not math.isfinite(value):
            value = None
        out[name, power, measure, other] = value

    # Progress.
    squares = sum(c * c for c in count.values())
    progress = squares / win**2
    put(None, "progress", None, progress)
    put(None, "progress_as_written", None, squares / (2 * (len(graph.sc_names) / 2) ** 2))
    put(None, "progress_from_zero", None, (progress - start_progress) / (1 - start_progress))
    for p in powers:
        put(p, "personal_progress", None, count[p] / win)

    # Static fear (recomputed from the homes each phase, by BFS).
    homes = {p: [graph.sc_names[i] for i in graph.homes[k]] for k, p in enumerate(powers)}
    for b in powers:
        d = _bfs((pidx[h] for h in homes[b]), adj.province)
        dist = {s: float(d.get(pidx[s], INF)) for s in graph.sc_names}
        route = _route_fear(dist, [s for s in graph.sc_names if s not in homes[b]], win - len(homes[b]))
        for a in powers:
            if a != b:
                put(a, "fear_static", b, float(sum(route.get(h, 0.0) for h in homes[a])))

    # Dynamic fear.
    fear: dict[tuple[str, str], float] = {}
    for b in powers:
        d = _bfs((pidx[u.province] for u in units[b]), adj.province)
        dist = {s: float(d.get(pidx[s], INF)) for s in graph.sc_names}
        owned_b = set(scs[b])
        route = _route_fear(dist, [s for s in graph.sc_names if s not in owned_b], win - count[b])
        for a in powers:
            if a != b:
                fear[a, b] = float(sum(route.get(c, 0.0) for c in scs[a]))
                put(a, "fear_dynamic", b, fear[a, b])
    mutual: dict[tuple[str, str], float] = {}
    for i, a in enumerate(powers):
        for b in powers[i + 1 :]:
            mutual[a, b] = fear[a, b] + fear[b, a]
            put(a, "fear_mutual", b, mutual[a, b])
            put(a, "fear_mutual_change", b, None if prev_mutual is None else mutual[a, b] - prev_mutual[a, b])

    # Tempi.
    tempi: dict[str, float] = {}
    for p in powers:
        d = _bfs((pidx[h] for h in homes[p]), adj.province)
        tempi[p] = float(sum(d.get(pidx[u.province], INF) for u in units[p]))
        put(p, "tempi", None, tempi[p])
        put(p, "tempi_change", None, None if prev_tempi is None else tempi[p] - prev_tempi[p])

    # n-incohesion and n-cohesion.
    for p in powers:
        mine = [pidx[u.province] for u in units[p]]
        nearest: list[list[float]] = []
        for i, here in enumerate(mine):
            d = _bfs([here], adj.province)
            nearest.append(sorted(float(d.get(o, INF)) for j, o in enumerate(mine) if j != i))
        for n in COHESION_NS:
            if len(mine) <= n:
                inc: float | None = None
            else:
                inc = sum(sum(row[:n]) / n for row in nearest) / len(mine)
            put(p, f"incohesion_{n}", None, inc)
            put(p, f"cohesion_{n}", None, None if inc is None or not math.isfinite(inc) else 1.0 / inc)

    # Stab potential (unit-aware: armies on the army graph, fleets on the fleet graph, any coast).
    reach: dict[str, dict[str, float]] = {}
    for p in powers:
        army_d = _bfs((pidx[u.province] for u in units[p] if u.kind == "A"), adj.army)
        fleet_d = _bfs((graph.fleet_index[u.location] for u in units[p] if u.kind == "F"), adj.fleet)
        best = {s: float(army_d.get(pidx[s], INF)) for s in graph.sc_names}
        for loc_i, steps in fleet_d.items():
            prov = province_of(graph.fleet_locations[loc_i])
            if prov in best and steps < best[prov]:
                best[prov] = float(steps)
        reach[p] = best
    for a in powers:
        for b in powers:
            if a != b:
                put(a, "stab_potential", b, float(sum(1 for c in scs[a] if reach[b][c] < reach[a][c])))

    # Battle-tiedness (adjacent on the province graph, or the same province).
    def touching(x: int, y: int) -> bool:
        return x == y or bool(graph.adjacent[x, y])

    for p in powers:
        mine = [pidx[u.province] for u in units[p]]
        enemies = [pidx[u.province] for q in powers if q != p for u in units[q]]
        tied = sum(1 for x in mine if any(touching(x, y) for y in enemies))
        put(p, "battle_tiedness", None, tied / len(mine) if mine else None)

    # Neighbour effect.
    foot = {p: {pidx[u.province] for u in units[p]} | {pidx[c] for c in scs[p]} for p in powers}
    alive = [p for p in powers if foot[p]]
    for p in powers:
        if p not in alive:
            put(p, "neighbour_effect", None, None)
            continue
        nbrs = [q for q in alive if q != p and any(touching(x, y) for x in foot[p] for y in foot[q])]
        others = [q for q in alive if q != p]
        if not nbrs:
            put(p, "neighbour_effect", None, 0.0)
            continue
        mean_others = sum(count[q] for q in others) / len(others)
        put(p, "neighbour_effect", None, mean_others - sum(count[q] for q in nbrs) / len(nbrs))
    return tempi, mutual


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
        prev_tempi, prev_mutual = _phase(graph, adj, pos, prev_tempi, prev_mutual, start_progress, out)
    return out
