"""Morris page and API: play against the AI (or a friend, or watch two AIs), with the why-panel for a move.

The server keeps no game: the page sends the starting position text and the list of turns played so far,
and every answer is recomputed from them (the rules engine replays the turns, checking each one, so an
illegal turn anywhere in the list is refused with its number and the engine's reason).

Endpoints: ``state`` (replay and describe), ``ai`` (the AI's turn and its why-panel), ``why`` (the
why-panel of the side to move's best turn without playing it: the page's "hint" and shared links), and
``evals`` (the analysis score of every position of the game, White's view: the evaluation graph).

One sign convention (issue 23 section 2): every score the page shows is from White's view (+ good for
White, as lichess does); the answers carry ``white_score`` beside the search's own ``score`` (side to
move's view), and a decided line carries a ``verdict`` in words ("White wins in 3") that the page shows
instead of a number. The analysis (the graph and the hint) searches every position so that its horizon
falls on a position with White to move: :data:`ANALYSIS_DEPTH` turns with White to move, one more with
Black to move. A fixed depth for every position puts the horizon on White's turn at one ply and on Black's
at the next, and the static evaluation's side-to-move bias then makes the graph zig-zag every ply (it did
at depth 2, and still does at a fixed depth 6); a fixed horizon parity does not. The hint's best candidate
is, by construction, the graph's value at the same position (the same search: each root turn searched
from a fresh table). Where the opening book holds the position, the hint's move is the book's (the one the
AI plays; issue 25, twenty-ninth session: the hint named the analysis' depth-6 choice, another move in 859
of the book's 1,857 positions, and one that gives a proven draw away in 3 of the 60 where the book can tell,
``benchmarks/morris_hint_book.py``), tagged among the candidates with the book's words; the evaluation stays
the analysis' value of the position, the graph's.

The endgame tablebase (issue 13 section 2): when one is built -- in the folder named by the environment
variable ``BOARDEVAL_TABLEBASE``, else the default folder (``boardeval.morris.default_tablebase_dir``) --
the AI plays its best turn wherever it covers the position and the answer carries its verdict in words
("tablebase: White wins in 7"); without one, the answer says how to build it. ``BOARDEVAL_TABLEBASE=none``
switches it off.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from boardeval import __version__
from boardeval.core import MorrisError
from boardeval.morris import (
    BASE_WEIGHTS,
    BLACK,
    FEATURES,
    POINT_NAMES,
    STRENGTHS,
    WHITE,
    WIN_SCORE,
    AlphaBetaPlayer,
    Position,
    Searcher,
    Variant,
    game_verdict,
    turn_verdict,
    white_view,
    why_panel,
)
from boardeval.web.common import StrictModel, api_router, templates, text_int
from boardeval.web.glossary import morris_terms

if TYPE_CHECKING:
    from boardeval.morris import Book, Tablebase

__all__ = ["router", "tablebase_folder"]

router = api_router(tags=["morris"])

START_TEXT = "........................ w 9 9"
MAX_MOVES = 1000
Strength = Literal["easy", "medium", "hard", "expert"]  # the names of boardeval.morris.STRENGTHS (tested)
VariantName = Literal["standard", "openspiel"]
# who the human plays: one side, both (no AI), or none (AI vs AI)
Mode = Literal["white", "black", "both", "none"]
Speed = Literal["fast", "normal", "slow"]  # AI vs AI: the pause between two turns
ANALYSIS_DEPTH = 6
"""Search depth of the analysis (the evaluation graph and the hint) in a position with White to move; with
Black to move one more, so the horizon is always a position with White to move (see the module docstring).
"""
MAX_EVALS = 10
"""Positions scored per ``evals`` request (tens of ms each on one core); the page asks again from where
the answer stopped, so the graph fills in steps and a changed game stops the work within one answer."""
TABLEBASE_ENV = "BOARDEVAL_TABLEBASE"
"""Environment variable naming the tablebase folder (default: the default folder; ``none``: off)."""
BUILD_COMMAND = "boardeval morris tablebase build --max-men 4"


class GameIn(StrictModel):
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
    analysis: bool = Field(
        False,
        description="(why only) explain the analysis' best turn instead of the AI's at this strength: the "
        "evaluation graph's search (the page's Hint), so its score is the graph's at this position; where "
        "the opening book holds the position, the turn is the book's (the AI's), scored by the analysis",
    )


class Verdict(BaseModel):
    """A decided line in words (from the library's why-panel data), shown instead of a score."""

    result: Literal["win", "loss", "draw"] = Field(description="for the side to move")
    winner: Literal["white", "black"] | None
    turns: int | None = Field(description="turns to the end, counting the turn played (0: already over)")
    source: Literal["rules", "tablebase", "search"] = Field(
        description="rules: the game ends right after the turn; tablebase; search: a win/loss distance"
    )
    text: str = Field(description="for the mover, e.g. 'wins: Black has no legal move after this'")
    headline: str = Field(description="naming the winner, e.g. 'White wins in 3'")


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


class TablebaseInfo(BaseModel):
    """Whether an endgame tablebase is at hand, and its verdict on the position searched."""

    available: bool = Field(description="a built tablebase was found")
    folder: str = Field(description="the folder looked in")
    covers: bool = Field(description="the tablebase holds the position searched")
    verdict: str | None = Field(None, description="in words, e.g. 'tablebase: White wins in 7'")
    note: str = Field(
        description="one sentence for the page: the verdict, what it covers, or how to build one"
    )


class AiAnswer(BaseModel):
    """The AI's turn, its search figures, the why-panel, and the game after it."""

    move: str
    score: float = Field(description="search score of the move, side to move's view (+ good for the mover)")
    white_score: float = Field(description="the same score from White's view (+ good for White): shown")
    verdict: Verdict | None = Field(description="the move's line when decided (then no score is shown)")
    analysis: bool = Field(description="the analysis' best turn (the hint) rather than the AI's")
    pv: list[str]
    nodes: int
    depth: int
    seconds: float = Field(description="seconds the AI's search took (the why-panel is extra)")
    why: dict[str, Any]
    scored: list[str] = Field(
        description="features the AI's score counts (non-zero weight); the others are shown, never scored"
    )
    tablebase: TablebaseInfo
    book: str | None = Field(
        None,
        description="the value with best play of the position before the move as the opening book proves "
        "it, in words ('a draw with best play', 'White wins with best play'); null where it cannot tell",
    )
    state: MorrisState = Field(description="the game after the move (for /why: the position explained)")


class EvalsIn(GameIn):
    """A game and the first position (0 = the start) whose score the page still needs."""

    from_ply: int = Field(0, ge=0, le=MAX_MOVES, description="first position to score (turns played)")


class EvalsAnswer(BaseModel):
    """Scores of the positions ``from_ply`` .. ``from_ply + len(scores) - 1`` of the game, White's view."""

    from_ply: int
    total: int = Field(description="positions in the game (turns + 1)")
    depth: int = Field(description="analysis depth with White to move (with Black to move: one more)")
    depths: list[int] = Field(description="the search depth of each score (0: the game is over)")
    scores: list[float] = Field(
        description="the analysis' best score, White's view (+ good for White); decided: see verdicts"
    )
    verdicts: list[Verdict | None] = Field(
        description="each position's best line when decided, in words (shown instead of its score)"
    )
    book: list[str | None] = Field(
        description="each position's value with best play as the opening book proves it, in words ('a draw "
        "with best play', 'White wins with best play'), where the book holds the position; else null"
    )


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
    colour: Mode = "white",
    variant: VariantName = "standard",
    start: str = Query(START_TEXT, max_length=64, description="starting position text (a set-up position)"),
    ply: Annotated[
        int | None,
        Query(ge=0, le=MAX_MOVES, description="the position shown (turns played)"),
        text_int("ply", 0, MAX_MOVES),
    ] = None,
    why: Annotated[
        int | None,
        Query(ge=0, le=MAX_MOVES, description="show the why-panel of this position"),
        text_int("why", 0, MAX_MOVES),
    ] = None,
    strength: Strength = "medium",
    speed: Speed = "normal",
) -> HTMLResponse:
    """The game page; ``?moves=...&colour=black&variant=openspiel`` resumes a game (the URL follows it).

    ``colour`` is who the human plays: ``white``, ``black``, ``both`` (no AI) or ``none`` (AI vs AI).
    A share link adds ``ply`` (the position shown) and ``why`` (the position whose why-panel is open);
    ``speed`` is the pace of AI vs AI."""
    return templates.TemplateResponse(
        request,
        "morris.html",
        {
            "page": "morris",
            "version": __version__,
            "start": START_TEXT,
            "strengths": list(STRENGTHS),
            "glossary": morris_terms(),
            "initial": {
                "moves": moves,
                "colour": colour,
                "variant": variant,
                "start": start,
                "ply": ply,
                "why": why,
                "strength": strength,
                "speed": speed,
            },
        },
    )


