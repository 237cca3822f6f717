"""The generators' view of a board layout: hex adjacency, the three regions and the exact-energy scale.

:mod:`.common` explains the exact energy on the base board: region means ``Sc/6, Sx/1, Se/12`` scaled
by 12 are integers, and ``1296 * energy`` is an integer. The same works on any layout: with region sizes
``n_k`` and ``L = lcm(n_k)``, the means scaled by ``L`` are the integers ``(L / n_k) * S_k`` and::

    pip_variance = (3 (a^2 + b^2 + c^2) - (a + b + c)^2) / (9 L^2)

so ``scale = 9 L^2`` makes the energy an integer: 1296 on the base board (regions 6 / 1 / 12, L = 12),
39204 on the 5-6 player board (regions 6 / 2 / 22, L = 66). Regions come from the topology the same way
on every layout (:func:`~boardeval.catan.energy._region_matrix`): corners = hexes with three land
neighbours, centre = the hexes nearest the centroid, edges = the rest.

:func:`region_lower_bound` generalises :func:`.common.energy_lower_bound` (no bad pairs, no harbour
cost, the best reachable region split) to any layout by a small dynamic programme over the tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from boardeval.catan.board import DESERT, PIPS, layout_spec

__all__ = ["GenLayout", "gen_layout", "region_lower_bound"]


@dataclass(frozen=True, eq=False)
class GenLayout:
    """A layout as the generators need it (built once per layout by :func:`gen_layout`)."""

    name: str
    n_hexes: int
    n_ports: int
    neighbours: tuple[tuple[int, ...], ...]
    edge_pairs: tuple[tuple[int, int], ...]
    regions: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    """Corner, centre and edge hexes."""
    region_of: tuple[int, ...]
    """Region per hex: 0 corners, 1 centre, 2 edges."""
    factors: tuple[int, int, int]
    """``L / region size``: multiplies a region's pip sum into ``L`` x its mean."""
    scale: int
    """``9 L^2``: ``scale * energy`` is an integer for integer weights."""
    number_tokens: tuple[int, ...]
    n_deserts: int

    @property
    def total_pips(self) -> int:
        return sum(PIPS[n] for n in self.number_tokens)

    def variance_numerator(self, sc: int, sx: int, se: int) -> int:
        """``scale * pip_variance`` for region pip sums (corners, centre, edges)."""
        a, b, c = self.factors[0] * sc, self.factors[1] * sx, self.factors[2] * se
        return 3 * (a * a + b * b + c * c) - (a + b + c) ** 2


@cache
def gen_layout(layout: str = "base") -> GenLayout:
    """The :class:`GenLayout` of ``"base"`` or ``"extended"``."""
    spec = layout_spec(layout)
    t = spec.topology
    regions = (t.corner_hexes, t.centre_hexes, t.edge_hexes)
    sizes = [len(r) for r in regions]
    lcm = math.lcm(*sizes)
    region_of = tuple(next(k for k, r in enumerate(regions) if h in r) for h in range(t.n_hexes))
    return GenLayout(
        name=spec.name,
        n_hexes=t.n_hexes,
        n_ports=t.n_ports,
        neighbours=t.hex_neighbours,
        edge_pairs=tuple((int(a), int(b)) for a, b in t.hex_edges.tolist()),
        regions=regions,
        region_of=region_of,
        factors=(lcm // sizes[0], lcm // sizes[1], lcm // sizes[2]),
        scale=9 * lcm * lcm,
        number_tokens=spec.number_tokens,
        n_deserts=spec.tile_counts[DESERT],
    )


@cache
def _reachable_splits(layout: str) -> frozenset[tuple[int, int]]:
    """Every (corner pip sum, centre pip sum) some board of the layout has: the deserts may sit on corner
    or centre hexes, every other corner and centre hex holds a token, each token used once."""
    g = gen_layout(layout)
    n_corner, n_centre = len(g.regions[0]), len(g.regions[1])
    # states: (corner tokens, centre tokens, corner pips, centre pips)
    states: set[tuple[int, int, int, int]] = {(0, 0, 0, 0)}
    for n in g.number_tokens:
        p = PIPS[n]
        grown = set(states)
        for kc, kx, sc, sx in states:
            if kc < n_corner:
                grown.add((kc + 1, kx, sc + p, sx))
            if kx < n_centre:
                grown.add((kc, kx + 1, sc, sx + p))
        states = grown
    return frozenset(
        (sc, sx)
        for kc, kx, sc, sx in states
        if (n_corner - kc) + (n_centre - kx) <= g.n_deserts  # the hexes without a token hold deserts
    )


@cache
def region_lower_bound(w_var: int, layout: str = "base") -> int:
    """A lower bound on ``scale * energy`` of any board of the layout: ``w_var`` times the smallest
    variance numerator over the reachable region splits (pairs and the harbour term are >= 0)."""
    g = gen_layout(layout)
    total = g.total_pips
    return w_var * min(g.variance_numerator(sc, sx, total - sc - sx) for sc, sx in _reachable_splits(layout))
