"""Hypothesis strategies for Catan inputs (share codes, rules), shared by the library and CLI fuzz tests."""

from __future__ import annotations

from hypothesis import strategies as st

from boardeval.catan import Board
from boardeval.catan.constraints import RULES
from tests.fuzz.strategies import ODD_CHARS, mutated_text, odd_numbers

boards = st.integers(0, 2**32 - 1).map(Board.random)


@st.composite
def share_codes(draw: st.DrawFn) -> str:
    base = draw(boards).code()
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "mutated", "cells", "text"]))
    if kind == "valid":
        return base
    if kind == "mutated":
        return draw(mutated_text(base))
    if kind == "cells":  # a valid code with one number spelled oddly (1_2, +12, full-width digits ...)
        cells = base.split("-")
        k = draw(st.integers(0, len(cells) - 1))
        cells[k] = cells[k][0] + draw(odd_numbers())
        return "-".join(cells)
    return draw(st.text(alphabet=ODD_CHARS, max_size=80))


VALID_RULES = [
    "no-same-resource-neighbours",
    "no-68-neighbours",
    "no-equal-number-neighbours",
    "2-12-apart",
    "wood-brick-apart",
    "68-different-resources",
    "max-spot-pips=12",
    "min-spot-pips=6",
    "max-cluster=2",
    "desert=any",
    "desert=centre",
    "desert=coast",
    "resource-pips-band=9..14",
    "no-port-own-resource",
    "port-min-pips=5",
]
assert {r.partition("=")[0] for r in VALID_RULES} == set(RULES)


@st.composite
def rule_texts(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from(VALID_RULES))
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "number", "case"]))
    if kind == "valid":
        return base
    if kind == "mutated":
        return draw(mutated_text(base))
    if kind == "number":
        name = base.partition("=")[0]
        return f"{name}={draw(odd_numbers())}"
    return draw(
        st.sampled_from(
            [
                base.upper(),
                base.title(),
                f" {base}",
                f"{base}\r",
                base.replace("=", "\r="),
                "desert=center",
                "desert=CENTRE",
            ]
        )
    )