@router.post("/api/morris/state", response_model=MorrisState, summary="Replay a game and describe it")
def morris_state(game: GameIn) -> MorrisState:
    """The position after the turns, whose turn it is, the phase, the result so far and the legal turns."""
    pos, played = _replay(game)
    return _state(game.position.strip(), pos, played)


def tablebase_folder() -> Path | None:
    """The folder the tablebase is looked for in (None: switched off by ``BOARDEVAL_TABLEBASE=none``)."""
    named = os.environ.get(TABLEBASE_ENV, "").strip()
    if named.lower() == "none":
        return None
    if named:
        return Path(named)
    from boardeval.morris import default_tablebase_dir  # the tablebase module loads on first use

    return default_tablebase_dir()


@functools.lru_cache(maxsize=4)
def _open_tablebase(folder: str, stamp: int) -> Tablebase | None:
    """One open tablebase per folder and build (``stamp``: the manifest's mtime); its tables load once."""
    from boardeval.morris import Tablebase, TablebaseError  # numpy and the index tables on first use

    try:
        return Tablebase.open(folder)
    except TablebaseError:
        return None


def _tablebase(folder: Path | None) -> tuple[Tablebase | None, Path | None]:
    """The tablebase built in ``folder`` (or None), and the folder."""
    if folder is None:
        return None, None
    manifest = folder / "manifest.json"
    try:
        stamp = manifest.stat().st_mtime_ns
    except OSError:
        return None, folder
    return _open_tablebase(str(folder), stamp), folder


