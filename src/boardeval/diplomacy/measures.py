"""Every position measure of the DAIDE "primitive measures" summary, for every power at every phase.

The whole game is encoded once into flat numpy arrays (SC owner per phase; one row per unit with its
phase, power, province and unit-aware distance row) and every measure is a handful of vectorised
operations over the map's precomputed distance tables (:mod:`boardeval.diplomacy.graph`): no BFS and no
Python loop over phases or powers in the hot path.

Measures (names are the public, exact snake_case names; see ``docs/diplomacy.md``)::

  per position  progress              sum(SC_i^2) / R^2                     (70/324 = 21.6% at the start)
                progress_as_written   sum(SC_i^2) / (2 (S/2)^2)  (the seed's literal formula, 12.1%)
                progress_from_zero    (progress - progress at the map's start) / (1 - that)
  per power     personal_progress     SCs / R
                tempi, tempi_change   sum over units of tempo distance from the nearest ORIGINAL home
                incohesion_n          mean over units of the mean tempo distance to the n nearest own units
                cohesion_n            1 / incohesion_n            (n = 1, 2, 3; None when units <= n)
                battle_tiedness       units adjacent to an enemy unit / units   (None with no units)
                neighbour_effect      mean SCs of other survivors - mean SCs of neighbours (None if dead)
  per pair      fear_static           Windsor's table from the map's homes ("row fears column")
  (A, B)        fear_dynamic          the same per phase from units and owned SCs
                stab_potential        A's SCs that B reaches strictly sooner than A (unit-aware distance)
                fear_mutual           fear(A,B) + fear(B,A), A before B in power order (unordered pair)
                fear_mutual_change    its change from the previous phase (the spec's "rise in mutual fear")

Percentages are returned as fractions (0.216 = 21.6%).  Which distance each measure uses: tempo (province
graph) everywhere except ``stab_potential``, which is unit-aware (armies on the army graph, fleets on the
fleet graph, no convoys).  Undefined values are NaN in arrays and ``None`` in rows.

:func:`compute_measures` encodes the record once and calls one function per measure family (progress,
fear, tempi, cohesion, stab potential, battle-tiedness, neighbour effect).  The names, kinds, labels and
display units of the measures are in ``_catalog.py``; the tidy pandas table is built in ``_table.py``.

Choices where the spec is silent (documented in the report too):

* Dislodged units (retreat phases) count as units where they stand.
* ``battle_tiedness``: an enemy unit in the same province (a dislodger) counts as adjacent.
* ``neighbour_effect`` of an eliminated power (no unit, no SC) is None; 0 with no neighbours.
* ``tempi_change`` / ``fear_mutual_change`` compare with the previous phase of the record (retreat and
  adjustment phases included); None at the first phase.
* Unreachable distances are ``inf``: ``max(0, 6 - inf) = 0`` in the fear sums; an infinite tempi or
  incohesion is reported as None.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardeval.core import DiplomacyError
from boardeval.diplomacy._catalog import COHESION_NS, validate_measures
from boardeval.diplomacy.graph import BoolArray, FloatArray, IntArray, MapGraph, load_map_graph
from boardeval.diplomacy.records import GameRecord, Position, positions_of, start_position

__all__ = ["FEAR_HORIZON", "GameMeasures", "compute_measures", "static_fear", "static_routes"]

FEAR_HORIZON = 6
"""Windsor's fear score of one centre at tempo distance t is ``max(0, FEAR_HORIZON - t)``."""


# --------------------------------------------------------------------------------------------------------
# Encoding a game into flat arrays


