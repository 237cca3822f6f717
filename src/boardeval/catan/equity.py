"""Seat equity: what each seat can win on a board when everyone opens well (issue 26).

:func:`seat_equity` plays the opening draft with the advisor in every seat (:mod:`.draft`: deterministic,
snake order 1-2-3-4-4-3-2-1), describes each seat's opening by a few transparent terms, and turns them into
a predicted win probability with a conditional-logit model **fitted on play**: catanatron games between four
``advisor`` openers (who play like catanatron's ``WeightedRandomPlayer`` after the opening) on random and
annealed boards (:mod:`.equity_fit`, ``benchmarks/catan_equity.py --only fit --write-model``). The fitted
coefficients ship as ``data/seat_equity_model.json``; nobody edits them by hand.

**The model.** For seat i the terms ``x_i`` (:data:`FEATURES`) are taken relative to the board's mean over
the seats (a seat is judged against the other seats of the same board), and::

    z_i = sum_k coef_k * (x_ik - mean_j x_jk)
    p_i = exp(z_i) / sum_j exp(z_j)          (a conditional logit: which seat wins the game)

The result is explained like every evaluation here: per seat a :class:`~boardeval.core.Breakdown` whose
terms (the centred term values, the coefficients, their contributions) sum to ``z_i``; the spread is the
best minus the worst seat's probability, and ``why`` names the leading and trailing seats, their picks and
the terms that separate them.

**Terms** (per seat, from its two opening settlements, the whole draft placed; "pips" are the dice
chances out of 36 of the hexes they touch):

- ``opening_score``: the sum of the two spots' seed-000 scores (the evaluator's view of the opening);
- ``wood`` .. ``ore``: pips of each resource the two settlements produce;
- ``resources``: how many of the five resources they produce;
- ``balance``: the sum over resources of ``log(1 + pips)`` (diminishing returns: the fifth pip of one
  resource is worth less than the first of another);
- ``city_pace``: ``min(grain / 2, ore / 3)``, the pace at which a city's cost comes in (the bots after the
  opening build a city whenever they can);
- ``road_pace``: ``min(wood, brick)``, the pace of roads (and of the settlements they lead to);
- ``dev_pace``: ``min(sheep, grain, ore)``, the pace of development cards;
- ``harbour_fit``: the pips of the resources its 2:1 harbours take; ``harbour_3to1``: 1 on a 3:1 harbour;
- ``hexes``: how many producing hexes its settlements touch (a hex twice if both do): a settlement on
  the coast or by the desert has fewer sources of income;
- ``shared_hexes``: the pips of its hexes that another seat also settles on (a robber there hits
  two seats, and the bots rob at random);
- ``shared_numbers``: the pips of its numbers on which another seat also produces;
- ``numbers``: how many different numbers pay it (fewer, with the same pips, means a lumpier income);
- ``expansion``, ``expansion_2``: the best and second-best seed-000 scores among the free legal spots two
  roads from its settlements after the draft (where its third settlement can go; 0 if none);
  ``expansion_free``: the best of those that no other seat reaches in two roads;
- ``first_pips``: the pips of its first settlement alone (with the same two-settlement production, a seat
  whose first settlement makes more wins more often: a play-fitted term, session 4's residual analysis);
- ``road_spots``, ``road_best``: its two opening roads (the advisor's: each to the end whose far free spots
  score best when it is placed) and the free legal spots one more road beyond their ends after the draft,
  counted once per road, and the best spot score among them (0 if none): where a single road takes its
  third settlement (the bots after the opening build roads at random, so near room counts);
- ``seat_2`` .. ``seat_4``: the seat's place in the turn order (seat 1 rolls first).

**5-6 player boards**: catanatron has no such map, so no model is fitted on play for them. The draft
(six seats, snake order) and each seat's opening value (the advisor's values of its two picks) are still
given, with ``win_probabilities`` ``None`` and a note saying why.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import RESOURCE_NAMES, RESOURCES, Board
from boardeval.catan.draft import Draft, DraftArrays, draft_arrays, draft_picks, opening_draft, snake_order
from boardeval.core import Breakdown, CatanError

__all__ = [
    "FEATURES",
    "SEAT_EQUITY_TERMS",
    "SeatEquity",
    "SeatModel",
    "draft_features",
    "load_seat_model",
    "predict_probabilities",
    "seat_equity",
    "spread_of",
]

FloatArray = npt.NDArray[np.float64]

RESOURCE_FEATURES = tuple(RESOURCE_NAMES[r] for r in RESOURCES)  # wood, brick, sheep, grain, ore
FEATURES: tuple[str, ...] = (
    "opening_score",
    *RESOURCE_FEATURES,
    "resources",
    "balance",
    "city_pace",
    "road_pace",
    "dev_pace",
    "harbour_fit",
    "harbour_3to1",
    "hexes",
    "shared_hexes",
    "shared_numbers",
    "numbers",
    "expansion",
    "expansion_2",
    "expansion_free",
    "first_pips",
    "road_spots",
    "road_best",
    "seat_2",
    "seat_3",
    "seat_4",
)
"""The model's terms, in the order of the coefficient vector (module docstring)."""
SEAT_EQUITY_TERMS = FEATURES
"""The terms under the name the package exports (the web glossary defines each)."""
SEAT_TERMS = ("seat_2", "seat_3", "seat_4")

