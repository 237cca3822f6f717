"""Writing a file whole or not at all.

Every file the product writes for later runs -- tablebases, the opening book and its checkpoints, the
compiled kernels, the Diplomacy convoy cache -- goes through :func:`write_atomic`, so that Ctrl-C, a full disk
or a second process never leaves a half-written file where a reader expects a whole one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: Path, data: bytes | Callable[[Path], None]) -> None:
    """Write ``path`` whole or not at all: ``data`` (bytes, or a function that writes the file it is given)
    goes into a temporary file beside it, named by the process so that two processes never share one, and
    is renamed over ``path`` when complete. A failed or interrupted write (a full disk, Ctrl-C) removes the
    temporary file (a packed tablebase is gigabytes)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            data(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