@dataclass(frozen=True)
class _Encoded:
    """A sequence of positions as flat arrays, with the per-group counts every measure family needs.

    A *group* is one power at one phase: ``group = phase * P + power``.
    """

    graph: MapGraph
    n_t: int  # phases
    owned: BoolArray  # [T, P, S]
    unit_group: IntArray  # [U] = phase * P + power, non-decreasing
    unit_power: IntArray  # [U]
    unit_prov: IntArray  # [U]
    unit_row: IntArray  # [U] row of graph.unit_sc
    centre_group: IntArray  # [C] group of every owned centre, non-decreasing
    centre_sc: IntArray  # [C] its SC index

    @property
    def n_p(self) -> int:
        """Powers of the map."""
        return len(self.graph.powers)

    @property
    def n_g(self) -> int:
        """Groups (phase, power)."""
        return self.n_t * self.n_p

    @functools.cached_property
    def counts(self) -> IntArray:
        """``[T, P]`` supply centres owned."""
        counts: IntArray = self.owned.sum(axis=-1)
        return counts

    @functools.cached_property
    def unit_count(self) -> IntArray:
        """``[T, P]`` units on the board."""
        return np.bincount(self.unit_group, minlength=self.n_g).reshape(self.n_t, self.n_p)

    @functools.cached_property
    def diag(self) -> BoolArray:
        """``[P, P]`` the diagonal of a power x power table."""
        return np.eye(self.n_p, dtype=bool)

    @functools.cached_property
    def near(self) -> npt.NDArray[np.uint64]:
        """``[T, P, words]`` bitset of the provinces adjacent to, or holding, one of a power's units."""
        bits = _group_or(self.graph.compact.near_bits[self.unit_prov], self.unit_group, self.n_g)
        return bits.reshape(self.n_t, self.n_p, -1)


def _encode(graph: MapGraph, positions: Sequence[Position]) -> _Encoded:
    """Flatten units and owned centres of all phases into arrays (list comprehensions: the only
    per-unit Python work of the whole computation)."""
    n_p, n_s = len(graph.powers), len(graph.sc_names)
    t_count = len(positions)
    n_g = t_count * n_p
    sc_index = graph.sc_index
    codes = graph.unit_codes
    unit_lists = [units for pos in positions for units in pos.units]
    centre_lists = [centres for pos in positions for centres in pos.centers]
    if len(unit_lists) != n_g or len(centre_lists) != n_g:
        raise DiplomacyError(
            f"positions must list units and centres for each of the {n_p} powers of {graph.name}"
        )
    try:
        coded = [codes[u.kind, u.location] for units in unit_lists for u in units]
        sc_flat = [sc_index[c] for centres in centre_lists for c in centres]
    except KeyError as exc:
        raise DiplomacyError(f"{exc.args[0]!r} is not a unit or centre of map {graph.name!r}") from None
    groups_all = np.arange(n_g, dtype=np.int64)
    unit_group = np.repeat(groups_all, [len(us) for us in unit_lists])
    centre_group = np.repeat(groups_all, [len(cs) for cs in centre_lists])
    centre_sc = np.asarray(sc_flat, dtype=np.int64)
    owned = np.zeros((n_g, n_s), dtype=bool)
    owned[centre_group, centre_sc] = True
    pairs = np.asarray(coded, dtype=np.int64).reshape(-1, 2)
    return _Encoded(
        graph=graph,
        n_t=t_count,
        owned=owned.reshape(t_count, n_p, n_s),
        unit_group=unit_group,
        unit_power=unit_group % n_p,
        unit_prov=np.ascontiguousarray(pairs[:, 0]),
        unit_row=np.ascontiguousarray(pairs[:, 1]),
        centre_group=centre_group,
        centre_sc=centre_sc,
    )


# --------------------------------------------------------------------------------------------------------
# Group-wise reductions over sorted group arrays


def _starts(groups: IntArray) -> IntArray:
    """Indices where a new group begins in a sorted, non-empty group array."""
    return np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])


def _group_or(bits: npt.NDArray[np.uint64], groups: IntArray, n_groups: int) -> npt.NDArray[np.uint64]:
    """Bitwise OR of bitset rows per group (groups sorted); absent groups are empty sets."""
    out = np.zeros((n_groups, bits.shape[1]), dtype=np.uint64)
    if len(groups):
        starts = _starts(groups)
        out[groups[starts]] = np.bitwise_or.reduceat(bits, starts, axis=0)
    return out


def _group_min_int(
    values: npt.NDArray[np.unsignedinteger], groups: IntArray, n_groups: int, far: int
) -> npt.NDArray[np.unsignedinteger]:
    """Row-wise minimum per group of small-int distances; absent groups are all ``far``."""
    out = np.full((n_groups, values.shape[1]), far, dtype=values.dtype)
    if len(groups):
        starts = _starts(groups)
        out[groups[starts]] = np.minimum.reduceat(values, starts, axis=0)
    return out


