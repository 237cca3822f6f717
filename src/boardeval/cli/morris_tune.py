"""``boardeval morris tune``: Texel-fit the evaluation weights against the endgame tablebase.

Wiring: ``register(morris_app)`` adds the ``tune`` command to ``boardeval morris``.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from boardeval.cli.common import console, note_interrupted, print_json, progress_bar
from boardeval.core import ParamsError

__all__ = ["register"]


def tune_command(
    directory: Path | None = typer.Option(
        None, "--dir", help="Tablebase folder (default: the user cache dir); build it first."
    ),
    positions: int = typer.Option(2000, "--positions", help="Sampled positions per sub-database."),
    games: int = typer.Option(200, "--games", help="Self-play games for the placing phase."),
    decided: float = typer.Option(0.5, "--decided", help="Share of decided (won/lost) sampled positions."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampling, the games and the split."),
    workers: int = typer.Option(1, "--workers", help="Processes for the self-play games."),
    out: Path | None = typer.Option(None, "--out", help="Write the tuned weights as a [tuned] TOML file."),
    questions: bool = typer.Option(True, "--questions/--no-questions", help="Refit the open questions."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Fit the weights so that sigmoid(k * eval) predicts the tablebase (and self-play) results.

    Prints held-out log-loss and sign accuracy before (seed weights) and after; Ctrl-C keeps what was
    gathered (and the best fit so far).
    """
    from boardeval.morris import default_tablebase_dir, tune_weights, write_weights

    if not 0.0 <= decided <= 1.0:
        raise ParamsError(f"--decided must be in 0..1, got {decided!r}")
    folder = directory if directory is not None else default_tablebase_dir()
    with progress_bar("tuning", enabled=not as_json) as cb:
        report = tune_weights(
            folder,
            per_subdatabase=positions,
            games=games,
            seed=seed,
            decided_share=decided,
            workers=workers,
            with_questions=questions,
            progress=cb,
        )
    data = report.to_dict()
    if out is not None:
        note = (
            f"seed {seed}, {report.positions} positions; held-out log-loss "
            f"{report.seed.validation['log_loss']:.4f} -> {report.tuned.validation['log_loss']:.4f}"
        )
        write_weights(report.tuned.weights(), out, note=note)
        data["written"] = str(out)
    if report.interrupted:
        note_interrupted("the fits of the data gathered so far (question refits skipped)")
    if as_json:
        print_json(data)
        return
    note = " (interrupted: partial data)" if report.interrupted else ""
    console.print(
        f"{report.positions} positions ({report.tablebase_positions} tablebase, {report.placing_positions} "
        f"placing){note}; k = {report.k:.4f}"
    )
    table = Table(title="held-out positions")
    for col in ("model", "log-loss", "sign accuracy", "sign acc. (decided)"):
        table.add_column(col, justify="left" if col == "model" else "right")
    for fit in (report.seed, report.tuned, *report.questions):
        v = fit.validation
        table.add_row(
            escape(fit.name),
            f"{v['log_loss']:.4f}",
            f"{v['sign_accuracy']:.3f}",
            f"{v['sign_accuracy_decided']:.3f}",
        )
    console.print(table)
    weights = report.tuned.weights()
    console.print("tuned weights: " + ", ".join(f"{k} {v:g}" for k, v in weights.items()))
    if out is not None:
        console.print(f"written to {escape(str(out))}")


def register(app: typer.Typer) -> None:
    """Add ``tune`` to the ``morris`` group."""
    app.command("tune")(tune_command)
