"""The placing-phase opening book (issue 25 section 1): the early placements searched deeply offline.

The room, by file:

- :mod:`.store` -- :class:`Book` (read a book file, look a position up under the board's 16 symmetries,
  write one) and :class:`BookEntry` (a move with the depth and score it was searched to);
- :mod:`.build` -- :func:`build_book`: the positions of the first plies, each searched to a fixed depth
  through ``boardeval.core``'s job runner (a local pool or Dask), resumable from per-position checkpoints.

The shipped book is ``boardeval/morris/data/opening_book.json`` (:func:`default_book`), made by the command
it records (``boardeval morris book build ...``; ``docs/morris-search.md`` says how). The search asks a book
only through the small interface of ``boardeval.morris._search.opening`` (``probe(position)``).
"""

from boardeval.morris.book.build import MAX_DEPTH as BOOK_MAX_DEPTH
from boardeval.morris.book.build import BookJob, book_positions, build_book, search_position
from boardeval.morris.book.store import BOOK_FORMAT, DEFAULT_BOOK, Book, BookEntry, BookError, default_book

__all__ = [
    "BOOK_FORMAT",
    "BOOK_MAX_DEPTH",
    "DEFAULT_BOOK",
    "Book",
    "BookEntry",
    "BookError",
    "BookJob",
    "book_positions",
    "build_book",
    "default_book",
    "search_position",
]
