"""``core.files.write_atomic``: the file is whole or absent, whatever happens while it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardeval.core.files import write_atomic


def test_an_interrupted_write_leaves_no_file(tmp_path: Path) -> None:
    """Ctrl-C or a full disk in the middle of a write leaves neither the target nor a partial temporary file
    (tablebases, the book, the compiled kernels and the convoy cache are all written this way)."""
    target = tmp_path / "packed.bin"

    def half(tmp: Path) -> None:
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, half)
    assert list(tmp_path.iterdir()) == []
    write_atomic(target, b"whole")
    write_atomic(target, lambda tmp: tmp.write_bytes(b"again"))
    assert target.read_bytes() == b"again" and list(tmp_path.iterdir()) == [target]
