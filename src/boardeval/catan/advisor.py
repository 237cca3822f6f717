"""The opening advisor and the players the play-tests seat: ``advisor``, ``pips`` and catanatron's bots.

**The opening rule.** Each seat places two settlements (with a road each) in snake order 1-2-3-4-4-3-2-1.

- *First pick*: the free, legal spot with the highest seed-000 score (:func:`evaluate_spots`), i.e. the
  evaluator's top spot among those still open.
- *Second pick*: the evaluator's score, with its generic port metric replaced by what this seat would
  trade, plus two terms that look at the first settlement::

      opening = score - port_contribution
                + diversity_weight * sum over resources r the FIRST settlement lacks of prod[r] * strength[r]
                + harbour_weight * harbour

  ``diversity`` is the scarcity-weighted pips (the evaluator's ``strength``) of the resources the first
  settlement does not produce: the second pick fills the gaps. ``harbour`` values a port by what the
  seat will produce: a 2:1 port of r is worth the pips of r both settlements make; a 3:1 port a quarter
  of all their pips; a port is worth nothing to a seat that makes nothing to trade.
- *Roads*: each opening road points to the end whose free spots (legal for a later settlement, two
  steps away) have the best evaluator score, so the seat's first expansion is towards a good spot.

:func:`advise` applies the rule to a board and the spots taken so far and explains its answer with a
:class:`Breakdown`. The players below follow the core :class:`~boardeval.core.Player` protocol
(``name``, ``choose(state, rng)``, ``new_game``) with a catanatron ``Game`` as the state; a
:class:`CatanatronSeat` adapts any of them to catanatron's own player interface (``color``,
``decide(game, playable_actions)``). ``advisor`` and ``pips`` play the rest of the game exactly like
catanatron's ``WeightedRandomPlayer`` (same action weights, drawn from their own generator), so a measured
difference comes from the opening alone.

catanatron is imported only when a game or :func:`spot_neighbours` needs it.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from boardeval.catan import Board, SpotParams, evaluate_spots, from_catanatron_map, node_to_spot, spot_to_node
from boardeval.catan.board import code_keys
from boardeval.core import Breakdown, CatanError, Player, check_number, parse_int, pick_name, quote

__all__ = [
    "PLAYER_NAMES",
    "Advice",
    "AdvisorPlayer",
    "CatanatronBot",
    "CatanatronSeat",
    "OpeningModel",
    "OpeningParams",
    "PipsPlayer",
    "advise",
    "make_player",
    "parse_taken",
    "spot_neighbours",
]

FloatArray = npt.NDArray[np.float64]

N_SPOTS = 54
RESOURCE_ORDER = ("W", "B", "S", "G", "O")
"""Resource letters in the evaluator's (and catanatron's) order: wood, brick, sheep, grain, ore."""
_RESOURCE_NAME = {"W": "wood", "B": "brick", "S": "sheep", "G": "grain", "O": "ore"}

# catanatron's WeightedRandomPlayer weights (catanatron.players.weighted_random.WEIGHTS_BY_ACTION_TYPE),
# by action-type name so this module does not import catanatron; a test checks they agree.
WEIGHTED_RANDOM_WEIGHTS: dict[str, int] = {
    "BUILD_CITY": 10000,
    "BUILD_SETTLEMENT": 1000,
    "BUY_DEVELOPMENT_CARD": 100,
}


@dataclass(frozen=True)
class OpeningParams:
    """The two weights of the second-pick rule (both finite and >= 0; 0 turns a term off).

    Defaults chosen by play (1,000 games each, random boards, all seatings; ``docs/catan-playtest.md``):
    diversity 0 / 1 / 2 / 3 gave 80 / 82-83 / 85-86 / 86 % against three WeightedRandom players; a
    harbour weight of 2 fell to 76 %, 0.25-0.5 cost nothing. Against three ``pips`` openers (1, 0.5),
    (2, 0.25) and (3, 0.25) gave 37 %, 41 % and 40 %.
    """

    diversity_weight: float = 3.0
    harbour_weight: float = 0.25

    def __post_init__(self) -> None:
        for name in ("diversity_weight", "harbour_weight"):
            object.__setattr__(
                self, name, check_number(getattr(self, name), f"opening parameter {name}", nonnegative=True)
            )


@cache
def spot_neighbours() -> tuple[tuple[int, ...], ...]:
    """For each spot 0..53, the spots one road away (from catanatron's node graph, mapped to our ids)."""
    from catanatron.models.board import STATIC_GRAPH

    n2s = node_to_spot()
    s2n = spot_to_node()
    out = []
    for spot in range(N_SPOTS):
        near = sorted(n2s[m] for m in STATIC_GRAPH.neighbors(s2n[spot]) if m in n2s)
        out.append(tuple(near))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class OpeningModel:
    """Per-board figures the opening rule needs, computed once: the evaluator's table and its arrays."""

    board: Board
    params: SpotParams
    opening: OpeningParams
    scores: FloatArray = field(init=False, repr=False)
    port_contribution: FloatArray = field(init=False, repr=False)
    production: FloatArray = field(init=False, repr=False)
    strength: FloatArray = field(init=False, repr=False)
    ports: tuple[str | None, ...] = field(init=False, repr=False)
    table: Any = field(init=False, repr=False)

    def __post_init__(self) -> None:
        table = evaluate_spots(self.board, self.params)
        put = object.__setattr__
        put(self, "table", table)
        put(self, "scores", np.asarray(table.scores, dtype=np.float64))
        put(self, "port_contribution", np.asarray(table.metrics[:, 2] * self.params.eval_weights[2]))
        put(self, "production", np.asarray(table.production, dtype=np.float64))
        put(self, "strength", np.asarray(table.strength, dtype=np.float64))
        put(self, "ports", tuple(self.board.spot_port(s) for s in range(N_SPOTS)))

    def second_pick_terms(self, first: int) -> dict[str, FloatArray]:
        """Raw values of the second-pick terms for every spot, given the seat's first settlement."""
        lacks = (self.production[first] == 0).astype(np.float64)
        diversity = self.production @ (lacks * self.strength)
        harbour = np.zeros(N_SPOTS)
        own = self.production + self.production[first]  # pips per resource of both settlements together
        for s, port in enumerate(self.ports):
            if port is None:
                continue
            harbour[s] = own[s].sum() / 4.0 if port == "3" else own[s, RESOURCE_ORDER.index(port)]
        return {"port_replaced": self.port_contribution, "diversity": diversity, "harbour": harbour}

    def opening_scores(self, first: int | None) -> FloatArray:
        """The rule's score of every spot: the evaluator's for a first pick, the second-pick sum else."""
        if first is None:
            return self.scores
        t = self.second_pick_terms(first)
        return (
            self.scores
            - t["port_replaced"]
            + self.opening.diversity_weight * t["diversity"]
            + self.opening.harbour_weight * t["harbour"]
        )

    def explain(self, spot: int, first: int | None) -> Breakdown:
        """Why ``spot`` scores what it does under the rule (terms sum to :meth:`opening_scores`)."""
        raw: dict[str, float] = {"spot_score": float(self.scores[spot])}
        weights: dict[str, float] = {"spot_score": 1.0}
        extras: dict[str, Any] = {
            "rule": "first pick: the evaluator's score"
            if first is None
            else "second pick: evaluator score without its generic port term, plus resources the first "
            "settlement lacks and a harbour valued by what the two settlements produce",
            "port": self.ports[spot],
            "production": {
                _RESOURCE_NAME[r]: float(self.production[spot, k]) for k, r in enumerate(RESOURCE_ORDER)
            },
        }
        if first is not None:
            t = self.second_pick_terms(first)
            raw |= {name: float(v[spot]) for name, v in t.items()}
            weights |= {
                "port_replaced": -1.0,
                "diversity": self.opening.diversity_weight,
                "harbour": self.opening.harbour_weight,
            }
            extras["first"] = first
            extras["first_lacks"] = [
                _RESOURCE_NAME[r] for k, r in enumerate(RESOURCE_ORDER) if self.production[first, k] == 0
            ]
        return Breakdown.from_values(raw, weights, label=f"opening spot {spot}", extras=extras)

    def best_road_end(self, settlement: int, ends: Sequence[int], occupied: set[int]) -> int:
        """Of the road ends next to ``settlement``, the one whose far free legal spots score best."""
        nb = spot_neighbours()
        blocked = set(occupied)
        for s in occupied:
            blocked.update(nb[s])

        def reach(end: int) -> float:
            far = [t for t in nb[end] if t != settlement and t not in blocked]
            return max((float(self.scores[t]) for t in far), default=-1.0)

        return max(ends, key=lambda e: (reach(e), -e))


@lru_cache(maxsize=256)
def _model(code: str, params: SpotParams, opening: OpeningParams) -> OpeningModel:
    return OpeningModel(Board.parse(code), params, opening)


def opening_model(
    board: Board, params: SpotParams | None = None, opening: OpeningParams | None = None
) -> OpeningModel:
    """The (cached) :class:`OpeningModel` of a board."""
    return _model(board.code(), params or SpotParams.default(), opening or OpeningParams())


# -- advise: the best next settlement ---------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The best next settlement for the seat to move, and why (see the module docstring's rule)."""

    board: Board
    taken: tuple[int, ...]
    seat: int  # 0-based seat to move (0 places first)
    first: int | None  # this seat's first settlement when advising its second
    spot: int
    why: Breakdown
    spot_breakdown: Breakdown
    ranking: tuple[tuple[int, float], ...]  # legal spots, best first

    @property
    def score(self) -> float:
        return self.why.total

    def to_json(self, top: int = 5) -> dict[str, Any]:
        """``{"code", "board" (the same code, deprecated), "taken", "seat", "pick", "first", "spot", "score",
        "why", "spot_breakdown", "alternatives": [{"spot", "score"}]}`` (seat 1-based; ``alternatives``: the
        next ``top``)."""
        return {
            **code_keys(self.board.code()),
            "taken": list(self.taken),
            "seat": self.seat + 1,
            "pick": 1 if self.first is None else 2,
            "first": self.first,
            "spot": self.spot,
            "score": self.score,
            "why": self.why.to_dict(),
            "spot_breakdown": self.spot_breakdown.to_dict(),
            "alternatives": [{"spot": s, "score": v} for s, v in self.ranking[1 : 1 + top]],
        }


def parse_taken(text: str) -> tuple[int, ...]:
    """``"12,40"`` -> ``(12, 40)``; an empty text is no spots. Each entry goes through the shared number
    reader (ASCII digits, 0..53); spaces and empty entries (``"3, 40"``, ``"3,,40"``, ``"3,"``) are refused,
    a :class:`CatanError` quoting the entry and the list."""
    if text == "":
        return ()
    return tuple(
        parse_int(part, f"taken spots {quote(text)}: entry {k}", lo=0, hi=N_SPOTS - 1, error=CatanError)
        for k, part in enumerate(text.split(","), start=1)
    )


def _check_taken(taken: Sequence[int]) -> tuple[int, ...]:
    nb = spot_neighbours()
    out = tuple(taken)
    if len(out) >= 8:
        raise CatanError(f"all 8 opening settlements are placed already: {list(out)}")
    for i, s in enumerate(out):
        if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s < N_SPOTS:
            raise CatanError(f"taken spot must be an integer 0..53, got {s!r}")
        for t in out[:i]:
            if t == s:
                raise CatanError(f"spot {s} is taken twice in {list(out)}")
            if t in nb[s]:
                raise CatanError(
                    f"spots {t} and {s} are neighbours: the distance rule forbids both ({list(out)})"
                )
    return out


def snake_seat(pick: int, seats: int = 4) -> int:
    """0-based seat placing opening settlement number ``pick`` (0-based) in snake order."""
    return pick if pick < seats else 2 * seats - 1 - pick


def advise(
    board: Board,
    taken: Sequence[int] = (),
    params: SpotParams | None = None,
    opening: OpeningParams | None = None,
) -> Advice:
    """The best next opening settlement given the spots ``taken`` so far, in placement order.

    Four seats place in snake order (1 2 3 4 4 3 2 1), so ``taken`` fixes the seat to move and, for a
    second pick, that seat's first settlement. Spots must be distinct and respect the distance rule.
    """
    layout = board.layout
    if layout != "base":
        raise CatanError(
            f"the opening advisor plays the base board only: catanatron has no 5-6 player map (this "
            f"board's layout is {layout!r})"
        )
    spots = _check_taken(taken)
    model = opening_model(board, params, opening)
    seat = snake_seat(len(spots))
    first = spots[seat] if len(spots) >= 4 else None
    nb = spot_neighbours()
    blocked = set(spots)
    for s in spots:
        blocked.update(nb[s])
    legal = [s for s in range(N_SPOTS) if s not in blocked]
    if not legal:
        raise CatanError(f"no legal spot is left after {list(spots)}")
    values = model.opening_scores(first)
    ranking = tuple(sorted(((s, float(values[s])) for s in legal), key=lambda sv: (-sv[1], sv[0])))
    best = ranking[0][0]
    return Advice(
        board, spots, seat, first, best, model.explain(best, first), model.table.breakdown(best), ranking
    )


# -- players ----------------------------------------------------------------------------------------------


def _weighted_random(actions: Sequence[Any], rng: np.random.Generator) -> Any:
    """catanatron's WeightedRandomPlayer choice (cities 10000, settlements 1000, cards 100, else 1),
    drawn from ``rng``: the same distribution as expanding the list, without building it."""
    if len(actions) == 1:
        return actions[0]
    cum = list(itertools.accumulate(WEIGHTED_RANDOM_WEIGHTS.get(a.action_type.name, 1) for a in actions))
    return actions[bisect.bisect_right(cum, rng.random() * cum[-1])]


class _OpeningPlayer:
    """Shared machinery of ``advisor`` and ``pips``: opening by a rule, then WeightedRandom play."""

    def __init__(self, params: SpotParams | None = None, opening: OpeningParams | None = None) -> None:
        self._params = params
        self._opening = opening
        self._map: Any = None
        self._model: OpeningModel | None = None

    @property
    def name(self) -> str:
        raise NotImplementedError

    def new_game(self) -> None:
        """Nothing carries over between games (the board model is re-read when the map changes)."""

    def _model_for(self, game: Any) -> OpeningModel:
        catan_map = game.state.board.map
        if self._model is None or catan_map is not self._map:
            self._map = catan_map
            self._model = opening_model(from_catanatron_map(catan_map), self._params, self._opening)
        return self._model

    def choose(self, state: Any, rng: np.random.Generator) -> Any:
        """In the opening, the rule's settlement or road; afterwards catanatron's weighted-random play."""
        actions = state.state.playable_actions
        if state.state.is_initial_build_phase and len(actions) > 1:
            kind = actions[0].action_type.name
            if kind == "BUILD_SETTLEMENT":
                return self._settle(state, actions, rng)
            if kind == "BUILD_ROAD":
                return self._road(state, actions, rng)
        return _weighted_random(actions, rng)

    def _settle(self, game: Any, actions: Sequence[Any], rng: np.random.Generator) -> Any:
        raise NotImplementedError

    def _road(self, game: Any, actions: Sequence[Any], rng: np.random.Generator) -> Any:
        return _weighted_random(actions, rng)


class AdvisorPlayer(_OpeningPlayer):
    """``advisor``: opens by the rule of this module (evaluator + diversity + harbour, roads to good
    spots), then plays like catanatron's ``WeightedRandomPlayer``."""

    @property
    def name(self) -> str:
        return "advisor"

    def _own(self, game: Any) -> list[int]:
        n2s = node_to_spot()
        return [n2s[n] for n in game.state.buildings_by_color[game.state.current_color()]["SETTLEMENT"]]

    def _settle(self, game: Any, actions: Sequence[Any], rng: np.random.Generator) -> Any:
        model = self._model_for(game)
        n2s = node_to_spot()
        own = self._own(game)
        values = model.opening_scores(own[0] if own else None)
        return max(actions, key=lambda a: (values[n2s[a.value]], -n2s[a.value]))

    def _road(self, game: Any, actions: Sequence[Any], rng: np.random.Generator) -> Any:
        model = self._model_for(game)
        n2s = node_to_spot()
        color = game.state.current_color()
        settlement = n2s[game.state.buildings_by_color[color]["SETTLEMENT"][-1]]
        occupied = {n2s[n] for n in game.state.board.buildings}
        by_end = {}
        for a in actions:
            a_spot, b_spot = (n2s[n] for n in a.value)
            by_end[b_spot if a_spot == settlement else a_spot] = a
        return by_end[model.best_road_end(settlement, sorted(by_end), occupied)]


class PipsPlayer(_OpeningPlayer):
    """``pips``: the opening most people use, each settlement on the free spot with the highest pip sum
    (ties broken at random, roads at random), then plays like catanatron's ``WeightedRandomPlayer``."""

    @property
    def name(self) -> str:
        return "pips"

    def _settle(self, game: Any, actions: Sequence[Any], rng: np.random.Generator) -> Any:
        model = self._model_for(game)
        n2s = node_to_spot()
        pips = [float(model.production[n2s[a.value]].sum()) for a in actions]
        top = max(pips)
        best = [a for a, p in zip(actions, pips, strict=True) if p == top]
        return best[int(rng.integers(len(best)))] if len(best) > 1 else best[0]


class CatanatronBot:
    """One of catanatron's own bots (``random``, ``weighted``, ``vp``) behind our Player protocol.

    catanatron's bots draw from Python's ``random`` module, which the game job seeds per game (and
    guards with a lock, see :mod:`boardeval.catan.playtest`); ``rng`` is not used by them.
    """

    KINDS: ClassVar[dict[str, tuple[str, str]]] = {
        "random": ("catanatron.models.player", "RandomPlayer"),
        "weighted": ("catanatron.players.weighted_random", "WeightedRandomPlayer"),
        "vp": ("catanatron.players.search", "VictoryPointPlayer"),
    }

    def __init__(self, kind: str) -> None:
        if kind not in self.KINDS:
            raise CatanError(f"unknown catanatron bot {kind!r}; known: {', '.join(self.KINDS)}")
        self._kind = kind
        self._bots: dict[Any, Any] = {}

    @property
    def name(self) -> str:
        return self._kind

    def new_game(self) -> None:
        """catanatron's bots keep no memory; nothing to forget."""

    def engine_player(self, color: Any) -> Any:
        """catanatron's own bot object of this kind for ``color`` (made once per colour)."""
        bot = self._bots.get(color)
        if bot is None:
            import importlib

            module, cls = self.KINDS[self._kind]
            bot = self._bots[color] = getattr(importlib.import_module(module), cls)(color)
        return bot

    def choose(self, state: Any, rng: np.random.Generator) -> Any:
        """What catanatron's bot of this kind decides for the colour to move."""
        return self.engine_player(state.state.current_color()).decide(state, state.state.playable_actions)


class CatanatronSeat:
    """Adapter from our Player protocol to catanatron's player interface (``color``, ``is_bot``,
    ``decide(game, playable_actions)``, ``reset_state``): catanatron seats a ``CatanatronSeat`` per colour;
    the strategy and its generator are bound once the seating order is known (:meth:`bind`).

    Duck-typed rather than a subclass of ``catanatron.Player`` so that importing this module does not
    import catanatron; catanatron only reads these four members.
    """

    def __init__(self, color: Any) -> None:
        self.color = color
        self.is_bot = True
        self.strategy: Player[Any, Any] | None = None
        self.rng: np.random.Generator | None = None
        self._engine: Any = None

    def bind(self, strategy: Player[Any, Any], rng: np.random.Generator) -> None:
        """Seat ``strategy`` here with its own generator, and start its game. A :class:`CatanatronBot`
        is asked for its catanatron object once, so each decision is a single call into catanatron."""
        self.strategy = strategy
        self.rng = rng
        self._engine = strategy.engine_player(self.color) if isinstance(strategy, CatanatronBot) else None
        strategy.new_game()

    def decide(self, game: Any, playable_actions: Sequence[Any]) -> Any:
        """catanatron's entry point: the bound strategy chooses (``playable_actions`` is the game's list)."""
        if self._engine is not None:
            return self._engine.decide(game, playable_actions)
        assert self.strategy is not None and self.rng is not None, "bind() a strategy before the game starts"
        return self.strategy.choose(game, self.rng)

    def reset_state(self) -> None:
        """catanatron's between-games hook."""
        if self.strategy is not None:
            self.strategy.new_game()

    def __repr__(self) -> str:
        name = self.strategy.name if self.strategy is not None else "unbound"
        return f"CatanatronSeat({name}:{getattr(self.color, 'value', self.color)})"


_FACTORIES: dict[str, Callable[[], Player[Any, Any]]] = {
    "advisor": AdvisorPlayer,
    "pips": PipsPlayer,
    "weighted": lambda: CatanatronBot("weighted"),
    "random": lambda: CatanatronBot("random"),
    "vp": lambda: CatanatronBot("vp"),
}
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""Names accepted by :func:`make_player` and ``--players``."""


def make_player(name: str, advisor: tuple[SpotParams, OpeningParams] | None = None) -> Player[Any, Any]:
    """A fresh player from its name (``advisor``, ``pips``, ``weighted``, ``random``, ``vp``);
    ``advisor`` (spot parameters, opening weights) replaces the advisor's defaults (the tuner's trials)."""
    key = pick_name(name, PLAYER_NAMES, "player", error=CatanError)
    if key == "advisor" and advisor is not None:
        return AdvisorPlayer(*advisor)
    return _FACTORIES[key]()
