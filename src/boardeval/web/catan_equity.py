"""Seat equity from the web: ``POST /api/catan/equity`` (issue 26 §3).

Answers the JSON of ``boardeval catan equity --json``: the advisor-in-every-seat draft, each seat's
predicted win rate under the play-fitted model, the spread and why; on a 5-6 player board the draft and
each seat's opening value only, with ``win_probabilities`` ``null`` and the note that catanatron has no
such map. The request model is strict (unknown fields are a 422), like the answer's shape.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from boardeval.catan import Board, seat_equity
from boardeval.web.common import StrictModel, api_router

__all__ = ["router"]

router = api_router(tags=["catan"])


class EquityIn(StrictModel):
    """The board to evaluate (its share code)."""

    board: str = Field(..., min_length=1, max_length=300, description="board share code")


@router.post("/api/catan/equity", summary="Seat equity: each seat's win rate if everyone opens well")
def api_equity(body: EquityIn) -> dict[str, Any]:
    """``boardeval catan equity --json``'s shape (see :func:`boardeval.catan.seat_equity`)."""
    result: dict[str, Any] = seat_equity(Board.parse(body.board)).to_json()
    return result
