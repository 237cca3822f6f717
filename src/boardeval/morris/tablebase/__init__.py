"""Endgame tablebase of the moving/flying phases, computed here by retrograde analysis (spec section 4).

The room, by file:

- :mod:`.index` -- the board's 16 symmetries, colex ranks and the symmetry-reduced rows (where a position
  is stored);
- :mod:`.files` -- the folder on disk: manifest, one ``.npy`` per sub-database, checksums, the byte code;
- :mod:`.retrograde` -- the compiled retrograde analysis of one pair of sub-databases (numba);
- :mod:`.build` -- :func:`build_tablebase`: sub-databases in dependency order, solved, stored;
- :mod:`.probe` -- :class:`Tablebase`: open a folder, look a position up, rate every turn;
- :mod:`.plain` -- a second, plain solver and checks written differently, for the tests.

Usage::

    build_tablebase(4, progress=cb)            # 3v3, 4v3 + 3v4, 4v4 (built in that order)
    tb = Tablebase.open()
    tb.probe(Position.parse("WWW.......BBB........... w 0 0"))   # TBResult(value, distance, turns)

The tablebase knows the rules (:mod:`boardeval.morris.rules`) and nothing above them; the search asks it
through the small interface of ``boardeval.morris._search.endgame``. Importing this package needs numpy;
``import boardeval.morris`` loads it on first use only.
"""

from boardeval.morris.tablebase.build import BuildReport, build_tablebase, subdatabase_pairs
from boardeval.morris.tablebase.files import (
    MAX_MEN,
    MissingTablebaseError,
    TablebaseError,
    TablebaseRangeError,
    TBValue,
    default_tablebase_dir,
)
from boardeval.morris.tablebase.probe import Tablebase, TBResult, TBTurn

__all__ = [
    "MAX_MEN",
    "BuildReport",
    "MissingTablebaseError",
    "TBResult",
    "TBTurn",
    "TBValue",
    "Tablebase",
    "TablebaseError",
    "TablebaseRangeError",
    "build_tablebase",
    "default_tablebase_dir",
    "subdatabase_pairs",
]