MODEL_FILE = "seat_equity_model.json"
NO_MAP_NOTE = (
    "catanatron has no 5-6 player map, so no win probability is fitted on play for this board: "
    "the draft and each seat's opening value only"
)


def _reach(arrays: DraftArrays, picks: npt.NDArray[np.int64], seats: int) -> npt.NDArray[np.bool_]:
    """``reach[i, s]``: spot s is free after the draft and two roads from seat i's settlements (where
    its third settlement can go)."""
    block = arrays.block
    free = ~block[picks].any(axis=0)
    out = np.zeros((seats, block.shape[0]), dtype=np.bool_)
    for i in range(seats):
        near = block[[int(picks[i]), int(picks[2 * seats - 1 - i])]].any(axis=0)  # settlements, neighbours
        out[i] = free & block[near].any(axis=0) & ~near  # one more road
    return out


def _road_targets(board: Board, arrays: DraftArrays, picks: npt.NDArray[np.int64]) -> list[list[int]]:
    """Per pick (placement order): the free spots after the draft one road beyond the end of the opening
    road the advisor builds with that settlement (:meth:`~boardeval.catan.advisor.OpeningModel.
    best_road_end`: the end whose far spots, free when the road is placed, score best; ties to the lower
    end)."""
    nb = board.topology.spot_neighbours
    block = arrays.block
    values = arrays.first_values
    free = np.ones(block.shape[0], dtype=np.bool_)
    ends = []
    for s in picks:
        free &= ~block[s]
        far = {e: max((float(values[t]) for t in nb[e] if free[t]), default=-1.0) for e in nb[int(s)]}
        ends.append(max(sorted(far), key=lambda e: (far[e], -e)))  # the settlement itself is not free
    return [[t for t in nb[e] if t != int(s) and free[t]] for s, e in zip(picks, ends, strict=True)]


def _top(values: FloatArray, k: int) -> float:
    """The k-th largest value (1-based), 0 if there are fewer."""
    return float(np.sort(values)[-k]) if len(values) >= k else 0.0


def draft_features(
    board: Board, arrays: DraftArrays | None = None, picks: npt.NDArray[np.int64] | None = None
) -> FloatArray:
    """The raw (uncentred) terms of every seat of ``board`` after its draft, shape (seats, len(FEATURES));
    seat indicators are set for seats 2 to 4 only (a 5-6 player draft has no fitted seat terms beyond
    those). ``arrays`` and ``picks`` (of the same board) are reused when given."""
    if arrays is None:
        arrays = draft_arrays(board)
    if picks is None:
        picks = draft_picks(arrays)
    n = arrays.seats
    first, second = picks[:n], picks[n:][::-1]
    prod = arrays.production
    both = prod[first] + prod[second]  # (seats, 5)
    col = {name: k for k, name in enumerate(FEATURES)}
    x = np.zeros((n, len(FEATURES)))
    x[:, col["opening_score"]] = arrays.first_values[first] + arrays.first_values[second]
    x[:, 1:6] = both
    x[:, col["resources"]] = (both > 0).sum(axis=1)
    x[:, col["balance"]] = np.log1p(both).sum(axis=1)
    wood, brick, _, grain, ore = range(5)
    x[:, col["city_pace"]] = np.minimum(both[:, grain] / 2.0, both[:, ore] / 3.0)
    x[:, col["road_pace"]] = np.minimum(both[:, wood], both[:, brick])
    x[:, col["dev_pace"]] = both[:, 2:].min(axis=1)
    x[:, col["harbour_fit"]] = (np.maximum(arrays.two[first], arrays.two[second]) * both).sum(axis=1)
    x[:, col["harbour_3to1"]] = np.maximum(arrays.three[first], arrays.three[second])
    # the hexes and numbers each seat's settlements touch (a hex twice if both settlements touch it)
    topo = board.topology
    productive = board.resource_index < len(RESOURCES)
    hexes = [
        [h for s in (int(first[i]), int(second[i])) for h in topo.spot_hexes[s] if productive[h]]
        for i in range(n)
    ]
    on_number = np.zeros((n, 13))
    for i in range(n):
        for h in hexes[i]:
            on_number[i, board.number_array[h]] += board.pips[h]
    reach = _reach(arrays, picks, n)
    values = arrays.first_values
    for i in range(n):
        others = [j for j in range(n) if j != i]
        theirs = {h for j in others for h in hexes[j]}
        x[i, col["hexes"]] = len(hexes[i])
        x[i, col["shared_hexes"]] = sum(float(board.pips[h]) for h in hexes[i] if h in theirs)
        x[i, col["shared_numbers"]] = on_number[i][on_number[others].sum(axis=0) > 0].sum()
        x[i, col["numbers"]] = (on_number[i] > 0).sum()
        x[i, col["expansion"]] = _top(values[reach[i]], 1)
        x[i, col["expansion_2"]] = _top(values[reach[i]], 2)
        x[i, col["expansion_free"]] = _top(values[reach[i] & ~reach[others].any(axis=0)], 1)
    x[:, col["first_pips"]] = prod[first].sum(axis=1)
    targets = _road_targets(board, arrays, picks)
    for k, seat in enumerate(snake_order(n)):
        x[seat, col["road_spots"]] += len(targets[k])
        best = max((float(values[t]) for t in targets[k]), default=0.0)
        x[seat, col["road_best"]] = max(x[seat, col["road_best"]], best)
    for seat in range(1, min(n, 4)):
        x[seat, col[SEAT_TERMS[seat - 1]]] = 1.0
    return x


