"""The web app's worker fork server's first import: Ctrl-C is ignored while the libraries load.

A Ctrl-C at the terminal reaches the fork server too (it is in the server's process group). While it
loaded the libraries (:mod:`boardeval.web._preload`; on a machine's first start that includes compiling
the Morris search, ~20 s) a Ctrl-C broke that import with a ``KeyboardInterrupt`` traceback. The server
stops the fork server itself (``kill_all_workers``, the fork server first); once the preload is done,
``multiprocessing.forkserver`` ignores SIGINT on its own, and :mod:`boardeval.web._preload` puts Python's
handler back at its end, so the workers it forks start as before.
"""

from __future__ import annotations

import inspect
import os
import signal


def in_fork_server() -> bool:
    """True when this import is the fork server's (``multiprocessing.forkserver.main`` preloading)."""
    here = os.path.join("multiprocessing", "forkserver.py")
    return any(frame.filename.endswith(here) for frame in inspect.stack(0))


IN_FORK_SERVER = in_fork_server()
"""Whether the fork server is importing this (read by :mod:`boardeval.web._preload` too: one look at the
stack)."""

if IN_FORK_SERVER:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
