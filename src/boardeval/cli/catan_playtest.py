"""``boardeval catan playtest`` and ``boardeval catan advise``: play-testing on catanatron, opening advice.

:func:`register` adds the commands to the ``catan`` group. Bad input raises a library error; the root
group prints one red line and exits 2. Ctrl-C during a play-test prints the finished games and exits 130.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from boardeval.catan import (
    PLAYER_NAMES,
    Advice,
    PlaytestResult,
    RateStats,
    StudyResult,
    TuneResult,
    advise,
    load_named_params,
    parse_taken,
    run_playtest,
    run_study,
    tune_spots,
    write_study,
    write_tuned,
)
from boardeval.cli.catan import read_board
from boardeval.cli.common import PLAIN_EVERY, console, err_console, print_json, progress_bar
from boardeval.cli.options import SEED, WORKERS, int_option
from boardeval.core import CatanError, parse_float, quote

__all__ = ["register"]

MAX_GAMES = 1_000_000
"""Most game seeds a play-test, a study board or a tuning trial takes from the command line."""

BoardArg = Annotated[
    str, typer.Argument(help="Board share code (e.g. O10-S2-...~3S3W3B3GO) or a JSON board file.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]


def _rate_table(title: str, rows: tuple[RateStats, ...]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    for col in ("", "games", "wins", "win rate", "95% interval", "mean VP"):
        table.add_column(col, justify="left" if col == "" else "right")
    for r in rows:
        table.add_row(
            r.name,
            str(r.games),
            str(r.wins),
            f"{100 * r.rate.value:.1f}%",
            f"{100 * r.rate.lo:.1f}-{100 * r.rate.hi:.1f}%",
            f"{r.mean_vp:.2f}",
        )
    return table


def _show_playtest(result: PlaytestResult) -> None:
    console.print(f"[bold]board[/bold] {result.board}")
    console.print(_rate_table("per player (as listed)", result.players))
    console.print(_rate_table("per seat (seat 1 places first)", result.seats))
    t = result.turns
    mean = result.turns_interval
    ci = f" (95% {mean.lo:.1f}-{mean.hi:.1f})" if mean is not None else ""
    console.print(
        f"game length (turns): mean {t['mean']:.1f}{ci}, median {t['median']:.1f}, p90 {t['p90']:.1f}"
    )
    console.print(
        f"{result.games} games, {result.unfinished} unfinished (turn limit), "
        f"{result.seconds:.1f} s, {result.games_per_second:.1f} games/s"
    )


def _playtest_command(
    board: BoardArg,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            parser=int_option("--games", 1, MAX_GAMES),
            help="Number of game seeds (x seats with --rotate).",
        ),
    ] = 100,
    players: Annotated[
        str,
        typer.Option("--players", help=f"Comma-separated, in seat order; names: {', '.join(PLAYER_NAMES)}."),
    ] = "weighted,weighted,weighted,weighted",
    rotate: Annotated[bool, typer.Option("--rotate", help="Play every game in every seating.")] = False,
    seed: Annotated[
        int, typer.Option("--seed", parser=SEED, help="Seed of the game seeds (same seed, same games).")
    ] = 0,
    workers: Annotated[int, typer.Option("--workers", parser=WORKERS, help="Local worker processes.")] = 1,
    dask: Annotated[
        str | None, typer.Option("--dask", help="Dask scheduler address (tcp://host:port).")
    ] = None,
    params: Annotated[
        str | None,
        typer.Option("--params", help="The advisor's weights: 'default', 'tuned' (if shipped) or a file."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Play seeded catanatron games on a board: win rates per player and seat with 95% intervals."""
    b = read_board(board)
    advisor = None if params is None else load_named_params(params)
    with progress_bar("playtest", plain_every=PLAIN_EVERY) as progress:
        result = run_playtest(
            b,
            players.split(","),
            games=games,
            seed=seed,
            rotate=rotate,
            workers=workers,
            address=dask,
            progress=progress,
            advisor=advisor,
        )
    if json_out:
        print_json(result.to_json())
    else:
        _show_playtest(result)
    if result.interrupted:
        err_console.print(f"[yellow]interrupted: kept {result.games} of {result.planned} games[/yellow]")
        raise typer.Exit(130)


def _show_advice(advice: Advice) -> None:
    pick = "first" if advice.first is None else f"second (first at spot {advice.first})"
    console.print(f"seat {advice.seat + 1} to move, {pick} settlement: [bold]spot {advice.spot}[/bold]")
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("term", "raw", "weight", "contribution"):
        table.add_column(col, justify="left" if col == "term" else "right")
    for term in advice.why:
        table.add_row(term.name, f"{term.raw:.3f}", f"{term.weight:g}", f"{term.contribution + 0.0:.3f}")
    table.add_row("[bold]total[/bold]", "", "", f"[bold]{advice.score:.3f}[/bold]")
    console.print(table)
    console.print(str(advice.why.extras.get("rule", "")))
    if advice.first is not None:
        lacks = advice.why.extras.get("first_lacks") or ["nothing"]
        console.print(f"the first settlement (spot {advice.first}) lacks: {', '.join(lacks)}")
    alts = ", ".join(f"{s} ({v:.2f})" for s, v in advice.ranking[1:6])
    console.print(f"next best: {alts}")


