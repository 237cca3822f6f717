"""What every generator shares: the result type, exact integer energy, and a swap-friendly board state.

Exact energy. The seed-001 energy mixes integers (pair counts) with ``pip_variance``, the population
variance of the region means ``Sc/6, Sx/1, Se/12`` (corners, centre, edges). Scaling the means by 12
gives integers ``a = 2 Sc, b = 12 Sx, c = Se`` and::

    pip_variance = (3 (a² + b² + c²) - (a + b + c)²) / 1296

so ``1296 * energy`` is an integer for the default (integer) weights. The annealer compares these
integers (no float ties) and CP-SAT minimises the same integer, so "reached the optimum" is an exact test.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from boardeval.catan._generate.layouts import gen_layout
from boardeval.catan.board import (
    DESERT_INDEX,
    N_HEXES,
    NUMBER_TOKENS,
    PIPS,
    RESOURCES,
    Board,
    code_keys,
)
from boardeval.catan.constraints import Rule, check_rules
from boardeval.catan.energy import (
    ENERGY_TERMS,
    PORT_GENERIC_ADJACENT_COST,
    PORT_REACH_PIPS,
    PORT_UNREACHED_COST,
    PortGeometry,
    board_energy,
    energy_json,
    energy_weights,
    port_geometry,
)
from boardeval.catan.topology import (
    CENTRE_HEX,
    CORNER_HEXES,
)
from boardeval.core import Breakdown, CatanError, WeightSet

__all__ = [
    "ENERGY_SCALE",
    "METHODS",
    "REGION_OF",
    "BoardState",
    "GenerationResult",
    "IntWeights",
    "Swap",
    "energy_lower_bound",
    "integer_weights",
    "ports_weight",
    "scaled_energy",
    "variance_numerator",
]

METHODS: tuple[str, ...] = ("random", "anneal", "cp", "tournament")
DEFAULT_TOURNAMENT_RULES: tuple[str, ...] = ("max-spot-pips=12", "max-cluster=2")
"""The rules ``tournament`` repairs when none are given (here, not in the tournament module, so that
naming them loads no OR-Tools)."""
ENERGY_SCALE = 1296
"""``ENERGY_SCALE * pip_variance`` is an integer (see the module docstring)."""

REGION_OF: tuple[int, ...] = tuple(
    0 if h in CORNER_HEXES else 1 if h == CENTRE_HEX else 2 for h in range(N_HEXES)
)
"""Region per hex: 0 corners, 1 centre, 2 edges."""
REGION_FACTOR: tuple[int, int, int] = (2, 12, 1)
"""12 / region size: multiplies a region's pip sum into 12 x its mean."""

PIPS_OF: tuple[int, ...] = tuple(PIPS.get(n, 0) for n in range(13))


def variance_numerator(sc: int, sx: int, se: int) -> int:
    """``1296 * pip_variance`` for region pip sums (corners, centre, edges)."""
    a, b, c = 2 * sc, 12 * sx, se
    return 3 * (a * a + b * b + c * c) - (a + b + c) ** 2


IntWeights = tuple[int, ...]
"""The energy weights as integers, in ``ENERGY_TERMS`` order: same, high, variance, ports (a 3-tuple
from before the harbour term means ports 0)."""


def integer_weights(weights: WeightSet | Mapping[str, float] | None = None) -> tuple[int, int, int, int]:
    """The four energy weights as integers (the default 100/150/10/10). Non-integer weights are refused,
    because exact comparison with the CP optimum needs integers; scale your weight file instead."""
    w = weights if weights is not None else energy_weights()
    out = []
    for name in ENERGY_TERMS:
        value = float(w[name])
        if not math.isclose(value, round(value)) or value < 0:
            raise CatanError(
                f"generators need non-negative integer energy weights; {name} = {value} (scale the file)"
            )
        out.append(round(value))
    return (out[0], out[1], out[2], out[3])


def ports_weight(weights: IntWeights) -> int:
    """The harbour term's integer weight (0 for a 3-tuple of weights)."""
    return weights[3] if len(weights) > 3 else 0


