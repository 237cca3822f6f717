"""``boardeval diplomacy corpus | fit-evaluation | evaluate | alliances``: the fitted evaluation (issue 14).

:func:`register` adds the commands to the ``diplomacy`` Typer app.  The library is imported inside the
commands so that ``boardeval --help`` stays fast.  Bad input raises library errors (``DiplomacyError``
subclasses); the root group prints them as one red line (exit code 2).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from boardeval.cli.common import PLAIN_EVERY, console, err_console, print_json, progress_bar
from boardeval.cli.diplomacy import phase_option, pick_game
from boardeval.cli.options import GAME_INDEX, MAX_SEED, MAX_YEAR, SEED, WORKERS, float_option, int_option

if TYPE_CHECKING:
    pass

__all__ = ["register"]


def _num(value: float, digits: int = 3) -> str:
    return "—" if not math.isfinite(value) else f"{value:.{digits}f}"


def corpus_cmd(
    games: int = typer.Option(
        ...,
        "--games",
        parser=int_option("--games", 1, 10**7),
        help="Games in all (spread evenly over the bot mixes).",
    ),
    seed: int = typer.Option(..., "--seed", parser=SEED, help="Seed (int >= 0): same seed, same corpus."),
    out: Path = typer.Option(..., "--out", "-o", help="Corpus folder (corpus.json + one folder per mix)."),
    workers: int = typer.Option(
        1, "--workers", parser=WORKERS, help="Local worker processes (1 = in this process)."
    ),
    dask: str | None = typer.Option(None, "--dask", help="Dask scheduler address, e.g. tcp://host:8786."),
    max_year: int | None = typer.Option(
        None,
        "--max-year",
        parser=MAX_YEAR,
        help="Play each game through the winter of this year (default: ten years).",
    ),
) -> None:
    """Play a corpus of bot games in several mixes (some with allied pairs) for fitting the evaluation.

    Ctrl-C keeps the finished games.  Example: boardeval diplomacy corpus --games 2000 --seed 2026
    --workers 2 --out corpus/
    """
    from boardeval.diplomacy import DEFAULT_MIXES, CorpusError, generate_corpus

    if out.exists() and not out.is_dir():
        raise CorpusError(f"--out {str(out)!r} is a file, not a folder")
    with progress_bar("corpus games", plain_every=PLAIN_EVERY) as progress:
        result = generate_corpus(
            out, games, seed, max_year=max_year, workers=workers, address=dask, progress=progress
        )
    table = Table(title=f"corpus {out}: {result.total} game(s)")
    table.add_column("mix")
    table.add_column("bots")
    table.add_column("allied pairs", justify="right")
    table.add_column("games", justify="right")
    for mix in DEFAULT_MIXES:
        if mix.label in result.games:
            table.add_row(mix.label, mix.bots, str(mix.allies), str(result.games[mix.label]))
    console.print(table)
    if result.interrupted:
        err_console.print(f"[yellow]interrupted: kept {result.total} finished game(s) of {games}[/yellow]")
        raise typer.Exit(130)


def fit_cmd(
    corpus: Path = typer.Argument(..., help="A corpus folder written by 'boardeval diplomacy corpus'."),
    out: Path = typer.Option(..., "--out", "-o", help="Evaluation JSON file to write."),
    test_fraction: float = typer.Option(
        0.2,
        "--test-fraction",
        parser=float_option("--test-fraction", 0.0, 1.0, lo_open=True, hi_open=True),
        help="Share of games held out (strictly between 0 and 1).",
    ),
    split_seed: int = typer.Option(
        0,
        "--split-seed",
        parser=int_option("--split-seed", 0, MAX_SEED),
        help="Seed of the train/test split by game.",
    ),
    alpha: float = typer.Option(
        1.0,
        "--alpha",
        parser=float_option("--alpha", 0.0, 1e9),
        help="Ridge penalty of the SC-change models.",
    ),
    c: float = typer.Option(
        1.0,
        "--c",
        parser=float_option("--c", 0.0, 1e9, lo_open=True),
        help="Inverse penalty C of the logistic elimination model.",
    ),
) -> None:
    """Fit the evaluation on a corpus (train/test split by game) and write its weights as JSON.

    Example: boardeval diplomacy fit-evaluation corpus/ --out evaluation.json
    """
    from boardeval.diplomacy import build_dataset, fit_evaluation, iter_corpus, read_manifest, split_games

    manifest = read_manifest(corpus)
    total = sum(int(m.get("games", 0)) for m in manifest["mixes"])
    with progress_bar("measuring games", plain_every=PLAIN_EVERY) as progress:
        data = build_dataset(((g.key, g.record) for g in iter_corpus(corpus)), progress=progress, total=total)
    test = split_games(len(data.games), test_fraction, split_seed)
    info = {
        "seed": manifest.get("seed"),
        "requested_games": manifest.get("games"),
        "max_year": manifest.get("max_year"),
        "mixes": [{"bots": m["bots"], "allies": m["allies"], "games": m["games"]} for m in manifest["mixes"]],
        "test_fraction": test_fraction,
        "split_seed": split_seed,
    }
    evaluation = fit_evaluation(data, ~test, alpha=alpha, c=c, corpus=info)
    evaluation.save(out)
    console.print(
        f"fitted on {evaluation.corpus['train_games']} games ({evaluation.corpus['train_rows']} rows), "
        f"{evaluation.corpus['test_games']} held out; wrote {out}"
    )


def evaluate_cmd(
    game: Path = typer.Argument(..., help="Saved game (.json) or games (.jsonl)."),
    phase: str | None = typer.Option(None, "--phase", help="Phase, e.g. F1905M (default: the last)."),
    target: str = typer.Option(
        "sc_change_1y", "--target", help="sc_change_1y, sc_change_3y or eliminated_3y (log-odds)."
    ),
    game_index: int | None = typer.Option(
        None, "--game-index", parser=GAME_INDEX, help="Which game of a JSONL file (from 0)."
    ),
    weights: Path | None = typer.Option(
        None, "--weights", help="An evaluation JSON (default: the shipped fit)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print {power: breakdown} as JSON."),
) -> None:
    """Each power's fitted strength at a phase, with its breakdown (value, weight, contribution per measure).

    The default score is the predicted supply-centre change over the next game year.
    Example: boardeval diplomacy evaluate game.json --phase F1905M
    """
    from boardeval.diplomacy import Evaluation, evaluate_position

    record = pick_game(game, game_index)
    evaluation = Evaluation.load(weights) if weights is not None else None
    result = evaluate_position(record, phase_option(phase), target=target, evaluation=evaluation)
    if as_json:
        print_json({power: bd.to_dict() for power, bd in result.items()})
        return
    first = next(iter(result.values()))
    title = f"{record.game_id} {first.label.split()[-1]}: {target}"
    table = Table(title=title)
    table.add_column("power")
    table.add_column("score", justify="right")
    table.add_column("main reasons (vs the average power)")
    for power, bd in result.items():
        if bd.extras.get("eliminated"):
            table.add_row(power, "—", "eliminated")
            continue
        rel: dict[str, float] = dict(bd.extras["vs_average"])
        top = sorted(rel.items(), key=lambda kv: abs(kv[1]), reverse=True)[:3]
        table.add_row(power, _num(bd.total), ", ".join(f"{k} {v:+.2f}" for k, v in top))
    console.print(table)
    strongest = max(
        (p for p, bd in result.items() if not bd.extras.get("eliminated")),
        key=lambda p: result[p].total,
        default=None,
    )
    if strongest is not None:
        _print_breakdown(result[strongest])


def _print_breakdown(bd: Any) -> None:
    table = Table(title=f"breakdown: {bd.label} (total {_num(bd.total)})")
    for col in ("term", "raw", "weight", "scale", "contribution", "vs average"):
        table.add_column(col, justify="left" if col == "term" else "right")
    rel = bd.extras.get("vs_average", {})
    for term in bd.terms:
        table.add_row(
            term.name,
            _num(term.raw),
            _num(term.weight),
            _num(term.scale),
            _num(term.contribution),
            _num(rel[term.name]) if term.name in rel else "",
        )
    console.print(table)


def alliances_cmd(
    game: Path = typer.Argument(..., help="Saved game (.json) or games (.jsonl)."),
    game_index: int | None = typer.Option(
        None, "--game-index", parser=GAME_INDEX, help="Which game of a JSONL file (from 0)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help='Print {"game", "rule", "threshold", "years": [{"year", "pairs"}]}.'
    ),
    rule: str = typer.Option(
        "peace",
        "--rule",
        help="peace (default): never attacked each other, mutual fear > 0, closest such partners; "
        "unfought: every such pair; calm: mutual fear alone.",
    ),
) -> None:
    """Allied pairs detected per game year from mutual fear and the moves, without any seeding.

    Example: boardeval diplomacy alliances game.json --rule peace
    """
    from boardeval.diplomacy import detect_alliances

    record = pick_game(game, game_index)
    result = detect_alliances(record, rule=rule)
    if as_json:
        print_json(result.to_json())
        return
    table = Table(title=f"{record.game_id}: detected alliances per year")
    table.add_column("year", justify="right")
    table.add_column("allied pairs")
    for year in result.years:
        pairs = ", ".join(f"{a}-{b}" for a, b in year.pairs) or "—"
        table.add_row(str(year.year), pairs)
    console.print(table)


def register(diplomacy_app: typer.Typer) -> None:
    """Add ``corpus``, ``fit-evaluation``, ``evaluate`` and ``alliances`` to the ``diplomacy`` app."""
    diplomacy_app.command("corpus")(corpus_cmd)
    diplomacy_app.command("fit-evaluation")(fit_cmd)
    diplomacy_app.command("evaluate")(evaluate_cmd)
    diplomacy_app.command("alliances")(alliances_cmd)
