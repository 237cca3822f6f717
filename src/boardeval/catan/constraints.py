"""Board constraints ("rules"): named, parameterised, checkable on any board, encodable for CP-SAT.

A rule is written as text, ``name`` or ``name=PARAM`` (kebab case), on the CLI (``--rule max-spot-pips=12``)
and in the library (:func:`parse_rule`). Every rule has

* a **checker** that lists its violations on a board, in plain Python/numpy over the board model (it knows
  nothing of any solver, so it independently re-checks what the generators produce), and
* a **CP-SAT encoding** over :class:`BoardVars`, the one-hot model of a board that ``_generate.cp`` solves.

The rules (spec section 4; seed 004 for wood-brick and the 6/8 resources)::

    no-same-resource-neighbours    no two neighbouring hexes of the same resource (desert excluded)
    no-68-neighbours               no 6 or 8 next to another 6 or 8
    no-equal-number-neighbours     no two neighbouring hexes with the same number
    2-12-apart                     the 2 and the 12 are not neighbours
    wood-brick-apart               no wood hex next to a brick hex (seed 004's lumber/brick rule)
    68-different-resources         the four 6s and 8s lie on four different resources
    max-spot-pips=N                every spot's adjacent pips sum to at most N (12 bans 6-8-5 spots)
    min-spot-pips=N                every spot touching three land hexes has at least N pips
    max-cluster=N                  no connected group of more than N same-resource hexes
    desert=any|centre|coast        where the desert may lie (coast = the 12 outer hexes)
    resource-pips-band=LO..HI      each resource's total pips on the board lies in LO..HI
    no-port-own-resource           no 2:1 port touches a hex of its own resource
    port-min-pips=N                every 2:1 port's resource makes at least N pips at some spot within
                                   two roads of the port (its own two spots included)

Both layouts: every checker reads the board's own topology and every encoder the topology of its
:class:`BoardVars` (:func:`layout_geometry`), so the rules mean the same on the 5-6 player board. Two rules
need a word there: ``desert=centre|coast`` puts *every* desert on the centre (the extended board's two
centre hexes) or the coast, and ``68-different-resources`` lets each resource hold at most
``ceil(hot tokens / 5)`` of the 6s and 8s (1 of the base board's 4; 2 of the extended board's 6, which
cannot lie on six different resources).

Choices (documented here because the spec leaves them open):

* ``wood-brick-apart`` bans wood–brick contacts only; wood–wood and brick–brick pairs are the business of
  ``no-same-resource-neighbours`` / ``max-cluster`` (seed 004's MiniZinc bans both at once).
* ``min-spot-pips`` applies to the 24 spots touching three land hexes; the desert counts as a land hex
  with 0 pips there (a spot next to the desert is a poor spot, which is what the rule is about).
* ``max-cluster=N`` is encoded exactly: a same-resource component of more than N hexes exists iff some
  connected set of N+1 hexes is all one resource, so every connected (N+1)-set gets a CP constraint.
* ``port-min-pips=N``: "within two roads" = road distance 0, 1 or 2 from either spot of the port (the
  reach of the energy's harbour term, :func:`~boardeval.catan.energy.port_geometry`); a spot "makes N
  pips of r" when its own hexes of resource r carry at least N pips together. Harbour kinds are CP-SAT
  variables like the tiles, so both port rules constrain where harbours go as much as the tiles.
* ``resource-pips-band`` bounds totals (not per-hex means), so ore and brick (3 hexes) compete with the
  4-hex resources on raw production, which is what players feel.

Size: about 765 lines: the registry of rules, each a checker next to its CP-SAT encoding (the two must
agree, ``tests/catan/test_constraints.py``), plus the geometry and the board variables they share. One
file per rule would put a checker and its encoding in reach of each other only through the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from boardeval.catan.board import (
    DESERT,
    DESERT_INDEX,
    N_HEXES,
    NUMBER_TOKENS,
    PIPS,
    RESOURCE_NAMES,
    RESOURCES,
    Board,
    layout_spec,
)
from boardeval.catan.energy import port_geometry
from boardeval.catan.topology import (
    HEX_NEIGHBOURS,
    PORT_SPOTS,
    SPOT_HEXES,
)
from boardeval.core import CatanError, parse_int, quote

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "COAST_HEXES",
    "RULES",
    "BoardVars",
    "Geometry",
    "Rule",
    "RuleError",
    "RuleSpec",
    "check_rules",
    "layout_geometry",
    "parse_rule",
    "parse_rules",
    "rule_violations",
]

IntArray = npt.NDArray[np.int64]
_MAX_RULE_CHARS = 100
"""Longest rule text read (the longest valid rule, ``no-same-resource-neighbours``, has 27 characters)."""


class RuleError(CatanError):
    """An unknown rule name or a bad rule parameter; the message quotes the rule text."""


NUMBERS: tuple[int, ...] = tuple(sorted(PIPS))
"""The ten token values 2..6, 8..12."""
TOKEN_COUNT: dict[int, int] = {n: NUMBER_TOKENS.count(n) for n in NUMBERS}
PORT_LETTERS: tuple[str, ...] = ("3", *RESOURCES)
COAST_HEXES: tuple[int, ...] = tuple(h for h in range(N_HEXES) if len(HEX_NEIGHBOURS[h]) < 6)
"""The 12 outer hexes (fewer than six land neighbours): ``desert=coast`` puts the desert on one."""
LAND3_SPOTS: tuple[int, ...] = tuple(s for s, hexes in enumerate(SPOT_HEXES) if len(hexes) == 3)
"""Spots touching three land hexes (24 on the base board)."""
_LETTERS = (*RESOURCES, "D")


def _port_hexes() -> tuple[tuple[int, ...], ...]:
    """For each port slot, the land hexes touching either of its two spots."""
    return tuple(tuple(sorted({h for s in pair for h in SPOT_HEXES[s]})) for pair in PORT_SPOTS)


PORT_HEXES = _port_hexes()


def _connected_sets(size: int, layout: str = "base") -> tuple[frozenset[int], ...]:
    """Every connected set of ``size`` hexes of a layout's board (each once)."""
    neighbours = layout_spec(layout).topology.hex_neighbours
    found: set[frozenset[int]] = {frozenset([h]) for h in range(len(neighbours))}
    for _ in range(size - 1):
        grown: set[frozenset[int]] = set()
        for s in found:
            for h in s:
                for nb in neighbours[h]:
                    if nb not in s:
                        grown.add(s | {nb})
        found = grown
    return tuple(sorted(found, key=sorted))


