"""Board "energy" of seed 001 (catan-forge): lower is fairer.

::

    energy = 100 * same_resource_pairs + 150 * high_number_pairs + 10 * pip_variance

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

Weights are data (``catan/data/energy_weights.toml``), overridable with a :class:`WeightSet`. A weight
file must give the three names, each a number in :data:`ENERGY_WEIGHT_RANGE` (0..1e6): the raw terms are
at most 42 pairs (the board's hex edges) and a variance of at most 6.25 (region means lie in 0..5), so
the energy stays below 1e8 and ``1296 * energy`` (the
generators' exact integer) fits CP-SAT's 64-bit integers.
:func:`energy_terms_arrays` is the allocation-light array form for hot loops (annealing, batches).
"""

from __future__ import annotations

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
    CENTRE_HEX,
    CORNER_HEXES,
    EDGE_HEXES,
    EXTENDED_TOPOLOGY,
    HEX_EDGES,
    Topology,
)
from boardeval.core import Breakdown, WeightSet

__all__ = [
    "DEFAULT_ENERGY_WEIGHTS_FILE",
    "ENERGY_TERMS",
    "ENERGY_WEIGHT_RANGE",
    "REGION_MATRIX",
    "REGION_NAMES",
    "board_energy",
    "energy_from_terms",
    "energy_json",
    "energy_terms_arrays",
    "energy_weights",
]

DEFAULT_ENERGY_WEIGHTS_FILE = Path(__file__).parent / "data" / "energy_weights.toml"
ENERGY_TERMS: tuple[str, ...] = ("same_resource_pairs", "high_number_pairs", "pip_variance")
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
    """The energy weights: the packaged defaults, or a TOML/JSON file with the three term names."""
    if path is None:
        return _default_weights()
    return WeightSet.load(path, names=ENERGY_TERMS, nonnegative=ENERGY_TERMS, bounds=ENERGY_WEIGHT_RANGE)


@cache
def _default_weights() -> WeightSet:
    return WeightSet.load(
        DEFAULT_ENERGY_WEIGHTS_FILE, names=ENERGY_TERMS, nonnegative=ENERGY_TERMS, bounds=ENERGY_WEIGHT_RANGE
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
    extras: dict[str, object] | None = None,
) -> Breakdown:
    """The energy breakdown from the three raw terms (the seed's formula with configurable weights)."""
    w = weights if weights is not None else energy_weights()
    raw = dict(zip(ENERGY_TERMS, (same_resource_pairs, high_number_pairs, pip_variance), strict=True))
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
    return energy_from_terms(int(same), int(high), float(var), weights, extras=extras)


def energy_json(b: Breakdown) -> dict[str, Any]:
    """The flat JSON of an energy breakdown (``boardeval catan energy --json``, generator results):
    ``{"same_resource_pairs": n, "high_number_pairs": n, "pip_variance": x, "energy": x}``."""
    return {
        "same_resource_pairs": int(b["same_resource_pairs"].raw),
        "high_number_pairs": int(b["high_number_pairs"].raw),
        "pip_variance": b["pip_variance"].raw,
        "energy": b.total,
    }