def scaled_energy(same: int, high: int, var_num: int, weights: IntWeights, ports: int = 0) -> int:
    """``1296 * energy`` as an exact integer (``ports``: the harbour term's raw value)."""
    return ENERGY_SCALE * (weights[0] * same + weights[1] * high + ports_weight(weights) * ports) + (
        weights[2] * var_num
    )


@dataclass(frozen=True)
class Swap:
    """One repair step, in the board's swap vocabulary (:data:`~boardeval.catan.board.SWAP_KINDS`):
    ``kind`` ``"resources"`` or ``"numbers"`` of two hexes, ``"hexes"`` (whole tiles: how the desert
    moves), or ``"ports"`` (two port slots)."""

    kind: str
    a: int
    b: int

    def __str__(self) -> str:
        return f"{self.kind} {self.a}<->{self.b}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "hexes": [self.a, self.b]}


@dataclass(frozen=True)
class GenerationResult:
    """A generated board with its energy breakdown and the status of each requested rule.

    ``optimal``: True when CP-SAT proved the energy minimal (cp), else None / False. ``swaps``: the repair
    swaps (tournament), else None. ``interrupted``: Ctrl-C stopped the run; the board is the best so far.
    """

    board: Board
    energy: Breakdown
    rules: Mapping[str, bool]
    method: str
    seed: int
    seconds: float
    optimal: bool | None = None
    swaps: tuple[Swap, ...] | None = None
    interrupted: bool = False
    fairness: float | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)
    ports: str | None = None
    """The ``ports`` mode that ran (``random``, ``fixed`` or ``balanced``; :mod:`.harbours`)."""

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``generate --json`` shape (``code``: the share code; ``board``: the same, deprecated,
        :func:`~boardeval.catan.board.code_keys`)."""
        out: dict[str, Any] = {
            **code_keys(self.board.code()),
            "energy": energy_json(self.energy),
            "rules": dict(self.rules),
            "method": self.method,
            "seed": self.seed,
            "seconds": round(self.seconds, 6),
        }
        if self.optimal is not None:
            out["optimal"] = self.optimal
        if self.swaps is not None:
            out["swaps"] = len(self.swaps)
            out["swap_list"] = [s.to_json() for s in self.swaps]
        if self.fairness is not None:
            out["fairness"] = self.fairness
        if self.interrupted:
            out["interrupted"] = True
        if self.ports is not None:
            out["ports"] = self.ports
        out.update(self.extras)
        return out


def make_result(
    board: Board,
    rules: Sequence[Rule],
    method: str,
    seed: int,
    seconds: float,
    weights: WeightSet | None = None,
    **kw: Any,
) -> GenerationResult:
    """Re-evaluate ``board`` with the independent energy and rule checkers and wrap it up."""
    return GenerationResult(
        board=board,
        energy=board_energy(board, weights),
        rules=check_rules(board, rules),
        method=method,
        seed=seed,
        seconds=seconds,
        **kw,
    )


class BoardState:
    """A mutable board as integer lists with an incrementally maintained scaled energy.

    ``res[h]``: resource index (``DESERT_INDEX`` for the desert); ``num[h]``: token (0 on the desert).
    Swaps update the same-resource pair count, the 6/8 pair count and the three region pip sums in O(degree)
    and return the new scaled energy; undoing is the same swap again. ``ports``: the harbour letters per
    slot, ``port_idx`` the same as resource indices (-1 = 3:1). The harbour term (only kept when its
    weight is not 0) is maintained per slot: a tile swap re-scores only the slots whose own or reach hexes
    include a swapped hex (``hex_slots``), a harbour swap the two slots and the 3:1 neighbour count; it
    equals :func:`~boardeval.catan.energy.port_terms_lists` of the state (tested). ``weights``: the integer
    weights (default: the packaged weight file's).
    """

    __slots__ = (
        "generic",
        "geometry",
        "hex_slots",
        "high",
        "lay",
        "num",
        "port_idx",
        "port_sum",
        "ports",
        "res",
        "same",
        "slot_cost",
        "sums",
        "w_ports",
        "weights",
    )

    def __init__(self, board: Board, weights: IntWeights | None = None) -> None:
        weights = integer_weights() if weights is None else weights
        self.res = [int(x) for x in board.resource_index]
        self.num = [int(x) for x in board.number_array]
        self.ports = "".join(board.ports)
        self.lay = gen_layout(board.layout)  # adjacency, regions and scale of the board's layout
        self.port_idx = [int(x) for x in board.port_index]
        self.geometry = port_geometry(board.topology)
        self.weights = weights
        self.w_ports = ports_weight(weights)
        self.same = 0
        self.high = 0
        for h in range(self.lay.n_hexes):
            for nb in self.lay.neighbours[h]:
                if nb > h:
                    if self.res[h] == self.res[nb] and self.res[h] != DESERT_INDEX:
                        self.same += 1
                    if self.num[h] in (6, 8) and self.num[nb] in (6, 8):
                        self.high += 1
        self.sums = [0, 0, 0]
        for h in range(self.lay.n_hexes):
            self.sums[self.lay.region_of[h]] += PIPS_OF[self.num[h]]
        self.hex_slots = _hex_slots(self.geometry, self.lay.n_hexes)
        self._score_harbours()

    def _score_harbours(self) -> None:
        """Score every slot and count neighbouring 3:1 pairs afresh."""
        self.slot_cost = [self._slot_cost(k) for k in range(len(self.port_idx))]
        self.port_sum = sum(self.slot_cost)
        self.generic = sum(
            1 for a, b in self.geometry.neighbours if self.port_idx[a] < 0 and self.port_idx[b] < 0
        )

    def _slot_cost(self, k: int) -> int:
        """Harbour units of slot k: own-resource pips, plus the unreached cost (0 for a 3:1 harbour)."""
        r = self.port_idx[k]
        if r < 0:
            return 0
        res, num, g = self.res, self.num, self.geometry
        own = 0
        for h in g.hexes[k]:
            if res[h] == r:
                own += PIPS_OF[num[h]]
        for hexes in g.reach_hexes[k]:
            made = 0
            for h in hexes:
                if res[h] == r:
                    made += PIPS_OF[num[h]]
            if made >= PORT_REACH_PIPS:
                return own
        return own + PORT_UNREACHED_COST

    def _rescore(self, a: int, b: int) -> None:
        """Re-score the slots near hexes a and b after a tile swap."""
        cost = self.slot_cost
        for k in self.hex_slots[a] if a == b else {*self.hex_slots[a], *self.hex_slots[b]}:
            new = self._slot_cost(k)
            self.port_sum += new - cost[k]
            cost[k] = new

    def _tile_energy(self) -> int:
        """The scaled pair and region-variance terms on the layout's scale (``lay.scale``: 1296 on the
        base board, 39204 on the 5-6 player board; :mod:`.layouts`)."""
        if self.lay.name == "base":
            return scaled_energy(self.same, self.high, variance_numerator(*self.sums), self.weights)
        w, lay = self.weights, self.lay
        return lay.scale * (w[0] * self.same + w[1] * self.high) + w[2] * lay.variance_numerator(*self.sums)

    def energy(self) -> int:
        """Scaled (x1296; x ``lay.scale`` on other layouts) energy of the current state."""
        base = self._tile_energy()
        if not self.w_ports:
            return base
        return base + self.lay.scale * self.w_ports * self.port_raw()

    def port_raw(self) -> int:
        """The harbour term's raw value of the current state (maintained; see the class docstring)."""
        if not self.w_ports:  # not maintained by the tile swaps then: score afresh
            self._score_harbours()
        return self.port_sum + PORT_GENERIC_ADJACENT_COST * self.generic

    def tile_energy(self) -> int:
        """The scaled energy without the harbour term (its lower bound is the annealer's)."""
        return self._tile_energy()

    def set_ports(self, letters: str) -> None:
        """Put harbour letters on the slots (a permutation of the current ones)."""
        index = {letter: k for k, letter in enumerate(RESOURCES)} | {"3": -1}
        self.ports = "".join(letters)
        self.port_idx = [index[p] for p in self.ports]
        self._score_harbours()

    def swap_ports(self, a: int, b: int) -> None:
        """Swap the harbour kinds of slots a and b."""
        p = self.port_idx
        p[a], p[b] = p[b], p[a]
        letters = list(self.ports)
        letters[a], letters[b] = letters[b], letters[a]
        self.ports = "".join(letters)
        self._score_harbours()

    def board(self) -> Board:
        return Board.from_arrays(self.res, self.num, self.ports)

    def _same_at(self, h: int, skip: int) -> int:
        r = self.res[h]
        if r == DESERT_INDEX:
            return 0
        return sum(1 for nb in self.lay.neighbours[h] if nb != skip and self.res[nb] == r)

    def _high_at(self, h: int, skip: int) -> int:
        if self.num[h] not in (6, 8):
            return 0
        return sum(1 for nb in self.lay.neighbours[h] if nb != skip and self.num[nb] in (6, 8))

    def swap_resources(self, a: int, b: int) -> None:
        """Swap the resources of hexes a and b (tokens stay)."""
        self.same -= self._same_at(a, b) + self._same_at(b, a)
        self.res[a], self.res[b] = self.res[b], self.res[a]
        self.same += self._same_at(a, b) + self._same_at(b, a)
        if self.w_ports:
            self._rescore(a, b)

    def swap_numbers(self, a: int, b: int) -> None:
        """Swap the tokens of hexes a and b (resources stay)."""
        self.high -= self._high_at(a, b) + self._high_at(b, a)
        na, nb = self.num[a], self.num[b]
        ra, rb = self.lay.region_of[a], self.lay.region_of[b]
        self.sums[ra] += PIPS_OF[nb] - PIPS_OF[na]
        self.sums[rb] += PIPS_OF[na] - PIPS_OF[nb]
        self.num[a], self.num[b] = nb, na
        self.high += self._high_at(a, b) + self._high_at(b, a)
        if self.w_ports:
            self._rescore(a, b)

    def swap_hexes(self, a: int, b: int) -> None:
        """Swap whole tiles (resource and token): how the desert moves."""
        self.swap_resources(a, b)
        self.swap_numbers(a, b)


