"""What the web app's worker fork server imports before it forks any worker (``boardeval.web.workers``).

Everything a task may need is loaded here once, so that a new worker (a fork) starts in milliseconds and
shares these pages with its siblings: numpy, the compiled Morris search (numba's cached machine code,
loaded by one tiny search), the Catan generators and play-tests, the Diplomacy engine (its shipped
convoy tables), pandas and matplotlib (tables and charts). And the rule of the server: no Diplomacy map's
convoy-path table is built in a worker (``forbid_convoy_builds``: minutes to an hour, gigabytes; the web
never needs one, and a drawing of a map without it is refused first). The fork server itself exits
without tearing all this down (it would take seconds of CPU after the server has gone).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot
import pandas  # noqa: F401 - the tidy tables (CSV)

import boardeval.catan
import boardeval.diplomacy
import boardeval.morris
import boardeval.web.catan
import boardeval.web.catan_gen
import boardeval.web.catan_play
import boardeval.web.diplomacy
import boardeval.web.morris
from boardeval.web._preload_start import IN_FORK_SERVER

boardeval.diplomacy.forbid_convoy_builds()
boardeval.diplomacy.load_map_graph("standard")
boardeval.catan.generate("random", 0)
boardeval.morris.Searcher().search(boardeval.morris.Position.parse("........................ w 9 9"), 2)


def _quick_exit() -> None:
    """The fork server's end: no interpreter teardown of all the libraries above (seconds of CPU after
    the server has gone). Registered last, so it runs first; its forked workers never run it."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if IN_FORK_SERVER:
    atexit.register(_quick_exit)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # ignored while loading (_preload_start)
