"""Position builders shared by the Morris tests (plain functions, imported as ``tests.morris.helpers``)."""

from __future__ import annotations

import random

from boardeval.morris import random_position
from boardeval.morris.board import POINT_NAMES, point_index
from boardeval.morris.rules import BLACK, OPENSPIEL, STANDARD, WHITE, Position, Variant


def board(white: str = "", black: str = "") -> str:
    """24-char board text from space-separated point names."""
    cells = ["."] * 24
    for name in white.split():
        cells[point_index(name)] = "W"
    for name in black.split():
        cells[point_index(name)] = "B"
    return "".join(cells)


def make(
    white: str = "",
    black: str = "",
    side: str = "w",
    hands: tuple[int, int] = (0, 0),
    variant: Variant = STANDARD,
) -> Position:
    """A position from space-separated point names of each side (e.g. ``make("a7 d7", "g1 d1 a1")``)."""
    cells = ["."] * len(POINT_NAMES)
    for name in white.split():
        cells[point_index(name)] = "W"
    for name in black.split():
        assert cells[point_index(name)] == ".", name
        cells[point_index(name)] = "B"
    return Position.parse(f"{''.join(cells)} {side} {hands[0]} {hands[1]}", variant)


def swapped(pos: Position) -> Position:
    """The colour-swapped position: White's men and hand become Black's and vice versa, other side to move.

    Built through the text form (fully validated) when both hands are empty. In the placing phase the
    mirror image is not a position the rules accept (White always places first, so with Black to move
    Black has one man more in hand), so it is built as a copy whose fields are swapped directly; the
    evaluation only reads men, hands, side and variant.
    """
    board, side, wh, bh = pos.text().split()[:4]
    if wh == bh == "0":
        board = board.translate(str.maketrans("WB", "BW"))
        return Position.parse(f"{board} {'b' if side == 'w' else 'w'} {bh} {wh}", pos.variant)
    q = pos.copy()
    q.men = [pos.men[BLACK], pos.men[WHITE]]
    q.hand = [pos.hand[BLACK], pos.hand[WHITE]]
    q.side = 1 - pos.side
    return q


def random_positions(count: int, seed: int = 7, max_turns: int = 80) -> list[Position]:
    """``count`` reproducible positions from random games of varied length (all phases)."""
    out = []
    for i in range(count):
        pos = random_position(seed * 1000 + i, (i * 7919) % max_turns)
        if not pos.is_over():
            out.append(pos)
    return out


def random_walk(seed: int, variant: Variant = OPENSPIEL, max_turns: int = 150) -> list[Position]:
    """Positions along a seeded random game (copies), mills preferred to reach all phases."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    out = [pos.copy()]
    for _ in range(max_turns):
        turns = pos.legal_turns()
        if not turns:
            break
        mills = [t for t in turns if t.remove is not None]
        pos.push(rng.choice(mills if mills and rng.random() < 0.5 else turns))
        out.append(pos.copy())
    return out
