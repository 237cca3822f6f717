"""Nine Men's Morris rule variants: the options on which engines differ, and their text form.

:class:`Variant` holds the options (turn limit, threefold repetition, the no-mill rule, flying);
:data:`STANDARD` is the default rules, :data:`OPENSPIEL` OpenSpiel's ``nine_mens_morris``. The rules
themselves (what the options change) are in :mod:`.rules`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from boardeval.core import MorrisError
from boardeval.core.numbers import parse_int, quote

__all__ = ["MAX_VARIANT_CHARS", "MAX_VARIANT_COUNT", "OPENSPIEL", "STANDARD", "Variant", "VariantError"]


class VariantError(MorrisError):
    """A variant name or option that cannot be read."""


@dataclass(frozen=True)
class Variant:
    """The rule options on which engines differ.

    ``max_turns``: draw once this many turns were played (None: no limit). ``threefold_repetition``: draw
    when a position (board, hands, side to move) occurs for the third time. ``no_mill_turns``: draw after
    this many consecutive turns without a placement or removal (None: off). ``flying``: a side with exactly
    3 men (none in hand) may move a man to any empty point; when False it keeps sliding.

    Text form (:meth:`parse` / :meth:`text`): ``standard`` or ``openspiel``, optionally followed by
    comma-separated overrides, e.g. ``standard,flying=no,max_turns=none,no_mill_turns=50``. Exactly as
    written: lower case, no spaces; counts are ASCII digits without sign or leading zero, 1..1,000,000
    (the shared number reader :func:`~boardeval.core.parse_int`).
    """

    max_turns: int | None = 200
    threefold_repetition: bool = True
    no_mill_turns: int | None = None
    flying: bool = True

    def __post_init__(self) -> None:
        for name in ("max_turns", "no_mill_turns"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise VariantError(f"variant option {name} must be a positive integer or None, got {value!r}")
        for name in ("threefold_repetition", "flying"):
            if not isinstance(getattr(self, name), bool):
                raise VariantError(
                    f"variant option {name} must be true or false, got {getattr(self, name)!r}"
                )

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Read ``standard`` / ``openspiel`` with optional ``,key=value`` overrides (see class docstring).

        Case and padding are not fixed up (``OpenSpiel``, ``standard, flying=no``, ``max_turns=+5``,
        ``max_turns=０５`` are refused): every error quotes the text.
        """
        if not isinstance(text, str) or not text:
            raise VariantError(f"empty variant: expected 'standard' or 'openspiel', got {quote(text)}")
        if len(text) > MAX_VARIANT_CHARS:
            raise VariantError(f"variant {quote(text)} is too long (at most {MAX_VARIANT_CHARS} characters)")
        base, *options = text.split(",")
        if base not in _NAMED_VARIANTS:
            raise VariantError(
                f"unknown variant {quote(base)} in {quote(text)}: expected one of standard, openspiel"
                + _case_hint(base, _NAMED_VARIANTS)
            )
        variant = _NAMED_VARIANTS[base]
        changes: dict[str, object] = {}
        for option in options:
            key, sep, raw = option.partition("=")
            if not sep or key not in _OPTION_KINDS:
                raise VariantError(
                    f"bad variant option {quote(option)} in {quote(text)}: expected key=value with key one "
                    f"of {', '.join(_OPTION_KINDS)} (lower case, no spaces)"
                )
            if key in changes:
                raise VariantError(f"variant option {key} is given twice in {quote(text)}")
            if _OPTION_KINDS[key] == "bool":
                if raw not in _BOOL_WORDS:
                    raise VariantError(
                        f"variant option {key} must be yes/no (or on/off, true/false, 1/0), got {quote(raw)} "
                        f"in {quote(text)}"
                    )
                changes[key] = _BOOL_WORDS[raw]
            elif raw in ("none", "off", "no"):
                changes[key] = None
            else:
                changes[key] = parse_int(
                    raw,
                    f"variant option {key} in {quote(text)} (a count 1..{MAX_VARIANT_COUNT} or none)",
                    lo=1,
                    hi=MAX_VARIANT_COUNT,
                    error=VariantError,
                )
        return dataclasses.replace(variant, **changes)  # type: ignore[arg-type]

    def text(self) -> str:
        """The canonical text form; ``Variant.parse(v.text()) == v``."""
        for name, named in _NAMED_VARIANTS.items():
            if self == named:
                return name
        base = "openspiel" if not self.threefold_repetition else "standard"
        ref = _NAMED_VARIANTS[base]
        parts = [base]
        for key in _OPTION_KINDS:
            value = getattr(self, key)
            if value != getattr(ref, key):
                parts.append(f"{key}={_format_option(value)}")
        return ",".join(parts)

    def __str__(self) -> str:
        return self.text()


MAX_VARIANT_CHARS = 200
"""Longest variant text read (the longest sensible one is about 90 characters)."""
MAX_VARIANT_COUNT = 1_000_000
"""Largest ``max_turns`` / ``no_mill_turns`` read (a real game has a few hundred turns)."""


def _case_hint(word: str, names: Iterable[str]) -> str:
    """``" (lower case: 'openspiel')"`` when ``word`` differs from one of ``names`` only by case or
    surrounding spaces, else ``""``."""
    fixed = word.strip().lower()
    return f" (write {fixed!r}: lower case, no spaces)" if fixed in names and fixed != word else ""


def _format_option(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


_OPTION_KINDS = {"max_turns": "int", "threefold_repetition": "bool", "no_mill_turns": "int", "flying": "bool"}
_BOOL_WORDS = {
    "yes": True,
    "true": True,
    "on": True,
    "1": True,
    "no": False,
    "false": False,
    "off": False,
    "0": False,
}

#: The default rules: 200-turn limit, threefold repetition, flying.
STANDARD = Variant()
#: OpenSpiel's ``nine_mens_morris``: 200-turn limit, no repetition rule, flying.
OPENSPIEL = Variant(max_turns=200, threefold_repetition=False)
_NAMED_VARIANTS = {"standard": STANDARD, "openspiel": OPENSPIEL}