def _tablebase_info(tb: Tablebase | None, folder: Path | None, why: dict[str, Any]) -> TablebaseInfo:
    """The answer's tablebase part: the why-panel's verdict, what the tablebase covers, or how to build it."""
    where = "" if folder is None else str(folder)
    if tb is None:
        note = (
            f"Endgame tablebase switched off ({TABLEBASE_ENV}=none)."
            if folder is None
            else f"No endgame tablebase in {where}: build one with `{BUILD_COMMAND}` for perfect endgames."
        )
        return TablebaseInfo(available=False, folder=where, covers=False, verdict=None, note=note)
    verdict = why.get("tablebase")
    if verdict is not None:
        text = str(verdict["text"])
        return TablebaseInfo(available=True, folder=where, covers=True, verdict=text, note=text + ".")
    note = (
        f"The endgame tablebase (up to {tb.max_men} men a side, no men in hand) does not cover this position."
    )
    return TablebaseInfo(available=True, folder=where, covers=False, verdict=None, note=note)


def analysis_depth(pos: Position) -> int:
    """The analysis' search depth of ``pos``: its horizon is a position with White to move."""
    return ANALYSIS_DEPTH if pos.side == WHITE else ANALYSIS_DEPTH + 1


def _analysis_book() -> Book | None:
    """The opening book the hint names its move from: the AI's (the shipped one; it holds standard-rules
    positions only, so in another variant no position is found)."""
    from boardeval.morris import default_book  # the book's file is read on first use

    return default_book()