connected_sets = cache(_connected_sets)


@dataclass(frozen=True, eq=False)
class Geometry:
    """What the rules need of a layout: its topology's tables and its component counts."""

    layout: str
    n_hexes: int
    n_ports: int
    hex_edge_pairs: tuple[tuple[int, int], ...]
    hex_neighbours: tuple[tuple[int, ...], ...]
    spot_hexes: tuple[tuple[int, ...], ...]
    port_hexes: tuple[tuple[int, ...], ...]
    coast_hexes: tuple[int, ...]
    land3_spots: tuple[int, ...]
    centre_hexes: tuple[int, ...]
    tile_counts: Mapping[str, int]
    token_count: Mapping[int, int]
    port_count: Mapping[str, int]
    max_hot_per_resource: int
    """``68-different-resources``: at most this many 6s and 8s per resource (ceil(hot tokens / 5))."""


@cache
def layout_geometry(layout: str = "base") -> Geometry:
    """The :class:`Geometry` of a layout (``"base"`` or ``"extended"``), built once."""
    spec = layout_spec(layout)
    t = spec.topology
    hot = sum(1 for n in spec.number_tokens if n in (6, 8))
    return Geometry(
        layout=spec.name,
        n_hexes=t.n_hexes,
        n_ports=t.n_ports,
        hex_edge_pairs=tuple((int(a), int(b)) for a, b in t.hex_edges.tolist()),
        hex_neighbours=t.hex_neighbours,
        spot_hexes=t.spot_hexes,
        port_hexes=tuple(tuple(sorted({h for s in pair for h in t.spot_hexes[s]})) for pair in t.port_spots),
        coast_hexes=tuple(h for h in range(t.n_hexes) if len(t.hex_neighbours[h]) < 6),
        land3_spots=tuple(s for s, hexes in enumerate(t.spot_hexes) if len(hexes) == 3),
        centre_hexes=t.centre_hexes,
        tile_counts=dict(spec.tile_counts),
        token_count={n: spec.number_tokens.count(n) for n in NUMBERS},
        port_count={p: spec.port_kinds.count(p) for p in PORT_LETTERS},
        max_hot_per_resource=-(-hot // len(RESOURCES)),
    )


def _geo(board: Board) -> Geometry:
    return layout_geometry(board.layout)


# ---------------------------------------------------------------------------------------------------------
# The CP-SAT view of a board
# ---------------------------------------------------------------------------------------------------------


@dataclass
class BoardVars:
    """One-hot CP-SAT variables for a whole board, with the base game's counts already posted.

    ``res[h][r]``: hex h holds resource r (0..4 in ``RESOURCES`` order, 5 = desert);
    ``num[h][n]``: hex h holds token n (n in 2..12 without 7; the desert holds none);
    ``port[k][p]``: slot k holds port letter p (``"3"`` or a resource letter);
    ``pips[h]``: linear expression of hex h's pips; ``hot[h]``: hex h holds a 6 or an 8.
    ``both(h, r, n)`` gives (and caches) a literal for "hex h is resource r AND has token n".
    """

    model: cp_model.CpModel
    res: list[dict[int, Any]]
    num: list[dict[int, Any]]
    port: list[dict[str, Any]]
    pips: list[Any]
    hot: list[Any]
    _and: dict[tuple[int, int, int], Any] = field(default_factory=dict)
    geo: Geometry = field(default_factory=lambda: layout_geometry("base"))

    @classmethod
    def new(cls, model: cp_model.CpModel, layout: str = "base") -> BoardVars:
        """Post the variables and the tile/token/port counts of a layout (default: the base game) on
        ``model``."""
        g = layout_geometry(layout)
        hexes, slots = range(g.n_hexes), range(g.n_ports)
        res = [{r: model.new_bool_var(f"res{h}_{r}") for r in range(6)} for h in hexes]
        num = [{n: model.new_bool_var(f"num{h}_{n}") for n in NUMBERS} for h in hexes]
        port = [{p: model.new_bool_var(f"port{k}_{p}") for p in PORT_LETTERS} for k in slots]
        for h in hexes:
            model.add_exactly_one(res[h].values())
            # a numbered hex holds exactly one token; the desert none
            model.add(sum(num[h].values()) + res[h][DESERT_INDEX] == 1)
        for r, letter in enumerate(_LETTERS):
            model.add(sum(res[h][r] for h in hexes) == g.tile_counts[letter])
        for n in NUMBERS:
            model.add(sum(num[h][n] for h in hexes) == g.token_count[n])
        for k in slots:
            model.add_exactly_one(port[k].values())
        for p in PORT_LETTERS:
            model.add(sum(port[k][p] for k in slots) == g.port_count[p])
        pips = [sum(PIPS[n] * num[h][n] for n in NUMBERS) for h in hexes]
        hot = []
        for h in hexes:
            lit = model.new_bool_var(f"hot{h}")
            model.add(lit == num[h][6] + num[h][8])
            hot.append(lit)
        return cls(model, res, num, port, pips, hot, geo=g)

    def both(self, h: int, r: int, n: int) -> Any:
        """A literal equal to ``res[h][r] AND num[h][n]``."""
        key = (h, r, n)
        if key not in self._and:
            lit = self.model.new_bool_var(f"and{h}_{r}_{n}")
            a, b = self.res[h][r], self.num[h][n]
            self.model.add_implication(lit, a)
            self.model.add_implication(lit, b)
            self.model.add_bool_or([a.Not(), b.Not(), lit])
            self._and[key] = lit
        return self._and[key]

    def spot_resource_pips(self, s: int, r: int) -> Any:
        """Linear expression: the pips of resource r at spot s (its hexes of resource r)."""
        return sum(PIPS[n] * self.both(h, r, n) for h in self.geo.spot_hexes[s] for n in NUMBERS)

    def resource_pips(self, r: int) -> Any:
        """Linear expression: total pips on the hexes of resource r."""
        return sum(PIPS[n] * self.both(h, r, n) for h in range(self.geo.n_hexes) for n in NUMBERS)

    def add_hint(self, board: Board) -> None:
        """Hint the solver with a board (a warm start) of the same layout."""
        if board.layout != self.geo.layout:
            raise CatanError(f"a {board.layout} board cannot hint a {self.geo.layout} model")
        for h in range(self.geo.n_hexes):
            for r in range(6):
                self.model.add_hint(self.res[h][r], int(board.resource_index[h]) == r)
            for n in NUMBERS:
                self.model.add_hint(self.num[h][n], board.numbers[h] == n)
        for k in range(self.geo.n_ports):
            for p in PORT_LETTERS:
                self.model.add_hint(self.port[k][p], board.ports[k] == p)

    def read(self, solver: cp_model.CpSolver) -> Board:
        """The board of the solver's current solution."""
        hexes = range(self.geo.n_hexes)
        res = [next(r for r in range(6) if solver.boolean_value(self.res[h][r])) for h in hexes]
        nums = [next((n for n in NUMBERS if solver.boolean_value(self.num[h][n])), 0) for h in hexes]
        ports = "".join(
            next(p for p in PORT_LETTERS if solver.boolean_value(self.port[k][p]))
            for k in range(self.geo.n_ports)
        )
        return Board.from_arrays(res, nums, ports, self.geo.layout)


# ---------------------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------------------

Checker = Callable[[Board, Any], list[str]]
Encoder = Callable[[BoardVars, Any], None]
ParamParser = Callable[[str | None, str], Any]


@dataclass(frozen=True)
class RuleSpec:
    """A rule family: its name, what its parameter looks like, the checker and the CP-SAT encoder."""

    name: str
    summary: str
    param_help: str | None
    parse_param: ParamParser
    checker: Checker
    encoder: Encoder


@dataclass(frozen=True)
class Rule:
    """One rule with its parameter (``Rule("max-spot-pips", 12)``); ``str(rule)`` is its text."""

    name: str
    param: Any = None

    def __post_init__(self) -> None:
        if self.name not in RULES:
            raise RuleError(_unknown(self.name))

    @property
    def spec(self) -> RuleSpec:
        return RULES[self.name]

    @property
    def text(self) -> str:
        """The rule as typed on the CLI (``max-spot-pips=12``)."""
        if self.param is None:
            return self.name
        if isinstance(self.param, tuple):
            return f"{self.name}={self.param[0]}..{self.param[1]}"
        return f"{self.name}={self.param}"

    def __str__(self) -> str:
        return self.text

    def violations(self, board: Board) -> list[str]:
        """What breaks the rule on ``board`` (empty when it holds), one readable line per violation."""
        return self.spec.checker(board, self.param)

    def holds(self, board: Board) -> bool:
        return not self.violations(board)

    def encode(self, bv: BoardVars) -> None:
        """Post this rule on a CP-SAT board model."""
        self.spec.encoder(bv, self.param)


def _unknown(text: str) -> str:
    hint = ""
    name = text.partition("=")[0]
    if name.strip().lower() in RULES and name != name.strip().lower():
        hint = " (rule names are lower case, without spaces)"
    return f"unknown rule {quote(text)}{hint}; valid rules: {', '.join(_rule_usage())}"


def _rule_usage() -> list[str]:
    return [s.name if s.param_help is None else f"{s.name}={s.param_help}" for s in RULES.values()]


def parse_rule(text: str | Rule) -> Rule:
    """Parse ``name`` or ``name=PARAM`` into a :class:`Rule` (a Rule passes through).

    The text is taken exactly as written: names are lower-case kebab case, parameters are ASCII
    (``max-cluster=2``, ``resource-pips-band=9..14``, ``desert=centre``); ``MAX-CLUSTER=2``, spaces or
    control characters anywhere (``desert\r=any``), ``+2``, ``02``, ``2_0`` and non-ASCII digits are
    refused. The one alias is ``desert=center`` (the US spelling of ``centre``; its text is ``centre``).
    Raises :class:`RuleError` quoting the text and listing the valid rules when the name is unknown or
    the parameter is missing or malformed.
    """
    if isinstance(text, Rule):
        return text
    if not isinstance(text, str):
        raise RuleError(f"a rule must be text such as 'max-spot-pips=12', got {quote(text)}")
    if len(text) > _MAX_RULE_CHARS:
        raise RuleError(f"rule {quote(text)} is too long (a rule is at most {_MAX_RULE_CHARS} characters)")
    name, eq, param = text.partition("=")
    spec = RULES.get(name)
    if spec is None:
        raise RuleError(_unknown(text))
    value = spec.parse_param(param if eq else None, text)
    return Rule(name, value)


def parse_rules(texts: Iterable[str | Rule]) -> tuple[Rule, ...]:
    """Parse several rules; the same rule text twice is kept once."""
    out: list[Rule] = []
    for t in texts:
        rule = parse_rule(t)
        if rule not in out:
            out.append(rule)
    return tuple(out)


def rule_violations(board: Board, rules: Iterable[str | Rule]) -> dict[str, list[str]]:
    """Each rule's text -> its violations on ``board`` (an empty list when it holds)."""
    return {r.text: r.violations(board) for r in parse_rules(rules)}


def check_rules(board: Board, rules: Iterable[str | Rule]) -> dict[str, bool]:
    """Each rule's text -> whether it holds on ``board``."""
    return {name: not v for name, v in rule_violations(board, rules).items()}


# -- parameter parsers --------------------------------------------------------------------------------------


def _no_param(param: str | None, text: str) -> None:
    if param is not None:
        raise RuleError(f"rule {quote(text)} takes no parameter")


def _int_param(lo: int, hi: int) -> ParamParser:
    def parse(param: str | None, text: str) -> int:
        if param is None or param == "":
            raise RuleError(f"rule {quote(text)} needs a value, e.g. '{text.split('=')[0]}={hi // 2}'")
        return parse_int(param, f"rule {quote(text)}", lo=lo, hi=hi, error=RuleError)

    return parse


def _band_param(param: str | None, text: str) -> tuple[int, int]:
    if param is None or ".." not in param:
        raise RuleError(f"rule {quote(text)} needs a band LO..HI, e.g. 'resource-pips-band=9..14'")
    lo_s, _, hi_s = param.partition("..")
    where = f"rule {quote(text)}: a band of two integers LO..HI"
    lo = parse_int(lo_s, where, lo=0, hi=58, error=RuleError)
    hi = parse_int(hi_s, where, lo=0, hi=58, error=RuleError)
    if not lo <= hi:
        raise RuleError(f"rule {quote(text)}: need 0 <= LO <= HI <= 58 (58 pips in all), got {lo}..{hi}")
    return (lo, hi)


def _desert_param(param: str | None, text: str) -> str:
    choices = {"any": "any", "centre": "centre", "center": "centre", "coast": "coast"}
    if param is None or param not in choices:
        raise RuleError(f"rule {quote(text)}: desert must be one of any, centre, coast (lower case)")
    return choices[param]


# -- checkers and encoders ----------------------------------------------------------------------------------


def _name(letter: str) -> str:
    return RESOURCE_NAMES[letter]


def _check_same_resource(board: Board, _: None) -> list[str]:
    r = board.resources
    return [
        f"hexes {a} and {b} are both {_name(r[a])}"
        for a, b in _geo(board).hex_edge_pairs
        if r[a] == r[b] and r[a] != "D"
    ]


def _enc_same_resource(bv: BoardVars, _: None) -> None:
    for a, b in bv.geo.hex_edge_pairs:
        for r in range(5):
            bv.model.add(bv.res[a][r] + bv.res[b][r] <= 1)


def _check_68(board: Board, _: None) -> list[str]:
    n = board.numbers
    return [
        f"hexes {a} and {b} hold {n[a]} and {n[b]}"
        for a, b in _geo(board).hex_edge_pairs
        if n[a] in (6, 8) and n[b] in (6, 8)
    ]


def _enc_68(bv: BoardVars, _: None) -> None:
    for a, b in bv.geo.hex_edge_pairs:
        bv.model.add(bv.hot[a] + bv.hot[b] <= 1)


def _check_equal_numbers(board: Board, _: None) -> list[str]:
    n = board.numbers
    return [
        f"hexes {a} and {b} both hold {n[a]}"
        for a, b in _geo(board).hex_edge_pairs
        if n[a] is not None and n[a] == n[b]
    ]


def _enc_equal_numbers(bv: BoardVars, _: None) -> None:
    for a, b in bv.geo.hex_edge_pairs:
        for v in NUMBERS:
            if bv.geo.token_count[v] > 1:
                bv.model.add(bv.num[a][v] + bv.num[b][v] <= 1)


def _check_2_12(board: Board, _: None) -> list[str]:
    n = board.numbers
    return [
        f"hexes {a} and {b} hold the 2 and the 12"
        for a, b in _geo(board).hex_edge_pairs
        if {n[a], n[b]} == {2, 12}
    ]


def _enc_2_12(bv: BoardVars, _: None) -> None:
    for a, b in bv.geo.hex_edge_pairs:
        bv.model.add(bv.num[a][2] + bv.num[b][12] <= 1)
        bv.model.add(bv.num[a][12] + bv.num[b][2] <= 1)


def _check_wood_brick(board: Board, _: None) -> list[str]:
    r = board.resources
    return [
        f"wood and brick touch at hexes {a} and {b}"
        for a, b in _geo(board).hex_edge_pairs
        if {r[a], r[b]} == {"W", "B"}
    ]


def _enc_wood_brick(bv: BoardVars, _: None) -> None:
    w, b = RESOURCES.index("W"), RESOURCES.index("B")
    for x, y in bv.geo.hex_edge_pairs:
        bv.model.add(bv.res[x][w] + bv.res[y][b] <= 1)
        bv.model.add(bv.res[x][b] + bv.res[y][w] <= 1)


def _check_68_resources(board: Board, _: None) -> list[str]:
    by_res: dict[str, list[int]] = {}
    for h, (r, n) in enumerate(zip(board.resources, board.numbers, strict=True)):
        if n in (6, 8):
            by_res.setdefault(r, []).append(h)
    most = _geo(board).max_hot_per_resource
    return [
        f"{_name(r)} holds {len(hs)} of the 6s and 8s (hexes {', '.join(map(str, hs))})"
        + ("" if most == 1 else f", more than {most}")
        for r, hs in by_res.items()
        if len(hs) > most
    ]


def _enc_68_resources(bv: BoardVars, _: None) -> None:
    for r in range(5):
        hexes = range(bv.geo.n_hexes)
        bv.model.add(sum(bv.both(h, r, 6) + bv.both(h, r, 8) for h in hexes) <= bv.geo.max_hot_per_resource)


def _spot_pips(board: Board) -> list[int]:
    p = board.pips
    return [int(sum(p[h] for h in hexes)) for hexes in _geo(board).spot_hexes]


def _check_max_spot(board: Board, limit: int) -> list[str]:
    n = board.numbers
    spot_hexes = _geo(board).spot_hexes
    out = []
    for s, total in enumerate(_spot_pips(board)):
        if total > limit:
            nums = "-".join(str(n[h]) for h in spot_hexes[s] if n[h] is not None)
            out.append(f"spot {s} ({nums}) has {total} pips > {limit}")
    return out


def _enc_max_spot(bv: BoardVars, limit: int) -> None:
    for hexes in bv.geo.spot_hexes:
        bv.model.add(sum(bv.pips[h] for h in hexes) <= limit)


def _check_min_spot(board: Board, limit: int) -> list[str]:
    n = board.numbers
    g = _geo(board)
    totals = _spot_pips(board)
    out = []
    for s in g.land3_spots:
        if totals[s] < limit:
            nums = "-".join("D" if n[h] is None else str(n[h]) for h in g.spot_hexes[s])
            out.append(f"spot {s} ({nums}) has {totals[s]} pips < {limit}")
    return out


def _enc_min_spot(bv: BoardVars, limit: int) -> None:
    for s in bv.geo.land3_spots:
        bv.model.add(sum(bv.pips[h] for h in bv.geo.spot_hexes[s]) >= limit)


def clusters(board: Board) -> list[tuple[str, tuple[int, ...]]]:
    """Connected same-resource groups of hexes (desert excluded), largest first."""
    seen: set[int] = set()
    out: list[tuple[str, tuple[int, ...]]] = []
    r = board.resources
    neighbours = board.topology.hex_neighbours
    for start in range(board.n_hexes):
        if start in seen or r[start] == "D":
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            h = stack.pop()
            group.append(h)
            for nb in neighbours[h]:
                if nb not in seen and r[nb] == r[start]:
                    seen.add(nb)
                    stack.append(nb)
        out.append((r[start], tuple(sorted(group))))
    return sorted(out, key=lambda g: -len(g[1]))


def _check_cluster(board: Board, limit: int) -> list[str]:
    return [
        f"{_name(letter)} cluster of {len(hexes)} hexes ({', '.join(map(str, hexes))}) > {limit}"
        for letter, hexes in clusters(board)
        if len(hexes) > limit
    ]


def _enc_cluster(bv: BoardVars, limit: int) -> None:
    size = limit + 1
    counts = bv.geo.tile_counts
    biggest = max(counts[letter] for letter in RESOURCES)
    if size > biggest:
        return  # no resource has that many hexes: always satisfied
    for group in connected_sets(size, bv.geo.layout):
        for r, letter in enumerate(RESOURCES):
            if counts[letter] >= size:
                bv.model.add(sum(bv.res[h][r] for h in group) <= size - 1)


def _check_desert(board: Board, where: str) -> list[str]:
    g = _geo(board)
    if where == "centre":
        where_text = f"the centre (hex {', '.join(map(str, g.centre_hexes))})"
        allowed = g.centre_hexes
    elif where == "coast":
        where_text, allowed = "on the coast", g.coast_hexes
    else:
        return []
    return [f"the desert is on hex {d}, not {where_text}" for d in board.deserts if d not in allowed]


def _enc_desert(bv: BoardVars, where: str) -> None:
    g = bv.geo
    allowed = g.centre_hexes if where == "centre" else g.coast_hexes if where == "coast" else None
    if allowed is not None:
        bv.model.add(sum(bv.res[h][DESERT_INDEX] for h in allowed) == g.tile_counts[DESERT])


def resource_pip_totals(board: Board) -> dict[str, int]:
    """Total pips per resource letter."""
    totals = dict.fromkeys(RESOURCES, 0)
    for r, p in zip(board.resources, board.pips.tolist(), strict=True):
        if r != "D":
            totals[r] += int(p)
    return totals


def _check_band(board: Board, band: tuple[int, int]) -> list[str]:
    lo, hi = band
    return [
        f"{_name(letter)} has {total} pips, outside {lo}..{hi}"
        for letter, total in resource_pip_totals(board).items()
        if not lo <= total <= hi
    ]


def _enc_band(bv: BoardVars, band: tuple[int, int]) -> None:
    lo, hi = band
    for r in range(5):
        total = bv.resource_pips(r)
        bv.model.add(total >= lo)
        bv.model.add(total <= hi)


def _check_port_own(board: Board, _: None) -> list[str]:
    out = []
    for k, p in enumerate(board.ports):
        if p == "3":
            continue
        own = [h for h in _geo(board).port_hexes[k] if board.resources[h] == p]
        if own:
            out.append(
                f"the 2:1 {_name(p)} port (slot {k}) touches {_name(p)} hex {', '.join(map(str, own))}"
            )
    return out


def _enc_port_own(bv: BoardVars, _: None) -> None:
    for k in range(bv.geo.n_ports):
        for r, letter in enumerate(RESOURCES):
            for h in bv.geo.port_hexes[k]:
                bv.model.add(bv.port[k][letter] + bv.res[h][r] <= 1)


def _check_port_min(board: Board, limit: int) -> list[str]:
    reach = port_geometry(board.topology).reach
    hexes_of = board.topology.spot_hexes
    pips = board.pips.tolist()
    out = []
    for k, p in enumerate(board.ports):
        if p == "3":
            continue
        made = {s: sum(pips[h] for h in hexes_of[s] if board.resources[h] == p) for s in reach[k]}
        best = max(made, key=lambda s: (made[s], -s))
        if made[best] < limit:
            out.append(
                f"the 2:1 {_name(p)} port (slot {k}): no spot within two roads makes {limit} {_name(p)} "
                f"pips (best: {made[best]} at spot {best})"
            )
    return out


def _enc_port_min(bv: BoardVars, limit: int) -> None:
    if limit <= 0:
        return
    topology = layout_spec(bv.geo.layout).topology
    reach = port_geometry(topology).reach
    for k in range(bv.geo.n_ports):
        for r, letter in enumerate(RESOURCES):
            made = []
            for s in reach[k]:
                lit = bv.model.new_bool_var(f"portmin{k}_{r}_{s}")
                bv.model.add(bv.spot_resource_pips(s, r) >= limit).only_enforce_if(lit)
                made.append(lit)
            bv.model.add_bool_or([bv.port[k][letter].Not(), *made])


def _specs() -> dict[str, RuleSpec]:
    specs = [
        RuleSpec("no-same-resource-neighbours", "no two neighbouring hexes share a resource", None,
                 _no_param, _check_same_resource, _enc_same_resource),
        RuleSpec("no-68-neighbours", "no 6 or 8 next to another 6 or 8", None,
                 _no_param, _check_68, _enc_68),
        RuleSpec("no-equal-number-neighbours", "no two neighbouring hexes share a number", None,
                 _no_param, _check_equal_numbers, _enc_equal_numbers),
        RuleSpec("2-12-apart", "the 2 and the 12 are not neighbours", None,
                 _no_param, _check_2_12, _enc_2_12),
        RuleSpec("wood-brick-apart", "no wood hex next to a brick hex", None,
                 _no_param, _check_wood_brick, _enc_wood_brick),
        RuleSpec("68-different-resources", "the four 6s and 8s on four different resources", None,
                 _no_param, _check_68_resources, _enc_68_resources),
        RuleSpec("max-spot-pips", "every spot has at most N pips", "N",
                 _int_param(0, 15), _check_max_spot, _enc_max_spot),
        RuleSpec("min-spot-pips", "every 3-hex spot has at least N pips", "N",
                 _int_param(0, 15), _check_min_spot, _enc_min_spot),
        RuleSpec("max-cluster", "no same-resource group larger than N hexes", "N",
                 _int_param(1, 4), _check_cluster, _enc_cluster),
        RuleSpec("desert", "where the desert lies", "any|centre|coast",
                 _desert_param, _check_desert, _enc_desert),
        RuleSpec("resource-pips-band", "each resource's total pips in LO..HI", "LO..HI",
                 _band_param, _check_band, _enc_band),
        RuleSpec("no-port-own-resource", "no 2:1 port touches a hex of its resource", None,
                 _no_param, _check_port_own, _enc_port_own),
        RuleSpec("port-min-pips", "every 2:1 port's resource makes N pips within two roads", "N",
                 _int_param(0, 15), _check_port_min, _enc_port_min),
    ]  # fmt: skip
    return {s.name: s for s in specs}


RULES: Mapping[str, RuleSpec] = _specs()
"""Rule name -> its spec (summary, parameter, checker, CP-SAT encoder)."""


def rules_text(rules: Sequence[Rule]) -> str:
    """``a, b and c`` for messages."""
    names = [r.text for r in rules]
    if not names:
        return "(no rules)"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
