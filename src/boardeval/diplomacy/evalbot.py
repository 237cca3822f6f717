"""``EvalBot``: DumbBot's candidate orders re-ranked by a one-phase lookahead scored by the fitted evaluation.

Issue 14 §4.  In a movement phase the bot

1. draws **candidate order sets** from :class:`~boardeval.diplomacy.bots.DumbBot`: the first is exactly
   the order set DumbBot itself would play with the game's Generator; the others come from an exploring
   DumbBot (a larger chance of taking a near-best place) on a side Generator;
2. **predicts the other powers' orders** as DumbBot's most likely ones (no near-tie randomness);
3. **adjudicates** every candidate together with those predictions on a scratch engine ``Game``
   (``set_state`` from the live game's state, ``set_orders``, ``process``: ~5 ms a candidate on the
   standard map, against ~0.5 s for a ``deepcopy`` of the live game, which copies its whole history);
4. **scores** each result as the power's projected centres after the phase (in autumn a centre goes to
   the unit standing on it) plus the fitted evaluation's predicted centre change over the next year
   (:func:`~boardeval.diplomacy.evaluation.default_evaluation`, target ``sc_change_1y``), computed from the
   position before and after the phase (the change features need both); all candidates in one vectorised
   :func:`~boardeval.diplomacy.measures.compute_measures` call;
5. plays the best-scoring candidate (ties: the earliest, so DumbBot's own choice wins ties).

Retreats and adjustments are DumbBot's.  The work is bounded by ``candidates`` and ``opponent_samples``
(deterministic: ``candidates × opponent_samples`` adjudications a phase at most).  ``time_limit`` seconds
per phase is an optional wall-clock stop, **off by default**: candidate 1 is always scored, later ones only
while time is left; :attr:`EvalBot.stats` counts the phases where it stopped early.  A phase cut short
depends on the machine's speed and load, so a game with a time limit is reproducible only where no phase
hit it; the default keeps every seeded game reproducible on any machine.

**Seeding.**  EvalBot draws from the game's Generator exactly what DumbBot would draw (its first
candidate *is* DumbBot's choice); its extra randomness comes from a side Generator seeded by a SHA-256
of the game Generator's state, which it reads but never advances.  So a game is reproduced from its seed
(a time limit, when set, is the one exception: see above), and a game in which EvalBot always agrees
with DumbBot is identical, move for move, to the all-DumbBot game of the same seed: paired comparisons
by seed compare only EvalBot's choices.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardeval.core import DiplomacyError
from boardeval.diplomacy.bots import BOT_KINDS as _BASE_KINDS
from boardeval.diplomacy.bots import BotView, DumbBot, DumbBotWeights, RandomBot
from boardeval.diplomacy.evaluation import Evaluation, FittedModel, default_evaluation, power_features
from boardeval.diplomacy.graph import MapGraph, load_map_graph, province_of
from boardeval.diplomacy.measures import compute_measures
from boardeval.diplomacy.records import Position, Unit

__all__ = ["BOT_KINDS", "EvalBot", "EvalBotSettings", "EvalBotStats"]


@dataclass(frozen=True)
class EvalBotSettings:
    """EvalBot's bounds and scoring (see the module docstring)."""

    candidates: int = 8
    """Order sets drawn per movement phase (DumbBot's choice plus exploring draws; duplicates dropped)."""
    opponent_samples: int = 1
    """Predicted order sets of the other powers each candidate is adjudicated against (1: DumbBot's most
    likely orders; more: further sampled DumbBot orders, the score is the mean)."""
    time_limit: float | None = None
    """Seconds per phase after which no further candidate is adjudicated (the first always is); ``None``
    (the default): no wall-clock stop, the work is bounded by ``candidates × opponent_samples`` alone.  A
    phase takes ~0.1-0.3 s on the standard map; a limit makes the game depend on the machine's speed."""
    target: str = "sc_change_1y"
    """The fitted evaluation target added to the projected centres."""
    evaluation_weight: float = 1.0
    """Weight of the evaluation's prediction against the projected centres."""
    explore: DumbBotWeights = field(default_factory=lambda: DumbBotWeights(alternative=0.7, near=0.4))
    """The exploring DumbBot's weights for candidates 2, 3, ... (more runner-up picks than DumbBot's)."""

    def __post_init__(self) -> None:
        if isinstance(self.candidates, bool) or not isinstance(self.candidates, int) or self.candidates < 1:
            raise DiplomacyError(f"EvalBot candidates must be an integer >= 1, got {self.candidates!r}")
        samples = self.opponent_samples
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise DiplomacyError(f"EvalBot opponent_samples must be an integer >= 1, got {samples!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise DiplomacyError(f"EvalBot time_limit must be > 0 seconds, got {self.time_limit!r}")


@dataclass
class EvalBotStats:
    """What one EvalBot did over a game: phases looked ahead, adjudications, changes of DumbBot's choice."""

    phases: int = 0
    """Movement phases with a lookahead (more than one distinct candidate)."""
    candidates: int = 0
    """Distinct candidates scored, summed over phases."""
    adjudications: int = 0
    changed: int = 0
    """Phases where the pick was not DumbBot's own choice."""
    timeouts: int = 0
    """Phases cut short by the time bound."""
    seconds: float = 0.0
    """Wall-clock time spent choosing movement orders."""


class EvalBot:
    """DumbBot re-ranked by a one-phase lookahead scored with the fitted evaluation (module docstring)."""

    def __init__(self, settings: EvalBotSettings | None = None, evaluation: Evaluation | None = None) -> None:
        self.settings = settings or EvalBotSettings()
        self._evaluation = evaluation
        self.dumb = DumbBot()
        self.explorer = DumbBot(self.settings.explore)
        self.predictor = DumbBot(DumbBotWeights(alternative=0.0))
        self.stats = EvalBotStats()
        self._scratch: Any = None

    @property
    def name(self) -> str:
        """``'eval'``."""
        return "eval"

    def new_game(self) -> None:
        """Reset the per-game statistics."""
        self.stats = EvalBotStats()

    @property
    def model(self) -> FittedModel:
        """The fitted model that scores positions (the shipped evaluation unless one was given)."""
        return (self._evaluation or default_evaluation()).model(self.settings.target)

    def choose(self, state: BotView, rng: np.random.Generator) -> list[str]:
        """The power's orders: DumbBot's in retreats and adjustments, the lookahead's pick in movement."""
        if state.phase_type != "M":
            return self.dumb.choose(state, rng)
        start = time.perf_counter()
        first = self.dumb.choose(state, rng)  # the game's Generator advances exactly as under DumbBot
        side = np.random.default_rng(_side_seed(rng))
        candidates = self._candidates(state, first, side)
        if len(candidates) == 1:
            self.stats.seconds += time.perf_counter() - start
            return first
        best = self._best(state, candidates, side, start)
        self.stats.phases += 1
        self.stats.changed += best != 0
        self.stats.seconds += time.perf_counter() - start
        return candidates[best]

    # ----- candidates and predictions -------------------------------------------------------------------

    def _candidates(self, state: BotView, first: list[str], side: np.random.Generator) -> list[list[str]]:
        """DumbBot's choice, then distinct exploring draws, ``settings.candidates`` draws in all."""
        out = [first]
        seen = {frozenset(first)}
        for _ in range(self.settings.candidates - 1):
            orders = self.explorer.choose(state, side)
            key = frozenset(orders)
            if key not in seen:
                seen.add(key)
                out.append(orders)
        return out

    def _predictions(self, state: BotView, side: np.random.Generator) -> list[dict[str, list[str]]]:
        """The other powers' predicted orders: DumbBot's most likely ones, then sampled DumbBot orders."""
        game = state.game
        possible = state.legal()
        others = [
            p
            for p in load_map_graph(game.map_name).powers
            if p != state.power and game.get_orderable_locations(p)
        ]
        out = []
        for k in range(self.settings.opponent_samples):
            bot = self.predictor if k == 0 else self.dumb
            out.append({p: bot.choose(BotView(game, p, possible), side) for p in others})
        return out

    # ----- lookahead ------------------------------------------------------------------------------------

    def _scratch_game(self, game: Any) -> Any:
        """A reusable engine ``Game`` on the live game's map and rules (state is set per adjudication)."""
        if self._scratch is None or self._scratch.map_name != game.map_name:
            from boardeval.diplomacy.convoys import engine_game

            self._scratch = engine_game(game.map_name, rules=list(game.rules))
        return self._scratch

    def _best(
        self, state: BotView, candidates: Sequence[list[str]], side: np.random.Generator, start: float
    ) -> int:
        """Index of the best-scoring candidate (the earliest among equals)."""
        game = state.game
        graph = load_map_graph(game.map_name)
        predictions = self._predictions(state, side)
        before = game.get_state()
        current = _position(graph, before, project=False)
        autumn = str(game.get_current_phase()).startswith("F")
        scratch = self._scratch_game(game)
        positions: list[Position] = []
        scored = 0
        for orders in candidates:
            limit = self.settings.time_limit
            if scored and limit is not None and time.perf_counter() - start > limit:
                self.stats.timeouts += 1
                break
            for others in predictions:
                scratch.set_state(before)
                scratch.set_orders(state.power, orders)
                for power, theirs in others.items():
                    scratch.set_orders(power, theirs)
                scratch.process()
                positions.extend((current, _position(graph, scratch.get_state(), project=autumn)))
                self.stats.adjudications += 1
            scored += 1
        self.stats.candidates += scored
        me = graph.power_index[state.power.upper()]
        results = positions[1::2]
        feats = power_features(compute_measures(positions, game.map_name))[1::2, me]
        value = self.model.decision(feats)
        centres = np.array([len(pos.centers[me]) for pos in results], dtype=np.float64)
        score = centres + self.settings.evaluation_weight * value
        per_candidate = score.reshape(scored, len(predictions)).mean(axis=1)
        return int(np.argmax(per_candidate))


def _side_seed(rng: np.random.Generator) -> int:
    """A seed derived from (not drawn from) the game Generator's current state."""
    digest = hashlib.sha256(repr(rng.bit_generator.state).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _position(graph: MapGraph, state: dict[str, Any], *, project: bool) -> Position:
    """The engine state as a :class:`Position`; ``project``: each centre goes to the power whose
    (not dislodged) unit stands on it, as at the end of an autumn."""
    units = [tuple(Unit.parse(u) for u in state["units"].get(p, [])) for p in graph.powers]
    centres = [list(state["centers"].get(p, [])) for p in graph.powers]
    if project:
        sc_names = {province_of(c): c for c in graph.sc_names}
        owner = {c: p for p, cs in enumerate(centres) for c in cs}
        for p, us in enumerate(units):
            for unit in us:
                centre = sc_names.get(unit.province)
                if centre is not None and not unit.dislodged:
                    owner[centre] = p
        centres = [[] for _ in graph.powers]
        for c, p in owner.items():
            centres[p].append(c)
    return Position(
        phase=str(state["name"]),
        units=tuple(units),
        centers=tuple(tuple(sorted(cs)) for cs in centres),
    )


BOT_KINDS: dict[str, type[RandomBot] | type[DumbBot] | type[EvalBot]] = {**_BASE_KINDS, "eval": EvalBot}
"""Every bot name for ``--bots`` (``random``, ``dumb``, ``eval``) and the class each builds."""
