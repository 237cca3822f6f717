"""Time use over a game (issue 25 section 1): more of the budget where the position is critical, less on
forced moves, and the average time per move at the setting.

:class:`TimeManager` keeps a *bank*: the seconds a game's moves so far saved against the setting (book
moves and forced moves save almost all of theirs; an overrun draws on it). Each move gets a plan before
its search and may change it between depths of the iterative deepening:

- **forced** (one legal turn): no search;
- **one safe turn** (every other turn loses a man or the game within a two-turn look): 30% of the share;
- **critical** (two or three safe turns), or a **falling score** (a depth of 6 or more scored at least
  :attr:`~TimeManager.fall` below the depth two before it), or a best turn that changed at a late depth:
  up to twice the share;
- otherwise the share: the setting plus a quarter of the bank (a negative bank is repaid a quarter a move;
  ``spend`` sets that share of the bank).

A depth is not started once half the move's target has gone (it would not finish in time); a depth that
runs past the hard limit is cut (the search plays the last completed depth, or a better root turn the cut
depth had already proved). The hard limit is at most ``max_factor`` times the setting and at most the
setting plus the bank plus half a setting, so the game's total stays within half a setting of
``moves x setting`` however the plans go (``tests/morris/search/test_clock.py`` plays synthetic games).

**Floor**: a search that runs past its hard limit (tablebase pages read from disk on a cold page cache,
measured in the twenty-first session: ``tablebase.packed``; a loaded machine) leaves a debt the bank
repays, but never below :data:`FLOOR` of the setting a move: without it one overrun of 1.5 s at 0.1 s a
move left the next ten moves no time at all, played at depth 1, and lost the game (issue 25, twentieth
session). Within the hard limits the bank never falls below -0.5 of a setting, so the floor changes
nothing then.

**Advance** (an option, 0 by default): a game starts with ``advance`` moves' time in the bank, spent from
the first searched moves on (placing and the first moving turns, where games are lost) and repaid by the
endgame's tablebase answers, which take no time (with the K <= 7 tables about 40% of a game's moves, so
the AI spent 0.56 of the setting over a game; ``docs/morris-search.md``). The game's total then stays
within ``advance`` + half a setting of ``moves x setting``. The advance is held back during a game's first
:data:`ADVANCE_FROM` placements (``plan(..., hold_advance=True)``): the empty board and the first men are the
opening book's ground, no blockade is within a search's reach there, and a command-line game without the
book (``morris play --no-book``) answered its first move in 1.9 s instead of about one setting (issue 25
section 3, twenty-first session). The stand-in matches open with four random placements, so their games
never hold it back.

**Falling score** compares a depth with the depth two before it, which has the same side to move at its
leaves: consecutive depths differ by about 2 in these units (odd depths end on the mover's move), so a
comparison with the depth before fired on 83% of the moves of self-play at 0.2 s, 242 of 293, and the
plan meant nothing; with the same-parity rule and a fall of 1.0 it fires on about a quarter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardeval.core import ParamsError

__all__ = [
    "ADVANCE_FROM",
    "FLOOR",
    "FULL_TABLES_ADVANCE",
    "FULL_TABLES_MAX_FACTOR",
    "PLAYER_ADVANCE",
    "MovePlan",
    "TimeManager",
]

#: The advance an AI player's game clock starts with, in moves' time (``AlphaBetaPlayer``): at 0.1 s a move
#: with the K <= 7 tables it spent 0.061 s a move over a game without it and 0.084 s with it, and scored
#: 0.562 [0.525, 0.600] against itself without it (200 games, issue 25's seventeenth session).
PLAYER_ADVANCE = 6.0

#: The advance and the hard limit (in settings) of a player whose tables hold every position of the moving
#: phase (K <= 9: ``Tablebase.max_men == 9``), where every move after placing is a tablebase answer that
#: takes no time. With :data:`PLAYER_ADVANCE` such a player spent 0.039 s a move of its 0.1 s over 200
#: time-odds games (issue 25, twenty-second session); the clock's synthetic games
#: (``tests/morris/search/test_clock.py``) put 18 and 5 at about 0.08 s, the placing moves twice the time.
#: Measured with them: 0.068 s a move at 0.1 s (placing moves 0.19 s), 0.522 [0.488, 0.557] against the
#: six moves' clock at equal setting, 0.456 [0.439, 0.473] at 10x time odds (600 games; 0.445 before).
#: The hard limit was 5 settings until issue 25's twenty-third session: with ``exact_placing`` both sides
#: left half their time unspent (0.053 s a move at 0.1 s) and the first searched placements, where the
#: games are lost, hit the limit; with 10 the weaker side spends 0.6-0.8 s on turns 4-6 (0.074 s a move in
#: all) and 10x time odds went 0.443 -> 0.472 [0.445, 0.500] on one set of 200 openings (game for game
#: +0.030 [+0.012, +0.048], 13 better, 1 worse), 0.470 -> 0.470 on a second (+0.000 [-0.016, +0.016]) and
#: 0.468 -> 0.470 on a third (+0.003): 600 games 0.460 -> 0.471 [0.456, 0.486], game for game +0.011
#: [+0.001, +0.020] (23 better, 10 worse; issue 25, twenty-fourth session). A limit of 30 settings (the
#: first searched placement 1.6 s instead of 0.66 s at 0.1 s, depth 12.5 instead of 12.1) gave 0.477 with
#: an advance of 30, but 0.116 s a move, over the setting, and 0.470 (game for game +0.000) with half the
#: bank a move (``spend=0.5``) at 0.098 s (200 games each, twenty-fifth session): not taken.
FULL_TABLES_ADVANCE = 18.0
FULL_TABLES_MAX_FACTOR = 10.0

#: Placements made (both sides) before the advance may be spent (see **Advance**).
ADVANCE_FROM = 4

#: The least share and hard limit of a move, in settings, however deep the bank is in debt (see **Floor**).
FLOOR = 0.25


@dataclass
class MovePlan:
    """One move's time: ``target`` seconds (stop starting depths after half of it), never past ``hard``."""

    target: float
    hard: float
    kind: str
    """``"forced"``, ``"one safe turn"``, ``"critical"``, ``"normal"``; ``"falling score"`` or ``"unstable"``
    once the search raised the target."""
    share: float = 0.0
    scores: list[float] = field(default_factory=list)
    best: list[int] = field(default_factory=list)

    def limit(self) -> float:
        """The deadline for the next depth (seconds from the move's start)."""
        return min(self.hard, 1.6 * self.target)


