"""The Morris search room (private: ``boardeval.morris.search`` is the public function), by file:

- :mod:`.searcher` -- :class:`~.searcher.Searcher`, ``search``, ``top_moves``: the search the library,
  players and why-panel use, over either engine;
- :mod:`.reference` -- the Python alpha-beta, the reference the compiled search is checked against;
- :mod:`.compiled` -- the compiled (numba) engine: move generation, evaluation, principal-variation search;
- :mod:`.endgame` -- the small interface through which the search asks an endgame tablebase;
- :mod:`.plain` -- plain fixed-depth alpha-beta and seeded random play;
- :mod:`.opening` -- the small interface through which the search asks an opening book (asked at the root
  before the search, as python-chess reads ``chess.polyglot``);
- :mod:`.clock` -- time use over a game.

Importing the room stays light: numba loads when a compiled search is first built.
"""
