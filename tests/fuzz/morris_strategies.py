"""Hypothesis strategies for Nine Men's Morris inputs: positions, turns, move lists, variants.

Valid inputs come from short random games (a drawn sequence of legal turns from the start), so positions
cover all phases and move lists are legal; each strategy then perhaps breaks its input (the shared
mutations of :mod:`tests.fuzz.strategies`, plus the separators and spellings of issue 17: tabs, newlines,
runs of spaces, commas, odd hands and counts).
"""

from __future__ import annotations

from hypothesis import strategies as st

from boardeval.morris import POINT_NAMES, Position, Turn
from tests.fuzz.strategies import ODD_CHARS, mutated_text, odd_numbers

WHITESPACE = [" ", "\t", "\n", "\r\n", "  ", "\u00a0", "\u3000"]


@st.composite
def games(draw: st.DrawFn, max_turns: int = 40) -> list[Turn]:
    """The turns of a random game from the start (each a legal turn, chosen by a drawn index)."""
    pos = Position.start()
    played: list[Turn] = []
    for _ in range(draw(st.integers(0, max_turns))):
        legal = pos.legal_turns()
        if not legal or pos.is_over():
            break
        turn = legal[draw(st.integers(0, len(legal) - 1))]
        pos.push(turn)
        played.append(turn)
    return played


@st.composite
def valid_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random game."""
    pos = Position.start()
    for turn in draw(games()):
        pos.push(turn)
    return pos


@st.composite
def position_texts(draw: st.DrawFn) -> str:
    """Position text: valid, with outer whitespace, with other separators, odd hands, or mutated."""
    text = draw(valid_positions()).text()
    kind = draw(st.sampled_from(["valid", "outer", "separator", "hand", "mutated", "mutated", "text"]))
    if kind == "valid":
        return text
    if kind == "outer":
        pad = st.sampled_from(["", " ", "\t", "\n", "\r\n", "\u00a0"])
        return draw(pad) + text + draw(pad)
    fields = text.split(" ")
    if kind == "separator":  # issue 17: tabs, newlines, runs of spaces between the fields
        k = draw(st.integers(1, 3))
        return " ".join(fields[:k]) + draw(st.sampled_from(WHITESPACE)) + " ".join(fields[k:])
    if kind == "hand":
        fields[draw(st.sampled_from([2, 3]))] = draw(odd_numbers())
        return " ".join(fields)
    if kind == "mutated":
        return draw(mutated_text(text))
    return draw(st.text(alphabet=ODD_CHARS, max_size=40))


def _turn_texts() -> st.SearchStrategy[str]:
    places = st.sampled_from(POINT_NAMES)
    return st.one_of(
        places,
        st.builds(lambda a, b: f"{a}-{b}", places, places),
        st.builds(lambda a, b: f"{a}x{b}", places, places),
        st.builds(lambda a, b, c: f"{a}-{b}x{c}", places, places, places),
    )


@st.composite
def turn_texts(draw: st.DrawFn) -> str:
    """Turn text: well-formed (any points), upper case, padded, mutated, or random."""
    text = draw(_turn_texts())
    kind = draw(st.sampled_from(["valid", "upper", "outer", "mutated", "mutated", "text"]))
    if kind == "valid":
        return text
    if kind == "upper":
        return text.upper()
    if kind == "outer":
        return draw(st.sampled_from(WHITESPACE)) + text + draw(st.sampled_from(["", "\n", " ", "\t"]))
    if kind == "mutated":
        return draw(mutated_text(text))
    return draw(st.text(alphabet=ODD_CHARS, max_size=12))


@st.composite
def move_lists(draw: st.DrawFn) -> str:
    """A move-list text: a legal game's turns joined by whitespace, commas or other separators, perhaps
    mutated (an illegal turn, a broken one)."""
    turns = [str(t) for t in draw(games(max_turns=30))]
    sep = draw(st.sampled_from([" ", " ", "\n", "\t", "  ", ",", ", ", ";", "\u00a0"]))
    text = sep.join(turns)
    if draw(st.booleans()):
        text = draw(mutated_text(text, max_ops=2))
    return text


VARIANT_OPTIONS = [
    "max_turns=none",
    "max_turns=50",
    "max_turns=off",
    "no_mill_turns=30",
    "no_mill_turns=none",
    "flying=no",
    "flying=yes",
    "flying=on",
    "threefold_repetition=false",
    "threefold_repetition=1",
]


@st.composite
def variant_texts(draw: st.DrawFn) -> str:
    """A variant text: a base and some options, with odd counts, case or padding, or mutated."""
    parts = [draw(st.sampled_from(["standard", "openspiel"]))]
    parts += draw(st.lists(st.sampled_from(VARIANT_OPTIONS), max_size=3, unique=True))
    kind = draw(st.sampled_from(["valid", "count", "case", "mutated", "mutated", "text"]))
    if kind == "count":
        parts.append(draw(st.sampled_from(["max_turns=", "no_mill_turns="])) + draw(odd_numbers()))
    text = ",".join(parts)
    if kind == "case":
        return draw(st.sampled_from([text.upper(), text.title(), text.replace(",", ", "), " " + text]))
    if kind == "mutated":
        return draw(mutated_text(text))
    if kind == "text":
        return draw(st.text(alphabet=ODD_CHARS, max_size=30))
    return text
