"""Play-testing a Catan board from the web: ``POST /api/jobs/catan/playtest``, ``POST /api/catan/advise``.

A play-test runs as a background job (like generation: progress, cancel) because even a few hundred
catanatron games take seconds to minutes. Its result is the JSON of ``boardeval catan playtest --json``,
plus what the page draws: the mean game length's interval, whether the job was cancelled (the finished
games are kept and flagged ``interrupted``), and the advisor's picks: where the opening advisor settled in
the games played (spot, how often) and the evaluator-rule advice for an empty board. ``/api/catan/advise``
returns the JSON of ``boardeval catan advise --json``.

Game counts are bounded (:data:`MAX_GAMES` games played per job, seatings included) so one request cannot
occupy the server for hours; games run in the job's thread (one core), never on a process pool. Play-tests
are base-board only: catanatron has no 5-6 player map, and the error says so.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from fastapi import Request
from pydantic import Field

from boardeval.catan import Board, PlaytestResult, advise, run_playtest
from boardeval.core import CatanError, Progress
from boardeval.web.catan import MAX_SEED
from boardeval.web.common import StrictModel, api_router
from boardeval.web.jobs import JobFn
from boardeval.web.jobs_api import JobView, job_route, submit

__all__ = ["MAX_GAMES", "router"]

router = api_router(tags=["catan"])

MAX_GAMES = 2000
"""Most games one play-test job may play (``games`` x seats with ``rotate``)."""

PlayerName = Literal["advisor", "pips", "weighted", "random", "vp"]
DEFAULT_LINEUP: tuple[PlayerName, ...] = ("advisor", "weighted", "weighted", "weighted")


class PlaytestIn(StrictModel):
    """What the play-test panel sends (the CLI's options)."""

    board: str = Field(..., min_length=1, max_length=200, description="board share code")
    games: int = Field(25, ge=1, le=MAX_GAMES, description="game seeds (x seats with rotate)")
    players: list[PlayerName] = Field(
        default_factory=lambda: list(DEFAULT_LINEUP),
        min_length=2,
        max_length=4,
        description="players in seat order (seat 1 places first)",
    )
    rotate: bool = Field(True, description="play every game seed in every seating")
    seed: int = Field(0, ge=0, le=MAX_SEED)


class AdviseIn(StrictModel):
    """A board and the opening settlements placed so far (snake order 1-2-3-4-4-3-2-1)."""

    board: str = Field(..., min_length=1, max_length=200, description="board share code")
    taken: list[int] = Field(default_factory=list, max_length=7, description="spots settled so far, in order")


def _advisor_picks(result: PlaytestResult, players: list[str]) -> list[dict[str, Any]]:
    """Where the listed advisor players settled in the games played: spot, count, share of picks."""
    advisors = {k for k, name in enumerate(players) if name == "advisor"}
    counts: Counter[int] = Counter()
    for record in result.records:
        for seat, spots in enumerate(record.openings):
            if record.seating[seat] in advisors:
                counts.update(spots)
    total = sum(counts.values())
    return [
        {"spot": spot, "count": n, "share": n / total}
        for spot, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _playtest_job(body: PlaytestIn) -> JobFn:
    board = Board.parse(body.board)  # a bad code fails now, as a 422
    played = body.games * (len(body.players) if body.rotate else 1)
    if played > MAX_GAMES:
        raise CatanError(
            f"{body.games} games x {len(body.players)} seatings = {played} games: at most {MAX_GAMES} per "
            "play-test here (use the CLI for more)"
        )
    advice = advise(board)  # also refuses a board catanatron cannot play (5-6 players)

    def run(progress: Progress) -> dict[str, Any]:
        result = run_playtest(
            board, body.players, games=body.games, seed=body.seed, rotate=body.rotate, progress=progress
        )
        out = result.to_json()
        mean = result.turns_interval
        out.update(
            listed=list(body.players),
            rotate=body.rotate,
            seed=body.seed,
            planned=result.planned,
            interrupted=result.interrupted,
            turns_ci95=None if mean is None else mean.to_list(),
            games_per_second=result.games_per_second,
            advisor_picks=_advisor_picks(result, list(body.players)),
            advice={"spot": advice.spot, "score": advice.score},
        )
        return out

    return run


@job_route(router, "/api/jobs/catan/playtest", "Play-test a board in the background (catanatron games)")
def api_playtest(request: Request, body: PlaytestIn) -> JobView:
    """Returns a job; poll ``GET /api/jobs/{id}``. The result is ``boardeval catan playtest --json``'s
    shape plus ``turns_ci95``, ``interrupted``, ``planned`` and ``advisor_picks``; cancelling keeps the
    finished games."""
    return submit(request, "catan.playtest", _playtest_job(body))


@router.post("/api/catan/advise", summary="The opening advisor's best next settlement, and why")
def api_advise(body: AdviseIn) -> dict[str, Any]:
    """``boardeval catan advise --json``'s shape: seat to move, spot, score, the rule's breakdown, the
    evaluator's breakdown of the spot and the next five spots."""
    result: dict[str, Any] = advise(Board.parse(body.board), tuple(body.taken)).to_json()
    return result
