"""Processes as ``/proc`` shows them, for the tests that stop commands and servers and check what they
left: which processes belong to a session or a process group, and the CPU seconds they have used.

Fields of ``/proc/PID/stat`` after "(comm)": state(0) ppid(1) pgrp(2) session(3) ... utime(11) stime(12)
cutime(13) cstime(14).
"""

from __future__ import annotations

import os

_PGRP = 2
_SESSION = 3


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after "(comm)", or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _pids_where(index: int, value: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat_fields(int(entry))
            if fields is not None and int(fields[index]) == value:
                out.append(int(entry))
    return sorted(out)


def session_pids(sid: int) -> list[int]:
    """Every process (live or not yet reaped) of session ``sid``."""
    return _pids_where(_SESSION, sid)


def group_pids(pgid: int) -> list[int]:
    """Every process (live or not yet reaped) of process group ``pgid``."""
    return _pids_where(_PGRP, pgid)


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by the processes: their own time plus that of the children each of them
    reaped (a leader's finished pool workers, a worker's own children), as ``wait4`` on the first of
    them will count it once they have all exited."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = stat_fields(pid)
        if fields is not None:
            total += sum(int(x) for x in fields[11:15])
    return total / tick