def _to_float(values: npt.NDArray[np.unsignedinteger], far: int) -> FloatArray:
    """Small-int distances back to float64, ``far`` -> ``inf``."""
    out = values.astype(np.float64)
    out[values == far] = np.inf
    return out


# --------------------------------------------------------------------------------------------------------
# Fear (Windsor), static and dynamic share one routine


def _fear(
    dist: npt.NDArray[np.unsignedinteger],
    far: int,
    candidate: BoolArray,
    route_len: IntArray,
    owned: BoolArray,
) -> FloatArray:
    """Fear tables ``[..., A, B]`` from B's distances, candidates and route lengths, and A's centres.

    ``dist[..., B, s]``: B's tempo distance to SC s as a small int (``far`` = unreachable);
    ``candidate[..., B, s]``: s may be on B's route (not B's home / not owned by B); ``route_len[..., B]``
    = R - |B's centres|.  B's swiftest route is the ``route_len`` nearest candidates *plus every
    candidate tied at the cut-off distance*.  Fear of A for B = sum over the centres A holds
    (``owned[..., A, s]``) on B's route of ``max(0, 6 - dist)`` (0 when unreachable).
    """
    n_s = dist.shape[-1]
    key = np.where(candidate, dist.astype(np.uint16), np.uint16(far + 1))
    ordered = np.sort(key, axis=-1)
    cut = np.take_along_axis(ordered, np.clip(route_len - 1, 0, n_s - 1)[..., None], axis=-1)
    on_route = candidate & (key <= cut) & (route_len >= 1)[..., None]
    score = np.where(on_route, np.maximum(FEAR_HORIZON - dist.astype(np.int16), 0), 0).astype(np.float64)
    return np.einsum("...as,...bs->...ab", owned.astype(np.float64), score)


@functools.lru_cache(maxsize=16)
def static_fear(map_name: str = "standard") -> FloatArray:
    """Windsor's static fear table of a map, ``[A, B]`` = how much A fears B ("row fears column").

    B's swiftest route: the R - |homes(B)| non-home SCs nearest B's home centres by tempo distance (ties at
    the cut-off included); A's fear of B sums ``max(0, 6 - t)`` over A's home centres on that route.
    The diagonal is 0 here and omitted from tables.
    """
    graph = load_map_graph(map_name)
    far = graph.compact.far
    home_dist = graph.home_tempo[:, graph.sc_provinces]
    dist = np.where(np.isfinite(home_dist), home_dist, far).astype(graph.compact.tempo.dtype)
    homes = graph.home_mask
    route_len = graph.win - homes.sum(axis=1)
    out = _fear(dist, far, ~homes, route_len.astype(np.int64), homes)
    np.fill_diagonal(out, 0.0)
    out.setflags(write=False)
    return out


def static_routes(map_name: str = "standard") -> dict[str, dict[str, int]]:
    """Each power's static *swiftest route*: ``{power: {centre: tempo distance}}``, nearest first.

    The R - |homes| non-home centres nearest the power's home centres, plus every centre tied at the
    cut-off distance (so a route may be longer: Germany's has 21 centres on the standard map).  This is
    the route :func:`static_fear` scores; it explains each entry of the fear table.
    """
    graph = load_map_graph(map_name)
    dist = graph.home_tempo[:, graph.sc_provinces]
    out: dict[str, dict[str, int]] = {}
    for p, power in enumerate(graph.powers):
        candidates = [s for s in range(len(graph.sc_names)) if not graph.home_mask[p, s]]
        k = graph.win - int(graph.home_mask[p].sum())
        ranked = sorted(candidates, key=lambda s: (dist[p, s], graph.sc_names[s]))
        if k <= 0 or not ranked:
            out[power] = {}
            continue
        cut = dist[p, ranked[min(k, len(ranked)) - 1]]
        out[power] = {
            graph.sc_names[s]: int(dist[p, s])
            for s in ranked
            if dist[p, s] <= cut and np.isfinite(dist[p, s])
        }
    return out


# --------------------------------------------------------------------------------------------------------
# The result


