"""The error hierarchy: every user-input problem is a :class:`BoardevalError`.

Front ends rely on this: the CLI prints one red line and exits 2, the web app answers 422. Messages quote
the offending input so a person can fix it without reading code.
"""

from __future__ import annotations

__all__ = [
    "BoardevalError",
    "CatanError",
    "DiplomacyError",
    "InfeasibleError",
    "MorrisError",
    "ParamsError",
]


class BoardevalError(ValueError):
    """Base of every error caused by bad input (a board code, a move, a file, a parameter)."""


class ParamsError(BoardevalError):
    """A parameter or weight file (or value) is malformed: wrong keys, lengths, non-finite numbers..."""


class CatanError(BoardevalError):
    """Bad Catan input: a malformed share code or board file, an unknown rule, an invalid spot..."""


class InfeasibleError(CatanError):
    """A set of board constraints that no board can satisfy."""


class MorrisError(BoardevalError):
    """Bad Nine Men's Morris input: an invalid position text or an illegal move."""


class DiplomacyError(BoardevalError):
    """Bad Diplomacy input: a broken game record, an unknown power, province or map."""