def _think(game: AiIn, play: bool, tb_folder: Path | None) -> AiAnswer:
    """Search the position after the game's turns, explain the best turn, and play it if ``play``.

    With ``game.analysis`` (a hint) the turn is the analysis' best, or the opening book's where the book
    holds the position: the why-panel at :func:`analysis_depth`, whose first candidate is the evaluation
    graph's value here (the same search), and the answer's score is that value. Runs in a search worker
    process (the compiled search holds the GIL for its whole second); the tablebase folder is resolved by
    the server when the request comes (``BOARDEVAL_TABLEBASE`` now)."""
    pos, played = _replay(game)
    ended = game_verdict(pos)
    if ended is not None:
        raise MorrisError(f"the game is over ({ended['headline']}); start a new game")
    tb, folder = _tablebase(tb_folder) if pos.variant.flying else (None, tb_folder)
    t0 = time.perf_counter()
    if game.analysis:
        depth = analysis_depth(pos)
        why = why_panel(pos, game.candidates, depth, tablebase=tb, book=_analysis_book())
        seconds = time.perf_counter() - t0
        best = why["candidates"][0]
        # the position's value is the analysis' (the graph's); the move is the book's where the book holds
        # the position (the AI plays it: deeper, or proven), else the analysis' best among the turns that
        # keep the proven value where the book holds every turn's outcome, else the analysis' best
        flag = "book" if why["book"] is not None else "keeps" if why["proven"] is not None else None
        chosen = best if flag is None else next(c for c in why["candidates"] if c[flag])
        move, score, pv, nodes = chosen["move"], float(best["score"]), list(chosen["pv"]), int(why["nodes"])
        verdict = best["verdict"]
    else:
        # one answer per request, no game clock kept between them: every move gets the strength's time
        ai = AlphaBetaPlayer.at_strength(game.strength, shuffle_ties=False, tablebase=tb, manage_time=False)
        result = ai.search(pos)
        seconds = time.perf_counter() - t0
        # The panel searches its candidates at the depth the AI reached (the library's one rule, capped to
        # stay quick), so its scores are the AI's; among equal scores the two searches may order moves
        # differently.
        why = ai.why(pos, game.candidates, result.depth)
        assert result.move is not None  # the game is not over
        move, score, pv, nodes, depth = (
            str(result.move),
            float(result.score),
            [str(t) for t in result.pv],
            int(result.nodes),
            int(result.depth),
        )
        verdict = turn_verdict(pos, result.move, score, tb)
    info = _tablebase_info(tb, folder, why)
    value = _book_value(_analysis_book(), pos)  # the graph's readout says the same of this position
    side = pos.side
    if play:
        pos.play(move)
        played.append(move)
    return AiAnswer(
        move=move,
        score=score,
        white_score=round(white_view(score, side), 4),
        verdict=None if verdict is None else Verdict(**verdict),
        analysis=game.analysis,
        pv=pv,
        nodes=nodes,
        depth=depth,
        seconds=round(seconds, 4),
        why=why,
        scored=[f for f in FEATURES if BASE_WEIGHTS[f] != 0.0],
        tablebase=info,
        book=value,
        state=_state(game.position.strip(), pos, played),
    )


SEARCH_SECONDS = 60.0
"""Time limit of one AI, why or evals request's work (the expert AI thinks 1 s, its why-panel a little
more; the evaluation graph scores at most 10 positions at the analysis depth, the hint one): past it the
worker is killed, 503."""


async def _in_worker(request: Request, fn: Any, *args: Any) -> Any:
    """Run ``fn(*args)`` on the app's search workers (off the event loop; bounded line; time limit)."""
    return await request.app.state.tasks.run(
        fn, *args, time_limit=SEARCH_SECONDS, disconnected=request.is_disconnected
    )


@router.post("/api/morris/ai", response_model=AiAnswer, summary="The AI's turn with its why-panel")
async def morris_ai(request: Request, game: AiIn) -> AiAnswer:
    """Search the position after the turns, play the best turn, and explain it (raw features only)."""
    if game.analysis:
        raise MorrisError("analysis: only /api/morris/why explains the analysis' turn; the AI plays its own")
    answer: AiAnswer = await _in_worker(request, _think, game, True, tablebase_folder())
    return answer