@dataclass(frozen=True)
class GameMeasures:
    """All measures of a sequence of positions as arrays (T phases, P powers); NaN = undefined.

    ``fear_dynamic[t, a, b]`` and ``stab_potential[t, a, b]`` read "row a, column b" (a fears b; a is
    stabbed by b); their diagonals are NaN.  ``incohesion[k]`` is n = k + 1.
    """

    map_name: str
    phases: tuple[str, ...]
    powers: tuple[str, ...]
    sc_counts: IntArray  # [T, P]
    progress: FloatArray  # [T]
    progress_as_written: FloatArray  # [T]
    progress_from_zero: FloatArray  # [T]
    personal_progress: FloatArray  # [T, P]
    fear_static: FloatArray  # [P, P]
    fear_dynamic: FloatArray  # [T, P, P]
    tempi: FloatArray  # [T, P]
    tempi_change: FloatArray  # [T, P]
    incohesion: FloatArray  # [3, T, P]
    cohesion: FloatArray  # [3, T, P]
    stab_potential: FloatArray  # [T, P, P]
    battle_tiedness: FloatArray  # [T, P]
    neighbour_effect: FloatArray  # [T, P]

    @property
    def fear_mutual(self) -> FloatArray:
        """``[T, P, P]`` fear(A,B) + fear(B,A) (symmetric, NaN diagonal)."""
        return self.fear_dynamic + np.swapaxes(self.fear_dynamic, 1, 2)

    def series(self, measure: str) -> FloatArray:
        """The array of one measure by name (see :data:`MEASURES`)."""
        name = validate_measures([measure])[0]
        if name.startswith("incohesion_"):
            return self.incohesion[int(name[-1]) - 1]
        if name.startswith("cohesion_"):
            return self.cohesion[int(name[-1]) - 1]
        if name == "fear_static":
            return np.broadcast_to(self.fear_static, (len(self.phases), *self.fear_static.shape))
        if name == "fear_mutual_change":
            mutual = self.fear_mutual
            change = np.full_like(mutual, np.nan)
            change[1:] = mutual[1:] - mutual[:-1]
            return change
        return np.asarray(getattr(self, name))


# --------------------------------------------------------------------------------------------------------
# One function per measure family


def _progress_values(counts: IntArray, graph: MapGraph) -> tuple[FloatArray, FloatArray]:
    """(progress, progress as written) from SC counts ``[..., P]``."""
    squares = (counts.astype(np.float64) ** 2).sum(axis=-1)
    half = len(graph.sc_names) / 2
    return squares / graph.win**2, squares / (2 * half**2)


@functools.lru_cache(maxsize=16)
def _progress_at_start(map_name: str) -> float:
    """Game progress at the map's starting position (the zero of ``progress_from_zero``)."""
    graph = load_map_graph(map_name)
    start = start_position(map_name)
    counts = np.array([[len(c) for c in start.centers]])
    return float(_progress_values(counts, graph)[0][0])