def _advise_command(
    board: BoardArg,
    taken: Annotated[
        str, typer.Option("--taken", help="Spots settled so far, in placement order (snake 1-2-3-4-4-3-2-1).")
    ] = "",
    params: Annotated[
        str | None,
        typer.Option("--params", help="Parameter set: 'default', 'tuned' (if shipped) or a file."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The best next opening settlement for the seat to move, and why."""
    b = read_board(board)
    spot, opening = (None, None) if params is None else load_named_params(params)
    advice = advise(b, parse_taken(taken), spot, opening)
    if json_out:
        print_json(advice.to_json())
    else:
        _show_advice(advice)


def _levels(text: str) -> list[float]:
    """``--fairness 0,0.5,1``: decimals in 0..1 separated by commas, each through the shared reader
    (no spaces, no empty entries: ``0, 0.5`` and ``0,,1`` are refused, quoting the entry and the list)."""
    return [
        parse_float(part, f"--fairness {quote(text)}: entry {k}", lo=0.0, hi=1.0, error=CatanError)
        for k, part in enumerate(text.split(","), start=1)
    ]


class StudyPlayers(StrEnum):
    weighted = "weighted"
    advisor = "advisor"


def _show_study(result: StudyResult) -> None:
    table = Table(
        title=f"fairness study (4 {result.players[0]} players)", box=box.SIMPLE_HEAD, title_justify="left"
    )
    for col in (
        "fair",
        "boards",
        "games",
        "energy",
        "turns",
        "95% interval",
        "p90",
        "spread",
        "best",
        "unfin",
        "seat eq.",
    ):
        table.add_column(col, justify="right")
    for lv in result.levels:
        table.add_row(
            f"{lv.fairness:g}",
            str(lv.boards),
            str(lv.games),
            f"{lv.energy_mean:.1f}",
            f"{lv.turns_mean:.1f}",
            f"{lv.turns_ci95[0]:.1f}-{lv.turns_ci95[1]:.1f}",
            f"{lv.turns_p90:.0f}",
            f"{100 * lv.spread:.1f}%",
            f"{100 * lv.best_opening_share:.1f}%",
            f"{100 * lv.unfinished_share:.1f}%",
            f"{100 * lv.seat_equity_mean:.1f}",
        )
    console.print(table)
    console.print(
        "spread: highest minus lowest seat win rate; best: games won by the seat with the best opening "
        "(sum of its two settlements' spot scores; 25% = the opening decides nothing); seat eq.: the "
        "predicted spread in points if everyone opens with the advisor (boardeval catan equity)"
    )
    console.print(f"{sum(lv.games for lv in result.levels)} games in {result.seconds:.1f} s")


def _study_command(
    fairness: Annotated[str, typer.Option("--fairness", help="Dial levels, e.g. 0,0.25,0.5,0.75,1.")] = (
        "0,0.25,0.5,0.75,1"
    ),
    boards: Annotated[
        int,
        typer.Option(
            "--boards", parser=int_option("--boards", 1, 100_000), help="Boards generated per level."
        ),
    ] = 40,
    games: Annotated[
        int,
        typer.Option("--games", parser=int_option("--games", 1, MAX_GAMES), help="Seeded games per board."),
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", parser=SEED, help="Seed of boards and games.")] = 0,
    workers: Annotated[int, typer.Option("--workers", parser=WORKERS, help="Local worker processes.")] = 1,
    dask: Annotated[
        str | None, typer.Option("--dask", help="Dask scheduler address (tcp://host:port).")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Directory for study.csv, study.json and charts.")
    ] = Path("catan-study"),
    json_out: JsonOpt = False,
    players: Annotated[
        StudyPlayers,
        typer.Option(
            "--players",
            help="weighted: four catanatron WeightedRandom bots (random openings); advisor: four strong "
            "openers (the advisor's opening, then the same play), where the draft decides much more.",
        ),
    ] = StudyPlayers.weighted,
) -> None:
    """Fairness versus play: game length and seat win spread over boards along the fairness dial."""
    levels = _levels(fairness)
    with progress_bar("study", plain_every=PLAIN_EVERY) as progress:
        result = run_study(
            levels,
            boards=boards,
            games=games,
            seed=seed,
            workers=workers,
            address=dask,
            progress=progress,
            players=players.value,
        )
    paths = write_study(result, out, charts=not result.interrupted)
    if json_out:
        print_json(result.to_json())
    else:
        _show_study(result)
        console.print("wrote " + ", ".join(str(p) for p in paths))
    if result.interrupted:
        err_console.print("[yellow]interrupted: the files hold the finished games (no charts)[/yellow]")
        raise typer.Exit(130)


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _show_tune(result: TuneResult) -> None:
    table = Table(
        title="best trials (advisor vs 3 pips, the same games each; trial 0: the defaults)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    ranked = sorted(result.trials, key=lambda t: (-t.wins, t.number))
    short = {"scarcity_production": "scarcity", "raw_production": "raw", "prime_variate": "prime"}
    names = [k.removeprefix("w_").removesuffix("_weight") for k in ranked[0].params]
    for col in ("trial", "win rate", "95% interval", *(short.get(k, k) for k in names)):
        table.add_column(col, justify="right")
    for t in ranked[:10]:
        r = t.rate
        table.add_row(
            str(t.number),
            f"{100 * r.value:.1f}%",
            f"{100 * r.lo:.1f}-{100 * r.hi:.1f}%",
            *(f"{v:.2f}" for v in t.params.values()),
        )
    console.print(table)
    console.print(
        f"{len(result.trials)} of {result.planned_trials} trials finished; best: {ranked[0].number}"
    )
    if result.importances:
        parts = ", ".join(
            f"{k} {v:.2f}" for k, v in sorted(result.importances.items(), key=lambda kv: -kv[1])
        )
        console.print(f"importances (fANOVA): {parts}")
    b, d, diff = result.fresh_best, result.fresh_default, result.fresh_difference
    if b is not None and d is not None:
        console.print(
            f"fresh seeds ({result.fresh_games} games each): tuned {_pct(b.value, b.lo, b.hi)}, "
            f"default {_pct(d.value, d.lo, d.hi)}"
            + ("" if diff is None else f", difference {_pct(diff.value, diff.lo, diff.hi)}")
        )
        verdict = "beats" if result.beats_default else "does not beat"
        console.print(f"the tuned set {verdict} the default's interval")
    console.print(f"{result.seconds:.1f} s")


def _tune_command(
    trials: Annotated[
        int,
        typer.Option(
            "--trials",
            parser=int_option("--trials", 1, 100_000),
            help="Optuna trials (trial 0 is the defaults).",
        ),
    ] = 40,
    games_per_trial: Annotated[
        int,
        typer.Option(
            "--games-per-trial",
            parser=int_option("--games-per-trial", 1, MAX_GAMES),
            help="Games per trial (a multiple of 4: every seating).",
        ),
    ] = 400,
    seed: Annotated[
        int, typer.Option("--seed", parser=SEED, help="Seed of the sampler, boards and games.")
    ] = 0,
    fresh_games: Annotated[
        int,
        typer.Option(
            "--fresh-games",
            parser=int_option("--fresh-games", 0, MAX_GAMES),
            help="Games per set on fresh seeds (multiple of 4; 0 skips).",
        ),
    ] = 2000,
    workers: Annotated[int, typer.Option("--workers", parser=WORKERS, help="Local worker processes.")] = 1,
    dask: Annotated[
        str | None, typer.Option("--dask", help="Dask scheduler address (tcp://host:port).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the best set as a parameter file (TOML).")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Tune the advisor's spot weights by play (Optuna TPE vs three pips openers), check on fresh seeds."""
    with progress_bar("tune-spots", plain_every=PLAIN_EVERY) as progress:
        result = tune_spots(
            trials=trials,
            games_per_trial=games_per_trial,
            seed=seed,
            fresh_games=fresh_games,
            workers=workers,
            address=dask,
            progress=progress,
        )
    if out is not None and result.best is not None:
        write_tuned(result, out)
    if json_out:
        print_json(result.to_json())
    elif result.trials:
        _show_tune(result)
        if out is not None:
            console.print(f"wrote {out}")
    if result.interrupted:
        kept = (
            "the best so far is reported, not checked on fresh seeds"
            if result.trials and result.fresh_best is None
            else "the fresh-seed check kept its finished games"
            if result.trials
            else "nothing to report"
        )
        err_console.print(
            f"[yellow]interrupted: {len(result.trials)} of {trials} trials finished; {kept}[/yellow]"
        )
        raise typer.Exit(130)


def register(catan_app: typer.Typer) -> None:
    """Add ``playtest``, ``advise``, ``study`` and ``tune-spots`` to the ``catan`` command group."""
    catan_app.command("playtest")(_playtest_command)
    catan_app.command("advise")(_advise_command)
    catan_app.command("study")(_study_command)
    catan_app.command("tune-spots")(_tune_command)