@lru_cache(maxsize=8)
def _hex_slots(geometry: PortGeometry, n_hexes: int) -> tuple[tuple[int, ...], ...]:
    """Per hex, the harbour slots whose score can change when the hex's resource or token does."""
    near: list[set[int]] = [set() for _ in range(n_hexes)]
    for k in range(len(geometry.spots)):
        for h in geometry.hexes[k]:
            near[h].add(k)
        for hexes in geometry.reach_hexes[k]:
            for h in hexes:
                near[h].add(k)
    return tuple(tuple(sorted(s)) for s in near)


def resource_letters(res: Sequence[int]) -> str:
    """Letters of a resource-index list (for messages)."""
    letters = (*RESOURCES, "D")
    return "".join(letters[i] for i in res)


def as_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(resource_index, number_array) copies as int64 arrays."""
    return board.resource_index.copy(), board.number_array.copy()


@lru_cache(maxsize=8)
def energy_lower_bound(weights: IntWeights = (100, 150, 10)) -> int:
    """A lower bound on the scaled energy of any board: no bad pairs, no harbour cost, the best region split.

    Pair counts are >= 0; the variance numerator depends only on the corner and centre pip sums, and
    those can take only the values reachable by putting 5-6 tokens on the corners (5 when the desert is a
    corner) and 0-1 token on the centre. The bound is the smallest numerator over reachable splits. When
    a board reaches it, it is optimal (the annealer stops there); CP-SAT confirms the bound is tight for the
    base game (scaled 20, energy 0.0154).
    """
    pips = [PIPS[n] for n in NUMBER_TOKENS]
    best: int | None = None
    reachable: set[tuple[int, int]] = set()
    n = len(pips)
    for centre in [None, *range(n)]:  # None: the desert is on the centre
        rest = [p for i, p in enumerate(pips) if i != centre]
        sx = 0 if centre is None else pips[centre]
        for k in (5, 6) if centre is not None else (6,):
            for combo in itertools.combinations(range(len(rest)), k):
                reachable.add((sum(rest[i] for i in combo), sx))
    total = sum(pips)
    for sc, sx in reachable:
        v = variance_numerator(sc, sx, total - sc - sx)
        if best is None or v < best:
            best = v
    assert best is not None
    return weights[2] * best


STOP_POLL_SECONDS = 0.1
"""How often a running CP-SAT solve re-sends its progress report (so a stop lands within about this)."""


def _wait_unlocked(finished: threading.Event, seconds: float) -> bool:
    """``finished.wait(seconds)`` without taking the event's lock in this (the main) thread: it sleeps in
    steps of 1-20 ms and reads the flag. A Ctrl-C raises KeyboardInterrupt in the main thread wherever it
    is; raised just after ``Event.wait`` took its condition's lock and before the ``with`` block that
    releases it began (Python checks for signals right after a C call returns), it would leave that lock
    held: the solver thread's ``finished.set()`` would then block on it for good, and so would the next
    wait. A tournament proof hung once in CI in a way that fits this (2026-11-26: exit -9 after the
    tests' 120 s guard, the progress bar still ticking; not reproduced in 40 runs). ``time.sleep`` holds
    no lock when the signal cuts it."""
    end = time.monotonic() + seconds
    step = 0.001
    while not finished.is_set():
        left = end - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(step, left))
        step = min(2 * step, 0.02)
    return True


def set_budget(solver: Any, seconds: float) -> None:
    """Give a CP-SAT ``solver`` a budget of ``seconds`` of CP-SAT's deterministic time, not of the wall clock.

    Deterministic time counts the solver's work (calibrated to about a second of one core each unit), so
    a search cut short by it is cut at the same point on a fast, slow or loaded machine: with one worker,
    a seed and a rule set give the same board and the same proof verdict everywhere (a wall-clock limit
    let a busy machine turn a proven board into an unproven or different one). Ctrl-C and the web's
    Cancel still stop any search at once (:func:`solve_stoppable`).
    """
    solver.parameters.max_deterministic_time = seconds


def solve_stoppable(
    solver: Any, model: Any, progress: Any, phase: tuple[int, int, str], callback: Any = None
) -> tuple[Any, bool]:
    """``solver.solve(model)`` (OR-Tools CP-SAT), stopped early by Ctrl-C or by ``progress`` raising
    KeyboardInterrupt (the web's Cancel).

    Returns ``(status, stopped)``; after a stop the best solution found so far stays readable from
    ``solver`` and the caller flags its result ``interrupted``. CP-SAT reports nothing while it searches,
    so the solve runs on a helper thread while the calling thread waits in steps of
    :data:`STOP_POLL_SECONDS`, re-sending ``phase`` (done, total, message) to ``progress``. A Ctrl-C
    reaches the waiting thread as KeyboardInterrupt (Python delivers signals to the main thread, which is
    in Python code here, not inside the solver), as does a cancel raised by ``progress``: either stops
    the search with ``stop_search``. CP-SAT's own SIGINT handler is switched off
    (``catch_sigint_signal``): it would end the search silently, and the result would not say that it
    was cut short (issue 17). Typed ``Any`` so that this module does not import OR-Tools (the annealer
    uses it too). ``callback``: a solution callback for ``solver.solve`` (it runs on the helper thread).
    """
    solver.parameters.catch_sigint_signal = False
    outcome: dict[str, Any] = {}
    # not Thread.join (a join cut by KeyboardInterrupt can lose the thread) nor Event.wait (see
    # _wait_unlocked): the solver thread sets the flag, this thread only reads it
    finished = threading.Event()

    def run() -> None:
        try:
            outcome["status"] = solver.solve(model, callback)
        except BaseException as exc:  # handed to the calling thread below
            outcome["error"] = exc
        finally:
            finished.set()

    threading.Thread(target=run, name="cp-sat-solve", daemon=True).start()
    stopped = False
    try:
        while not _wait_unlocked(finished, STOP_POLL_SECONDS):
            if progress is not None:
                progress(*phase)
    except KeyboardInterrupt:
        stopped = True
        solver.stop_search()
        while True:  # CP-SAT stops within milliseconds; a second Ctrl-C must not leave it running
            try:
                if _wait_unlocked(finished, STOP_POLL_SECONDS):
                    break
            except KeyboardInterrupt:
                pass
            solver.stop_search()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"], stopped
