"""Seat equity (issue 26): the play data, the model's fit, predicted against measured, the three board kinds.

Usage::

    nice .venv/bin/python benchmarks/catan_equity.py --workers 2            # every stage, resumable
    nice .venv/bin/python benchmarks/catan_equity.py --only play            # just (re)start the play runs
    nice .venv/bin/python benchmarks/catan_equity.py --only fit --write-model   # refit, write the data file
    nice -n 10 .venv/bin/python benchmarks/catan_equity.py --only play --workers 1 --interleave \
        --pool-kinds random:0,anneal:1 --equity-boards 40       # the three kinds, evenly, resumable

Stages (``--only``; all by default, in this order):

1. ``play``: the measured pool. ``--boards`` boards of each kind (uniform random, and the annealer at
   fairness 0.25, 0.5, 0.75 and 1), ``--games`` seeded games each with four ``advisor`` openers, through
   the job runner (``--workers`` / ``--dask``). Every finished board is appended to
   ``OUT/pool.jsonl`` at once; a rerun plays only the boards not in the file, so Ctrl-C (partial results
   kept, flagged) and resuming are free. The same for ``OUT/equity.jsonl`` (``--equity-file``):
   ``--equity-boards`` boards of the seat-equity generator, same games.
2. ``fit``: the seat model (:mod:`boardeval.catan.equity_fit`), fitted on the pool; held-out log-loss by
   K-fold cross-validation over boards against "25 % each" and the sum-of-scores baseline; calibration;
   predicted against measured seat spreads (correlation, share of measured spread explained, what chance
   alone leaves). ``--write-model`` writes the coefficients to the shipped data file.
3. ``kinds``: the test that matters: per-board best-minus-worst seat spread at ``--spread-games`` games a
   board (the first games of each board) and the pooled seat win rates, on random, energy-optimal
   (fairness 1) and seat-equity boards, with 95 % intervals.
4. ``speed``: the draft and the seat-equity generator's time per board on one core.
5. ``shipped`` (only with ``--only shipped``): the shipped model, unrefitted, on boards it was not fitted
   on (``--shipped pool.jsonl:128,equity.jsonl``: the pool after its first 128 boards, every seat-equity
   board), predicted against measured spread and log-loss.

Every figure is printed with the machine's load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from boardeval.catan.equity_play import board_jobs, collect, load_plays

POOL_KINDS = (("random", 0.0), ("anneal", 0.25), ("anneal", 0.5), ("anneal", 0.75), ("anneal", 1.0))


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def _progress(done: int, total: int, message: str) -> None:
    print(f"  {done}/{total} {message} ({_load()})", file=sys.stderr, flush=True)


def _pool_jobs(args: argparse.Namespace) -> list[Any]:
    """The pool's boards, kept to ``--pool-kinds`` if given (a filter: the seeds stay the full plan's, so
    a filtered run plays the very boards a full one would)."""
    pool = board_jobs(POOL_KINDS, args.boards, args.games, args.seed)
    if not args.pool_kinds:
        return pool
    keep = {(k, float(v)) for k, v in (part.split(":") for part in args.pool_kinds.split(","))}
    return [j for j in pool if (j.kind, j.level) in keep]


def _interleaved(args: argparse.Namespace) -> bool:
    """``--interleave``: the pool's boards (``--pool-kinds``) and the seat-equity boards in rounds, one
    board of each kind a round, so that a run stopped at any time leaves the kinds with as many boards as
    each other (the comparison of kinds uses the smallest count); True if interrupted."""
    out = Path(args.out)
    pool = _pool_jobs(args)
    eq = board_jobs((("equity", args.equity_weight),), args.equity_boards, args.games, args.seed + 1)
    kinds = len({(j.kind, j.level) for j in pool})
    print(f"play: interleaved, pool {len(pool)} + seat-equity {len(eq)} boards x {args.games} games", end=" ")
    print(f"({_load()})", flush=True)
    done_pool = {p.key for p in load_plays(out / "pool.jsonl")}
    done_eq = {p.key for p in load_plays(out / args.equity_file)}
    todo_pool = [j for j in pool if j.key not in done_pool]
    todo_eq = [j for j in eq if j.key not in done_eq]
    while todo_pool or todo_eq:
        for jobs, path in ((todo_pool[:kinds], "pool.jsonl"), (todo_eq[:1], args.equity_file)):
            if not jobs:
                continue
            r = collect(jobs, out / path, workers=args.workers, address=args.dask, chunk=1)
            print(f"  {path}: +{r.played_now} board(s) in {r.seconds:.0f} s ({_load()})", flush=True)
            if r.interrupted:
                print("play: INTERRUPTED (partial results kept)", flush=True)
                return True
        todo_pool, todo_eq = todo_pool[kinds:], todo_eq[1:]
    return False


def play(args: argparse.Namespace) -> bool:
    """Stage 1; True if interrupted."""
    out = Path(args.out)
    if args.interleave:
        return _interleaved(args)
    if not args.equity_only:
        pool = _pool_jobs(args)
        print(f"play: pool {len(pool)} boards x {args.games} games ({_load()})", flush=True)
        r = collect(pool, out / "pool.jsonl", workers=args.workers, address=args.dask, progress=_progress)
        print(
            f"play: pool has {len(r.plays)}/{r.planned} boards, {r.played_now} played now in "
            f"{r.seconds:.0f} s{' (INTERRUPTED: partial)' if r.interrupted else ''} ({_load()})",
            flush=True,
        )
        if r.interrupted:
            return True
    if args.equity_boards:
        jobs = board_jobs((("equity", args.equity_weight),), args.equity_boards, args.games, args.seed + 1)
        r = collect(jobs, out / args.equity_file, workers=args.workers, address=args.dask, progress=_progress)
        print(
            f"play: seat-equity boards {len(r.plays)}/{r.planned}, {r.played_now} now in {r.seconds:.0f} s"
            f"{' (INTERRUPTED: partial)' if r.interrupted else ''} ({_load()})",
            flush=True,
        )
        return r.interrupted
    return False


def _pool(args: argparse.Namespace) -> list[Any]:
    """The pool's boards: ``OUT/pool.jsonl`` and the ``--pool-extra`` files (e.g. a 100-game pool)."""
    plays = load_plays(Path(args.out) / "pool.jsonl")
    for extra in filter(None, (args.pool_extra or "").split(",")):
        plays += load_plays(Path(args.out) / extra)
    return plays


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def fit(args: argparse.Namespace) -> None:
    """Stage 2: cross-validated fit, calibration, predicted vs measured; optionally write the model."""
    import numpy as np

    from boardeval.catan.equity import FEATURES
    from boardeval.catan.equity_fit import cross_validate, features_of, fit_model, log_loss, score_baseline

    plays = _pool(args)
    source = [f"{p.kind} {p.level:g}" for p in plays]
    for extra in filter(None, (args.fit_extra or "").split(",")):
        more = load_plays(Path(args.out) / extra)  # e.g. the seat-equity boards: the boards it is used on
        plays += more
        source += [f"{p.kind} {p.level:g} ({extra})" for p in more]
    if not plays:
        print("fit: no play data yet (run --only play first)")
        return
    games = sum(p.games for p in plays)
    print(f"fit: {len(plays)} boards, {games} games ({_load()})")
    print(f"  every game opened as the draft says: {all(p.draft_matches for p in plays)}")
    r = cross_validate(plays, folds=args.folds, seed=args.seed, workers=args.workers, address=args.dask)
    print(f"  held-out log-loss per game ({r.folds}-fold over boards):")
    print(f"    model           {r.log_loss:.4f}")
    print(f"    25 % each       {r.log_loss_uniform:.4f}")
    print(f"    sum of scores   {r.log_loss_scores:.4f}")
    print(f"    model gain over 25 % each: {r.log_loss_uniform - r.log_loss:+.4f} nats per game")
    print("  calibration (seats binned by held-out prediction): predicted / measured win rate (seats)")
    for pred, meas, n in r.calibration:
        print(f"    {_pct(pred):>5} % / {_pct(meas):>5} %  ({n})")
    print(
        f"  per board, predicted vs measured best-minus-worst spread: r = {r.spread_r:.3f}; "
        f"means {_pct(r.predicted_spread_mean)} vs {_pct(r.measured_spread_mean)} points"
    )
    print(
        f"  share of measured seat deviations (from 25 %) the predictions explain: {_pct(r.explained)} %; "
        f"binomial chance alone leaves at most {_pct(r.explainable)} % explainable"
    )
    x, w, g = features_of(plays)
    print("  per kind (held out): boards, predicted vs measured spread, r; log-loss model / sum of scores")
    for label in sorted(set(source)):
        idx = [i for i, s in enumerate(source) if s == label]
        pr = r.held_out[idx]
        wins = w[idx]
        rates = wins / wins.sum(axis=1, keepdims=True)
        ps, ms = pr.max(1) - pr.min(1), rates.max(1) - rates.min(1)
        rr = float(np.corrcoef(ps, ms)[0, 1]) if len(idx) > 2 else float("nan")
        print(
            f"    {label}: {len(idx)} boards, predicted spread {_pct(ps.mean())}, measured "
            f"{_pct(ms.mean())} points, r = {rr:.3f}; log-loss {log_loss(pr, wins):.4f} / "
            f"{log_loss(score_baseline(x[idx]), wins):.4f}"
        )
    counts: dict[str, int] = {}
    for p in plays:
        name = {"random": "random", "anneal": "annealed (energy)", "equity": "seat-equity"}[p.kind]
        counts[name] = counts.get(name, 0) + 1
    meta = {
        "fitted_on": f"{len(plays)} boards, {games} games, four advisor openers ("
        + ", ".join(f"{n} {k}" for k, n in counts.items())
        + f"), seed {args.seed}",
        "boards": len(plays),
        "games": games,
        "held_out_log_loss": {
            "model": r.log_loss,
            "uniform": r.log_loss_uniform,
            "sum_of_scores": r.log_loss_scores,
            "folds": r.folds,
        },
        "command": f"benchmarks/catan_equity.py --out {args.out} --only fit --write-model --seed {args.seed}"
        + (f" --pool-extra {args.pool_extra}" if args.pool_extra else "")
        + (f" --fit-extra {args.fit_extra}" if args.fit_extra else ""),
    }
    model = fit_model(x, w, g, meta)
    print("  coefficients (raw units; logit per unit above the table's mean):")
    for name, c in zip(FEATURES, model.coef, strict=True):
        print(f"    {name:14s} {c:+.4f}")
    if args.write_model:
        path = Path(__file__).resolve().parents[1] / "src/boardeval/catan/data/seat_equity_model.json"
        path.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"  wrote {path}")
    if args.charts:
        _fit_charts(r, plays, Path(args.charts))