def _progress_family(enc: _Encoded) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``progress``, ``progress_as_written``, ``progress_from_zero`` ``[T]`` and ``personal_progress``."""
    graph = enc.graph
    progress, as_written = _progress_values(enc.counts, graph)
    start = _progress_at_start(graph.name)
    from_zero = (progress - start) / (1.0 - start) if start < 1.0 else np.full(enc.n_t, np.nan)
    personal: FloatArray = enc.counts / graph.win
    return progress, as_written, np.asarray(from_zero, dtype=np.float64), personal


def _fear_family(enc: _Encoded) -> tuple[FloatArray, FloatArray]:
    """``fear_dynamic`` ``[T, P, P]`` (from the units and owned centres) and ``fear_static`` ``[P, P]``."""
    graph = enc.graph
    far = graph.compact.far
    owned = enc.owned
    nearest = _group_min_int(graph.compact.tempo_sc[enc.unit_prov], enc.unit_group, enc.n_g, far)
    nearest = nearest.reshape(enc.n_t, enc.n_p, -1)
    fear = _fear(nearest, far, ~owned, (graph.win - enc.counts).astype(np.int64), owned)
    fear[:, enc.diag] = np.nan
    fear_static = static_fear(graph.name).copy()
    fear_static[enc.diag] = np.nan
    return fear, fear_static


def _tempi_family(enc: _Encoded) -> tuple[FloatArray, FloatArray]:
    """``tempi`` and ``tempi_change`` ``[T, P]``: unit distances from the nearest original home."""
    unit_tempi = enc.graph.home_tempo[enc.unit_power, enc.unit_prov]
    tempi = np.bincount(enc.unit_group, weights=unit_tempi, minlength=enc.n_g).reshape(enc.n_t, enc.n_p)
    tempi_change = np.full(tempi.shape, np.nan)
    tempi_change[1:] = tempi[1:] - tempi[:-1]
    tempi_change[~np.isfinite(tempi_change)] = np.nan
    return np.where(np.isfinite(tempi), tempi, np.nan), tempi_change


def _cohesion_family(enc: _Encoded) -> tuple[FloatArray, FloatArray]:
    """``incohesion`` and ``cohesion`` ``[n - 1, T, P]`` for n in :data:`COHESION_NS`.

    Every ordered pair (u, v) of distinct units of the same power and phase, with its tempo distance
    (one byte); sorting the key u * (far + 1) + d groups each unit's distances in increasing order, so its
    n nearest other units are the first n entries of its segment.
    """
    n_t, n_p, n_g = enc.n_t, enc.n_p, enc.n_g
    groups = enc.unit_group
    far = enc.graph.compact.far
    incohesion = np.full((len(COHESION_NS), n_t, n_p), np.nan)
    n_u = len(groups)
    if n_u:
        flat_count = enc.unit_count.reshape(-1)
        first = np.searchsorted(groups, np.arange(n_g))
        size = flat_count[groups]  # units in each unit's group
        u_rep = np.repeat(np.arange(n_u), size)
        seg_start = np.cumsum(size) - size
        v = first[groups][u_rep] + (np.arange(len(u_rep)) - np.repeat(seg_start, size))
        keep = v != u_rep
        u_rep, v = u_rep[keep], v[keep]
        dist = enc.graph.compact.tempo[enc.unit_prov[u_rep], enc.unit_prov[v]].astype(np.int64)
        ordered = np.sort(u_rep * (far + 1) + dist) % (far + 1)
        others_per_unit = size - 1
        starts = np.cumsum(others_per_unit) - others_per_unit
        running = np.zeros(n_u)
        for k, n in enumerate(COHESION_NS):
            has = others_per_unit >= n
            if not has.any():
                break  # nobody has n other units: this and larger n stay undefined
            nth = _to_float(ordered[np.minimum(starts + n - 1, len(ordered) - 1)], far)
            running = running + np.where(has, nth, np.inf)  # sum of the n nearest (inf if fewer)
            per_unit = np.where(has, running / n, 0.0)
            total = np.bincount(groups, weights=per_unit, minlength=n_g)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = total / np.maximum(flat_count, 1)
            value[flat_count <= n] = np.nan
            incohesion[k] = value.reshape(n_t, n_p)
    incohesion[~np.isfinite(incohesion)] = np.nan
    with np.errstate(divide="ignore"):
        cohesion = 1.0 / incohesion
    return incohesion, cohesion


def _stab_potential(enc: _Encoded) -> FloatArray:
    """``stab_potential`` ``[T, P, P]``: A's centres that B reaches strictly sooner (unit-aware)."""
    compact = enc.graph.compact
    # Unit-aware distances as small ints: `far` (unreachable) orders after every real distance.
    reach = _group_min_int(compact.unit_sc[enc.unit_row], enc.unit_group, enc.n_g, compact.far)
    reach = reach.reshape(enc.n_t, enc.n_p, -1)
    # sooner[t, a, b, s]: b reaches s strictly sooner than a.
    sooner = reach[:, None, :, :] < reach[:, :, None, :]
    stab = (sooner & enc.owned[:, :, None, :]).sum(axis=-1).astype(np.float64)
    stab[:, enc.diag] = np.nan
    return stab


