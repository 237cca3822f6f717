"""No-press Diplomacy bots on the ``diplomacy`` engine: uniformly random orders and a DumbBot-style heuristic.

Both implement :class:`boardeval.core.Player`: the state is a :class:`BotView` (the engine's live ``Game``,
the power to order, and that phase's legal orders), the action is the list of order strings the power
submits.  Every random choice is drawn from the ``numpy`` Generator passed in, so a game is replayed
exactly from its seed.

``DumbBot`` follows the published description of David Norman's DumbBot (DAIDE, 2002; "How it works" in
its source, the weights of its released configuration), written anew for this engine and for
:class:`~boardeval.diplomacy.graph.MapGraph`:

1. **Province values.**  Each power's *size* is ``x^2 + 4x + 16`` for ``x`` centres.  A centre we own is
   worth the size of the largest other power with a unit that can reach it next move (its *defence*
   value); a centre we do not own is worth its owner's size, an unowned one the size of a power with no
   centres (its *attack* value); other provinces are worth 0.  ``proximity[0] = attack * a + defence * d``
   with season weights (spring 700/300, autumn 600/400).
2. **Spreading.**  ``proximity[n] = (proximity[n-1] here + sum over neighbours) / 5``, ten levels,
   separately on the army graph (provinces) and the fleet graph (coasts).
3. **Destination value** of a place = ``sum_n w_n proximity[n] + 1000 * strength - 1000 * competition``,
   where *strength* counts our units that can reach the province next move and *competition* is the
   most units any single other power can bring there.  Spring weights ``[100, 1000, 30, 10, 6, 5, 4, 3,
   2, 1]`` (get next to targets), autumn ``[1000, 100, 30, ...]`` (take them).
4. **Moves.**  Units, in a random order, go to the best adjacent place (holding when the best place is
   where they stand), with a seeded random chance of the second, third... best when its value is near
   the best.  When the chosen province is already claimed by one of our units, the newcomer supports
   that unit if its success is in doubt (a foreign unit can reach the province) and otherwise looks
   elsewhere.  No convoys.  A last pass removes self-bounces (a move into a province our own unit does
   not leave becomes a supporting hold).
5. **Retreats** go to the best free place; **builds** go to the home centres (and unit types) of highest
   winter value ``sum_n w_n proximity[n] + 1000 * defence``; **disbands** remove the lowest-valued units.

Size: about 610 lines, 250 of them :class:`DumbBot` (the five steps above and the map tables they read);
the random bot, the bot names and the map check beside it are small and used wherever the bots are.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardeval.core import DiplomacyError, parse_int, pick_name
from boardeval.diplomacy.graph import MapGraph, available_maps, load_map_graph, province_of

__all__ = [
    "BOT_KINDS",
    "SUPPORTED_MAPS",
    "BotView",
    "DumbBot",
    "DumbBotWeights",
    "RandomBot",
    "UnknownBotError",
    "UnsupportedMapError",
    "check_bot_map",
    "make_bot",
    "parse_bots",
]

FloatArray = npt.NDArray[np.float64]

SUPPORTED_MAPS: tuple[str, ...] = ("standard", "pure", "modern", "ancmed")
"""Maps the bots are tested on (small, fast to load, ordinary rules; see ``docs/diplomacy-bots.md``)."""


class UnknownBotError(DiplomacyError):
    """A bot name that is not one of :data:`BOT_KINDS`, or a malformed ``--bots`` list."""


class UnsupportedMapError(DiplomacyError):
    """A map the bots do not play (not in :data:`SUPPORTED_MAPS`)."""


def check_bot_map(map_name: str) -> MapGraph:
    """The map's graph, or :class:`UnsupportedMapError` (quoting the name) for a map the bots do not play."""
    if map_name not in SUPPORTED_MAPS:
        known = "an engine map" if map_name in available_maps() else "not a map the engine ships"
        raise UnsupportedMapError(
            f"the bots do not play map {map_name!r} ({known}): they play {', '.join(SUPPORTED_MAPS)}"
        )
    return load_map_graph(map_name)


