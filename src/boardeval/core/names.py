"""The one rule for names typed by a person: exact, as listed; a near miss is named, never fixed up.

A *name* here is a word picked from a fixed list: a player (``weighted``), a strength (``expert``), a
measure (``tempi``), a power (``AUSTRIA``), a bot (``dumb``), a parameter set (``default``), a colour.
Every such name is matched **case-exact**, with no padding and no ``-`` for ``_``: ``WEIGHTED``,
``Expert``, ``TEMPI``, ``austria``, `` dumb``, ``stab-potential`` are refused (issue 24: before, some
options folded case and others did not). The error quotes the input and names the spelling meant when the
input differs from it only in case, padding or ``-``/``_`` (or is a close misspelling), then lists the
names::

    unknown measure 'TEMPI': did you mean 'tempi'? (names are written exactly as listed: lower case);
    choose from game_progress, ...

Notation is not a name: Morris point names (``D2``, read like a chess square) keep their documented
case-insensitive reading (docs/reliability.md).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from boardeval.core.errors import BoardevalError, ParamsError
from boardeval.core.numbers import quote

__all__ = ["near_name", "pick_name"]


def _fold(text: str) -> str:
    return text.strip().casefold().replace("-", "_")


def near_name(text: object, names: Iterable[str]) -> str | None:
    """The name of ``names`` that ``text`` nearly spells (case, padding, ``-``/``_``, or a close
    misspelling), or None. Never an exact match's job: call it only after the exact look-up failed."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    listed = list(names)
    folded = {_fold(n): n for n in listed}
    if _fold(text) in folded:
        return folded[_fold(text)]
    close = difflib.get_close_matches(_fold(text), list(folded), n=1, cutoff=0.8)
    return folded[close[0]] if close else None


def _case_word(name: str) -> str:
    if name.isupper():
        return "upper case"
    if name.islower() or not any(c.isalpha() for c in name):
        return "lower case"
    return "as listed"


def pick_name(
    text: object,
    names: Iterable[str],
    what: str,
    *,
    error: type[BoardevalError] = ParamsError,
) -> str:
    """``text`` if it is one of ``names`` exactly; otherwise ``error`` quoting it, naming the near miss,
    and listing the names (``what`` is the kind of name, e.g. ``"measure"``)."""
    listed = list(names)
    if isinstance(text, str) and text in listed:
        return text
    near = near_name(text, listed)
    hint = ""
    if near is not None:
        hint = f": did you mean {near!r}? (names are written exactly as listed: {_case_word(near)})"
    raise error(f"unknown {what} {quote(text)}{hint}; choose from {', '.join(listed)}")