@router.post("/api/morris/why", response_model=AiAnswer, summary="The best turn here, explained, not played")
async def morris_why(request: Request, game: AiIn) -> AiAnswer:
    """The why-panel of the side to move's best turn at this strength (a shared link to the AI's move), or
    with ``analysis`` the analysis' best turn (the page's hint: the evaluation graph's search); nothing is
    played, so ``state`` is the position explained."""
    answer: AiAnswer = await _in_worker(request, _think, game, False, tablebase_folder())
    return answer


def _over(pos: Position) -> tuple[float, Verdict]:
    """A finished position's graph value (White's view: +-WIN_SCORE, 0 drawn) and its verdict."""
    verdict = game_verdict(pos)
    assert verdict is not None
    winner = verdict["winner"]
    return (0.0 if winner is None else WIN_SCORE if winner == "white" else -WIN_SCORE), Verdict(**verdict)


@router.post("/api/morris/evals", response_model=EvalsAnswer, summary="Scores of the game's positions")
async def morris_evals(request: Request, game: EvalsIn) -> EvalsAnswer:
    """The analysis score of each position of the game from ``from_ply`` on (at most 10 per answer), from
    White's view, for the evaluation graph: the best root turn's score at :func:`analysis_depth` (each
    position from a fresh table, so it is the hint's best candidate there), and its verdict in words when
    the line is decided. A finished position scores ±10000 (won) or 0 (draw), with its verdict."""
    answer: EvalsAnswer = await _in_worker(request, _evals, game, tablebase_folder())
    return answer


def _evals(game: EvalsIn, tb_folder: Path | None) -> EvalsAnswer:
    """The scores of :func:`morris_evals` (in a search worker process)."""
    _replay(game)  # every turn checked first: a bad list is refused before any search
    variant = Variant.parse(game.variant)
    pos = Position.parse(game.position, variant)
    total = len(game.moves) + 1
    if game.from_ply >= total:
        raise MorrisError(f"from_ply {game.from_ply} is past the end of a game of {total} positions")
    for turn in game.moves[: game.from_ply]:
        pos.play(turn)
    tb = _tablebase(tb_folder)[0] if variant.flying else None
    scores: list[float] = []
    depths: list[int] = []
    verdicts: list[Verdict | None] = []
    values: list[str | None] = []
    book = _analysis_book()
    ply = game.from_ply
    while ply < total and len(scores) < MAX_EVALS:
        values.append(_book_value(book, pos))
        verdict: Verdict | None
        if pos.outcome() is not None:
            white, verdict = _over(pos)
            depth = 0
        else:
            depth = analysis_depth(pos)
            best = Searcher(tablebase=tb).top_moves(pos, 1, depth)[0]  # = why_panel's first candidate
            white = white_view(best.score, pos.side)
            decided = turn_verdict(pos, best.move, best.score, tb)
            verdict = None if decided is None else Verdict(**decided)
        scores.append(round(white, 4))
        depths.append(depth)
        verdicts.append(verdict)
        if ply < len(game.moves):
            pos.play(game.moves[ply])
        ply += 1
    return EvalsAnswer(
        from_ply=game.from_ply,
        total=total,
        depth=ANALYSIS_DEPTH,
        depths=depths,
        scores=scores,
        verdicts=verdicts,
        book=values,
    )


def _book_value(book: Book | None, pos: Position) -> str | None:
    """The value of ``pos`` with best play that the opening book proves (its entry's, or the best of every
    turn's outcome where the book holds them all: ``Book.proven_value``), in words naming the winner; None
    where the book cannot tell."""
    value = book.proven_value(pos) if book is not None and pos.outcome() is None else None
    if value is None:
        return None
    mover, other = ("White", "Black") if pos.side == WHITE else ("Black", "White")
    winner = {"win": mover, "loss": other}.get(value)
    return "a draw with best play" if winner is None else f"{winner} wins with best play"