@dataclass(frozen=True, eq=False)
class BotView:
    """What a bot sees: the live engine ``game``, the ``power`` it orders, and the phase's legal orders.

    ``possible`` is ``game.get_all_possible_orders()``, computed once per phase by the game loop and
    shared by the seven bots (pass ``None`` to have it computed here).
    """

    game: Any
    power: str
    possible: Mapping[str, Sequence[str]] | None = None

    def legal(self) -> Mapping[str, Sequence[str]]:
        """Legal orders by location (the engine's ``get_all_possible_orders``)."""
        if self.possible is not None:
            return self.possible
        result: Mapping[str, Sequence[str]] = self.game.get_all_possible_orders()
        return result

    def orderable(self) -> list[str]:
        """This power's orderable locations this phase, sorted (independent of the engine's set order)."""
        return sorted(self.game.get_orderable_locations(self.power))

    @property
    def phase_type(self) -> str:
        """``'M'`` (movement), ``'R'`` (retreats) or ``'A'`` (adjustments)."""
        return str(self.game.phase_type)


class RandomBot:
    """Uniformly random legal orders: for each orderable location (sorted), one of its sorted legal orders.

    It is the policy of :func:`boardeval.diplomacy.records.random_game`, one seat at a time.
    """

    @property
    def name(self) -> str:
        """``'random'``."""
        return "random"

    def new_game(self) -> None:
        """Nothing to forget."""

    def choose(self, state: BotView, rng: np.random.Generator) -> list[str]:
        """One uniformly random legal order per orderable location."""
        possible = state.legal()
        orders = []
        for loc in state.orderable():
            options = sorted(possible.get(loc, []))
            if options:
                orders.append(options[int(rng.integers(len(options)))])
        return orders


