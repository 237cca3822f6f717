"""The fairness study: do fairer boards (lower energy) play longer, and do they spread wins more evenly?

For each level of the fairness dial, ``boards`` boards are generated (level 0: a uniform shuffle; above:
the annealer with the dial, :func:`boardeval.catan.generate`), and each is play-tested with ``games``
seeded games between four equal players: ``weighted`` (catanatron's ``WeightedRandomPlayer``, who opens at
random), or ``advisor`` (the strong-opener setting of issue 26: the advisor's opening, then the same play),
where the draft decides much more. With equal players every seating plays the very same game, so the
games are distinct seeds rather than rotations. Every board also gets its seat equity (the predicted
best-minus-worst seat win rate under the advisor draft, :func:`boardeval.catan.equity.seat_equity`).
Per level: the energy, game length (mean with its interval, p90), the spread of the seat win rates
(highest minus lowest, pooled over the level's games), the share of games won by the seat with the best
opening (the highest sum of seed-000 scores over its two opening settlements; 25 % means the opening
decides nothing) and the share of unfinished games. Every game of the study is one job of
:func:`boardeval.core.map_jobs` (serial, process pool or Dask, same results); Ctrl-C keeps the finished
games.

:func:`write_study` writes ``study.csv`` (per level), ``study.json`` (levels and boards) and two charts
(SVG and PNG): game length vs energy, and the seat win-rate spread against energy and against seat equity
side by side, a point per board with a least-squares trend line.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardeval.catan import Board, board_energy, evaluate_spots
from boardeval.catan.playtest import GameRecord, GameSpec, game_specs, run_games
from boardeval.core import CatanError, Progress, mean_interval, report, spawn_seeds, wilson_interval

__all__ = ["BoardStudy", "LevelStudy", "StudyResult", "run_study", "write_study"]

PLAYERS = ("weighted", "weighted", "weighted", "weighted")
SETTINGS = ("weighted", "advisor")
"""The study's player settings: four ``weighted`` bots, or four ``advisor`` openers (strong openers)."""


@dataclass(frozen=True)
class BoardStudy:
    """One board of the study and what its games did."""

    fairness: float
    seed: int
    board: str
    energy: float
    games: int
    mean_turns: float
    p90_turns: float
    seat_win_rates: tuple[float, ...]
    spread: float  # highest minus lowest seat win rate on this board
    best_opening_wins: int
    unfinished: int
    seat_equity: float = 0.0  # predicted best-minus-worst seat win rate under the advisor draft


@dataclass(frozen=True)
class LevelStudy:
    """One level of the dial, pooled over its boards (intervals are 95 %)."""

    fairness: float
    boards: int
    games: int
    energy_mean: float
    energy_min: float
    energy_max: float
    turns_mean: float
    turns_ci95: tuple[float, float]
    turns_median: float
    turns_p90: float
    seat_win_rates: tuple[float, ...]
    spread: float
    board_spread_mean: float
    best_opening_share: float
    best_opening_ci95: tuple[float, float]
    unfinished_share: float
    seat_equity_mean: float = 0.0


@dataclass(frozen=True)
class StudyResult:
    """Levels and boards of a study, its seed and timing."""

    levels: tuple[LevelStudy, ...]
    boards: tuple[BoardStudy, ...]
    seed: int
    games_per_board: int
    seconds: float
    interrupted: bool = False
    players: tuple[str, ...] = PLAYERS

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "games_per_board": self.games_per_board,
            "players": list(self.players),
            "levels": [asdict(level) for level in self.levels],
            "boards": [{"code": b.board, **asdict(b)} for b in self.boards],
            "seconds": self.seconds,
            "interrupted": self.interrupted,
        }


def _check_levels(fairness: Sequence[float]) -> tuple[float, ...]:
    levels = tuple(fairness)
    if not levels:
        raise CatanError("give at least one fairness level")
    for f in levels:
        if isinstance(f, bool) or not isinstance(f, int | float) or not 0.0 <= f <= 1.0:
            raise CatanError(f"fairness levels must be numbers in [0, 1], got {f!r}")
    return tuple(float(f) for f in levels)


def study_boards(fairness: Sequence[float], boards: int, seed: int) -> list[tuple[float, int, Board]]:
    """``(level, seed, board)`` for every board of the study (level 0: random; else the annealer)."""
    levels = _check_levels(fairness)
    if isinstance(boards, bool) or not isinstance(boards, int) or boards <= 0:
        raise CatanError(f"boards must be a positive integer, got {boards!r}")
    from boardeval.catan import generate  # loads OR-Tools: only when a study runs

    seeds = spawn_seeds(seed, len(levels) * boards)
    out = []
    for i, f in enumerate(levels):
        for s in seeds[i * boards : (i + 1) * boards]:
            result = generate("random", s, fairness=0.0) if f == 0.0 else generate("anneal", s, fairness=f)
            out.append((f, s, result.board))
    return out


