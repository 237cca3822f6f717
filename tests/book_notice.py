"""After the test run (``make test``): say so when the shipped opening book is stale.

The suite does not fail on a stale book (docs/morris-search.md, *The opening book*): a change to the search's
code, its options or the weights makes every book answer say "by another version of the search" until the
book is made again (~11 minutes of a core), and a run that fails for that would block every small fix to the
search. But the twentieth session's change left it stale for a whole session without anyone noticing; this
line in the CI log is the reminder. Prints nothing when the book is current.
"""

from __future__ import annotations

import boardeval.morris.book.build  # noqa: F401  (registers the search key the book is compared with)
from boardeval.morris.book import default_book


def main() -> int:
    """Print a notice naming the rebuild command if the shipped book is stale; 0 either way."""
    book = default_book()
    if book is not None and book.rebuild:
        print(
            "NOTICE: the shipped Morris opening book is stale (searched by another version of the search); "
            f"make it again with `{book.rebuild}` and commit src/boardeval/morris/data/ "
            "(docs/morris-search.md)."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