class TimeManager:
    """A game's clock for one player at ``per_move`` seconds a move on average (see the module docstring)."""

    def __init__(
        self,
        per_move: float,
        *,
        max_factor: float = 3.0,
        fall: float = 1.0,
        critical_safe: int = 3,
        advance: float = 0.0,
        spend: float = 0.25,
    ) -> None:
        if not per_move > 0:
            raise ParamsError(f"time per move must be positive, got {per_move!r}")
        self.per_move = float(per_move)
        self.max_factor = max_factor
        self.fall = fall
        self.critical_safe = critical_safe
        if not advance >= 0:
            raise ParamsError(f"advance must be 0 or more moves' time, got {advance!r}")
        self.advance = float(advance)
        if not 0 < spend <= 1:
            raise ParamsError(f"spend must be a share of the bank in (0, 1], got {spend!r}")
        self.spend = float(spend)
        self.bank = self.advance * self.per_move
        self.moves = 0
        self.spent = 0.0

    def new_game(self) -> None:
        """Start a new game: a bank of ``advance`` moves' time (0: empty)."""
        self.bank = self.advance * self.per_move
        self.moves = 0
        self.spent = 0.0

    def plan(self, legal: int, safe: int, *, hold_advance: bool = False) -> MovePlan:
        """The plan of a move with ``legal`` turns of which ``safe`` do not lose at once; ``hold_advance``
        (a game's first placements): plan as if the game had started without the advance."""
        floor = FLOOR * self.per_move
        bank = self.bank - self.advance * self.per_move if hold_advance else self.bank
        share = max(floor, self.per_move + self.spend * bank)
        hard = max(floor, min(self.max_factor * self.per_move, self.per_move + bank + 0.5 * self.per_move))
        if legal <= 1:
            return MovePlan(0.0, 0.0, "forced", share)
        if safe <= 1:
            return MovePlan(min(hard, 0.3 * share), hard, "one safe turn", share)
        if safe <= self.critical_safe:
            return MovePlan(min(hard, 2.0 * share), hard, "critical", share)
        return MovePlan(min(hard, share), hard, "normal", share)

    def after_depth(self, plan: MovePlan, depth: int, score: float, best: int, elapsed: float) -> float:
        """The search completed ``depth`` at ``elapsed`` seconds: the deadline for the next depth, or 0 to
        stop now. Raises the target on a falling score or a changed best turn."""
        if len(plan.scores) >= 2 and depth >= 6 and score < plan.scores[-2] - self.fall:
            plan.target = min(plan.hard, max(plan.target, 2.0 * plan.share))
            plan.kind = "falling score"
        elif plan.best and depth >= 6 and best != plan.best[-1]:
            plan.target = min(plan.hard, max(plan.target, 1.3 * plan.share))
            if plan.kind == "normal":
                plan.kind = "unstable"
        plan.scores.append(score)
        plan.best.append(best)
        if elapsed >= 0.5 * plan.target:
            return 0.0
        return plan.limit()

    def record(self, seconds: float) -> None:
        """A move took ``seconds``: the bank gains what it saved (or pays what it overran)."""
        self.moves += 1
        self.spent += seconds
        self.bank += self.per_move - seconds
