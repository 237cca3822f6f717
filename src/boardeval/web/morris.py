"""Morris page and API: play against the AI, with the why-panel for its move.

The server keeps no game: the page sends the starting position text and the list of turns played so far,
and every answer is recomputed from them (the rules engine replays the turns, checking each one, so an
illegal turn anywhere in the list is refused with its number and the engine's reason).
"""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from boardeval import __version__
from boardeval.core import MorrisError
from boardeval.morris import BLACK, POINT_NAMES, STRENGTHS, WHITE, AlphaBetaPlayer, Position, Variant
from boardeval.web.common import templates

__all__ = ["router"]

router = APIRouter(tags=["morris"])

START_TEXT = "........................ w 9 9"
MAX_MOVES = 1000
Strength = Literal["easy", "medium", "hard", "expert"]  # the names of boardeval.morris.STRENGTHS (tested)
VariantName = Literal["standard", "openspiel"]


class GameIn(BaseModel):
    """A game as the page holds it: where it started and the turns played since."""

    position: str = Field(START_TEXT, max_length=64, description="starting position text, e.g. the start")
    moves: list[str] = Field(
        default_factory=list,
        max_length=MAX_MOVES,
        description="turns played from that position, e.g. ['d2', 'f4', 'd1xf4']",
    )
    variant: VariantName = "standard"


class AiIn(GameIn):
    """A game plus the AI's strength and how many candidate moves the why-panel shows."""

    strength: Strength = "medium"
    candidates: int = Field(3, ge=1, le=8, description="candidate moves in the why-panel")


class MorrisState(BaseModel):
    """Everything the page needs to draw the board and know which clicks are legal."""

    start: str
    position: str = Field(description="position text after the turns")
    moves: list[str] = Field(description="the turns, normalised")
    points: list[str] = Field(description="24 entries 'W', 'B' or '.' in point order")
    names: list[str] = Field(description="the 24 point names (a7 d7 g7 ...)")
    side: Literal["white", "black"]
    hand: dict[str, int]
    on_board: dict[str, int]
    phase: str
    outcome: str = Field(description="ongoing | white | black | draw")
    reason: str
    legal: list[str] = Field(description="legal turns for the side to move (empty when the game is over)")


class AiAnswer(BaseModel):
    """The AI's turn, its search figures, the why-panel, and the game after it."""

    move: str
    score: float
    pv: list[str]
    nodes: int
    depth: int
    seconds: float = Field(description="seconds the AI's search took (the why-panel is extra)")
    why: dict[str, Any]
    state: MorrisState


def _replay(game: GameIn) -> tuple[Position, list[str]]:
    """The position after the game's turns and the turns in normal form (each turn checked)."""
    pos = Position.from_moves(game.moves, Variant.parse(game.variant), start=game.position)
    return pos, [str(t) for t in pos.history]


def _state(start: str, pos: Position, moves: list[str]) -> MorrisState:
    text = pos.text()
    outcome = pos.outcome()
    return MorrisState(
        start=start,
        position=text,
        moves=moves,
        points=list(text.split()[0]),
        names=list(POINT_NAMES),
        side="white" if pos.side == WHITE else "black",
        hand={"white": pos.hand[WHITE], "black": pos.hand[BLACK]},
        on_board={"white": pos.on_board(WHITE), "black": pos.on_board(BLACK)},
        phase=pos.phase(),
        outcome="ongoing" if outcome is None else outcome.result,
        reason="" if outcome is None else outcome.reason,
        legal=[] if outcome is not None else sorted(str(t) for t in pos.legal_turns()),
    )


@router.get("/morris", response_class=HTMLResponse, include_in_schema=False)
def morris_page(
    request: Request,
    moves: str = Query("", max_length=6000, description="turns played so far, space separated"),
    colour: Literal["white", "black"] = "white",
    variant: VariantName = "standard",
) -> HTMLResponse:
    """The game page; ``?moves=...&colour=black&variant=openspiel`` resumes a game (the URL follows it)."""
    return templates.TemplateResponse(
        request,
        "morris.html",
        {
            "page": "morris",
            "version": __version__,
            "start": START_TEXT,
            "strengths": list(STRENGTHS),
            "initial": {"moves": moves, "colour": colour, "variant": variant},
        },
    )


@router.post("/api/morris/state", response_model=MorrisState, summary="Replay a game and describe it")
def morris_state(game: GameIn) -> MorrisState:
    """The position after the turns, whose turn it is, the phase, the result so far and the legal turns."""
    pos, played = _replay(game)
    return _state(game.position.strip(), pos, played)


@router.post("/api/morris/ai", response_model=AiAnswer, summary="The AI's turn with its why-panel")
def morris_ai(game: AiIn) -> AiAnswer:
    """Search the position after the turns, play the best turn, and explain it (raw features only)."""
    pos, played = _replay(game)
    outcome = pos.outcome()
    if outcome is not None:
        raise MorrisError(f"the game is over ({outcome.result}: {outcome.reason}); start a new game")
    ai = AlphaBetaPlayer.at_strength(game.strength, shuffle_ties=False)
    t0 = time.perf_counter()
    result = ai.search(pos)
    seconds = time.perf_counter() - t0
    # The panel searches its candidates at the depth the AI reached (the library's one rule, capped to stay
    # quick), so its scores are the AI's; among equal scores the two searches may order moves differently.
    why = ai.why(pos, game.candidates, result.depth)
    move = str(result.move)
    pos.play(move)
    played.append(move)
    return AiAnswer(
        move=move,
        score=float(result.score),
        pv=[str(t) for t in result.pv],
        nodes=int(result.nodes),
        depth=int(result.depth),
        seconds=round(seconds, 4),
        why=why,
        state=_state(game.position.strip(), pos, played),
    )
