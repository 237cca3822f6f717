"""The opening draft with the advisor in every seat: fast, deterministic, vectorised.

Each seat places two settlements in snake order (1 2 3 4 4 3 2 1 on the base board; 1..6 6..1 on the
5-6 player board). Every seat follows the advisor's rule (:mod:`boardeval.catan.advisor`): the first
settlement on the free legal spot with the best seed-000 score, the second by the second-pick score
(evaluator score without its generic port term, plus the scarcity-weighted pips of the resources the first
settlement lacks, plus a harbour valued by what the two settlements produce). Ties go to the lower spot id,
as in :func:`~boardeval.catan.advisor.advise`; a test checks the draft pick by pick against ``advise`` and
against the openings catanatron games record.

Roads do not change where settlements may go in the opening (the distance rule alone decides), so the
draft is the eight settlement picks; it needs neither catanatron nor a game. On the base board it is the
opening that four ``advisor`` players make in every game on that board: with equal advisors the opening is
a function of the board alone, and only the dice differ from game to game.

:func:`draft_picks` works on plain arrays (a fraction of a millisecond a board through numpy; the
generators use the same draft compiled, :mod:`boardeval.catan.equity_fast`, about 25 us with the model);
:func:`opening_draft` is the explained form.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.advisor import OpeningParams
from boardeval.catan.board import RESOURCE_NAMES, RESOURCES, Board
from boardeval.catan.params import SpotParams
from boardeval.catan.spots import evaluate_spots, spot_details_batch
from boardeval.catan.topology import Topology

__all__ = ["Draft", "DraftArrays", "draft_arrays", "draft_picks", "opening_draft", "snake_order"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

SEATS_BY_LAYOUT = {"base": 4, "extended": 6}
"""Seats in the draft: 4 on the base board (catanatron's map), 6 on the 5-6 player board."""


def snake_order(seats: int) -> tuple[int, ...]:
    """0-based seat of each opening pick: ``(0, 1, .., n-1, n-1, .., 0)``."""
    return tuple(range(seats)) + tuple(reversed(range(seats)))


@cache
def _blocking(topology: Topology) -> BoolArray:
    """``block[s]``: the spots a settlement on ``s`` makes illegal (itself and its neighbours)."""
    n = topology.n_spots
    block = np.eye(n, dtype=np.bool_)
    for s, near in enumerate(topology.spot_neighbours):
        block[s, list(near)] = True
    block.setflags(write=False)
    return block


def _port_matrices(board: Board) -> tuple[FloatArray, FloatArray]:
    """``(two, three)``: ``two[s, r]`` is 1 where spot s has a 2:1 port of resource r (resource axis in
    :data:`RESOURCES` order); ``three[s]`` is 1 on a 3:1 port."""
    topo = board.topology
    n = topo.n_spots
    two = np.zeros((n, len(RESOURCES)))
    three = np.zeros(n)
    for s, slot in enumerate(topo.spot_port.tolist()):
        if slot < 0:
            continue
        letter = board.ports[slot]
        if letter == "3":
            three[s] = 1.0
        else:
            two[s, RESOURCES.index(letter)] = 1.0
    return two, three


@dataclass(frozen=True, eq=False)
class DraftArrays:
    """What the draft needs from one board: the evaluator's table and the port matrices."""

    production: FloatArray  # (spots, 5) pips per spot and resource
    opening: OpeningParams
    first_values: FloatArray  # the evaluator's scores
    base_second: FloatArray  # scores minus the generic port contribution
    weighted_strength: FloatArray  # strength per resource
    two: FloatArray
    three: FloatArray
    block: BoolArray
    seats: int


def draft_arrays(
    board: Board, params: SpotParams | None = None, opening: OpeningParams | None = None
) -> DraftArrays:
    """Precompute a board's arrays for :func:`draft_picks`."""
    p = params or SpotParams.default()
    table = evaluate_spots(board, p)
    scores = np.asarray(table.scores, dtype=np.float64)
    port_contribution = np.asarray(table.metrics[:, 2] * p.eval_weights[2])
    two, three = _port_matrices(board)
    return DraftArrays(
        np.asarray(table.production, dtype=np.float64),
        opening or OpeningParams(),
        scores,
        scores - port_contribution,
        np.asarray(table.strength, dtype=np.float64),
        two,
        three,
        _blocking(board.topology),
        SEATS_BY_LAYOUT.get(board.layout, 4),
    )


def draft_arrays_fast(
    resource_index: npt.NDArray[np.int64],
    pips: npt.NDArray[np.int64],
    port_index: npt.NDArray[np.int64],
    topology: Topology,
    params: SpotParams | None = None,
    opening: OpeningParams | None = None,
) -> DraftArrays:
    """:func:`draft_arrays` from a board's arrays, without building a :class:`Board` (for generators).

    The scores come from :func:`~boardeval.catan.spots.spot_scores_batch` (numpy strengths): equal to the
    single-board evaluator's up to the last bit, so a pick that ties to the last bit may differ; the
    generators rescore their final board with :func:`draft_arrays`.
    """
    p = params or SpotParams.default()
    scores, production, strength, port_metric = spot_details_batch(
        resource_index[None], pips[None], port_index[None], p
    )
    two = np.zeros((topology.n_spots, len(RESOURCES)))
    three = np.zeros(topology.n_spots)
    slots = topology.spot_port
    has = slots >= 0
    kinds = np.where(has, port_index[np.where(has, slots, 0)], -2)
    three[kinds == -1] = 1.0
    rows = np.nonzero(kinds >= 0)[0]
    two[rows, kinds[rows]] = 1.0
    s = scores[0]
    return DraftArrays(
        production[0],
        opening or OpeningParams(),
        s,
        s - port_metric[0] * p.eval_weights[2],
        strength[0],
        two,
        three,
        _blocking(topology),
        4 if topology.n_hexes == 19 else 6,
    )


def second_pick_values(arrays: DraftArrays, first: int) -> FloatArray:
    """The advisor's second-pick score of every spot given the seat's first settlement (the advisor's
    :meth:`~boardeval.catan.advisor.OpeningModel.opening_scores`, same float operations)."""
    prod = arrays.production
    lacks = (prod[first] == 0).astype(np.float64)
    diversity = prod @ (lacks * arrays.weighted_strength)
    own = prod + prod[first]
    harbour = (own * arrays.two).sum(axis=1) + own.sum(axis=1) / 4.0 * arrays.three
    o = arrays.opening
    return arrays.base_second + o.diversity_weight * diversity + o.harbour_weight * harbour


def draft_picks(arrays: DraftArrays) -> IntArray:
    """The spots of the opening picks, in placement order (snake order of :attr:`DraftArrays.seats`)."""
    order = snake_order(arrays.seats)
    free = np.ones(arrays.block.shape[0], dtype=np.bool_)
    picks = np.empty(len(order), dtype=np.int64)
    for k, seat in enumerate(order):
        first = k < arrays.seats
        values = arrays.first_values if first else second_pick_values(arrays, int(picks[seat]))
        masked = np.where(free, values, -np.inf)
        s = int(np.argmax(masked))  # first maximum: ties go to the lower spot id
        if not free[s]:
            raise ValueError("no legal spot left in the draft")  # cannot happen on a valid board
        picks[k] = s
        free &= ~arrays.block[s]
    return picks


@dataclass(frozen=True)
class Draft:
    """The opening draft of a board: ``picks`` in placement order and each seat's two settlements."""

    board: Board
    picks: tuple[int, ...]
    seats: tuple[tuple[int, int], ...]  # by seat: (first settlement, second settlement)
    values: tuple[tuple[float, float], ...]  # by seat: the rule's value of each pick when it was made

    def to_json(self) -> dict[str, Any]:
        """``{"order": [seat, ...], "picks": [spot, ...], "seats": [{"seat", "spots", "values",
        "production"}]}`` (seats 1-based, production in pips per resource name)."""
        prod = evaluate_spots(self.board).production
        names = [RESOURCE_NAMES[r] for r in RESOURCES]
        return {
            "order": [s + 1 for s in snake_order(len(self.seats))],
            "picks": list(self.picks),
            "seats": [
                {
                    "seat": i + 1,
                    "spots": list(spots),
                    "values": list(vals),
                    "production": dict(zip(names, (prod[spots[0]] + prod[spots[1]]).tolist(), strict=True)),
                }
                for i, (spots, vals) in enumerate(zip(self.seats, self.values, strict=True))
            ],
        }


def opening_draft(
    board: Board,
    params: SpotParams | None = None,
    opening: OpeningParams | None = None,
    *,
    arrays: DraftArrays | None = None,
    picks: npt.NDArray[np.int64] | None = None,
) -> Draft:
    """The advisor-in-every-seat opening draft of ``board`` (deterministic); ``arrays`` and ``picks``,
    when the caller has them (:func:`draft_arrays` and :func:`draft_picks` of the same board), are reused."""
    if arrays is None:
        arrays = draft_arrays(board, params, opening)
    if picks is None:
        picks = draft_picks(arrays)
    n = arrays.seats
    seats = tuple((int(picks[i]), int(picks[2 * n - 1 - i])) for i in range(n))
    values = tuple((float(arrays.first_values[a]), float(second_pick_values(arrays, a)[b])) for a, b in seats)
    return Draft(board, tuple(int(p) for p in picks), seats, values)
