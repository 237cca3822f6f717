"""``boardeval catan generate|optimum|count-boards|blog-model``: the board generators.

Thin wrappers over the library (:func:`boardeval.catan.generate` and friends). Bad options raise library
errors; the root group prints one red line and exits 2. The generators need OR-Tools, which takes a
quarter of a second to import: each command imports what it uses when it runs, so that ``boardeval catan
spots`` (which loads this module to register the commands) starts without it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from boardeval.catan import energy_json
from boardeval.cli.catan import LayoutOpt, PlayersOpt, resolve_layout
from boardeval.cli.common import console, note_interrupted, print_json, progress_bar
from boardeval.cli.options import SEED, float_option, int_option
from boardeval.core import ParamsError

if TYPE_CHECKING:
    from boardeval.catan import GenerationResult, Rule
    from boardeval.core import Progress

RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        help="A board rule, repeatable: e.g. --rule no-68-neighbours --rule max-spot-pips=12 "
        "(unknown names list the valid ones).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
PortsOpt = Annotated[
    str | None,
    typer.Option(
        "--ports",
        help="Harbours: random (reshuffled from the seed), fixed (the drawn board's) or balanced (placed "
        "by the energy's harbour term). Default: balanced for anneal, cp and tournament; fixed for random.",
    ),
]


class Method(StrEnum):
    random = "random"
    anneal = "anneal"
    cp = "cp"
    tournament = "tournament"


class Objective(StrEnum):
    energy = "energy"
    seat_equity = "seat-equity"


class BlogModel(StrEnum):
    tiles = "tiles"
    markers = "markers"


def _summary(result: GenerationResult) -> Table:
    t = Table(title=f"{result.method} board (seed {result.seed})", box=box.SIMPLE_HEAVY)
    t.add_column("what")
    t.add_column("value", overflow="fold")
    t.add_row("board", result.board.code())
    e = energy_json(result.energy)
    t.add_row(
        "energy",
        f"{e['energy']:.4f}  (same-resource pairs {e['same_resource_pairs']}, 6/8 pairs "
        f"{e['high_number_pairs']}, pip variance {e['pip_variance']:.4f}, harbours {e['ports']})",
    )
    for name, ok in result.rules.items():
        t.add_row(f"rule {name}", "[green]holds[/green]" if ok else "[red]broken[/red]")
    if result.optimal is not None:
        t.add_row("optimal", "proven" if result.optimal else "no (not minimised)")
    if result.fairness is not None:
        t.add_row("fairness", f"{result.fairness:g}")
    if result.swaps is not None:
        t.add_row("swaps", f"{len(result.swaps)}: " + ", ".join(str(s) for s in result.swaps))
    if result.ports is not None:
        t.add_row("ports", result.ports)
    if result.interrupted:
        t.add_row("interrupted", "[yellow]yes: best board so far[/yellow]")
    eq = result.extras.get("seat_equity")
    if isinstance(eq, dict):
        probs = eq.get("win_probabilities")
        t.add_row(
            "seats if everyone opens well",
            eq["note"]
            if probs is None
            else ", ".join(f"seat {i + 1} {100 * p:.0f} %" for i, p in enumerate(probs))
            + f" (spread {100 * eq['spread']:.1f} points)",
        )
    t.add_row("seconds", f"{result.seconds:.3f}")
    return t


def generate_cmd(
    method: Annotated[Method, typer.Option("--method", help="Generator.")] = Method.anneal,
    seed: Annotated[
        int, typer.Option("--seed", parser=SEED, help="Random seed (same seed, same board).")
    ] = 0,
    rule: RuleOpt = None,
    fairness: Annotated[
        float | None,
        typer.Option(
            "--fairness",
            parser=float_option("--fairness", 0.0, 1.0),
            help="0 = no balancing beyond the rules .. 1 = the optimal energy the rules allow (anneal: "
            "any value; cp: 0 or 1; random and tournament: 0).",
        ),
    ] = None,
    ports: PortsOpt = None,
    json_out: JsonOpt = False,
    layout: LayoutOpt = None,
    players: PlayersOpt = None,
    objective: Annotated[
        Objective,
        typer.Option(
            "--objective",
            help="What to optimise: energy (seed 001) or seat-equity (the spread of the seats' predicted "
            "win rates under the advisor draft, plus --energy-weight x energy; anneal and tournament).",
        ),
    ] = Objective.energy,
    energy_weight: Annotated[
        float | None,
        typer.Option(
            "--energy-weight",
            parser=float_option("--energy-weight", 0.0, 1e6),
            help="With --objective seat-equity: points of seat spread one energy unit costs (default 0.1; "
            "0 = seat equity alone).",
        ),
    ] = None,
) -> None:
    """Generate a board (random, anneal, cp or tournament) and check it against the rules
    (``--layout extended`` / ``--players 5|6``: the 5-6 player board). ``--objective seat-equity``
    optimises what each seat can win under a strong draft (``boardeval catan equity``)."""
    from boardeval.catan import check_fairness, check_ports_mode, equity_summary, generate, parse_rules

    if fairness is not None:
        check_fairness(fairness)
    mode = None if ports is None else check_ports_mode(ports)
    board_layout = resolve_layout(layout, players)
    rules = parse_rules(rule or [])
    if objective is Objective.seat_equity:
        result = _seat_equity_board(method, seed, rules, fairness, mode, board_layout, energy_weight)
    else:
        if energy_weight is not None:
            raise ParamsError("--energy-weight goes with --objective seat-equity")
        with progress_bar(f"catan {method.value}") as progress:
            result = generate(
                method.value,
                seed,
                rules=rules,
                fairness=fairness,
                progress=progress,
                ports=mode,
                layout=board_layout,
            )
        # the board kept after a Ctrl-C has a seat equity too (a few ms), so the document keeps its fields
        result = dataclasses.replace(
            result, extras={**result.extras, "seat_equity": equity_summary(result.board)}
        )
    if json_out:
        print_json(result.to_json())
    else:
        console.print(_summary(result))
    if result.interrupted:
        note_interrupted("the best board so far, not the finished search (see its rules)")


def _seat_equity_board(
    method: Method,
    seed: int,
    rules: Sequence[Rule],
    fairness: float | None,
    ports: str | None,
    layout: str,
    energy_weight: float | None,
) -> GenerationResult:
    """``generate --objective seat-equity``: the annealer or tournament repair on that objective."""
    from boardeval.catan import equity_anneal, equity_tournament

    if layout != "base":
        raise ParamsError(
            "--objective seat-equity needs the base board: catanatron has no 5-6 player map, so no win "
            "rates are fitted on play for it ('boardeval catan equity' shows the draft-only opening values)"
        )
    if method in (Method.random, Method.cp):
        why = (
            "a uniform shuffle optimises nothing"
            if method is Method.random
            else "CP-SAT cannot encode it: the objective is a sequential eight-pick draft of argmax choices "
            "over non-linear spot scores, then a logistic model (see catan/equity_generate.py)"
        )
        raise ParamsError(f"--objective seat-equity works with --method anneal or tournament: {why}")
    if fairness is not None:
        raise ParamsError(
            "--fairness dials the energy objective; --objective seat-equity takes --energy-weight"
        )
    if ports not in (None, "balanced"):
        raise ParamsError("--objective seat-equity moves the harbours itself (--ports balanced)")
    weight = 0.1 if energy_weight is None else energy_weight
    with progress_bar(f"catan {method.value} (seat equity)") as progress:
        if method is Method.anneal:
            if rules:
                raise ParamsError(
                    "--objective seat-equity with --method anneal takes no --rule; use tournament"
                )
            return equity_anneal(seed, energy_weight=weight, progress=progress)
        return equity_tournament(seed, rules or None, energy_weight=weight, progress=progress)


def optimum_cmd(
    rule: RuleOpt = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            parser=float_option("--time-limit", 0.0, 86400.0, lo_open=True),
            help=(
                "CP-SAT budget in seconds of its deterministic time (about a second of one core each): "
                "the same board and proof on any machine, however loaded."
            ),
        ),
    ] = 20.0,
    json_out: JsonOpt = False,
    layout: LayoutOpt = None,
    players: PlayersOpt = None,
) -> None:
    """The proven minimum energy under the rules (CP-SAT) and a board reaching it (``--layout``)."""
    from boardeval.catan import optimum, parse_rules

    board_layout = resolve_layout(layout, players)
    rules = parse_rules(rule or [])
    opt = optimum(rules, time_limit=time_limit, layout=board_layout)
    if json_out:
        print_json(opt.to_json())
    else:
        status = "proven optimal" if opt.proven else "best found (not proven)"
        console.print(f"minimum energy {opt.breakdown().total:.4f} ({status}) in {opt.seconds:.2f} s")
        console.print(opt.board.code())
    if opt.interrupted:
        note_interrupted("the best board found so far, not proven optimal")


def count_cmd(
    rule: RuleOpt = None,
    limit: Annotated[
        int,
        typer.Option(
            "--limit", parser=int_option("--limit", 1, 10**9), help="Stop counting at this many boards."
        ),
    ] = 1000,
    json_out: JsonOpt = False,
    layout: LayoutOpt = None,
    players: PlayersOpt = None,
) -> None:
    """Count full boards (tiles, tokens, ports) satisfying the rules, up to --limit (CP-SAT)."""
    from boardeval.catan import CountInterrupted, count_boards, parse_rules

    board_layout = resolve_layout(layout, players)
    rules = parse_rules(rule or [])
    interrupted = False
    with progress_bar("counting") as progress:
        try:
            n, complete = count_boards(rules, limit, progress=progress, layout=board_layout)
        except CountInterrupted as stop:
            n, complete, interrupted = stop.count, False, True
    if interrupted:
        note_interrupted(f"the {n} boards counted so far (a lower bound)")
    if json_out:
        out: dict[str, object] = {"count": n, "complete": complete, "rules": [r.text for r in rules]}
        if interrupted:
            out["interrupted"] = True
        print_json(out)
        return
    if interrupted:
        console.print(f"{n} boards (at least; interrupted)")
        return
    console.print(f"{n} boards" + ("" if complete else f" (at least; stopped at --limit {limit})"))


def blog_model_cmd(
    model: Annotated[BlogModel, typer.Argument(help="tiles or markers (seed 004's two models).")],
    threshold: Annotated[
        int,
        typer.Option(
            "--threshold",
            "-T",
            parser=int_option("--threshold", -(10**6), 10**6),
            help="Marker model: vertex sums must stay below T.",
        ),
    ] = 23,
    count: Annotated[bool, typer.Option("--count", help="Print the number of solutions.")] = False,
    list_n: Annotated[
        int | None,
        typer.Option(
            "--list", parser=int_option("--list", 0, 10**6), help="Print the first N solutions, staggered."
        ),
    ] = None,
    json_out: JsonOpt = False,
    layout: LayoutOpt = None,
    players: PlayersOpt = None,
) -> None:
    """Seed 004's MiniZinc models reproduced: count or list the tile / marker layouts (base board only)."""
    from boardeval.catan import format_staggered

    if resolve_layout(layout, players) != "base":
        raise ParamsError(
            "blog-model counts seed 004's models of the base board only (19 hexes, its fixed frame); "
            "for the 5-6 player board use count-boards --layout extended"
        )
    if not count and list_n is None:
        count = True
    with progress_bar(f"blog-model {model.value}") as progress:
        n, grids, interrupted = _blog_solutions(model, threshold, count, list_n or 0, progress)
    if json_out:
        out: dict[str, object] = {"model": model.value}
        if model is BlogModel.markers:
            out["threshold"] = threshold
        if n is not None:
            out["count"] = n
        if list_n is not None:
            out["solutions"] = [[list(row) for row in g] for g in grids]
        if interrupted:
            out["interrupted"] = True
        print_json(out)
    else:
        for k, g in enumerate(grids):
            if k:
                console.print("----------")
            console.print(format_staggered(g), markup=False)
        if n is not None:
            console.print(str(n))
    if interrupted:
        note_interrupted("the layouts counted so far (a lower bound); no list")


def _blog_solutions(
    model: BlogModel, threshold: int, count: bool, first: int, progress: Progress | None = None
) -> tuple[int | None, list[tuple[tuple[int, ...], ...]], bool]:
    """The solution count (when asked), the first ``first`` solutions of one blog model, and whether
    Ctrl-C cut the count short (then the count is a lower bound and nothing is listed). ``progress``
    hears the marker count's progress (the tile model is counted at once)."""
    from boardeval.catan import BLOG_BOARD, count_markers, count_tiles, iter_markers, iter_tiles

    if model is BlogModel.tiles:
        return (count_tiles() if count else None), list(itertools.islice(iter_tiles(), first)), False
    counted = count_markers(threshold, progress=progress) if count else None
    if counted is not None and counted.interrupted:
        return counted.count, [], True
    listed = iter_markers(threshold, BLOG_BOARD, limit=first) if first else []
    return (None if counted is None else counted.count), listed, False


def register(app: typer.Typer) -> None:
    """Add the generator commands to the ``catan`` group."""
    app.command("generate")(generate_cmd)
    app.command("optimum")(optimum_cmd)
    app.command("count-boards")(count_cmd)
    app.command("blog-model")(blog_model_cmd)
