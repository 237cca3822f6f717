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
    HEX_EDGE_PAIRS,
    HEX_EDGES,
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


def _region_matrix() -> npt.NDArray[np.float64]:
    m = np.zeros((3, N_HEXES), dtype=np.float64)
    for k, hexes in enumerate((CORNER_HEXES, (CENTRE_HEX,), EDGE_HEXES)):
        m[k, list(hexes)] = 1.0 / len(hexes)
    m.setflags(write=False)
    return m


REGION_MATRIX = _region_matrix()
"""(3, 19): ``pips @ REGION_MATRIX.T`` gives the mean pips of corners, centre, edges."""

_EDGE_A = HEX_EDGES[:, 0]
_EDGE_B = HEX_EDGES[:, 1]


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
    ra, rb = res[..., _EDGE_A], res[..., _EDGE_B]
    same = ((ra == rb) & (ra != DESERT_INDEX)).sum(axis=-1)
    hot = (num == 6) | (num == 8)
    high = (hot[..., _EDGE_A] & hot[..., _EDGE_B]).sum(axis=-1)
    means = pip @ REGION_MATRIX.T
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
    same_pairs = [[a, b] for a, b in HEX_EDGE_PAIRS if res[a] == res[b] and res[a] != DESERT_INDEX]
    high_pairs = [[a, b] for a, b in HEX_EDGE_PAIRS if num[a] in (6, 8) and num[b] in (6, 8)]
    means = (board.pips.astype(np.float64) @ REGION_MATRIX.T).tolist()
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