def _save(fig: Any, out: Path, name: str) -> None:
    """Write a chart as PNG and SVG (the SVG without a date, so reruns diff clean) and close it."""
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(
            out / f"{name}.{ext}",
            dpi=110 if ext == "png" else None,
            metadata={"Date": None} if ext == "svg" else None,
        )
    plt.close(fig)


def _fit_charts(r: Any, plays: list[Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    wins = np.array([p.wins for p in plays], dtype=float)
    rates = wins / wins.sum(axis=1, keepdims=True)
    from boardeval.catan import Board, board_energy

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    cal = np.array(r.calibration)
    ax = axes[0]
    ax.plot([0, 0.6], [0, 0.6], color="grey", lw=1, ls="--", label="perfect calibration")
    ax.plot(cal[:, 0], cal[:, 1], "o-", label="held-out seats, binned")
    ax.set_xlabel("predicted seat win rate")
    ax.set_ylabel("measured seat win rate")
    ax.set_title("calibration (held out)", fontsize=10)
    ax.legend(fontsize=8)
    ps = 100 * (r.held_out.max(1) - r.held_out.min(1))
    ms = 100 * (rates.max(1) - rates.min(1))
    energy = np.array([board_energy(Board.parse(p.board)).total for p in plays])
    for ax, x, xlabel in (
        (axes[1], energy, "board energy (lower is fairer)"),
        (axes[2], ps, "seat equity: predicted spread, held out (points)"),
    ):
        for kind in sorted({(p.kind, p.level) for p in plays}):
            m = np.array([(p.kind, p.level) == kind for p in plays])
            label = {"random": "random", "equity": "seat-equity"}.get(kind[0], f"fairness {kind[1]:g}")
            ax.scatter(x[m], ms[m], s=12, alpha=0.7, label=label)
        slope, icept = np.polyfit(x, ms, 1)
        xs = np.linspace(x.min(), x.max(), 50)
        rr = float(np.corrcoef(x, ms)[0, 1])
        ax.plot(xs, slope * xs + icept, color="black", lw=1, label=f"trend, r = {rr:.2f}")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("measured seat spread (points)")
        ax.legend(fontsize=7)
    axes[1].set_title("measured spread against energy", fontsize=10)
    axes[2].set_title("measured spread against seat equity", fontsize=10)
    _save(fig, out, "catan-equity-fit")
    print(f"  charts: {out}/catan-equity-fit.png|svg")


def _chance_spread(games: int, seed: int, reps: int = 20000) -> float:
    """Mean best-minus-worst seat rate of four equal seats over ``games`` games (simulated)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    w = rng.multinomial(games, [0.25] * 4, size=reps) / games
    return float((w.max(1) - w.min(1)).mean())


def kinds(args: argparse.Namespace) -> None:
    """Stage 3: the test that matters."""
    import numpy as np

    from boardeval.catan import Board
    from boardeval.catan.equity import seat_equity
    from boardeval.core import mean_interval, wilson_interval

    pool = _pool(args)
    eq = load_plays(Path(args.out) / args.equity_file)
    g = args.spread_games
    groups = [  # boards with at least g games, each cut to its first g games
        ("random", [p for p in pool if p.kind == "random" and p.games >= g]),
        (
            "energy-optimal (anneal, fairness 1)",
            [p for p in pool if p.kind == "anneal" and p.level == 1.0 and p.games >= g],
        ),
        ("seat-equity (anneal on the seat objective)", [p for p in eq if p.games >= g]),
    ]
    if args.equity_previous:  # the previous model's generator, to compare with (same count, same games)
        prev = load_plays(Path(args.out) / args.equity_previous)
        groups.append(("seat-equity, previous model's generator", [p for p in prev if p.games >= g]))
    n = min(len(b) for _, b in groups)
    per_kind: dict[str, list[float]] = {}
    print(f"kinds: {n} boards each x {g} games, four advisor openers ({_load()})")
    print(
        f"  chance alone (four equal seats, {g} games): mean spread "
        f"{_pct(_chance_spread(g, args.seed))} points"
    )
    for name, boards in groups:
        if not boards:
            print(f"  {name}: no boards yet")
            continue
        boards = [b.truncated(g) if b.games > g else b for b in boards[:n]]
        spreads = [b.spread for b in boards]
        per_kind[name] = spreads
        iv = mean_interval(spreads)
        wins = np.array([b.wins for b in boards]).sum(axis=0)
        total = int(sum(b.games for b in boards))
        pred = [seat_equity(Board.parse(b.board)).spread or 0.0 for b in boards]
        rates = []
        for k in range(4):
            w = wilson_interval(int(wins[k]), total)
            rates.append(f"{_pct(w.value)} [{_pct(w.lo)}, {_pct(w.hi)}]")
        worst = max(abs(wins[k] / total - 0.25) for k in range(4))
        print(f"  {name}: {len(boards)} boards, {total} games")
        print(f"    per-board spread: {_pct(iv.value)} points [{_pct(iv.lo)}, {_pct(iv.hi)}]  (target <= 25)")
        print(
            "    seat 1..4 pooled: "
            + " / ".join(rates)
            + f" %  (largest gap from 25 %: {_pct(worst)} points; target <= 2)"
        )
        print(f"    predicted spread (shipped model): {_pct(float(np.mean(pred)))} points")
        rms = _beyond_chance(boards)
        print(f"    seats' deviation from 25 % beyond chance (RMS over seats, unbiased): {_pct(rms)} points")
    names = [name for name, _ in groups]
    if all(per_kind.get(k) for k in names):
        eq = np.array(per_kind[names[2]])
        for other in names[:2] + names[3:]:
            o = np.array(per_kind[other])
            diff = eq.mean() - o.mean()
            se = float(np.sqrt(eq.var(ddof=1) / len(eq) + o.var(ddof=1) / len(o)))
            print(
                f"  seat-equity minus {other.split(' (')[0]}: {_pct(diff)} points "
                f"[{_pct(diff - 1.96 * se)}, {_pct(diff + 1.96 * se)}] (Welch, 95 %)"
            )
    if args.charts:
        _kinds_chart(groups, n, g, Path(args.charts), _chance_spread(g, args.seed))


def _beyond_chance(boards: list[Any]) -> float:
    """The seats' root-mean-square deviation from 25 % with the dice's share removed: per board
    ``sum_i (r_i - 1/4)^2 - sum_i r_i (1 - r_i) / (n - 1)`` (unbiased for the true rates' squared
    deviations), averaged over boards and seats; comparable across games per board."""
    import numpy as np

    r = np.array([b.rates for b in boards])
    n = np.array([float(b.games) for b in boards])[:, None]
    d2 = ((r - 0.25) ** 2 - r * (1 - r) / (n - 1)).mean()
    return float(np.sqrt(max(0.0, d2)))


def _kinds_chart(groups: list[Any], n: int, g: int, out: Path, chance: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = [[100 * (b.truncated(g) if b.games > g else b).spread for b in boards[:n]] for _, boards in groups]
    labels = ["random", "energy-optimal", "seat-equity", "seat-equity,\nprevious model"][: len(groups)]
    fig, ax = plt.subplots(figsize=(1.6 + 1.6 * len(groups), 4.2))
    ax.boxplot([d for d in data if d], tick_labels=[lab for lab, d in zip(labels, data, strict=True) if d])
    ax.axhline(25, color="black", lw=1, ls="--", label="target 25 points")
    ax.axhline(100 * chance, color="grey", lw=1, ls=":", label=f"chance alone {100 * chance:.1f} points")
    ax.set_ylabel(f"best minus worst seat, {g} games a board (points)")
    ax.set_title(f"seat spread among four advisor openers, {n} boards each", fontsize=10)
    ax.legend(fontsize=8)
    _save(fig, out, "catan-equity-kinds")


def shipped(args: argparse.Namespace) -> None:
    """Stage 5: the shipped model on boards it was not fitted on (``--shipped FILE:SKIP,...``: each
    results file without its first SKIP boards, those the model was fitted on), per kind of board:
    predicted against measured spread, how much of the seats' deviation it explains beyond chance, and
    log-loss, no refit, so nothing here has seen these games. ``--baseline-model FILE`` (an earlier
    model's JSON, its terms a subset of today's) is measured on the same boards beside it."""
    from boardeval.catan.equity import load_seat_model

    model = load_seat_model()
    other = _baseline_model(args.baseline_model) if args.baseline_model else None
    print(f"shipped model ({model.meta.get('fitted_on', '?')}) on boards it was not fitted on ({_load()})")
    if other is not None:
        print(f'  beside it ("previous"): {args.baseline_model} ({other[2]})')
    every: list[Any] = []
    parts = args.shipped.split(",")
    for part in parts:
        name, _, skip = part.partition(":")
        plays = load_plays(Path(args.out) / name)[int(skip or 0) :]
        every += plays
        fitted = name in _fitted_files(str(model.meta.get("command", "")))
        flag = (
            " (IN THE SHIPPED MODEL'S FIT: not held out for it; held out for the previous)" if fitted else ""
        )
        _shipped_line(f"{name} after its first {skip or 0}{flag}", plays, model, other)
        kinds = sorted({(p.kind, p.level) for p in plays})
        for k, v in kinds if len(kinds) > 1 else ():
            _shipped_line(f"  {k} {v:g}", [p for p in plays if (p.kind, p.level) == (k, v)], model, other)
    if len(parts) > 1:
        _shipped_line("all of them", every, model, other)


def _fitted_files(command: str) -> set[str]:
    """The results files a model's fit command names (``pool.jsonl`` and the extra files)."""
    words = command.split()
    out = {"pool.jsonl"}
    for flag in ("--pool-extra", "--fit-extra"):
        if flag in words[:-1]:
            out.update(words[words.index(flag) + 1].split(","))
    return out


def _baseline_model(path: str) -> tuple[list[int], Any, str]:
    """An earlier model file: the columns of today's terms it uses, its coefficients, its provenance."""
    import numpy as np

    from boardeval.catan.equity import FEATURES

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    missing = [f for f in data["features"] if f not in FEATURES]
    if missing:
        raise SystemExit(f"--baseline-model {path}: terms {missing} are not in today's model")
    cols = [FEATURES.index(f) for f in data["features"]]
    return cols, np.asarray(data["coef"], dtype=float), str(data.get("meta", {}).get("fitted_on", "?"))


def _seat_figures(p: Any, wins: Any, games: Any) -> str:
    """Predicted against measured, per board and seat: r of the spreads (95 % Fisher interval), and the
    share of the seats' true deviation from 25 % explained, chance removed: with ``SS_tot = sum (r -
    1/4)^2``, ``SS_res = sum (r - p)^2`` and the dice's share ``N = sum r (1 - r) / (n - 1)`` (unbiased for
    the binomial variance of a measured rate), ``1 - (SS_res - N) / (SS_tot - N)``."""
    import numpy as np

    rates = wins / games[:, None]
    ps, ms = p.max(1) - p.min(1), rates.max(1) - rates.min(1)
    r = float(np.corrcoef(ps, ms)[0, 1])
    half = 1.96 / np.sqrt(max(len(ps) - 3, 1))
    lo, hi = np.tanh(np.arctanh(r) - half), np.tanh(np.arctanh(r) + half)
    noise = float((rates * (1 - rates) / (games[:, None] - 1)).sum())
    ss_tot = float(((rates - 0.25) ** 2).sum())
    ss_res = float(((rates - p) ** 2).sum())
    explained = 1 - (ss_res - noise) / (ss_tot - noise) if ss_tot > noise else float("nan")
    return (
        f"spread r = {r:.3f} [{lo:.2f}, {hi:.2f}], means {_pct(float(ps.mean()))} vs "
        f"{_pct(float(ms.mean()))} points; explains {_pct(1 - ss_res / ss_tot)} % of the seats' squared "
        f"deviation from 25 %, {_pct(explained)} % of it beyond chance (the dice: {_pct(noise / ss_tot)} %)"
    )


def _shipped_line(label: str, plays: list[Any], model: Any, other: Any = None) -> None:
    """One line of stage 5 (:func:`_seat_figures`, log-loss against both baselines and the previous
    model, calibration by seat quartiles) and the ceiling the dice leave: the split-half reliability of
    the measured spreads (first against second half of each board's games, Spearman-Brown) bounds the
    r any prediction can reach, ``sqrt(reliability)``."""
    import numpy as np

    from boardeval.catan.equity import centred, predict_probabilities
    from boardeval.catan.equity_fit import _calibration, features_of, log_loss, score_baseline

    if len(plays) < 3:
        print(f"  {label}: {len(plays)} boards (too few)")
        return
    x, wins, games = features_of(plays)
    p = predict_probabilities(x, model)
    rates = wins / games[:, None]
    print(f"  {label}: {len(plays)} boards x {int(games.mean())} games ({int(games.sum())}):")
    print(f"      model: {_seat_figures(p, wins, games)}")
    line = (
        f"      log-loss: model {log_loss(p, wins):.4f}, 25 % each {np.log(4.0):.4f}, "
        f"sum of scores {log_loss(score_baseline(x), wins):.4f}"
    )
    if other is not None:
        z = centred(x[..., other[0]]) @ other[1]
        q = np.exp(z - z.max(-1, keepdims=True))
        q /= q.sum(-1, keepdims=True)
        d = -(wins * (np.log(p) - np.log(q))).sum(1)
        se = float(d.std(ddof=1) * np.sqrt(len(d)) / wins.sum())
        gain = d.sum() / wins.sum()
        line += f", previous {log_loss(q, wins):.4f} (model minus previous {gain:+.4f} +- {1.96 * se:.4f})"
        print(line)
        print(f"      previous: {_seat_figures(q, wins, games)}")
    else:
        print(line)
    half = min(p.games for p in plays) // 2
    if half >= 10:
        a = np.array([p.first(half) for p in plays], dtype=float) / half
        b = np.array([p.truncated(2 * half).wins for p in plays], dtype=float) / half - a
        r_half = float(np.corrcoef(a.max(1) - a.min(1), b.max(1) - b.min(1))[0, 1])
        rel = 2 * r_half / (1 + r_half)
        ceiling = np.sqrt(max(rel, 0.0))
        print(
            f"      the dice's ceiling: split-half r of measured spreads {r_half:.3f} ({half} + {half} "
            f"games), reliability {rel:.3f}: no prediction can correlate above about {ceiling:.2f}"
        )
    cal = _calibration(p, rates, games, 4)
    print(
        "      calibration (predicted / measured, seat quartiles): "
        + ", ".join(f"{_pct(a)} / {_pct(b)}" for a, b, _ in cal)
    )


def speed(args: argparse.Namespace) -> None:
    """Stage 4: time per board on one core."""
    import resource
    import time

    import numpy as np

    from boardeval.catan import Board
    from boardeval.catan.equity import load_seat_model, seat_equity
    from boardeval.catan.equity_fast import fast_equity
    from boardeval.catan.equity_generate import equity_anneal, equity_tournament

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    boards = [Board.random(s) for s in range(200)]
    kernel = fast_equity(load_seat_model())
    arrays = [(b.resource_index, b.pips.astype(float), b.number_array, b.port_index) for b in boards]
    kernel.spread(*arrays[0])  # compile/load
    equity_anneal(0)  # warm up
    c = cpu()
    for b in boards:
        seat_equity(b)
    exact = (cpu() - c) / len(boards)
    c = cpu()
    for _ in range(10):
        for a in arrays:
            kernel.spread(*a)
    fast = (cpu() - c) / (10 * len(boards))
    print(f"speed (CPU seconds, one process; {_load()}):")
    print(
        f"  seat_equity (exact, explained): {1000 * exact:.2f} ms a board; "
        f"compiled kernel {1e6 * fast:.1f} us"
    )
    times, walls = [], []
    for seed in range(args.speed_boards):
        c, t = cpu(), time.perf_counter()
        equity_anneal(seed + 1000)
        times.append(cpu() - c)
        walls.append(time.perf_counter() - t)
    t_arr = np.array(times)
    print(
        f"  equity_anneal ({args.speed_boards} seeds): CPU median {np.median(t_arr):.3f} s, max "
        f"{t_arr.max():.3f} s (wall median {np.median(walls):.3f} s); target <= 1 s"
    )
    times = []
    for seed in range(min(5, args.speed_boards)):
        c = cpu()
        equity_tournament(seed + 1000)
        times.append(cpu() - c)
    print(f"  equity_tournament ({len(times)} seeds): CPU median {np.median(times):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default="out/equity", help="results folder (git-ignored)")
    parser.add_argument("--boards", type=int, default=40, help="boards per kind in the pool")
    parser.add_argument("--games", type=int, default=40, help="games per board")
    parser.add_argument("--equity-boards", type=int, default=40)
    parser.add_argument("--equity-only", action="store_true", help="play only the seat-equity boards")
    parser.add_argument(
        "--equity-weight", type=float, default=0.1, help="energy weight of the seat-equity boards"
    )
    parser.add_argument(
        "--pool-kinds",
        default=None,
        help="play only these pool kinds, e.g. random:0,anneal:1 (the boards of the full plan)",
    )
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="play the pool (--pool-kinds) and the seat-equity boards one board of each kind a round",
    )
    parser.add_argument(
        "--equity-file", default="equity.jsonl", help="results file of the seat-equity boards (in --out)"
    )
    parser.add_argument(
        "--pool-extra", default=None, help="more pool results files (in --out), comma-separated"
    )
    parser.add_argument(
        "--fit-extra", default=None, help="more results files (in --out) to fit on, comma-separated"
    )
    parser.add_argument(
        "--equity-previous",
        default=None,
        help="stage kinds: the previous model's seat-equity results file (in --out), compared beside",
    )
    parser.add_argument("--spread-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask", default=None, help="Dask scheduler address")
    parser.add_argument("--only", choices=["play", "fit", "kinds", "speed", "shipped"], default=None)
    parser.add_argument(
        "--shipped",
        default="pool.jsonl:128,equity.jsonl",
        help="stage shipped: FILE:SKIP,... (skip the boards the shipped model was fitted on)",
    )
    parser.add_argument(
        "--baseline-model", default=None, help="stage shipped: an earlier model's JSON to measure beside it"
    )
    parser.add_argument("--write-model", action="store_true", help="write the fitted model to the data file")
    parser.add_argument("--charts", default=None, help="folder for the charts (e.g. docs/img)")
    parser.add_argument("--speed-boards", type=int, default=20)
    args = parser.parse_args()
    stages = [args.only] if args.only else ["play", "fit", "kinds", "speed"]
    if "play" in stages and play(args):
        raise SystemExit(130)
    if "fit" in stages:
        fit(args)
    if "kinds" in stages:
        kinds(args)
    if "speed" in stages:
        speed(args)
    if "shipped" in stages:
        shipped(args)


if __name__ == "__main__":
    main()
