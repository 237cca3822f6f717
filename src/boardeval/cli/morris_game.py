"""``boardeval morris play``: a game against the AI in the terminal.

The game is two :class:`~boardeval.core.Player` objects: the library's ``AlphaBetaPlayer`` and a
``HumanPlayer`` whose input comes from :class:`TerminalSession.read`, which also handles the session
commands (``why``, ``undo``, ``quit``) and the end of input.
"""

from __future__ import annotations

import sys

from rich.markup import escape

from boardeval.cli.common import console, err_console
from boardeval.cli.morris_render import print_board, print_why
from boardeval.morris import AlphaBetaPlayer, HumanPlayer, Position, game_verdict, turn_verdict, white_view

__all__ = ["COLOURS", "TerminalSession"]

COLOURS = ("white", "black")


class _Undo(Exception):
    """The person asked to take back their last turn (and the AI's reply)."""


class _Leave(Exception):
    """The session ends before the game does (``quit`` or end of input); the message says goodbye."""


class TerminalSession:
    """One game in the terminal: the board, the person's commands, undo history, the AI's replies."""

    def __init__(self, pos: Position, ai: AlphaBetaPlayer, human_side: int) -> None:
        self.pos = pos
        self.ai = ai
        self.human_side = human_side
        self.human = HumanPlayer(self.read, on_error=self._error, name="you")
        self._undo_marks: list[int] = []  # turn counter before each of the person's turns

    def run(self) -> None:
        """Play until the game ends, the person quits, or the input ends."""
        from boardeval.core import make_rng  # numpy when a game starts, not at CLI start-up

        rng = make_rng(0)  # neither player draws from it: the AI breaks ties by its move ordering
        console.print(
            f"You play {COLOURS[self.human_side]}. Commands: a turn (d2, a1-a4, d2xg7), why, undo, quit."
        )
        while (outcome := self.pos.outcome()) is None:
            if self.pos.side != self.human_side:
                self._ai_turn()
                continue
            try:
                turn = self.human.choose(self.pos, rng)
            except _Undo:
                self._undo()
                continue
            except _Leave as leave:
                console.print(str(leave))
                return
            self._undo_marks.append(self.pos.turns)
            self.pos.play(turn)
        print_board(self.pos)
        # who won and why, in the words of `morris eval`/`best` ("White has won: Black has no legal move"),
        # and which of the two players that is (the web page's "You win" / "The AI wins")
        ended = game_verdict(self.pos)
        assert ended is not None  # the loop above ended on the game's outcome
        who = (
            ""
            if outcome.winner is None
            else " You win."
            if outcome.winner == self.human_side
            else " The AI wins."
        )
        console.print(f"game over: {escape(ended['headline'])}.{who}")

    def read(self, pos: Position) -> str:
        """The person's next turn text; answers ``why`` itself, raises for ``undo`` and leaving."""
        while True:
            print_board(pos)
            console.print(f"your turn ({COLOURS[self.human_side]}): ", end="")
            line = sys.stdin.readline()
            if not line:
                raise _Leave("\nend of input: game abandoned")
            cmd = line.strip()
            if not sys.stdin.isatty():
                console.print(escape(cmd))  # echo piped input so the transcript reads like a session
            low = cmd.lower()
            if not cmd:
                continue
            if low in ("quit", "exit", "q"):
                raise _Leave("bye")
            if low == "why":
                print_why(self.ai.why(pos, 3))
            elif low == "undo":
                if self._undo_marks:
                    raise _Undo
                self._error("nothing to undo")
            else:
                return cmd

    def _ai_turn(self) -> None:
        result = self.ai.search(self.pos)
        assert result.move is not None  # the game is not over
        words = turn_verdict(self.pos, result.move, result.score, self.ai.tablebase)
        value = (
            words["headline"]
            if words is not None
            else f"{white_view(result.score, self.pos.side):+.2f}, White's view"
        )
        if result.book:  # played without a search: say so (`why` shows the book's words and its line)
            value += "; opening book"
        self.pos.play(result.move)
        console.print(f"AI plays [bold]{result.move}[/bold] ({escape(value)})")

    def _undo(self) -> None:
        target = self._undo_marks.pop()
        while self.pos.turns > target:
            self.pos.pop()
        console.print("undone")

    @staticmethod
    def _error(message: str) -> None:
        err_console.print(f"[red]error: {escape(message)}[/red]")
