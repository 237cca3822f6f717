"""The packed tables' read-ahead (:func:`boardeval.morris.prefetch_tablebase`, issue 25): every byte
of every packed file is asked for, in steps, from a background thread; nothing is asked where it cannot
help (no packed file, no ``posix_fadvise``, more than the memory can hold)."""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path

import pytest

import boardeval.morris.tablebase.packed as packed


def _folder(tmp_path: Path, sizes: dict[str, int]) -> Path:
    for name, size in sizes.items():
        (tmp_path / name).write_bytes(bytes(size))
    (tmp_path / "manifest.json").write_text("{}")
    return tmp_path


def test_prefetch_asks_for_every_byte_of_each_packed_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path, {"packed-a.bin": 10_000, "packed-b.bin": 4_096, "3v3.npy": 50_000})
    asked: list[tuple[int, int, int, int]] = []  # (file size, offset, length, advice)
    monkeypatch.setattr(packed, "PREFETCH_STEP", 4_096)
    monkeypatch.setattr(
        os, "posix_fadvise", lambda fd, off, n, advice: asked.append((os.fstat(fd).st_size, off, n, advice))
    )
    thread = packed.prefetch_tablebase(folder)
    assert thread is not None and thread.daemon
    thread.join()
    assert {a[3] for a in asked} == {os.POSIX_FADV_WILLNEED}
    for size in (10_000, 4_096):
        spans = sorted((off, off + n) for s, off, n, _ in asked if s == size)
        assert spans[0][0] == 0 and spans[-1][1] >= size  # from the first byte past the last
        assert all(b == c for (_a, b), (c, _d) in itertools.pairwise(spans))  # no gap
        assert all(n == 4_096 for s, _off, n, _adv in asked if s == size)
    assert 50_000 not in {a[0] for a in asked}  # the tables themselves are not packed files


def test_prefetch_reads_a_real_file_without_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real requests (no stand-in): an exception in the reading thread would not reach the test by
    itself, so the thread's exception hook records it."""
    folder = _folder(tmp_path, {"packed-a.bin": 3 * packed.PREFETCH_STEP // 2})
    if not hasattr(os, "posix_fadvise"):
        assert packed.prefetch_tablebase(folder) is None
        return
    failed: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failed.append)
    thread = packed.prefetch_tablebase(folder)
    assert thread is not None
    thread.join()
    assert failed == []


def test_prefetch_asks_nothing_where_it_cannot_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert packed.prefetch_tablebase(_folder(empty, {})) is None  # no packed file
    assert packed.prefetch_tablebase(tmp_path / "missing") is None
    folder = _folder(tmp_path, {"packed-a.bin": 10_000})
    monkeypatch.setattr(packed, "available_memory", lambda: 10_000)  # 0.75 of it holds less than the file
    assert packed.prefetch_tablebase(folder) is None
    monkeypatch.setattr(packed, "available_memory", lambda: 1 << 30)
    monkeypatch.delattr(os, "posix_fadvise", raising=False)
    assert packed.prefetch_tablebase(folder) is None


def test_available_memory_reads_meminfo() -> None:
    got = packed.available_memory()
    if Path("/proc/meminfo").is_file():
        assert got > 0 and got % 1024 == 0
    else:
        assert got == 0
