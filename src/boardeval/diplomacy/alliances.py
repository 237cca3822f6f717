"""Allied pairs per game year, detected from the per-phase mutual fear (issue 14 §3).

Three rules; ``rule="peace"`` is the default.

**unfought** (mutual fear and "never attacked each other"): a pair is a candidate in game year ``y`` when
both powers are alive, their mutual fear at the year's last movement phase is > 0 (each is within reach
of the other's centres: they could fight), and neither has **attacked** the other from the record's first
phase to the end of ``y``.  Between two consecutive phases of the record, A attacks B when a centre B
owned passes to A, or when a unit of A stands in a province where a unit of B stood at the previous
phase (A moved into B's unit: dislodged it, or followed it out).  Seeded allied DumbBots never do either
(tested), so this only has to tell allies from neighbours that happen to have left each other alone.
It finds most seeded pairs but also half of all pairs (early in a game nobody has fought yet).

**peace** (the default): the unfought pairs in which each power is the other's unfought partner of
largest mutual fear (the closest power it has left alone), so at most one pair per power.  On the bot
games both its precision and its recall are higher than the calm rule's (``docs/diplomacy-evaluation.md``).
In human games one early skirmish rules a pair out for the rest of the game.

**calm** (the first rule, mutual fear alone).  Mutual fear (``fear_mutual`` = fear(A,B) + fear(B,A)) is
mostly geography: neighbours fear each other whatever they do.  So the rule compares each pair with its
own start.  For powers A and B at a phase, the pair's **share** of the two powers' fear is

    share(A,B) = mutual(A,B) / (sum over C of mutual(A,C) + sum over C of mutual(B,C))

and its **calm** in game year ``y`` is the relative fall of that share from the first phase of the record
to the mean over the year's movement phases: ``calm = (share_start - share_y) / share_start`` (undefined
for pairs with no mutual fear at the start: they never met).  A pair is **detected** as allied in year
``y`` when both powers are alive, each is the other's calmest partner (the largest calm among its
partners), and ``calm >= threshold`` (default :data:`CALM_THRESHOLD`).

The year's change of mutual fear (the spec's "a rise signals a souring relation") is reported with every
pair; requiring "no rise this year" as well cut recall by about a third on the bot corpus without
improving precision (see ``docs/diplomacy-evaluation.md``), so neither rule uses it.  Nothing here
knows how a game was seeded: :func:`score_detection` compares detections with known pairs afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardeval.core import DiplomacyError
from boardeval.diplomacy.measures import GameMeasures, compute_measures
from boardeval.diplomacy.records import GameRecord

__all__ = [
    "CALM_THRESHOLD",
    "RULES",
    "AllianceResult",
    "DetectionScore",
    "PairSignal",
    "YearAlliances",
    "attacks",
    "detect_alliances",
    "score_detection",
]

CALM_THRESHOLD = 0.1
"""Smallest relative fall of a pair's share of mutual fear (from the start) that counts as allied
(rule ``calm``)."""

RULES: tuple[str, ...] = ("peace", "unfought", "calm")
"""The detection rules (module docstring); the first is the default."""

Pair = tuple[str, str]


def _year(phase: str) -> int | None:
    body = phase[1:-1]
    return int(body) if len(phase) >= 3 and phase[0] in "SFW" and body.isdigit() else None


@dataclass(frozen=True)
class PairSignal:
    """One pair in one year: its mutual fear, share and calm, the year's change, and the verdict."""

    a: str
    b: str
    mutual: float
    """Mutual fear at the year's last movement phase."""
    change: float
    """Change of mutual fear over the year (last movement phase minus the previous year's last one)."""
    share_start: float
    share: float
    """Mean share over the year's movement phases."""
    calm: float
    """(share_start - share) / share_start; NaN when the pair had no mutual fear at the start."""
    alive: bool
    """Both powers have a unit or a centre at the year's last movement phase."""
    detected: bool
    attacked: bool = False
    """One of the two attacked the other between the record's first phase and the end of the year."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (NaN as null)."""
        return {
            "pair": [self.a, self.b],
            "mutual": self.mutual,
            "change": _num(self.change),
            "share_start": self.share_start,
            "share": self.share,
            "attacked": self.attacked,
            "calm": _num(self.calm),
            "alive": self.alive,
            "detected": self.detected,
        }


def _num(value: float) -> float | None:
    return None if not np.isfinite(value) else float(value)


