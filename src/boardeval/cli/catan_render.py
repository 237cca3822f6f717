"""A Rich renderable of a Catan board for the terminal (``boardeval catan show``): CLI presentation.

Hexes are drawn as coloured cells in their staggered rows (3-4-5-4-3; 3-4-5-6-5-4-3 on the 5-6 player
board, whose topology the board carries), each with the resource letter
and number (6 and 8 in red); the ports follow as a line per slot with the two spots they serve::

        O10   S2   W9
      G12   B6   S4  B10
     ...
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from boardeval.catan import RESOURCE_NAMES, Board

__all__ = ["board_renderable"]

_STYLE: dict[str, str] = {
    "W": "bold white on #2e6b38",
    "B": "bold white on #b0512d",
    "S": "bold black on #a6d16f",
    "G": "bold black on #e8bd2f",
    "O": "bold white on #6f7889",
    "D": "black on #e8d5a6",
}
_CELL = 7  # characters per hex cell


def board_renderable(board: Board) -> Group:
    """The board as Rich text: staggered rows of coloured hexes, then the ports."""
    topo = board.topology
    rows: dict[int, list[int]] = {}
    for h, cube in enumerate(topo.hex_cubes):
        rows.setdefault(cube[2], []).append(h)
    widest = max(len(r) for r in rows.values())
    lines: list[Text] = []
    for z in sorted(rows):
        hexes = rows[z]
        line = Text(" " * ((widest - len(hexes)) * (_CELL + 1) // 2))
        for h in hexes:
            res, num = board.resources[h], board.numbers[h]
            label = res if num is None else f"{res}{num}"
            style = _STYLE[res]
            if num in (6, 8):
                style = style.replace("bold white", "bold #ffd0d0").replace("bold black", "bold #b00000")
            line.append(label.center(_CELL), style=style)
            line.append(" ")
        lines.append(line)
        ids = Text(" " * ((widest - len(hexes)) * (_CELL + 1) // 2), style="dim")
        for h in hexes:
            ids.append(f"#{h}".center(_CELL) + " ", style="dim")
        lines.append(ids)
    if board.layout != "base":
        lines.append(Text(f"layout: {board.layout} ({board.spec.title})", style="dim"))
    ports = Text("ports: ")
    for slot, kind in enumerate(board.ports):
        name = "3:1" if kind == "3" else f"2:1 {RESOURCE_NAMES[kind]}"
        a, b = topo.port_spots[slot]
        style = "bold" if kind == "3" else _STYLE[kind]
        ports.append(f"{slot}:", style="dim")
        ports.append(f" {name} ", style=style)
        ports.append(f" ({a},{b})  ", style="dim")
    lines.append(ports)
    return Group(*lines)
