"""The tablebase on disk: the folder, the manifest, one ``.npy`` per sub-database, and the byte code.

Storage: one ``.npy`` per sub-database ``(a, b)`` = "the side to move has a men, the other b" (White to move
with w = 4, b = 3 is in "4v3", Black to move in the same position in "3v4"), symmetry-reduced rows (see
:mod:`.index`), one byte (or two, if a distance exceeds 63) per slot: 2 bits of value (0 draw, 1 win,
2 loss) above the distance. ``manifest.json`` beside them records the rules, counts, checksums and build
times. Default folder: ``platformdirs.user_cache_dir("boardeval")/tablebase/standard``.

:mod:`.build` writes these files, :mod:`.probe` reads them; both go through this module, so the format is
written down once.
"""

from __future__ import annotations

import hashlib
import json
from math import comb
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import platformdirs

from boardeval.core import MorrisError
from boardeval.morris.board import N_POINTS
from boardeval.morris.tablebase.index import rows

__all__ = [
    "CODE_VALUES",
    "FORMAT",
    "MANIFEST",
    "MAX_MEN",
    "RULES",
    "VARIANT",
    "MissingTablebaseError",
    "TBValue",
    "TablebaseError",
    "TablebaseRangeError",
    "build_command",
    "decoded",
    "default_tablebase_dir",
    "encode",
    "file_sha256",
    "load_table",
    "read_manifest",
    "save_npy",
    "sub_name",
]

TBValue = Literal["win", "loss", "draw"]

#: The largest men count per side a build accepts: 9, every moving/flying position of the game
#: (docs/morris-tablebase.md: K = 9 took 96 minutes of one core after K = 8, 15.4 GB resident at most, in
#: 9v8 + 8v9; K = 8 65 minutes, 12.3 GB). The compiled search's packed probe addresses up to 15 a side
#: (``_search/endgame.py``, ``P_SLOTS``). Also the CLI's ``--max-men`` range (``cli/morris_tablebase.py``;
#: a test holds the two equal).
MAX_MEN = 9
MANIFEST = "manifest.json"
FORMAT = "boardeval-morris-tablebase/1"
VARIANT = "standard"
RULES = (
    "standard: a side with 3 men flies; a side with 2 men or no legal turn loses; a mill removes one man, "
    "not from a mill unless all are in mills; repetition and the turn limit are not counted (draw = no "
    "forced win)"
)
CODE_VALUES: tuple[TBValue, ...] = ("draw", "win", "loss")


class TablebaseError(MorrisError):
    """A tablebase problem: missing or corrupt files, a bad build request."""


class MissingTablebaseError(TablebaseError):
    """No tablebase (or not the needed sub-database) in the folder; the message names the build command."""


class TablebaseRangeError(TablebaseError):
    """A position the tablebase does not cover: men in hand, too many or too few men, no flying."""


def default_tablebase_dir() -> Path:
    """``platformdirs.user_cache_dir("boardeval")/tablebase/standard`` (outside the repository)."""
    return Path(platformdirs.user_cache_dir("boardeval")) / "tablebase" / VARIANT


def build_command(max_men: int, directory: Path) -> str:
    return f"boardeval morris tablebase build --max-men {max_men} --dir {directory}"


def sub_name(a: int, b: int) -> str:
    return f"{a}v{b}"


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read in pieces: a table of 8 men is over a gigabyte."""
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def load_table(directory: Path, entry: dict[str, Any]) -> npt.NDArray[np.integer[Any]]:
    path = directory / entry["file"]
    build = build_command(max(entry["mover_men"], entry["opponent_men"]), directory)
    try:
        digest = file_sha256(path)
    except OSError:
        raise MissingTablebaseError(
            f"tablebase file {str(path)!r} is missing; rebuild with `{build}`"
        ) from None
    if digest != entry["sha256"]:
        raise TablebaseError(
            f"tablebase file {str(path)!r} is corrupt (checksum); rebuild with `{build} --force`"
        )
    table = np.load(path, allow_pickle=False)
    expected = (
        len(rows(entry["mover_men"]).masks),
        comb(N_POINTS - entry["mover_men"], entry["opponent_men"]),
    )
    if table.shape != expected:
        raise TablebaseError(f"tablebase file {str(path)!r} has shape {table.shape}, expected {expected}")
    return table  # type: ignore[no-any-return]


def read_manifest(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("format") == FORMAT:
                return data
        except ValueError:
            pass
    return {"format": FORMAT, "variant": VARIANT, "rules": RULES, "subdatabases": {}}


def save_npy(path: Path, array: npt.NDArray[Any]) -> None:
    """``array`` as a ``.npy`` file at exactly ``path`` (``np.save`` given a path would add ``.npy``)."""
    with path.open("wb") as fh:
        np.save(fh, array, allow_pickle=False)


def decoded(directory: Path, entry: dict[str, Any]) -> npt.NDArray[np.int16]:
    """A stored table as int16 distances (-1 = draw), the form the compiled lookup reads."""
    table = load_table(directory, entry)
    shift = int(entry["distance_bits"])
    flat = table.reshape(-1)
    dist = np.empty(flat.shape, dtype=np.int16)
    step = 1 << 24  # a block at a time (see encode)
    for s0 in range(0, flat.size, step):
        code = flat[s0 : s0 + step].astype(np.int32)
        d = (code & ((1 << shift) - 1)).astype(np.int16)
        d[(code >> shift) == 0] = -1
        dist[s0 : s0 + step] = d
    return dist.reshape(table.shape)


def encode(dist: npt.NDArray[np.int16]) -> tuple[npt.NDArray[np.integer[Any]], int]:
    longest = int(dist.max(initial=0))
    shift, dtype = (6, np.uint8) if longest < 64 else (14, np.uint16)
    if longest >= 1 << 14:
        raise TablebaseError(f"distance {longest} does not fit the 14-bit distance field")
    flat = dist.reshape(-1)
    code = np.empty(flat.shape, dtype=dtype)
    step = 1 << 24  # a block at a time: whole-table int32/int64 temporaries would cost ~16 bytes a cell
    for s0 in range(0, flat.size, step):
        d = flat[s0 : s0 + step]
        value = np.where(d < 0, 0, np.where(d % 2 == 1, 1, 2)).astype(np.int32)
        code[s0 : s0 + step] = (value << shift) | np.maximum(d, 0).astype(np.int32)
    return code.reshape(dist.shape), shift
