"""A corpus of bot games for fitting the evaluation (issue 14 §2) and checking alliance detection (§3).

A corpus is several tournaments (*mixes* of bot kinds, some with seeded allied pairs), each played by
:func:`~boardeval.diplomacy.tournament.run_tournament` (so through ``core.map_jobs``: serial, a process
pool or a Dask cluster, the same games), and written to a folder the user names::

    DIR/corpus.json              the arguments: seed, games, mixes, max year; whether it was interrupted
    DIR/<mix>/games.jsonl        the saved games of one mix (the engine's format)
    DIR/<mix>/results.json       per game its seats, final centres and allied pairs (the ground truth)

Mix ``k`` uses the seed ``spawn_seeds(seed, len(mixes))[k]``; so the same seed and games give the same
corpus on any number of workers.  A corpus is generated, never committed: the shipped fit
(``data/diplomacy_evaluation.json``) records the seed and size that reproduce it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardeval.core import DiplomacyError, Progress, report, spawn_seeds
from boardeval.diplomacy.records import GameRecord, load_records
from boardeval.diplomacy.tournament import Alliance, TournamentError, run_tournament

__all__ = [
    "DEFAULT_MIXES",
    "CorpusError",
    "CorpusGame",
    "CorpusResult",
    "Mix",
    "generate_corpus",
    "iter_corpus",
    "read_manifest",
]


class CorpusError(DiplomacyError):
    """A corpus folder that cannot be read or written, or bad corpus arguments."""


@dataclass(frozen=True)
class Mix:
    """One tournament of a corpus: the bots of the seats (rotated across powers) and allied pairs per game."""

    bots: str
    allies: int = 0

    @property
    def label(self) -> str:
        """A folder name: ``'dumb*5,random*2'`` with 1 pair -> ``'dumb5-random2-allies1'``."""
        parts = [p.replace("*", "") for p in self.bots.split(",")]
        return "-".join(parts) + (f"-allies{self.allies}" if self.allies else "")


DEFAULT_MIXES: tuple[Mix, ...] = (
    Mix("dumb*7", allies=2),
    Mix("dumb*5,random*2", allies=1),
    Mix("dumb*4,random*3"),
    Mix("dumb*2,random*5"),
)
"""Strong-only, mostly strong (with allies), balanced and mostly random games."""


@dataclass(frozen=True)
class CorpusResult:
    """What :func:`generate_corpus` wrote: the folder, games per mix and whether Ctrl-C stopped it."""

    folder: Path
    games: dict[str, int]
    interrupted: bool

    @property
    def total(self) -> int:
        """Games written over all mixes."""
        return sum(self.games.values())


def _split(games: int, parts: int) -> list[int]:
    """``games`` spread over ``parts`` as evenly as possible (the first ones get the remainder)."""
    return [games // parts + (1 if k < games % parts else 0) for k in range(parts)]


def generate_corpus(
    out_dir: str | os.PathLike[str],
    games: int,
    seed: int,
    *,
    mixes: Sequence[Mix] = DEFAULT_MIXES,
    max_year: int | None = None,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
) -> CorpusResult:
    """Play ``games`` bot games spread evenly over ``mixes`` and write them under ``out_dir``.

    Ctrl-C keeps the finished games of the running mix (and every earlier mix), writes the manifest with
    ``"interrupted": true`` and returns.  Bad arguments raise :class:`CorpusError` or the tournament's own
    :class:`~boardeval.diplomacy.tournament.TournamentError`, quoting them.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < len(mixes) or not mixes:
        raise CorpusError(f"games must be an integer >= the number of mixes ({len(mixes)}), got {games!r}")
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise CorpusError(f"corpus folder {str(folder)!r} is a file")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CorpusError(f"seed must be a non-negative integer, got {seed!r}")
    counts = _split(games, len(mixes))
    seeds = spawn_seeds(seed, len(mixes))
    written: dict[str, int] = {}
    interrupted = False
    offset = 0
    entries: list[dict[str, Any]] = []
    for mix, n, mix_seed in zip(mixes, counts, seeds, strict=True):

        def shifted(done: int, total: int, msg: str, base: int = offset, label: str = mix.label) -> None:
            report(progress, base + done, games, f"{label}: {msg}")

        result = run_tournament(
            mix.bots,
            n,
            mix_seed,
            max_year=max_year,
            workers=workers,
            address=address,
            progress=shifted,
            allies=mix.allies,
        )
        try:
            result.save(folder / mix.label)
        except TournamentError as exc:
            raise CorpusError(str(exc)) from None
        written[mix.label] = len(result.games)
        entries.append(
            {
                "bots": mix.bots,
                "allies": mix.allies,
                "dir": mix.label,
                "seed": mix_seed,
                "games": len(result.games),
            }
        )
        offset += n
        if result.interrupted:
            interrupted = True
            break
    manifest = {
        "seed": seed,
        "games": games,
        "max_year": max_year,
        "mixes": entries,
        "interrupted": interrupted,
    }
    (folder / "corpus.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return CorpusResult(folder, written, interrupted)


@dataclass(frozen=True)
class CorpusGame:
    """One game of a corpus: its record, mix, index in the mix and the seeded allied pairs."""

    record: GameRecord
    mix: str
    index: int
    allies: tuple[Alliance, ...]

    @property
    def key(self) -> str:
        """A unique name in the corpus (``'dumb7-allies2/00012'``), used to split train/test by game."""
        return f"{self.mix}/{self.index:05d}"


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """``corpus.json`` of a corpus folder (:class:`CorpusError` if missing or broken)."""
    path = Path(folder) / "corpus.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CorpusError(f"not a corpus folder {str(folder)!r}: cannot read {str(path)!r} ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("mixes"), list):
        raise CorpusError(f"not a corpus manifest: {str(path)!r} has no 'mixes' list")
    return data


def iter_corpus(folder: str | os.PathLike[str], *, limit: int | None = None) -> Iterator[CorpusGame]:
    """The games of a corpus folder, mix by mix, with their allied pairs (at most ``limit`` per mix)."""
    root = Path(folder)
    for entry in read_manifest(root)["mixes"]:
        mix_dir = root / str(entry["dir"])
        try:
            results = json.loads((mix_dir / "results.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CorpusError(f"cannot read {str(mix_dir / 'results.json')!r}: {exc}") from None
        rows = results.get("games", [])
        records = load_records(mix_dir / "games.jsonl")
        if len(records) != len(rows):
            raise CorpusError(
                f"{str(mix_dir)!r}: {len(records)} games in games.jsonl but {len(rows)} in results.json"
            )
        for k, (record, row) in enumerate(zip(records, rows, strict=True)):
            if limit is not None and k >= limit:
                break
            pairs = tuple((str(a), str(b)) for a, b in row.get("allies", []))
            yield CorpusGame(record, str(entry["dir"]), int(row.get("index", k)), pairs)