@dataclass(frozen=True)
class YearAlliances:
    """The detected pairs of one game year (powers in map order) and every pair's signal."""

    year: int
    pairs: tuple[Pair, ...]
    signals: tuple[PairSignal, ...]
    first_phase: str = ""
    """The first phase of the record: "never attacked" is checked from here."""
    last_phase: str = ""
    """The last phase whose position the year's verdict uses (the year's end, or ``through``)."""
    fear_phase: str = ""
    """The movement phase whose mutual fear the verdict uses (the last one of the year up to ``through``)."""


@dataclass(frozen=True)
class AllianceResult:
    """Detections of one game, year by year."""

    game_id: str
    years: tuple[YearAlliances, ...]
    threshold: float
    rule: str = "peace"

    def pairs_in(self, year: int) -> tuple[Pair, ...]:
        """The pairs detected in ``year`` (empty for a year the record does not have)."""
        return next((y.pairs for y in self.years if y.year == year), ())

    def to_json(self, *, signals: bool = False) -> dict[str, Any]:
        """``{"game", "threshold", "years": [{"year", "pairs": [[A, B], ...]}]}`` (+ every pair's signal)."""
        years = []
        for y in self.years:
            entry: dict[str, Any] = {"year": y.year, "pairs": [list(p) for p in y.pairs]}
            if signals:
                entry["signals"] = [s.to_json() for s in y.signals]
            years.append(entry)
        return {"game": self.game_id, "rule": self.rule, "threshold": self.threshold, "years": years}


def attacks(record: GameRecord) -> np.ndarray:
    """``[T, P, P]``: at phase ``t`` (>= 1) the row power attacked the column power since phase ``t - 1``.

    An attack: a centre the column power owned at ``t - 1`` is the row power's at ``t``, or a (not
    dislodged) unit of the row power stands at ``t`` in a province where a (not dislodged) unit of the
    column power stood at ``t - 1``.
    """
    graph = record.graph
    n_p = len(graph.powers)
    out = np.zeros((len(record.phases), n_p, n_p), dtype=bool)
    previous: tuple[list[set[str]], dict[str, int]] | None = None
    for t, position in enumerate(record.phases):
        units = [{u.province for u in us if not u.dislodged} for us in position.units]
        owner = {c: p for p, cs in enumerate(position.centers) for c in cs}
        if previous is not None:
            before_units, before_owner = previous
            for centre, p in owner.items():
                q = before_owner.get(centre)
                if q is not None and q != p:
                    out[t, p, q] = True
            for p in range(n_p):
                for q in range(n_p):
                    if p != q and units[p] & before_units[q]:
                        out[t, p, q] = True
        previous = (units, owner)
    return out


