"""Tuning the placing-phase weights by engine self-play (issue 12 section 2).

:func:`tune_by_play` moves the placing-phase weights (:data:`PLAY_NAMES`) one step at a time and keeps a
step when paired engine games from random openings (:func:`engine_match`, both colours per opening) score
it better than the current set; :class:`MatchScore` carries the score with its interval. Blockade losses
(no legal move soon after placing ended) are counted on their own (:data:`BLOCKADE_WINDOW`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from boardeval.core import Interval, ParamsError, Progress, make_rng, score_interval
from boardeval.morris._evaluate import NORM, PHASE_SCALE, make_weights
from boardeval.morris._features import FEATURES, PLACING_FEATURES
from boardeval.morris._search.compiled.engine import Engine
from boardeval.morris._search.compiled.options import EngineOptions, coefficients
from boardeval.morris.rules import Position

__all__ = [
    "BLOCKADE_WINDOW",
    "PLAY_NAMES",
    "GameJob",
    "GameResult",
    "MatchScore",
    "PlayStep",
    "PlayTuneReport",
    "engine_match",
    "play_engine_game",
    "tune_by_play",
]


# ------------------------------------------------------------------------- tuning by play (issue 12 §2)

PLAY_NAMES: Final[tuple[str, ...]] = PLACING_FEATURES
"""The weights tuned by play: the placing-phase features (every other weight stays where it is)."""

BLOCKADE_WINDOW: Final[int] = 10
"""A loss by "no legal move" within this many turns after placing ended counts as a blockade loss."""


@dataclass(frozen=True)
class GameJob:
    """One engine game of weight set ``a`` against ``b`` from a random opening (``seed``: two random
    placements per side; a pair of games shares it with colours swapped)."""

    seed: int
    a_white: bool
    a: tuple[tuple[str, float], ...]
    b: tuple[tuple[str, float], ...]
    depth: int | None
    time_limit: float | None


@dataclass(frozen=True)
class GameResult:
    """How a game went for ``a``: "win" / "draw" / "loss", the termination, turns played, and the turns
    between the end of placing and a blockade loss (None unless the game ended by "no legal move")."""

    result: str
    reason: str
    turns: int
    blockade_after: int | None


def _engine_for(weights: Mapping[str, float]) -> Engine:
    ws = make_weights(dict(weights), source="match weights")
    return Engine(coefficients(ws, PHASE_SCALE, NORM), EngineOptions(tt_bits=18))


def play_engine_game(job: GameJob) -> GameResult:
    """Play one game with the compiled engine (standard rules: threefold repetition, 200 turns)."""
    pos = Position.start()
    rng = make_rng(job.seed)
    for _ in range(4):  # two random placements per side
        turns = pos.legal_turns()
        pos.push(turns[int(rng.integers(len(turns)))])
    engines = (_engine_for(dict(job.a)), _engine_for(dict(job.b)))
    white, black = (engines[0], engines[1]) if job.a_white else (engines[1], engines[0])
    placing_end: int | None = None
    while (outcome := pos.outcome()) is None:
        if placing_end is None and not (pos.hand[0] or pos.hand[1]):
            placing_end = pos.turns
        eng = white if pos.side == 0 else black
        res = eng.search(pos, depth=job.depth, time_limit=job.time_limit)
        assert res.move is not None
        pos.push(res.move)
    a_side = 0 if job.a_white else 1
    result = "draw" if outcome.winner is None else ("win" if outcome.winner == a_side else "loss")
    reason = outcome.termination.value
    after = None
    if outcome.termination.value == "no_legal_move" and placing_end is not None:
        after = pos.turns - placing_end
    return GameResult(result, reason, pos.turns, after)


@dataclass
class MatchScore:
    """W/D/L of ``a`` against ``b`` with the score's 95% interval, the terminations, and blockade losses
    (``a`` / ``b`` lost by "no legal move" within :data:`BLOCKADE_WINDOW` turns after placing)."""

    wins: int
    draws: int
    losses: int
    interval: Interval
    reasons: dict[str, int]
    blockades_a: int
    blockades_b: int
    seconds: float
    interrupted: bool = False

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """(W + D/2) / games."""
        return self.interval.value

    def text(self) -> str:
        """One line: W/D/L, score [interval]."""
        iv = self.interval
        note = " (interrupted)" if self.interrupted else ""
        return (
            f"W {self.wins} / D {self.draws} / L {self.losses}, "
            f"score {iv.value:.3f} [{iv.lo:.3f}, {iv.hi:.3f}]{note}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        iv = self.interval
        return {
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(iv.value, 4),
            "interval": [round(iv.lo, 4), round(iv.hi, 4)],
            "reasons": dict(sorted(self.reasons.items())),
            "blockades_a": self.blockades_a,
            "blockades_b": self.blockades_b,
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
        }


def engine_match(
    a: Mapping[str, float],
    b: Mapping[str, float],
    *,
    games: int,
    seed: int,
    depth: int | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    label: str = "match",
) -> MatchScore:
    """``games`` engine games of ``a`` against ``b`` through :func:`~boardeval.core.map_jobs`: every random
    opening (two random placements per side, from ``seed``) is played twice with colours swapped.

    Fixed ``depth`` is reproducible; a ``time_limit`` per move depends on the machine. Ctrl-C keeps the
    finished games (``interrupted``).
    """
    from boardeval.core import JobsInterrupted, map_jobs, spawn_seeds

    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ParamsError(f"games must be an even integer >= 2 (pairs of colours), got {games!r}")
    if depth is None and time_limit is None:
        raise ParamsError("an engine match needs a depth or a time limit per move")
    wa = tuple((f, float(make_weights(dict(a), source="weights a")[f])) for f in FEATURES)
    wb = tuple((f, float(make_weights(dict(b), source="weights b")[f])) for f in FEATURES)
    seeds = spawn_seeds(seed, games // 2)
    jobs = [GameJob(seeds[i // 2], i % 2 == 0, wa, wb, depth, time_limit) for i in range(games)]
    t0 = time.perf_counter()
    interrupted = False
    try:
        results = map_jobs(play_engine_game, jobs, workers=workers, progress=progress, label=label)
    except JobsInterrupted as exc:
        results = [exc.done[i] for i in sorted(exc.done)]
        interrupted = True
    w = sum(r.result == "win" for r in results)
    d = sum(r.result == "draw" for r in results)
    lo = sum(r.result == "loss" for r in results)
    reasons: dict[str, int] = {}
    for r in results:
        key = f"{r.result}: {r.reason}"
        reasons[key] = reasons.get(key, 0) + 1

    def blockades(kind: str) -> int:
        return sum(
            r.result == kind and r.blockade_after is not None and r.blockade_after <= BLOCKADE_WINDOW
            for r in results
        )

    return MatchScore(
        w,
        d,
        lo,
        score_interval(w, d, lo),
        reasons,
        blockades("loss"),
        blockades("win"),
        time.perf_counter() - t0,
        interrupted,
    )


@dataclass
class PlayStep:
    """One round of :func:`tune_by_play`: the SPSA probe (``plus`` against ``minus``), the proposal and
    its acceptance match against the current weights."""

    round: int
    plus: dict[str, float]
    minus: dict[str, float]
    probe: MatchScore
    proposal: dict[str, float]
    check: MatchScore | None
    accepted: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "round": self.round,
            "plus": self.plus,
            "minus": self.minus,
            "probe": self.probe.to_dict(),
            "proposal": self.proposal,
            "check": None if self.check is None else self.check.to_dict(),
            "accepted": self.accepted,
        }


@dataclass
class PlayTuneReport:
    """What :func:`tune_by_play` did: the start, every round, the final weights."""

    start: dict[str, float]
    steps: list[PlayStep]
    final: dict[str, float]
    seconds: float
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "start": self.start,
            "steps": [s.to_dict() for s in self.steps],
            "final": self.final,
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
        }


def tune_by_play(
    start: Mapping[str, float],
    *,
    rounds: int,
    games: int,
    seed: int,
    depth: int | None = None,
    time_limit: float | None = None,
    names: Sequence[str] = PLAY_NAMES,
    perturbation: float = 0.5,
    learning_rate: float = 2.0,
    margin: float = 0.0,
    workers: int = 1,
    progress: Progress | None = None,
    log: Callable[[str], None] | None = None,
) -> PlayTuneReport:
    """SPSA over the weights ``names`` (relative steps; every weight >= 0) with seeded engine matches.

    Each round draws random signs ``delta`` (+-1 per weight), plays ``theta * (1 + c delta)`` against
    ``theta * (1 - c delta)`` (``c`` = ``perturbation``; a weight at 0 is perturbed by ``c`` absolutely),
    proposes ``theta + a (score - 1/2) delta * scale`` (``a`` = ``learning_rate``, ``scale`` = the weight
    or 1 at 0) and plays the proposal against the current weights: it is accepted when it scores above
    ``1/2 + margin``. Every match of a round uses fresh openings (``seed`` + round). Ctrl-C stops after the
    finished rounds (``interrupted``).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ParamsError(f"rounds must be a non-negative integer, got {rounds!r}")
    theta = dict(make_weights(dict(start), source="start weights"))
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ParamsError(f"unknown weight name(s) to tune: {unknown}; expected names from {list(FEATURES)}")
    rng = make_rng(seed)
    t0 = time.perf_counter()
    steps: list[PlayStep] = []
    say = log if log is not None else (lambda _msg: None)
    interrupted = False
    try:
        for r in range(rounds):
            signs = {n: float(s) for n, s in zip(names, rng.choice([-1, 1], len(names)), strict=True)}
            scale = {n: theta[n] if theta[n] > 0 else 1.0 for n in names}
            plus = dict(theta)
            minus = dict(theta)
            for n in names:
                plus[n] = max(0.0, theta[n] + perturbation * scale[n] * signs[n])
                minus[n] = max(0.0, theta[n] - perturbation * scale[n] * signs[n])
            probe = engine_match(
                plus, minus, games=games, seed=seed * 1000 + 2 * r, depth=depth, time_limit=time_limit,
                workers=workers, progress=progress, label=f"round {r + 1}: probe",
            )  # fmt: skip
            proposal = dict(theta)
            for n in names:
                step = learning_rate * (probe.score - 0.5) * scale[n] * signs[n]
                proposal[n] = round(max(0.0, theta[n] + step), 4)
            check = None
            accepted = False
            if any(proposal[n] != theta[n] for n in names):
                check = engine_match(
                    proposal, theta, games=games, seed=seed * 1000 + 2 * r + 1, depth=depth,
                    time_limit=time_limit, workers=workers, progress=progress, label=f"round {r + 1}: check",
                )  # fmt: skip
                accepted = check.score > 0.5 + margin
            steps.append(PlayStep(r + 1, plus, minus, probe, proposal, check, accepted))
            moved = ", ".join(f"{n} {theta[n]:g} -> {proposal[n]:g}" for n in names)
            say(
                f"round {r + 1}: probe {probe.text()}; proposal {moved}; "
                + (
                    f"check {check.text()} -> {'accepted' if accepted else 'rejected'}"
                    if check
                    else "no change"
                )
            )
            if accepted:
                theta = proposal
            if probe.interrupted or (check is not None and check.interrupted):
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    return PlayTuneReport(
        {n: float(start[n]) for n in FEATURES}, steps, theta, time.perf_counter() - t0, interrupted
    )
