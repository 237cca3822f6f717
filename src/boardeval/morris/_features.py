"""Raw evaluation features of a Nine Men's Morris position, per side (spec section 2).

Every feature is "more is better for its owner"; the evaluation (``_evaluate.py``) scores own minus opponent.
All features are computed from the two 24-bit bitboards with the precomputed masks of ``board.py``::

     0 a7 ------- 1 d7 ------- 2 g7        ring weights (fork_threats):
     |   3 b6 --- 4 d6 --- 5 f6  |           outer  1.0   (a/g files, d1, d7, a4, g4)
     |   |  6 c5- 7 d5- 8 e5 |   |           middle 1.25  (b/f files, d2, d6, b4, f4)
     9 a4-10 b4-11 c4   12 e4-13 f4-14 g4     inner  1.0   (c/e files, d3, d5, c4, e4)
     |   | 15 c3-16 d3-17 e3 |   |
     |  18 b2 ---19 d2 ---20 f2  |
    21 a1 -------22 d1 -------23 g1

Definitions (with the seed's four defects fixed, see ``docs/morris-eval.md``):

* ``material``: men on board + men in hand (defect 3: the seed ignored men in hand).
* ``mills``: closed mills (three own men on a line).
* ``open_mills``: lines with two own men and one empty point -- structure only, no reachability.
* ``threats``: distinct empty points that close a mill and that the side reaches with its next turn.
  Placing (men in hand): any empty point. Flying: any empty point, flown by a man that is not one of the two
  men of that line. Moving: an own man adjacent to the point that is **not one of the two men of that
  line** (defect 1: the seed let a man of the line itself "close" it, which empties the line again).
* ``double_threats``: threat points that close two mills at once (the closing man lies on neither line).
* ``fork_threats``: with at least two distinct threat points, the sum of their ring weights, else 0.
* ``mobility``: sliding moves of the side (one per man and empty neighbour; removal choices not
  multiplied) in the moving phase; 0 while the side places or flies.
* ``blocked``: opponent men with no empty neighbour, counted only while the *opponent* is in the moving
  phase (defect 4: a flying or placing man is never blocked).
* ``connectivity``: pairs of adjacent own men.
* ``initiative`` (the "initiative" profile only): ``T * [side to move] + max(0, T - 1)`` where ``T`` is the
  side's threat count. The first part is the side to move's immediately executable mill closures (it wins
  a man now, whatever the opponent does); the second is forcing power: threat points beyond the first
  cannot all be parried by one opponent turn, so a fork wins material even for the side not to move.

Placing-phase judgement (issue 12 section 2; zero once no man is in hand on either side, where ``mobility``
and ``blocked`` take over; see ``docs/morris-eval.md`` for the sources and the data):

* ``future_mobility``: the ``mobility`` the side's men would have if placing ended now (one per man and
  empty neighbour). Blockades are the typical loss right after placing; the seed scales mobility to 0.
* ``cramped``: opponent men standing in groups (men of one side joined by lines) that have at most one
  free neighbour between them -- men that are or will soon be locked in.
* ``junctions``: own men on the four 4-way points b4, d2, d6, f4 (the middle ring's midpoints, the only
  points with four neighbours), which strategy guides recommend occupying early.

Blockade judgement at the placing/moving boundary (issue 25 section 1; every phase but flying):

* ``liberties``: the distinct empty points next to the side's men (the points its men could slide to; two
  men sharing one free point count it once, since one opposing man closes it for both), less the
  opponent's men still in hand (each can be placed on one of them), floored at 0 and capped at
  ``LIBERTY_CAP`` = 4; a flying side has the cap. A side to move without a free point has lost, and the
  last few free points are worth far more than the tenth: ``mobility`` (linear, 0.05 of a man a move in
  the moving phase) cannot say that, and the placing terms stop when placing ends, where the shut-ins of
  issue 25 began. Zero for both sides while the opponent holds more men than there are free points (most
  of the placing phase), so the term switches itself on towards the end of placing.

The phase of a side: "placing" while it has men in hand, "flying" with exactly 3 men on board and none in
hand (when the variant allows flying), else "moving". The phase of a position is that of the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from boardeval.morris.board import ADJ_MASK, MILL_MASKS, RING, RING_WEIGHT, threat_points
from boardeval.morris.rules import BLACK, WHITE, Position

__all__ = [
    "FEATURES",
    "JUNCTIONS",
    "LIBERTY_CAP",
    "PHASES",
    "PLACING_FEATURES",
    "RING_WEIGHT",
    "SideFeatures",
    "cramped_men",
    "features",
    "groups",
    "liberties",
    "neighbours",
    "position_phase",
    "side_features",
    "side_phase",
    "threat_points",
]

FEATURES: Final[tuple[str, ...]] = (
    "material",
    "mills",
    "open_mills",
    "threats",
    "double_threats",
    "fork_threats",
    "mobility",
    "blocked",
    "connectivity",
    "initiative",
    "future_mobility",
    "cramped",
    "junctions",
    "liberties",
)
"""Feature names, in the order of :class:`SideFeatures` fields and breakdown terms."""

PLACING_FEATURES: Final[tuple[str, ...]] = ("future_mobility", "cramped", "junctions")
"""The placing-phase features (issue 12 section 2): non-zero only while a man is still in hand."""

PHASES: Final[tuple[str, ...]] = ("placing", "moving", "flying")

JUNCTIONS: Final[int] = sum(1 << p for p in (4, 10, 13, 19))
"""The 4-way points d6, b4, f4, d2 as a bitboard."""

LIBERTY_CAP: Final[int] = 4
"""``liberties`` counts at most this many free points: only a low count is a shut-in danger (see the module
docstring); a flying side, which cannot be shut in, has the cap."""

_POINT_RING_WEIGHT: Final[tuple[float, ...]] = tuple(RING_WEIGHT[r] for r in RING)

_FULL: Final[int] = (1 << 24) - 1


@dataclass(frozen=True, slots=True)
class SideFeatures:
    """The raw feature values of one side (see the module docstring for definitions)."""

    material: int
    mills: int
    open_mills: int
    threats: int
    double_threats: int
    fork_threats: float
    mobility: int
    blocked: int
    connectivity: int
    initiative: int
    future_mobility: int
    cramped: int
    junctions: int
    liberties: int

    def to_dict(self) -> dict[str, float]:
        """JSON-able ``name -> raw value`` in :data:`FEATURES` order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def values(self) -> tuple[float, ...]:
        """The raw values in :data:`FEATURES` order."""
        return (
            self.material,
            self.mills,
            self.open_mills,
            self.threats,
            self.double_threats,
            self.fork_threats,
            self.mobility,
            self.blocked,
            self.connectivity,
            self.initiative,
            self.future_mobility,
            self.cramped,
            self.junctions,
            self.liberties,
        )


