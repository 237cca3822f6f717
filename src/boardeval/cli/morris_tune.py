"""``boardeval morris tune``: Texel-fit the evaluation weights against the endgame tablebase.

Wiring: ``register(morris_app)`` adds the ``tune`` command to ``boardeval morris``.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from boardeval.cli.common import PLAIN_EVERY, console, note_interrupted, print_json, progress_bar
from boardeval.cli.options import SEED, WORKERS, float_option, int_option
from boardeval.morris import MAX_DEPTH

__all__ = ["register"]

_DEPTH = int_option("--depth", 1, MAX_DEPTH)


def tune_command(
    directory: Path | None = typer.Option(
        None, "--dir", help="Tablebase folder (default: the user cache dir); build it first."
    ),
    positions: int = typer.Option(
        2000,
        "--positions",
        parser=int_option("--positions", 0, 10**7),
        help="Sampled positions per sub-database.",
    ),
    games: int = typer.Option(
        200, "--games", parser=int_option("--games", 0, 10**6), help="Self-play games for the placing phase."
    ),
    decided: float = typer.Option(
        0.5,
        "--decided",
        parser=float_option("--decided", 0.0, 1.0),
        help="Share of decided (won/lost) sampled positions.",
    ),
    seed: int = typer.Option(0, "--seed", parser=SEED, help="Seed of the sampling, the games and the split."),
    workers: int = typer.Option(1, "--workers", parser=WORKERS, help="Processes for the self-play games."),
    out: Path | None = typer.Option(None, "--out", help="Write the tuned weights as a [tuned] TOML file."),
    questions: bool = typer.Option(True, "--questions/--no-questions", help="Refit the open questions."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Fit the weights so that sigmoid(k * eval) predicts the tablebase (and self-play) results.

    Prints held-out log-loss and sign accuracy before (seed weights) and after; Ctrl-C keeps what was
    gathered (and the best fit so far).
    """
    from boardeval.morris import default_tablebase_dir, tune_weights, write_weights

    folder = directory if directory is not None else default_tablebase_dir()
    with progress_bar("tuning", plain_every=PLAIN_EVERY) as cb:
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
    for fit in (report.seed, report.tuned, *report.profiles, *report.questions):
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


def tune_play_command(
    start: str = typer.Option("base", "--start", help="Weight profile or file to start from."),
    rounds: int = typer.Option(
        8, "--rounds", parser=int_option("--rounds", 0, 10_000), help="SPSA rounds (0: only the final match)."
    ),
    games: int = typer.Option(
        100,
        "--games",
        parser=int_option("--games", 2, 10**6),
        help="Games per match of a round (even: colour pairs).",
    ),
    depth: int | None = typer.Option(
        5, "--depth", parser=_DEPTH, help="Search depth per move in the tuning matches."
    ),
    seed: int = typer.Option(0, "--seed", parser=SEED, help="Seed of the openings and the perturbations."),
    against: str | None = typer.Option(
        None, "--against", help="Final match: the result against this profile."
    ),
    final_games: int = typer.Option(
        400, "--final-games", parser=int_option("--final-games", 2, 10**6), help="Games of the final match."
    ),
    final_time: float | None = typer.Option(
        None,
        "--final-time",
        parser=float_option("--final-time", 0.0, 1e6, lo_open=True),
        help="Seconds per move in the final match.",
    ),
    final_depth: int | None = typer.Option(
        None,
        "--final-depth",
        parser=int_option("--final-depth", 1, MAX_DEPTH),
        help="Depth per move in the final match.",
    ),
    workers: int = typer.Option(
        1, "--workers", parser=WORKERS, help="Processes for the games (boardeval.core.map_jobs)."
    ),
    out: Path | None = typer.Option(None, "--out", help="Write the final weights as a TOML weight file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Tune the placing-phase weights by self-play (SPSA, compiled engine, seeded openings, colours swapped).

    Every round prints its probe match, the proposed weights and the acceptance match (W/D/L, score and
    95% interval); ``--against seed --final-time 0.02`` then plays the result against a reference set.
    Ctrl-C keeps the finished rounds.
    """
    from boardeval.morris import engine_match, load_weights, tune_by_play, write_weights

    if final_time is None and final_depth is None:
        final_time = 0.02
    weights = load_weights(Path(start) if Path(start).suffix else start)
    log = None if as_json else (lambda msg: console.print(escape(msg)))
    with progress_bar("tuning by play", plain_every=PLAIN_EVERY) as cb:
        report = tune_by_play(
            dict(weights), rounds=rounds, games=games, seed=seed, depth=depth, workers=workers, progress=cb,
            log=log,
        )  # fmt: skip
        data = report.to_dict()
        final = None
        if against is not None and not report.interrupted:
            ref = load_weights(Path(against) if Path(against).suffix else against)
            final = engine_match(
                report.final, dict(ref), games=final_games, seed=seed + 1, depth=final_depth,
                time_limit=final_time, workers=workers, progress=cb, label="final match",
            )  # fmt: skip
            data["final_match"] = {
                "against": against,
                "time": final_time,
                "depth": final_depth,
                **final.to_dict(),
            }
    if out is not None:
        write_weights(
            report.final, out, note=f"tuned by play: seed {seed}, {len(report.steps)} rounds", table="base"
        )
        data["written"] = str(out)
    if report.interrupted or (final is not None and final.interrupted):
        note_interrupted("the rounds and games finished so far")
    if as_json:
        print_json(data)
        return
    console.print(
        "final weights: "
        + ", ".join(f"{k} {report.final[k]:g}" for k in ("future_mobility", "cramped", "junctions"))
    )
    if final is not None:
        budget = f"{final_time} s/move" if final_time is not None else f"depth {final_depth}"
        console.print(
            f"final match against {escape(str(against))} ({budget}): {final.games} games, "
            f"{escape(final.text())}; blockade losses within 10 turns after placing: {final.blockades_a} "
            f"(against: {final.blockades_b})"
        )
    if out is not None:
        console.print(f"written to {escape(str(out))}")


def register(app: typer.Typer) -> None:
    """Add ``tune`` and ``tune-play`` to the ``morris`` group."""
    app.command("tune")(tune_command)
    app.command("tune-play")(tune_play_command)