@dataclass(frozen=True)
class SeatModel:
    """The fitted model: a coefficient per term (raw units, logit per unit above the table's mean) and
    what it was fitted on."""

    features: tuple[str, ...]
    coef: tuple[float, ...]
    meta: dict[str, Any]

    def __post_init__(self) -> None:
        if tuple(self.features) != FEATURES or len(self.coef) != len(FEATURES):
            raise CatanError(
                f"seat-equity model terms {list(self.features)} do not match this version's {list(FEATURES)}"
            )
        if not all(math.isfinite(c) for c in self.coef):
            raise CatanError("seat-equity model coefficients must be finite")

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "coef": list(self.coef),
            "link": "softmax",
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatModel:
        try:
            if data.get("link") != "softmax":
                raise ValueError(f"link {data.get('link')!r} is not 'softmax'")
            return cls(
                tuple(data["features"]),
                tuple(float(c) for c in data["coef"]),
                dict(data.get("meta", {})),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CatanError(f"malformed seat-equity model: {exc}") from None


@cache
def load_seat_model() -> SeatModel:
    """The shipped model (``boardeval/catan/data/seat_equity_model.json``)."""
    text = resources.files("boardeval.catan").joinpath("data", MODEL_FILE).read_text(encoding="utf-8")
    return SeatModel.from_json(json.loads(text))


def centred(x: FloatArray) -> FloatArray:
    """Terms relative to the board's mean over its seats (last-but-one axis is the seat)."""
    return x - x.mean(axis=-2, keepdims=True)


def logits(x: FloatArray, model: SeatModel) -> FloatArray:
    """``z`` per seat for raw terms ``x`` (..., seats, terms): the centred terms times the coefficients."""
    return np.asarray(centred(x) @ np.asarray(model.coef), dtype=np.float64)


def predict_probabilities(x: FloatArray, model: SeatModel) -> FloatArray:
    """Win probabilities per seat, the softmax of :func:`logits` over the seats, for (..., seats, terms)."""
    z = logits(x, model)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return np.asarray(e / e.sum(axis=-1, keepdims=True), dtype=np.float64)


def spread_of(board: Board, model: SeatModel | None = None) -> float:
    """The predicted best-minus-worst seat win probability of a base board (the generator's objective)."""
    p = predict_probabilities(draft_features(board), model or load_seat_model())
    return float(p.max() - p.min())


@dataclass(frozen=True)
class SeatEquity:
    """A board's seat equity: the draft, per-seat win probabilities (``None`` on a 5-6 player board),
    their spread, per-seat breakdowns of why, and each seat's opening value (the advisor's values of its
    two picks, available on every layout)."""

    board: Board
    draft: Draft
    win_probabilities: tuple[float, ...] | None
    seats: tuple[Breakdown, ...]
    opening_values: tuple[float, ...]
    why: tuple[str, ...]
    model: dict[str, Any]
    note: str | None = None

    @property
    def spread(self) -> float | None:
        """Best minus worst seat's predicted win probability (``None`` without a fitted model)."""
        p = self.win_probabilities
        return None if p is None else max(p) - min(p)

    @property
    def opening_spread(self) -> float:
        """Best minus worst seat's opening value (draft only; any layout)."""
        return max(self.opening_values) - min(self.opening_values)

    def to_json(self) -> dict[str, Any]:
        """``{"code", "layout", "seats": [{"seat", "spots", "win_probability", "opening_value",
        "why": breakdown}], "win_probabilities", "spread", "opening_spread", "draft", "why", "model",
        "note"}`` (seats 1-based; win figures ``null`` on a 5-6 player board)."""
        p = self.win_probabilities
        return {
            "code": self.board.code(),
            "layout": self.board.layout,
            "seats": [
                {
                    "seat": i + 1,
                    "spots": list(self.draft.seats[i]),
                    "win_probability": None if p is None else p[i],
                    "opening_value": self.opening_values[i],
                    "why": b.to_dict(),
                }
                for i, b in enumerate(self.seats)
            ],
            "win_probabilities": None if p is None else list(p),
            "spread": self.spread,
            "opening_spread": self.opening_spread,
            "draft": self.draft.to_json(),
            "why": list(self.why),
            "model": self.model,
            "note": self.note,
        }


def _ordinal(i: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")


def _why(p: FloatArray, seats: tuple[Breakdown, ...], draft: Draft) -> tuple[str, ...]:
    best, worst = int(np.argmax(p)), int(np.argmin(p))
    out = [
        f"seat {best + 1} is favoured ({100 * p[best]:.0f} %), seat {worst + 1} trails "
        f"({100 * p[worst]:.0f} %): a spread of {100 * (p[best] - p[worst]):.0f} points"
    ]
    gap = {t.name: t.contribution - seats[worst][t.name].contribution for t in seats[best]}
    top = sorted(gap, key=lambda k: -abs(gap[k]))[:3]
    parts = [f"{k} {gap[k]:+.2f}" for k in top]
    out.append(f"what separates them (logit contributions, best minus worst): {', '.join(parts)}")
    for i in (best, worst):
        a, b = draft.seats[i]
        prod = {t.name: t.raw for t in seats[i] if t.name in RESOURCE_FEATURES}
        out.append(
            f"seat {i + 1} opened on spots {a} and {b}; relative to the table's mean it makes "
            + ", ".join(f"{k} {v:+.1f}" for k, v in prod.items())
            + " pips"
        )
    return tuple(out)


def seat_equity(board: Board, model: SeatModel | None = None) -> SeatEquity:
    """Seat equity of ``board`` under a strong draft (module docstring). Deterministic."""
    arrays = draft_arrays(board)
    picks = draft_picks(arrays)
    draft = opening_draft(board, arrays=arrays, picks=picks)
    opening_values = tuple(a + b for a, b in draft.values)
    n = arrays.seats
    if board.layout != "base":
        seats = tuple(
            Breakdown.from_values(
                {"first_pick": va, "second_pick": vb},
                {"first_pick": 1.0, "second_pick": 1.0},
                label=f"seat {i + 1} opening value",
                extras={"spots": list(draft.seats[i])},
            )
            for i, (va, vb) in enumerate(draft.values)
        )
        why = (
            NO_MAP_NOTE,
            "opening values (the advisor's values of each seat's two picks): "
            + ", ".join(f"seat {i + 1} {v:.1f}" for i, v in enumerate(opening_values)),
        )
        return SeatEquity(board, draft, None, seats, opening_values, why, {}, NO_MAP_NOTE)
    m = model or load_seat_model()
    x = draft_features(board, arrays, picks)
    c = centred(x)
    p = predict_probabilities(x, m)
    coef = dict(zip(FEATURES, m.coef, strict=True))
    order = list(np.argsort(-p, kind="stable"))
    seats = tuple(
        Breakdown.from_values(
            dict(zip(FEATURES, c[i].tolist(), strict=True)),
            coef,
            label=f"seat {i + 1} logit",
            extras={
                "spots": list(draft.seats[i]),
                "pick_order": [k + 1 for k, s in enumerate(snake_order(n)) if s == i],
                "terms": dict(zip(FEATURES, x[i].tolist(), strict=True)),
                "win_probability": float(p[i]),
                "rank": _ordinal(order.index(i) + 1),
            },
        )
        for i in range(n)
    )
    info: dict[str, Any] = {
        k: m.meta[k] for k in ("fitted_on", "held_out_log_loss", "command") if k in m.meta
    }
    return SeatEquity(
        board, draft, tuple(float(v) for v in p), seats, opening_values, _why(p, seats, draft), info
    )