def neighbours(mask: int) -> int:
    """The points adjacent to some point of ``mask``."""
    out = 0
    while mask:
        b = mask & -mask
        mask ^= b
        out |= ADJ_MASK[b.bit_length() - 1]
    return out


def groups(men: int) -> list[int]:
    """The men of one side split into groups joined by lines (connected components), lowest point first."""
    out: list[int] = []
    rest = men
    while rest:
        group = rest & -rest
        while True:
            grown = group | (neighbours(group) & men)
            if grown == group:
                break
            group = grown
        out.append(group)
        rest &= ~group
    return out


def cramped_men(men: int, empty: int) -> int:
    """The men of ``men`` in groups with at most one free (empty) neighbour between them, as a bitboard."""
    out = 0
    for group in groups(men):
        if (neighbours(group) & empty).bit_count() <= 1:
            out |= group
    return out


def liberties(own: int, empty: int, opp_hand: int, flying: bool) -> int:
    """The ``liberties`` feature of the side owning ``own``: ``min(LIBERTY_CAP, max(0, free - opp_hand))``
    with ``free`` the distinct empty points next to its men; ``LIBERTY_CAP`` for a flying side."""
    if flying:
        return LIBERTY_CAP
    free = (neighbours(own) & empty).bit_count()
    return min(LIBERTY_CAP, max(0, free - opp_hand))


def side_phase(pos: Position, side: int) -> str:
    """Phase of ``side``: "placing" (men in hand), "flying" (exactly 3 men, none in hand), else "moving"."""
    if pos.hand[side] > 0:
        return "placing"
    if pos.variant.flying and pos.men[side].bit_count() == 3:
        return "flying"
    return "moving"


def position_phase(pos: Position) -> str:
    """Phase of the position = phase of the side to move."""
    return side_phase(pos, pos.side)


def _side_values(pos: Position, side: int, phases: tuple[str, str]) -> SideFeatures:
    own = pos.men[side]
    opp = pos.men[1 - side]
    empty = _FULL & ~(own | opp)
    phase = phases[side]
    opp_phase = phases[1 - side]

    mills = 0
    open_mills = 0
    for mask in MILL_MASKS:
        n = (own & mask).bit_count()
        if n == 3:
            mills += 1
        elif n == 2 and (empty & mask):
            open_mills += 1

    threat_bits, double_bits = threat_points(own, empty, phase)
    threats = threat_bits.bit_count()
    fork = 0.0
    if threats >= 2:
        x = threat_bits
        while x:
            b = x & -x
            x ^= b
            fork += _POINT_RING_WEIGHT[b.bit_length() - 1]

    mobility = 0
    links = 0
    x = own
    while x:
        b = x & -x
        x ^= b
        adj = ADJ_MASK[b.bit_length() - 1]
        links += (adj & own).bit_count()
        if phase == "moving":
            mobility += (adj & empty).bit_count()

    blocked = 0
    if opp_phase == "moving":
        x = opp
        while x:
            b = x & -x
            x ^= b
            if not ADJ_MASK[b.bit_length() - 1] & empty:
                blocked += 1

    to_move = pos.side == side
    initiative = (threats if to_move else 0) + max(0, threats - 1)
    future_mobility = cramped = junctions = 0
    if pos.hand[WHITE] or pos.hand[BLACK]:
        x = own
        while x:
            b = x & -x
            x ^= b
            future_mobility += (ADJ_MASK[b.bit_length() - 1] & empty).bit_count()
        cramped = cramped_men(opp, empty).bit_count()
        junctions = (own & JUNCTIONS).bit_count()
    libs = liberties(own, empty, pos.hand[1 - side], phase == "flying")
    return SideFeatures(
        material=own.bit_count() + pos.hand[side],
        mills=mills,
        open_mills=open_mills,
        threats=threats,
        double_threats=double_bits.bit_count(),
        fork_threats=fork,
        mobility=mobility,
        blocked=blocked,
        connectivity=links // 2,
        initiative=initiative,
        future_mobility=future_mobility,
        cramped=cramped,
        junctions=junctions,
        liberties=libs,
    )


def side_features(pos: Position, side: int) -> SideFeatures:
    """Raw features of ``side`` (``WHITE`` or ``BLACK``) in ``pos``."""
    return _side_values(pos, side, (side_phase(pos, WHITE), side_phase(pos, BLACK)))


def features(pos: Position) -> tuple[SideFeatures, SideFeatures]:
    """Raw features of both sides, indexed by ``WHITE`` / ``BLACK``."""
    phases = (side_phase(pos, WHITE), side_phase(pos, BLACK))
    return _side_values(pos, WHITE, phases), _side_values(pos, BLACK, phases)
