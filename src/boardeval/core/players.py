"""The ``Player`` protocol every game's agents implement (OpenSpiel's game/algorithm split).

A player is an algorithm, not part of the game: it is handed a state and a random generator and returns
an action. It keeps no global state and draws every random choice from the generator it is given, so the
same seed replays the same game whatever runs it (serially, on a process pool, or on a Dask cluster)::

    rng = make_rng(seed)
    while not state.is_over():
        player = players[state.to_move]
        state = state.play(player.choose(state, rng))

``S`` (state) and ``A`` (action) are the game's own types: a Morris ``Position`` and ``Turn``, a
catanatron ``Game`` and action, a Diplomacy game and its orders. A player that keeps memory between its own
moves (a search's transposition table, say) clears it in :meth:`Player.new_game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:  # annotations only: importing the protocol does not import numpy
    import numpy as np

__all__ = ["Player"]

S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


@runtime_checkable
class Player(Protocol[S_contra, A_co]):
    """An agent that chooses an action in a state, drawing randomness only from ``rng``."""

    @property
    def name(self) -> str:
        """A short name for tables and logs; parsing it back gives an equal player where the game can."""
        ...

    def choose(self, state: S_contra, rng: np.random.Generator) -> A_co:
        """The action this player takes in ``state`` (which must not be finished)."""
        ...

    def new_game(self) -> None:
        """Forget anything remembered from a previous game (called before each game starts)."""
        ...