@dataclass(frozen=True)
class DumbBotWeights:
    """DumbBot's weights (the released DumbBot's values; see the module docstring for their roles)."""

    spring_attack: float = 700.0
    spring_defence: float = 300.0
    fall_attack: float = 600.0
    fall_defence: float = 400.0
    spring_proximity: tuple[float, ...] = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    fall_proximity: tuple[float, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    winter_proximity: tuple[float, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    strength: float = 1000.0
    competition: float = 1000.0
    winter_defence: float = 1000.0
    size_square: float = 1.0
    size_linear: float = 4.0
    size_constant: float = 16.0
    alternative: float = 0.5
    """Chance of considering the next-best place at all."""
    near: float = 0.2
    """A next-best place within this fraction of the current value is taken with chance ``alternative``
    scaled down linearly to 0 at this gap (equal values: ``alternative``; 20 % worse or more: never)."""


@dataclass(frozen=True, eq=False)
class _MapTables:
    """Per-map matrices for the spreading and the one-move reach of every unit (built once per map)."""

    graph: MapGraph
    army_spread: FloatArray
    """``(I + army adjacency) / 5`` over provinces."""
    fleet_spread: FloatArray
    """``(I + fleet adjacency) / 5`` over fleet locations."""
    army_reach: npt.NDArray[np.bool_]
    """``[province, province]``: an army there can move to (or stay in) the column province."""
    fleet_reach: npt.NDArray[np.bool_]
    """``[fleet location, province]``: a fleet there can move to (or stay in) the column province."""
    fleet_province: npt.NDArray[np.int64]
    sc_province_mask: npt.NDArray[np.bool_] = field(repr=False)


@functools.lru_cache(maxsize=8)
def _tables(map_name: str) -> _MapTables:
    graph = load_map_graph(map_name)
    n = len(graph.provinces)
    eye = np.eye(n, dtype=bool)
    army_adj = graph.army_adjacent
    fleet_adj = graph.fleet_adjacent
    fprov = graph.fleet_location_province
    fleet_reach = np.zeros((len(graph.fleet_locations), n), dtype=bool)
    src, dst = np.nonzero(fleet_adj)
    fleet_reach[src, fprov[dst]] = True
    fleet_reach[np.arange(len(fprov)), fprov] = True
    sc_mask = np.zeros(n, dtype=bool)
    sc_mask[graph.sc_provinces] = True
    return _MapTables(
        graph=graph,
        army_spread=(army_adj | eye).astype(np.float64) / 5.0,
        fleet_spread=(fleet_adj | np.eye(len(fprov), dtype=bool)).astype(np.float64) / 5.0,
        army_reach=army_adj | eye,
        fleet_reach=fleet_reach,
        fleet_province=fprov,
        sc_province_mask=sc_mask,
    )


@dataclass(frozen=True, eq=False)
class _Values:
    """One power's place values for one phase: per army province and per fleet location."""

    army: FloatArray
    fleet: FloatArray
    competition: npt.NDArray[np.int64]
    """Per province: the most units one other power can bring there next move."""

    def of(self, tables: _MapTables, unit: str) -> float:
        """The value of the place of ``unit`` (``'A PAR'``, ``'F STP/SC'``) for its own kind."""
        kind, loc = unit.split()[:2]
        graph = tables.graph
        if kind == "F":
            return float(self.fleet[graph.fleet_index[loc.upper()]])
        return float(self.army[graph.province_index[province_of(loc)]])


_BOARD_CACHE: dict[tuple[int, str, str], tuple[FloatArray, npt.NDArray[np.int64], npt.NDArray[np.int64]]] = {}


def _board(game: Any, tables: _MapTables) -> tuple[FloatArray, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The phase's board facts every bot needs: centres per power, owner per province (-1: none), and
    ``reach[power, province]`` = that power's units able to move to (or stay in) the province next move.

    Computed once per phase and shared by the seven bots (a one-entry cache keyed by the game object,
    the phase and the engine's Zobrist hash of the position).
    """
    key = (id(game), str(game.get_current_phase()), str(game.get_hash()))
    hit = _BOARD_CACHE.get(key)
    if hit is not None:
        return hit
    graph = tables.graph
    n = len(graph.provinces)
    counts = np.zeros(len(graph.powers), dtype=np.float64)
    owner = np.full(n, -1, dtype=np.int64)
    reach = np.zeros((len(graph.powers), n), dtype=np.int64)
    centres = game.get_centers()
    units = game.get_units()
    for p, power in enumerate(graph.powers):
        owned = centres.get(power, [])
        counts[p] = len(owned)
        for c in owned:
            owner[graph.province_index[province_of(c)]] = p
        for unit in units.get(power, []):
            if unit.startswith("*"):
                continue  # dislodged: it retreats, it threatens nothing
            kind, loc = unit.split()[:2]
            if kind == "F":
                reach[p] += tables.fleet_reach[graph.fleet_index[loc.upper()]]
            else:
                reach[p] += tables.army_reach[graph.province_index[province_of(loc)]]
    for table in (counts, owner, reach):
        table.setflags(write=False)  # shared by the seven bots of the phase
    _BOARD_CACHE.clear()
    _BOARD_CACHE[key] = (counts, owner, reach)
    return counts, owner, reach


def _unit_province(graph: MapGraph, unit: str) -> int:
    return graph.province_index[province_of(unit.lstrip("*").split()[1])]


class DumbBot:
    """A DumbBot-style heuristic no-press bot (see the module docstring for the algorithm).

    ``allies``: powers this bot is allied with.  It never attacks them: it never moves or retreats into a
    centre an ally owns or a province an ally's unit stands in, ally centres are worth nothing to it, and
    ally units count neither as threats (defence) nor as competition.
    """

    def __init__(self, weights: DumbBotWeights | None = None, allies: Iterable[str] = ()) -> None:
        self.weights = weights or DumbBotWeights()
        self.allies = frozenset(a.upper() for a in allies)

    @property
    def name(self) -> str:
        """``'dumb'``."""
        return "dumb"

    def new_game(self) -> None:
        """Nothing to forget: every phase is valued afresh."""

    # ----- stage 1: values ------------------------------------------------------------------------------

    def values(self, state: BotView, season: str | None = None) -> _Values:
        """The power's place values this phase (``season`` 'S', 'F' or 'W'; default from the phase name)."""
        w = self.weights
        game = state.game
        tables = _tables(game.map_name)
        graph = tables.graph
        n = len(graph.provinces)
        powers = graph.powers
        me = graph.power_index[state.power.upper()]
        season = season or str(game.get_current_phase())[0]
        if season not in ("S", "F"):
            season = "W"

        counts, owner, reach = _board(game, tables)
        size = w.size_square * counts * counts + w.size_linear * counts + w.size_constant
        friends = [me, *(graph.power_index[a] for a in self.allies if a in graph.power_index)]
        others = np.delete(np.arange(len(powers)), friends)
        strength = reach[me].astype(np.float64)
        competition = reach[others].max(axis=0) if len(others) else np.zeros(n, dtype=np.int64)

        sc = tables.sc_province_mask
        mine = sc & (owner == me)
        theirs = sc & ~np.isin(owner, friends)
        attack = np.zeros(n)
        attack[theirs] = np.where(owner[theirs] >= 0, size[np.maximum(owner[theirs], 0)], w.size_constant)
        threat = np.where(reach[others] > 0, size[others][:, None], 0.0)
        defence = np.zeros(n)
        if len(others):
            defence[mine] = threat.max(axis=0)[mine]

        if season == "S":
            base = attack * w.spring_attack + defence * w.spring_defence
            prox_w = w.spring_proximity
        elif season == "F":
            base = attack * w.fall_attack + defence * w.fall_defence
            prox_w = w.fall_proximity
        else:
            base = attack * w.spring_attack + defence * w.spring_defence
            prox_w = w.winter_proximity

        army_level = base.copy()
        fleet_level = base[tables.fleet_province]
        army = prox_w[0] * army_level
        fleet = prox_w[0] * fleet_level
        for weight in prox_w[1:]:
            army_level = tables.army_spread @ army_level
            fleet_level = tables.fleet_spread @ fleet_level
            army = army + weight * army_level
            fleet = fleet + weight * fleet_level
        if season == "W":
            army = army + w.winter_defence * defence
            fleet = fleet + w.winter_defence * defence[tables.fleet_province]
        else:
            local = w.strength * strength - w.competition * competition
            army = army + local
            fleet = fleet + local[tables.fleet_province]
        return _Values(army=army, fleet=fleet, competition=np.asarray(competition, dtype=np.int64))

    # ----- stage 2: orders ------------------------------------------------------------------------------

    def _ally_places(self, game: Any, graph: MapGraph) -> set[int]:
        """Provinces this bot never enters: centres its allies own and provinces their units stand in."""
        out: set[int] = set()
        if not self.allies:
            return out
        centres = game.get_centers()
        units = game.get_units()
        for ally in self.allies:
            out.update(graph.province_index[province_of(c)] for c in centres.get(ally, []))
            out.update(_unit_province(graph, u) for u in units.get(ally, []))
        return out

    def _pick(self, scores: Sequence[float], rng: np.random.Generator) -> int:
        """Index into ``scores`` (sorted best first) of the pick: the best, or by chance a near one."""
        w = self.weights
        i = 0
        while i + 1 < len(scores):
            cur, nxt = scores[i], scores[i + 1]
            gap = (cur - nxt) / abs(cur) if cur != 0 else (0.0 if nxt == cur else 1.0)
            chance = w.alternative * max(0.0, 1.0 - gap / w.near) if w.near > 0 else 0.0
            if rng.random() < chance:
                i += 1
            else:
                break
        return i

    def _ranked(
        self, items: list[tuple[float, str]], rng: np.random.Generator, *, best_first: bool = True
    ) -> list[str]:
        """Items ranked by value (ties in a seeded random order), the seeded pick moved to the front."""
        if not items:
            return []
        jitter = rng.permutation(len(items))
        goodness = [v if best_first else -v for v, _ in items]
        order = sorted(range(len(items)), key=lambda k: (-goodness[k], int(jitter[k])))
        first = self._pick([goodness[k] for k in order], rng)
        chosen = [items[k][1] for k in order]
        return [chosen[first], *chosen[:first], *chosen[first + 1 :]]

    def choose(self, state: BotView, rng: np.random.Generator) -> list[str]:
        """The power's orders for the current phase."""
        kind = state.phase_type
        if kind == "M":
            return self._moves(state, rng)
        if kind == "R":
            return self._retreats(state, rng)
        if kind == "A":
            return self._adjustments(state, rng)
        return []

    def _moves(self, state: BotView, rng: np.random.Generator) -> list[str]:
        game = state.game
        tables = _tables(game.map_name)
        graph = tables.graph
        values = self.values(state)
        possible = state.legal()
        forbidden = self._ally_places(game, graph)
        units: list[tuple[str, str, list[str]]] = []  # (unit, orderable location, legal orders)
        for loc in state.orderable():
            options = sorted(possible.get(loc, []))  # independent of the engine's set order
            if options:
                parts = options[0].split()
                units.append((f"{parts[0]} {parts[1]}", loc, options))
        if not units:
            return []
        home = {u: _unit_province(graph, u) for u, _, _ in units}
        occupied = {home[u]: u for u, _, _ in units}
        claims: dict[int, tuple[str, str | None]] = {}  # province -> (unit, its move target or None = stays)
        orders: dict[str, str] = {}
        for idx in rng.permutation(len(units)):
            unit, _, options = units[int(idx)]
            kind = unit.split()[0]
            here = home[unit]
            candidates: list[tuple[float, str]] = [(values.of(tables, unit), "H")]
            for order in options:
                parts = order.split()
                direct = len(parts) == 4 and parts[2] == "-"  # ('... VIA' = by convoy)
                if direct and graph.province_index[province_of(parts[3])] not in forbidden:
                    candidates.append((values.of(tables, f"{kind} {parts[3]}"), parts[3]))
            supports = _support_index(options)
            for target in self._ranked(candidates, rng):
                prov = here if target == "H" else graph.province_index[province_of(target)]
                claim = claims.get(prov)
                if claim is None:
                    if target == "H":
                        claims[here] = (unit, None)
                        orders[unit] = f"{unit} H"
                    else:
                        claims[prov] = (unit, target)
                        orders[unit] = f"{unit} - {target}"
                    break
                other, other_target = claim
                if prov == here or values.competition[prov] == 0:
                    continue  # our own unit takes it unopposed: look elsewhere
                key = (other, None if other_target is None else province_of(other_target))
                support = supports.get(key)
                if support is not None:
                    orders[unit] = support
                    claims.setdefault(here, (unit, None))
                    break
            else:
                orders[unit] = f"{unit} H"
                claims.setdefault(here, (unit, None))
        _fix_self_bounces(orders, home, occupied, graph, units)
        return [orders[u] for u, _, _ in units]

    def _retreats(self, state: BotView, rng: np.random.Generator) -> list[str]:
        tables = _tables(state.game.map_name)
        graph = tables.graph
        values = self.values(state)
        possible = state.legal()
        taken = self._ally_places(state.game, graph)  # never retreat onto an ally
        orders: list[str] = []
        for loc in state.orderable():
            options = sorted(possible.get(loc, []))
            if not options:
                continue
            parts = options[0].split()
            kind = parts[0]
            disband = next((o for o in options if o.split()[2] == "D"), None)
            moves = [(values.of(tables, f"{kind} {o.split()[3]}"), o) for o in options if o.split()[2] == "R"]
            chosen = disband
            for order in self._ranked(moves, rng):
                prov = graph.province_index[province_of(order.split()[3])]
                if prov not in taken:
                    taken.add(prov)
                    chosen = order
                    break
            if chosen is not None:
                orders.append(chosen)
        return orders

    def _adjustments(self, state: BotView, rng: np.random.Generator) -> list[str]:
        game = state.game
        tables = _tables(game.map_name)
        graph = tables.graph
        power = game.get_power(state.power)
        surplus = len(power.centers) - len(power.units)
        if surplus == 0:
            return []
        values = self.values(state, season="W")
        possible = state.legal()
        if surplus > 0:
            builds: list[tuple[float, str]] = []
            for loc in state.orderable():
                for order in sorted(possible.get(loc, [])):
                    parts = order.split()
                    if len(parts) == 3 and parts[2] == "B":
                        builds.append((values.of(tables, f"{parts[0]} {parts[1]}"), order))
            chosen: list[str] = []
            used: set[int] = set()
            while len(chosen) < surplus:
                left = [(v, o) for v, o in builds if _unit_province(graph, o) not in used]
                if not left:
                    break
                order = self._ranked(left, rng)[0]
                used.add(_unit_province(graph, order))
                chosen.append(order)
            return chosen
        units = [(values.of(tables, u), f"{u} D") for u in sorted(power.units)]
        removed: list[str] = []
        while len(removed) < -surplus and units:
            order = self._ranked(units, rng, best_first=False)[0]
            units = [(v, o) for v, o in units if o != order]
            removed.append(order)
        return removed


def _support_index(options: Sequence[str]) -> dict[tuple[str, str | None], str]:
    """``(supported unit, province it moves to or None for a hold) -> support order`` among ``options``."""
    out: dict[tuple[str, str | None], str] = {}
    for order in options:
        parts = order.split()
        if len(parts) >= 5 and parts[2] == "S":
            other = f"{parts[3]} {parts[4]}"
            if len(parts) == 5:
                out[other, None] = order
            elif len(parts) == 7 and parts[5] == "-":
                out[other, province_of(parts[6])] = order
    return out


def _fix_self_bounces(
    orders: dict[str, str],
    home: Mapping[str, int],
    occupied: Mapping[int, str],
    graph: MapGraph,
    units: Sequence[tuple[str, str, list[str]]],
) -> None:
    """Turn moves that would bounce off our own units into supports of them (or holds), until none is left.

    A move fails against our own unit when that unit does not leave (it holds or supports) or when the
    two swap places.  Each pass converts at least one move, so this ends within ``len(orders)`` passes.
    """
    options = {u: opts for u, _, opts in units}
    changed = True
    while changed:
        changed = False
        for unit in sorted(orders):
            parts = orders[unit].split()
            if len(parts) != 4 or parts[2] != "-":
                continue
            dest = graph.province_index[province_of(parts[3])]
            blocker = occupied.get(dest)
            if blocker is None or blocker == unit:
                continue
            b_parts = orders[blocker].split()
            leaves = len(b_parts) == 4 and b_parts[2] == "-"
            swaps = leaves and graph.province_index[province_of(b_parts[3])] == home[unit]
            if leaves and not swaps:
                continue
            support = _support_index(options[unit]).get((blocker, None)) if not leaves else None
            orders[unit] = support or f"{unit} H"
            changed = True


BOT_KINDS: dict[str, type[RandomBot] | type[DumbBot]] = {"random": RandomBot, "dumb": DumbBot}
"""Bot names for ``--bots`` and the class each builds."""


def make_bot(name: str, kinds: Mapping[str, Callable[[], Any]] | None = None) -> Any:
    """A fresh bot by name, or :class:`UnknownBotError` quoting the name.

    ``kinds``: the names known (default :data:`BOT_KINDS`: ``'random'``, ``'dumb'``; the tournament
    passes :data:`boardeval.diplomacy.evalbot.BOT_KINDS`, which adds ``'eval'``).
    """
    table = BOT_KINDS if kinds is None else kinds
    return table[pick_name(name, table, "bot", error=UnknownBotError)]()


def parse_bots(
    spec: str | Sequence[str], seats: int, kinds: Mapping[str, Callable[[], Any]] | None = None
) -> tuple[str, ...]:
    """One bot name per seat from ``'dumb,random*6'`` (``NAME*K`` repeats a name K times).

    A single name fills every seat.  Otherwise the list must have exactly ``seats`` entries; anything
    else raises :class:`UnknownBotError` quoting the list.  ``kinds`` as for :func:`make_bot`.
    """
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    names: list[str] = []
    for item in items:
        name, star, count = item.partition("*")
        if not name:
            raise UnknownBotError(f"empty bot name in {_quote(spec)}")
        repeat = 1
        if star:  # the shared number reader: no '*+3', '*0_3', '* 3'
            repeat = parse_int(
                count, f"repeat count of {item!r} in {_quote(spec)}", lo=1, hi=1000, error=UnknownBotError
            )
        make_bot(name, kinds)  # validates the name, exactly (issue 24: 'DUMB', ' dumb' were folded)
        names.extend([name] * repeat)
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise UnknownBotError(
            f"{_quote(spec)} names {len(names)} bot(s) but the map has {seats} powers: give one name, "
            f"or one per power (NAME*K repeats a name)"
        )
    return tuple(names)


def _quote(spec: str | Sequence[str]) -> str:
    return repr(spec if isinstance(spec, str) else ",".join(spec))