def _best_opening_seat(record: GameRecord, scores: np.ndarray[Any, Any]) -> int | None:
    if not record.openings:
        return None
    totals = [float(scores[list(o)].sum()) for o in record.openings]
    return int(np.argmax(totals))


def _board_study(
    f: float, seed: int, board: Board, records: Sequence[GameRecord]
) -> tuple[BoardStudy, list[bool]]:
    from boardeval.catan.equity import seat_equity

    scores = evaluate_spots(board).scores
    n = len(PLAYERS)
    wins = [sum(1 for r in records if r.winner_seat == i) for i in range(n)]
    rates = tuple(w / len(records) for w in wins) if records else (0.0,) * n
    best = [r.winner_seat is not None and r.winner_seat == _best_opening_seat(r, scores) for r in records]
    turns = np.array([r.turns for r in records], dtype=np.float64)
    return (
        BoardStudy(
            fairness=f,
            seed=seed,
            board=board.code(),
            energy=float(board_energy(board).total),
            games=len(records),
            mean_turns=float(turns.mean()) if turns.size else 0.0,
            p90_turns=float(np.percentile(turns, 90)) if turns.size else 0.0,
            seat_win_rates=rates,
            spread=max(rates) - min(rates),
            best_opening_wins=sum(best),
            unfinished=sum(1 for r in records if r.winner_seat is None),
            seat_equity=seat_equity(board).spread or 0.0,
        ),
        best,
    )


def _level(f: float, boards: list[BoardStudy], records: list[GameRecord], best: list[bool]) -> LevelStudy:
    n = len(PLAYERS)
    games = len(records)
    turns = [float(r.turns) for r in records]
    t = mean_interval(turns) if turns else None
    rates = (
        tuple(sum(1 for r in records if r.winner_seat == i) / games for i in range(n))
        if games
        else (0.0,) * n
    )
    share = wilson_interval(sum(best), games)
    energies = [b.energy for b in boards]
    return LevelStudy(
        fairness=f,
        boards=len(boards),
        games=games,
        energy_mean=float(np.mean(energies)),
        energy_min=float(np.min(energies)),
        energy_max=float(np.max(energies)),
        turns_mean=t.value if t else 0.0,
        turns_ci95=(t.lo, t.hi) if t else (0.0, 0.0),
        turns_median=float(np.median(turns)) if turns else 0.0,
        turns_p90=float(np.percentile(turns, 90)) if turns else 0.0,
        seat_win_rates=rates,
        spread=max(rates) - min(rates),
        board_spread_mean=float(np.mean([b.spread for b in boards])),
        best_opening_share=share.value,
        best_opening_ci95=(share.lo, share.hi),
        unfinished_share=sum(1 for r in records if r.winner_seat is None) / games if games else 0.0,
        seat_equity_mean=float(np.mean([b.seat_equity for b in boards])),
    )


def run_study(
    fairness: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
    *,
    boards: int = 40,
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    address: str | None = None,
    progress: Progress | None = None,
    players: str = "weighted",
) -> StudyResult:
    """Generate the boards of every level, play ``games`` seeded games on each, and summarise.
    ``players``: ``weighted`` (four catanatron bots) or ``advisor`` (four strong openers)."""
    if players not in SETTINGS:
        raise CatanError(f"study players must be one of {', '.join(SETTINGS)}, got {players!r}")
    lineup = (players,) * 4
    start = time.perf_counter()
    made = study_boards(fairness, boards, seed)
    report(progress, 0, 1, "boards generated")
    specs: list[GameSpec] = []
    spans = []
    for _, s, board in made:
        mine = game_specs(board, lineup, games, s)
        spans.append((len(specs), len(specs) + len(mine)))
        specs.extend(mine)
    records, interrupted = run_games(specs, workers=workers, address=address, progress=progress)
    per_board: list[BoardStudy] = []
    by_level: dict[float, tuple[list[BoardStudy], list[GameRecord], list[bool]]] = {}
    for (f, s, board), (lo, hi) in zip(made, spans, strict=True):
        mine_records = records[lo:hi]
        if not mine_records:
            continue
        b, best = _board_study(f, s, board, mine_records)
        per_board.append(b)
        level = by_level.setdefault(f, ([], [], []))
        level[0].append(b)
        level[1].extend(mine_records)
        level[2].extend(best)
    levels = tuple(_level(f, *by_level[f]) for f in _check_levels(fairness) if f in by_level)
    return StudyResult(
        levels, tuple(per_board), seed, games, time.perf_counter() - start, interrupted, lineup
    )


