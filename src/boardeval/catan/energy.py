"""Board "energy": seed 001's three tile terms (catan-forge) plus our harbour term; lower is fairer.

::

    energy = 100 * same_resource_pairs + 150 * high_number_pairs + 10 * pip_variance + 10 * ports

Two named weight sets ship (:data:`ENERGY_WEIGHT_SETS`): ``default`` (the formula above) and ``seed``
(seed 001's formula exactly: the same three weights, ``ports`` 0). The default is the better measure (it
also places the harbours), so it is what every command computes unless ``seed`` is asked for
(``boardeval catan energy --weights seed``); on the spec's board they give 635.4 and 525.4.

- ``same_resource_pairs``: adjacent hex pairs (true hex adjacency, each pair once) with the same
  non-desert resource;
- ``high_number_pairs``: adjacent hex pairs whose tokens are both in {6, 8};
- ``pip_variance``: population variance, over the three regions, of each region's MEAN pips per hex::

          C   e   C            C = corners (0, 2, 7, 11, 16, 18)
        e   e   e   e          X = centre (9)
      C   e   X   e   C        e = edges (the other 12)
        e   e   e   e
          C   e   C

  The desert counts as a hex with 0 pips. Erratum (spec section 3): the seed says "sum pips per region",
  but regions of 6, 1 and 12 hexes can never have equal sums; catan-forge's code uses means, so do we.
- ``ports`` (ours, issue 16): how badly the harbours sit, an integer in "harbour units"::

      ports = port_own_pips + 5 * port_unreached + 5 * port_generic_adjacent

  * ``port_own_pips``: for every 2:1 harbour of resource r, the pips of the r hexes touching either of
    its two spots (a 2:1 harbour should not sit on the best spots of its own resource: whoever settles
    there gets the resource and the cheap trade at once);
  * ``port_unreached``: the 2:1 harbours out of reach of the resource's producers: no spot within two
    roads of either harbour spot (road distance 0, 1 or 2) makes at least :data:`PORT_REACH_PIPS` (3)
    pips of r from its own r hexes;
  * ``port_generic_adjacent``: pairs of 3:1 harbours next to each other around the coast (slots taken
    in the cyclic order of their water hexes' angle about the board centre), so that the generic
    harbours spread around the coast.

  Everything is computed from the board's topology (:func:`port_geometry`): slots, spots, roads, so a
  larger frame just works. ``ports = 0`` (weight) gives exactly seed 001's energy: the term's
  contribution is then an exact 0.0 in the sum. The default weight 10 makes one own-resource pip cost
  10 and an unreached 2:1 harbour or two touching 3:1 harbours cost 50, half a same-resource pair: the
  term matters (about 240 of a random board's 1,050, a fifth; ``docs/catan.md``) without dominating
  the tile terms, and the optimum still has no bad harbour at all. Weight files written before the term (three
  names) load with ``ports = 0``.

Weights are data (``catan/data/energy_weights.toml``; ``energy_weights_seed.toml`` for ``seed``),
overridable with a :class:`WeightSet`. A weight
file must give the names (``ports`` may be left out: it is then 0), each a number in
:data:`ENERGY_WEIGHT_RANGE` (0..1e6): the raw terms are at most 42 pairs (the base board's hex edges; a
few more on larger frames), a variance of at most 6.25 (region means lie in 0..5) and a harbour score
below 200, so the energy stays below 1e9 and ``1296 * energy`` (the generators' exact integer) fits
CP-SAT's 64-bit integers.
:func:`energy_terms_arrays` is the allocation-light array form for hot loops (annealing, batches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import (
    DESERT_INDEX,
    N_HEXES,
    Board,
)
from boardeval.catan.topology import (
    BASE_TOPOLOGY,
    CENTRE_HEX,
    CORNER_HEXES,
    EDGE_HEXES,
    EXTENDED_TOPOLOGY,
    HEX_EDGES,
    Topology,
)
from boardeval.core import Breakdown, ParamsError, WeightSet
from boardeval.core.weights import load_data_file

__all__ = [
    "DEFAULT_ENERGY_WEIGHTS_FILE",
    "ENERGY_TERMS",
    "ENERGY_WEIGHT_RANGE",
    "ENERGY_WEIGHT_SETS",
    "PORT_GENERIC_ADJACENT_COST",
    "PORT_REACH_PIPS",
    "PORT_UNREACHED_COST",
    "REGION_MATRIX",
    "REGION_NAMES",
    "PortGeometry",
    "PortTerms",
    "board_energy",
    "energy_from_terms",
    "energy_json",
    "energy_terms_arrays",
    "energy_weights",
    "port_geometry",
    "port_terms",
    "port_terms_lists",
]

DEFAULT_ENERGY_WEIGHTS_FILE = Path(__file__).parent / "data" / "energy_weights.toml"
ENERGY_WEIGHT_SETS: dict[str, Path] = {
    "default": DEFAULT_ENERGY_WEIGHTS_FILE,
    "seed": Path(__file__).parent / "data" / "energy_weights_seed.toml",
}
"""The shipped weight sets by name: ``default`` (seed 001's three terms plus the harbour term at weight
10) and ``seed`` (seed 001's formula exactly: 100 / 150 / 10, no harbour term)."""
ENERGY_TERMS: tuple[str, ...] = ("same_resource_pairs", "high_number_pairs", "pip_variance", "ports")
PORT_REACH_PIPS = 3
"""A 2:1 harbour of r is reached when a spot within two roads makes at least this many pips of r."""
PORT_UNREACHED_COST = 5
"""Harbour units of one unreached 2:1 harbour (five own-resource pips' worth)."""
PORT_GENERIC_ADJACENT_COST = 5
"""Harbour units of one pair of neighbouring 3:1 harbours."""
REGION_NAMES: tuple[str, ...] = ("corners", "centre", "edges")
ENERGY_WEIGHT_RANGE: tuple[float, float] = (0.0, 1e6)
"""Allowed range of each energy weight (module docstring)."""


def _region_matrix(topology: Topology | None = None) -> npt.NDArray[np.float64]:
    """(3, hexes) region means. Regions come from the topology the same way on every layout: corners =
    hexes with exactly three land neighbours, centre = the hexes nearest the board's centroid, edges =
    the rest. Base board: 6 / 1 / 12 hexes; 5-6 player board: 6 / 2 (the two middle hexes of the
    6-hex row) / 22."""
    if topology is None:
        hexes_by_region: tuple[tuple[int, ...], ...] = (CORNER_HEXES, (CENTRE_HEX,), EDGE_HEXES)
        n = N_HEXES
    else:
        hexes_by_region = (topology.corner_hexes, topology.centre_hexes, topology.edge_hexes)
        n = topology.n_hexes
    m = np.zeros((3, n), dtype=np.float64)
    for k, hexes in enumerate(hexes_by_region):
        m[k, list(hexes)] = 1.0 / len(hexes)
    m.setflags(write=False)
    return m


REGION_MATRIX = _region_matrix()
"""(3, 19): ``pips @ REGION_MATRIX.T`` gives the mean pips of corners, centre, edges."""

_EDGE_A = HEX_EDGES[:, 0]
_EDGE_B = HEX_EDGES[:, 1]
_TABLES_BY_WIDTH: dict[int, tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = {
    N_HEXES: (REGION_MATRIX, _EDGE_A, _EDGE_B),
    EXTENDED_TOPOLOGY.n_hexes: (
        _region_matrix(EXTENDED_TOPOLOGY),
        EXTENDED_TOPOLOGY.hex_edges[:, 0],
        EXTENDED_TOPOLOGY.hex_edges[:, 1],
    ),
}
"""Hexes per board -> (region matrix, edge ends a, edge ends b): the array path picks its layout by width."""


def energy_weights(path: str | Path | None = None) -> WeightSet:
    """The energy weights: the packaged defaults (``None`` or ``"default"``), seed 001's set (``"seed"``),
    or a TOML/JSON file with the term names (a file without ``ports``, written before the harbour term,
    gets ``ports = 0``: seed 001's energy). A name that is neither a set nor a file path (no suffix)
    fails with the valid names."""
    if path is None:
        return _named_weights("default")
    if isinstance(path, str) and path in ENERGY_WEIGHT_SETS:
        return _named_weights(path)
    if not Path(path).suffix:
        raise ParamsError(
            f"unknown energy weight set {str(path)!r}; expected one of {list(ENERGY_WEIGHT_SETS)} "
            "or a weight file (.toml or .json)"
        )
    return _load_weights(path)


def _load_weights(path: str | Path) -> WeightSet:
    data: Any = load_data_file(path)
    if isinstance(data, dict) and "ports" not in data:
        data = {**data, "ports": 0.0}
    if not isinstance(data, dict):
        raise ParamsError(f"weight file {str(path)!r} must hold a table/object")
    return WeightSet(
        data, names=ENERGY_TERMS, nonnegative=ENERGY_TERMS, source=repr(str(path)), bounds=ENERGY_WEIGHT_RANGE
    )


@cache
def _named_weights(name: str) -> WeightSet:
    return _load_weights(ENERGY_WEIGHT_SETS[name])


# ---------------------------------------------------------------------------------------------------------
# The harbour term
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PortGeometry:
    """Where the harbour slots of a topology are, as the harbour term needs it.

    ``spots[k]``: the two spots of slot k; ``hexes[k]``: the land hexes touching either spot; ``reach[k]``:
    the spots within two roads of either spot (the two included); ``reach_hexes[k]``: for each reach spot,
    its hexes; ``neighbours``: the slot pairs next to each other around the coast (cyclic order of the
    water hexes' angle about the centre), each pair ``(a, b)`` with ``a < b``, each once.
    """

    spots: tuple[tuple[int, int], ...]
    hexes: tuple[tuple[int, ...], ...]
    reach: tuple[tuple[int, ...], ...]
    reach_hexes: tuple[tuple[tuple[int, ...], ...], ...]
    neighbours: tuple[tuple[int, int], ...]


@cache
def port_geometry(topology: Topology = BASE_TOPOLOGY) -> PortGeometry:
    """The harbour geometry of ``topology`` (computed once per topology)."""
    spots = topology.port_spots
    hexes = tuple(tuple(sorted({h for s in pair for h in topology.spot_hexes[s]})) for pair in spots)
    reach: list[tuple[int, ...]] = []
    for pair in spots:
        seen = set(pair)
        frontier = list(pair)
        for _ in range(2):
            frontier = [n for s in frontier for n in topology.spot_neighbours[s] if n not in seen]
            seen.update(frontier)
        reach.append(tuple(sorted(seen)))
    reach_hexes = tuple(tuple(topology.spot_hexes[s] for s in r) for r in reach)
    angles = []
    for cube, _ in topology.port_frame:
        x, _y, z = cube
        angles.append(math.atan2(1.5 * z, math.sqrt(3.0) / 2.0 * (2 * x + z)))
    order = sorted(range(len(angles)), key=lambda k: angles[k])
    pairs: set[tuple[int, int]] = set()
    if len(order) >= 3:
        for i, a in enumerate(order):
            b = order[(i + 1) % len(order)]
            pairs.add((min(a, b), max(a, b)))
    elif len(order) == 2:
        pairs.add((min(order), max(order)))
    return PortGeometry(spots, hexes, tuple(reach), reach_hexes, tuple(sorted(pairs)))


@dataclass(frozen=True)
class PortTerms:
    """The harbour term's parts (module docstring): ``raw`` is the ``ports`` value of the energy."""

    own_pips: int
    unreached: int
    generic_adjacent: int
    own_by_slot: tuple[tuple[int, int], ...]
    """(slot, own-resource pips) for each 2:1 harbour with own pips > 0."""
    unreached_slots: tuple[int, ...]
    adjacent_generic_slots: tuple[tuple[int, int], ...]

    @property
    def raw(self) -> int:
        return (
            self.own_pips
            + PORT_UNREACHED_COST * self.unreached
            + PORT_GENERIC_ADJACENT_COST * self.generic_adjacent
        )


def port_terms_lists(
    res: Sequence[int], pips: Sequence[int], ports: Sequence[int], geometry: PortGeometry
) -> int:
    """The harbour term's raw value from plain lists (the annealer's hot loop): ``res`` resource index per
    hex, ``pips`` per hex, ``ports`` per slot (resource index, -1 for 3:1)."""
    total = 0
    for k, r in enumerate(ports):
        if r < 0:
            continue
        for h in geometry.hexes[k]:
            if res[h] == r:
                total += pips[h]
        for hexes in geometry.reach_hexes[k]:
            if sum(pips[h] for h in hexes if res[h] == r) >= PORT_REACH_PIPS:
                break
        else:
            total += PORT_UNREACHED_COST
    for a, b in geometry.neighbours:
        if ports[a] < 0 and ports[b] < 0:
            total += PORT_GENERIC_ADJACENT_COST
    return total


def board_topology(board: Board) -> Topology:
    """The board's topology (``board.topology`` once boards carry a layout; the base frame before)."""
    t = getattr(board, "topology", None)
    return t if isinstance(t, Topology) else BASE_TOPOLOGY


def port_terms(board: Board) -> PortTerms:
    """The harbour term of ``board``, with which harbours pay and why."""
    g = port_geometry(board_topology(board))
    res, pips, ports = board.resource_index.tolist(), board.pips.tolist(), board.port_index.tolist()
    own: list[tuple[int, int]] = []
    unreached: list[int] = []
    for k, r in enumerate(ports):
        if r < 0:
            continue
        p = sum(pips[h] for h in g.hexes[k] if res[h] == r)
        if p:
            own.append((k, p))
        if not any(
            sum(pips[h] for h in hexes if res[h] == r) >= PORT_REACH_PIPS for hexes in g.reach_hexes[k]
        ):
            unreached.append(k)
    adjacent = tuple((a, b) for a, b in g.neighbours if ports[a] < 0 and ports[b] < 0)
    return PortTerms(
        own_pips=sum(p for _, p in own),
        unreached=len(unreached),
        generic_adjacent=len(adjacent),
        own_by_slot=tuple(own),
        unreached_slots=tuple(unreached),
        adjacent_generic_slots=adjacent,
    )


def energy_terms_arrays(
    resource_index: npt.ArrayLike, pips: npt.ArrayLike, numbers: npt.ArrayLike
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The three raw terms from arrays, for hot loops; works on one board or a batch.

    ``resource_index``, ``pips``, ``numbers``: shape (..., 19) (``Board.resource_index``, ``Board.pips``,
    ``Board.number_array``; desert = ``DESERT_INDEX`` / 0 pips / number 0). Returns
    ``(same_resource_pairs, high_number_pairs, pip_variance)`` each of shape (...) (0-d for one board).
    """
    res = np.asarray(resource_index)
    pip = np.asarray(pips, dtype=np.float64)
    num = np.asarray(numbers)
    region, edge_a, edge_b = _TABLES_BY_WIDTH.get(res.shape[-1], (REGION_MATRIX, _EDGE_A, _EDGE_B))
    ra, rb = res[..., edge_a], res[..., edge_b]
    same = ((ra == rb) & (ra != DESERT_INDEX)).sum(axis=-1)
    hot = (num == 6) | (num == 8)
    high = (hot[..., edge_a] & hot[..., edge_b]).sum(axis=-1)
    means = pip @ region.T
    variance = means.var(axis=-1)
    return same.astype(np.int64), high.astype(np.int64), variance


def energy_from_terms(
    same_resource_pairs: float,
    high_number_pairs: float,
    pip_variance: float,
    weights: WeightSet | None = None,
    *,
    ports: float = 0,
    extras: dict[str, object] | None = None,
) -> Breakdown:
    """The energy breakdown from the raw terms (the seed's formula with configurable weights, plus the
    harbour term ``ports``)."""
    w = weights if weights is not None else energy_weights()
    raw = dict(zip(ENERGY_TERMS, (same_resource_pairs, high_number_pairs, pip_variance, ports), strict=True))
    return Breakdown.from_values(raw, w, label="energy", extras=extras)


def board_energy(board: Board, weights: WeightSet | None = None) -> Breakdown:
    """The board's energy as a breakdown; extras list the offending pairs and the region means."""
    same, high, var = energy_terms_arrays(board.resource_index, board.pips, board.number_array)
    res, num = board.resource_index, board.number_array
    edge_pairs = [(int(a), int(b)) for a, b in board.topology.hex_edges.tolist()]
    same_pairs = [[a, b] for a, b in edge_pairs if res[a] == res[b] and res[a] != DESERT_INDEX]
    high_pairs = [[a, b] for a, b in edge_pairs if num[a] in (6, 8) and num[b] in (6, 8)]
    region = _TABLES_BY_WIDTH.get(board.n_hexes, (REGION_MATRIX,))[0]
    means = (board.pips.astype(np.float64) @ region.T).tolist()
    extras: dict[str, object] = {
        "same_resource_pair_hexes": same_pairs,
        "high_number_pair_hexes": high_pairs,
        "region_mean_pips": dict(zip(REGION_NAMES, means, strict=True)),
    }
    pt = port_terms(board)
    extras["ports"] = {
        "own_pips": pt.own_pips,
        "unreached": pt.unreached,
        "generic_adjacent": pt.generic_adjacent,
        "own_pips_by_slot": [[k, p] for k, p in pt.own_by_slot],
        "unreached_slots": list(pt.unreached_slots),
        "adjacent_generic_slots": [[a, b] for a, b in pt.adjacent_generic_slots],
    }
    return energy_from_terms(int(same), int(high), float(var), weights, ports=pt.raw, extras=extras)


def energy_json(b: Breakdown) -> dict[str, Any]:
    """The flat JSON of an energy breakdown (``boardeval catan energy --json``, generator results):
    ``{"same_resource_pairs": n, "high_number_pairs": n, "pip_variance": x, "ports": n, "energy": x}``
    (``ports``: the harbour term's raw value in harbour units)."""
    return {
        "same_resource_pairs": int(b["same_resource_pairs"].raw),
        "high_number_pairs": int(b["high_number_pairs"].raw),
        "pip_variance": b["pip_variance"].raw,
        "ports": int(b["ports"].raw),
        "energy": b.total,
    }