def _battle_tiedness(enc: _Encoded) -> FloatArray:
    """``battle_tiedness`` ``[T, P]``: the share of a power's units in or next to an enemy unit's province.

    Sets of provinces are 64-bit bitsets (2 words on the standard map): "adjacent to or in" a power's units
    is :attr:`_Encoded.near`; "enemy" = OR over the other powers, from prefix and suffix ORs along the
    power axis.
    """
    near = enc.near
    prefix = np.bitwise_or.accumulate(near, axis=1)
    suffix = np.bitwise_or.accumulate(near[:, ::-1], axis=1)[:, ::-1]
    others = np.zeros_like(near)
    others[:, 1:] |= prefix[:, :-1]
    others[:, :-1] |= suffix[:, 1:]
    prov = enc.unit_prov
    word = others.reshape(enc.n_g, -1)[enc.unit_group, prov >> 6]
    tied = ((word >> (prov & 63).astype(np.uint64)) & np.uint64(1)).astype(np.float64)
    tied_count = np.bincount(enc.unit_group, weights=tied, minlength=enc.n_g).reshape(enc.n_t, enc.n_p)
    unit_count = enc.unit_count
    with np.errstate(invalid="ignore", divide="ignore"):
        battle: FloatArray = np.where(unit_count > 0, tied_count / np.maximum(unit_count, 1), np.nan)
    return battle


def _neighbour_effect(enc: _Encoded) -> FloatArray:
    """``neighbour_effect`` ``[T, P]``: mean SCs of the other survivors minus mean SCs of the neighbours.

    Footprint = provinces of a power's units and centres; neighbours touch (adjacent or same) it.
    """
    compact = enc.graph.compact
    n_t, n_p, n_g = enc.n_t, enc.n_p, enc.n_g
    counts = enc.counts
    centre_prov = enc.graph.sc_provinces[enc.centre_sc]
    foot = _group_or(compact.self_bits[enc.unit_prov], enc.unit_group, n_g) | _group_or(
        compact.self_bits[centre_prov], enc.centre_group, n_g
    )
    near_fp = enc.near.reshape(n_g, -1) | _group_or(compact.near_bits[centre_prov], enc.centre_group, n_g)
    foot = foot.reshape(n_t, n_p, -1)
    near_fp = near_fp.reshape(n_t, n_p, -1)
    neighbours = ((near_fp[:, :, None, :] & foot[:, None, :, :]) != 0).any(axis=-1)
    neighbours[:, enc.diag] = False
    alive = (foot != 0).any(axis=-1)
    sc_alive = np.where(alive, counts, 0).astype(np.float64)
    others_n = alive.sum(axis=1, keepdims=True) - alive
    others_sum = sc_alive.sum(axis=1, keepdims=True) - sc_alive
    nb_n = neighbours.sum(axis=-1)
    nb_sum = (neighbours * counts[:, None, :]).sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        effect = np.where(nb_n > 0, others_sum / np.maximum(others_n, 1) - nb_sum / np.maximum(nb_n, 1), 0.0)
    effect[~alive] = np.nan
    return effect


# --------------------------------------------------------------------------------------------------------
# All measures


def compute_measures(record: GameRecord | Sequence[Position], map_name: str | None = None) -> GameMeasures:
    """Every measure for every power at every phase of a record (or of positions on ``map_name``)."""
    positions, name = positions_of(record, map_name)
    graph = load_map_graph(name)
    if len(positions) == 0:
        raise DiplomacyError("no phases to measure (the record is empty)")
    enc = _encode(graph, positions)
    progress, as_written, from_zero, personal = _progress_family(enc)
    fear_dynamic, fear_static = _fear_family(enc)
    tempi, tempi_change = _tempi_family(enc)
    incohesion, cohesion = _cohesion_family(enc)
    return GameMeasures(
        map_name=graph.name,
        phases=tuple(p.phase for p in positions),
        powers=graph.powers,
        sc_counts=enc.counts,
        progress=progress,
        progress_as_written=as_written,
        progress_from_zero=from_zero,
        personal_progress=personal,
        fear_static=fear_static,
        fear_dynamic=fear_dynamic,
        tempi=tempi,
        tempi_change=tempi_change,
        incohesion=incohesion,
        cohesion=cohesion,
        stab_potential=_stab_potential(enc),
        battle_tiedness=_battle_tiedness(enc),
        neighbour_effect=_neighbour_effect(enc),
    )