_CSV_FIELDS = (
    "fairness",
    "boards",
    "games",
    "energy_mean",
    "energy_min",
    "energy_max",
    "turns_mean",
    "turns_lo",
    "turns_hi",
    "turns_median",
    "turns_p90",
    "seat_spread",
    "board_spread_mean",
    "best_opening_share",
    "best_opening_lo",
    "best_opening_hi",
    "unfinished_share",
    "seat_equity_mean",
)


def write_study(result: StudyResult, out: str | Path, *, charts: bool = True) -> list[Path]:
    """Write ``study.csv``, ``study.json`` and (``charts``) the two charts (SVG and PNG) into ``out``.

    The charts cost a matplotlib import and ~1-3 s of drawing: the CLI skips them after Ctrl-C, so that an
    interrupted study exits at once with its data files (issue 17)."""
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CatanError(f"cannot create output directory {str(out)!r}: {exc}") from None
    paths = [out_dir / "study.csv", out_dir / "study.json"]
    with paths[0].open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(_CSV_FIELDS)
        for lv in result.levels:
            writer.writerow(
                [
                    lv.fairness,
                    lv.boards,
                    lv.games,
                    f"{lv.energy_mean:.2f}",
                    f"{lv.energy_min:.2f}",
                    f"{lv.energy_max:.2f}",
                    f"{lv.turns_mean:.2f}",
                    f"{lv.turns_ci95[0]:.2f}",
                    f"{lv.turns_ci95[1]:.2f}",
                    f"{lv.turns_median:.1f}",
                    f"{lv.turns_p90:.1f}",
                    f"{lv.spread:.4f}",
                    f"{lv.board_spread_mean:.4f}",
                    f"{lv.best_opening_share:.4f}",
                    f"{lv.best_opening_ci95[0]:.4f}",
                    f"{lv.best_opening_ci95[1]:.4f}",
                    f"{lv.unfinished_share:.4f}",
                    f"{lv.seat_equity_mean:.4f}",
                ]
            )
    paths[1].write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")
    if charts:
        paths.extend(_charts(result, out_dir))
    return paths


def _scatter(
    ax: Any, result: StudyResult, x: np.ndarray[Any, Any], values: np.ndarray[Any, Any], unit: str
) -> None:
    """A point per board, coloured by level, with a least-squares trend line."""
    boards = result.boards
    for f in sorted({b.fairness for b in boards}):
        mask = np.array([b.fairness == f for b in boards])
        ax.scatter(x[mask], values[mask], s=14, alpha=0.75, label=f"fairness {f:g}")
    if len(boards) >= 2 and np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, values, 1)
        xs = np.linspace(x.min(), x.max(), 50)
        ax.plot(xs, slope * xs + intercept, color="black", lw=1, label=f"trend: {slope:+.4f} per {unit}")
    ax.legend(fontsize=7)


def _save(fig: Any, out_dir: Path, name: str) -> list[Path]:
    paths = []
    fig.tight_layout()
    for ext in ("svg", "png"):
        path = out_dir / f"{name}.{ext}"
        fig.savefig(
            path, dpi=120 if ext == "png" else None, metadata={"Date": None} if ext == "svg" else None
        )
        paths.append(path)
    return paths


def _charts(result: StudyResult, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    boards = result.boards
    energy = np.array([b.energy for b in boards])
    who = f"4 {result.players[0]} players, {result.games_per_board} games per board"
    paths = []
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    _scatter(ax, result, energy, np.array([b.mean_turns for b in boards]), "energy unit")
    ax.set_xlabel("board energy (lower is fairer)")
    ax.set_ylabel("mean game length (turns)")
    ax.set_title(f"game length vs energy ({who})", fontsize=10)
    paths += _save(fig, out_dir, "length_vs_energy")
    plt.close(fig)
    spread = 100 * np.array([b.spread for b in boards])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    _scatter(axes[0], result, energy, spread, "energy unit")
    axes[0].set_xlabel("board energy (lower is fairer)")
    axes[0].set_ylabel("measured seat win-rate spread (points, max - min)")
    axes[0].set_title("against energy", fontsize=10)
    _scatter(axes[1], result, 100 * np.array([b.seat_equity for b in boards]), spread, "point")
    axes[1].set_xlabel("seat equity: predicted spread under the advisor draft (points)")
    axes[1].set_title("against seat equity", fontsize=10)
    fig.suptitle(f"seat spread per board ({who})", fontsize=10)
    paths += _save(fig, out_dir, "spread_vs_energy")
    plt.close(fig)
    return paths