def detect_alliances(
    record: GameRecord,
    *,
    threshold: float = CALM_THRESHOLD,
    rule: str = "peace",
    measures: GameMeasures | None = None,
    through: str | None = None,
) -> AllianceResult:
    """Allied pairs per game year of ``record`` (see the module docstring for the two rules).

    ``threshold`` is the calm threshold of rule ``calm``.  Years with no movement phase in the record
    (e.g. a lone final phase) are left out.  ``through`` (a phase name of the record) uses only the
    phases up to and including it, as a player at that phase knows the game: its year is judged on its
    movement phases so far, later years are left out (issue 23: at S1901M the year's later phases must
    not show through).  Each year says which phases its verdict uses (``first_phase`` .. ``last_phase``);
    with the record's first phase alone (nothing resolved yet) no pair is detected.
    """
    if not np.isfinite(threshold):
        raise DiplomacyError(f"alliance threshold must be a finite number, got {threshold!r}")
    if rule not in RULES:
        raise DiplomacyError(f"unknown alliance rule {rule!r}: choose from {', '.join(RULES)}")
    gm = measures if measures is not None else compute_measures(record)
    if through is None:
        upto = len(gm.phases) - 1
    elif through in gm.phases:
        upto = list(gm.phases).index(through)
    else:
        raise DiplomacyError(
            f"phase {through!r} is not in game {record.game_id!r} ({gm.phases[0]} .. {gm.phases[-1]})"
        )
    n_p = len(gm.powers)
    hits = attacks(record)
    phase_year = [_year(p) for p in gm.phases]
    mutual = np.nan_to_num(gm.fear_mutual)
    total = mutual.sum(axis=2)
    denom = total[:, :, None] + total[:, None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(denom > 0, mutual / np.where(denom > 0, denom, 1.0), 0.0)
    alive_all = ~np.isnan(gm.neighbour_effect)
    start = share[0]
    movement: dict[int, list[int]] = {}
    for t, phase in enumerate(gm.phases[: upto + 1]):
        year = _year(phase)
        if year is not None and phase.endswith("M"):
            movement.setdefault(year, []).append(t)
    out = []
    previous_end: int | None = None
    for year in sorted(movement):
        idx = movement[year]
        last = idx[-1]
        alive = alive_all[last]
        mean_share = share[idx].mean(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            calm = np.where(start > 0, (start - mean_share) / np.where(start > 0, start, 1.0), np.nan)
        both = alive[:, None] & alive[None, :]
        calm[~both] = np.nan
        np.fill_diagonal(calm, np.nan)
        ranked = np.where(np.isnan(calm), -np.inf, calm)
        best = [int(np.argmax(ranked[a])) if np.isfinite(ranked[a]).any() else -1 for a in range(n_p)]
        change = (
            mutual[last] - mutual[previous_end] if previous_end is not None else np.full_like(calm, np.nan)
        )
        until = [t for t, py in enumerate(phase_year[: upto + 1]) if py is not None and py <= year]
        fought: np.ndarray = np.asarray(hits[until].any(axis=0))
        fought = fought | fought.T
        resolved = max(until) > 0  # the record's first position alone shows no conduct: no verdict
        calm_pair = both & (mutual[last] > 0) & ~fought
        np.fill_diagonal(calm_pair, False)
        fear_rank = np.where(calm_pair, mutual[last], -np.inf)
        closest = [int(np.argmax(fear_rank[a])) if calm_pair[a].any() else -1 for a in range(n_p)]
        signals = []
        pairs = []
        for a in range(n_p):
            for b in range(a + 1, n_p):
                value = float(calm[a, b])
                if rule == "calm":
                    hit = bool(np.isfinite(value) and value >= threshold and best[a] == b and best[b] == a)
                elif rule == "unfought":
                    hit = bool(calm_pair[a, b])
                else:
                    hit = bool(calm_pair[a, b] and closest[a] == b and closest[b] == a)
                hit = hit and resolved
                signals.append(
                    PairSignal(
                        gm.powers[a],
                        gm.powers[b],
                        float(mutual[last, a, b]),
                        float(change[a, b]),
                        float(start[a, b]),
                        float(mean_share[a, b]),
                        value,
                        bool(both[a, b]),
                        hit,
                        bool(fought[a, b]),
                    )
                )
                if hit:
                    pairs.append((gm.powers[a], gm.powers[b]))
        out.append(
            YearAlliances(
                year, tuple(pairs), tuple(signals), gm.phases[0], gm.phases[max(until)], gm.phases[last]
            )
        )
        previous_end = last
    return AllianceResult(record.game_id, tuple(out), float(threshold), rule)


@dataclass(frozen=True)
class DetectionScore:
    """Detected vs known pairs over many (game, year)s: counts, precision, recall, and the base rate."""

    true_positives: int
    detected: int
    known: int
    candidates: int
    """Pairs of surviving powers looked at (the base rate is known / candidates)."""

    @property
    def precision(self) -> float:
        """Share of detected pairs that are known allies (NaN with no detection)."""
        return self.true_positives / self.detected if self.detected else float("nan")

    @property
    def recall(self) -> float:
        """Share of known allied (pair, year)s that were detected (NaN with none known)."""
        return self.true_positives / self.known if self.known else float("nan")

    @property
    def base_rate(self) -> float:
        """Precision of guessing: the share of allied pairs among the candidates."""
        return self.known / self.candidates if self.candidates else float("nan")

    def to_json(self) -> dict[str, Any]:
        """Counts and rates (NaN as null)."""
        return {
            "true_positives": self.true_positives,
            "detected": self.detected,
            "known": self.known,
            "candidates": self.candidates,
            "precision": _num(self.precision),
            "recall": _num(self.recall),
            "base_rate": _num(self.base_rate),
        }


def score_detection(
    games: Iterable[tuple[AllianceResult, Sequence[Sequence[str]]]], *, years: Iterable[int] | None = None
) -> DetectionScore:
    """Precision and recall of detections against known allied pairs, over every (game, year).

    A known pair counts in a year while both its powers survive (a pair with an eliminated member
    cannot be detected, nor is it a candidate).  ``years`` restricts the years scored.
    """
    wanted = None if years is None else set(years)
    tp = detected = known = candidates = 0
    for result, pairs in games:
        truth = {tuple(sorted(p)) for p in pairs}
        for year in result.years:
            if wanted is not None and year.year not in wanted:
                continue
            live = {tuple(sorted((s.a, s.b))) for s in year.signals if s.alive}
            found = {tuple(sorted(p)) for p in year.pairs}
            tp += len(found & truth)
            detected += len(found)
            known += len(truth & live)
            candidates += len(live)
    return DetectionScore(tp, detected, known, candidates)
