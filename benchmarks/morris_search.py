"""Benchmark of the compiled Morris core (issue 12 section 1): speed, depth, each technique's effect, checks.

Sections (``--sections``, default all), on the same positions in the same run:

* ``compile``: time of the first search in this process (the recursive search is compiled per process,
  the rest of the core is cached per machine);
* ``speed``: nodes per second of the new core and of today's ``Searcher`` on the start position and 20
  sampled placing-phase positions (wall and CPU time, load average beside it);
* ``depth``: depth reached within ``--time`` seconds (default 1) from those 21 positions;
* ``techniques``: nodes (and time) to a fixed depth with every technique on, then with each one switched
  off (or on, for the optional ones), summed over the same positions;
* ``perft``: perft to depth 6 from the start in both conventions against the golden table;
* ``games``: ``--games`` seeded random games (default 1,000) with equal legal-turn sets at every step
  against ``rules.Position``;
* ``searcher``: on ``--positions`` sampled positions (default 300), the full-width core's root score at
  depth 3 equal to today's ``Searcher`` score (same evaluation);
* ``split``: does a root split over 2 processes pay on 2 cores? Each position is searched to
  ``--split-depth`` once whole, then as two halves of its root turns (interleaved), each half in a fresh
  engine; CPU time of the whole vs the slower half (the wall time two idle cores would need, before any
  process overhead) and the work of both halves together;
* ``tbprobe`` (issue 25 section 1): the tablebase's exact values inside the tree, on and off
  (``EngineOptions(tb_probe=...)``, the default tablebase or ``--tablebase DIR``): on ``--tb-positions``
  sampled moving/flying positions one capture or more above the built tables (no men in hand, not
  covered themselves, at most 6 men a side), nodes to ``--tb-depth``, the depth reached within
  ``--tb-nodes`` nodes (a node budget: the machine's load does not change it), the probes used and how
  many root scores and moves changed;
* ``smp`` (issue 25 section 1, not in the default list): Lazy SMP, ``EngineOptions(threads=2)`` against one
  thread: wall time to ``--smp-depth`` on the 21 placing positions (a speed-up needs a free second core).

The machine may be shared: every timing prints the 1-minute load average beside it; CPU time
(``time.process_time``) is printed too, since it is less sensitive to other jobs than wall time.

    python benchmarks/morris_search.py                      # everything
    python benchmarks/morris_search.py --sections speed,depth --time 1
    python benchmarks/morris_search.py --sections tbprobe --tb-positions 40
    python benchmarks/morris_search.py --sections smp --smp-depth 11
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

from _harness import add_common_options, load_text
from boardeval.morris import BASE_WEIGHTS, STANDARD, WIN_SCORE, Position, Searcher, Variant
from boardeval.morris._evaluate import NORM, PHASE_SCALE
from boardeval.morris._search.compiled.engine import Engine, warm_up
from boardeval.morris._search.compiled.options import FULL_WIDTH, EngineOptions, EngineResult, coefficients
from boardeval.morris._search.compiled.state import encode, state_of, turn_of

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "data" / "morris_perft.json"
COEF = coefficients(BASE_WEIGHTS, PHASE_SCALE, NORM)

load = partial(load_text, short=True)  # the load beside each timing, short


def placing_positions(count: int, seed: int) -> list[Position]:
    """The start position plus ``count`` seeded placing-phase positions (2..14 random turns in)."""
    rng = random.Random(seed)
    out = [Position.start()]
    while len(out) < count + 1:
        pos = Position.start()
        for _ in range(rng.randint(2, 14)):
            pos.push(rng.choice(pos.legal_turns()))
        if pos.phase() == "placing" and not pos.is_over():
            out.append(pos)
    return out


def sampled_positions(count: int, seed: int, variant: Variant = STANDARD) -> list[Position]:
    """``count`` positions of every phase along seeded random games (mills preferred)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.start(variant)
        for _ in range(rng.randint(0, 120)):
            legal = pos.legal_turns()
            if not legal:
                break
            mills = [t for t in legal if t.remove is not None]
            pos.push(rng.choice(mills if mills and rng.random() < 0.5 else legal))
        if not pos.is_over():
            out.append(pos)
    return out


def timed(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    """(result, wall seconds, CPU seconds)."""
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - w, time.process_time() - c


def section_compile() -> None:
    print(f"== compile ({load()})")
    eng = Engine(COEF)
    _, wall, cpu = timed(eng.search, Position.from_moves("d2 f4"), depth=2)
    print(f"first search in this process: {wall:.1f} s wall, {cpu:.1f} s CPU (includes compiling the search)")


def section_speed(positions: list[Position], depth: int, searcher_depth: int) -> None:
    warm_up()  # the compiled code loaded before any timing
    print(
        f"== speed: {len(positions)} positions (start + placing), core to depth {depth}, "
        f"Searcher to depth {searcher_depth}"
    )
    nodes = wall = cpu = 0.0
    print(f"  core ({load()})")
    for pos in positions:
        r, w, c = timed(Engine(COEF).search, pos, depth=depth)
        nodes, wall, cpu = nodes + r.nodes, wall + w, cpu + c
    print(
        f"    {int(nodes):,} nodes in {wall:.2f} s wall / {cpu:.2f} s CPU: "
        f"{nodes / wall / 1e6:.2f} M nodes/s wall, {nodes / cpu / 1e6:.2f} M nodes/s CPU ({load()})"
    )
    print(f"  today's Searcher ({load()})")
    snodes = swall = scpu = 0.0
    for pos in positions:
        s = Searcher(engine="python")
        r2, w, c = timed(s.search, pos, depth=searcher_depth)
        snodes, swall, scpu = snodes + r2.nodes, swall + w, scpu + c
    print(
        f"    {int(snodes):,} nodes in {swall:.2f} s wall / {scpu:.2f} s CPU: "
        f"{snodes / swall / 1e3:.1f} k nodes/s wall, {snodes / scpu / 1e3:.1f} k nodes/s CPU ({load()})"
    )
    print(f"  speed-up (CPU nodes/s): {nodes / cpu / (snodes / scpu):.0f}x")


def section_depth(positions: list[Position], seconds: float, target: int, options: EngineOptions) -> None:
    # the compiled code loaded and the clock path run before any timing, as a player does before its first
    # move: without it the first position (the start) paid the process's first time-limited search inside
    # its second and reached depth 11 at 1.8 M nodes/s instead of 13 at 3.3 M (load 1.5-2.4)
    warm_up()
    print(f"== depth within {seconds:g} s (wall clock), {len(positions)} positions ({load()})")
    depths = []
    for i, pos in enumerate(positions):
        r: EngineResult
        r, w, c = timed(Engine(COEF, options).search, pos, time_limit=seconds)
        depths.append(r.depth)
        done = r.iterations[-1][3] if r.iterations else 0.0
        print(
            f"  {i:2d} {pos.text()}  depth {r.depth:2d} (done at {done:.2f} s)  {r.move}  {r.score:+.3f}  "
            f"{r.nodes:,} nodes  {r.nodes / max(w, 1e-9) / 1e6:.2f} M/s wall  "
            f"{r.nodes / max(c, 1e-9) / 1e6:.2f} M/s CPU  {load()}"
        )
    print(
        f"  depth reached: min {min(depths)}, median {statistics.median(depths)}, max {max(depths)}; "
        f"{sum(d >= target for d in depths)}/{len(depths)} positions at depth >= {target}"
    )
    print(f"== time to complete depth {target} ({load()})")
    cpus = []
    walls = []
    for pos in positions:
        _r, w, c = timed(Engine(COEF, options).search, pos, depth=target)
        cpus.append(c)
        walls.append(w)
    print(
        f"  CPU s: start {cpus[0]:.2f}, median {statistics.median(cpus):.2f}, max {max(cpus):.2f}, "
        f"{sum(c <= 1.0 for c in cpus)}/{len(cpus)} within 1 s CPU; wall s: median "
        f"{statistics.median(walls):.2f}, max {max(walls):.2f}, {sum(w <= 1.0 for w in walls)}/{len(walls)} "
        f"within 1 s wall ({load()})"
    )


TECHNIQUES: list[tuple[str, dict[str, object]]] = [
    ("all on (default)", {}),
    ("no PVS (plain alpha-beta windows)", {"pvs": False}),
    ("no aspiration windows", {"aspiration": False}),
    ("no transposition table", {"tt": "off"}),
    ("table cutoffs at exact depth only", {"tt": "exact"}),
    ("no killers", {"killers": False}),
    ("no history heuristic", {"history": False}),
    ("no move-ordering keys at all", {"ordering": False, "killers": False, "history": False}),
    ("no late-move reductions", {"lmr": False}),
    ("LMR divisor 1 (more reduction)", {"lmr_divisor": 1.0}),
    ("LMR divisor 3 (less reduction)", {"lmr_divisor": 3.0}),
    ("LMR from the 2nd quiet move", {"lmr_min_move": 2}),
    ("no quiescence", {"quiescence": False}),
    ("no mate-distance pruning", {"mate_pruning": False}),
    ("no null move while placing", {"null_move": False}),
    ("null move R=2 (less reduction)", {"null_reduction": 2}),
    ("table of 2^22 slots (2^20 default)", {"tt_bits": 22}),
]


def section_techniques(positions: list[Position], depth: int, base: EngineOptions) -> None:
    print(f"== techniques: nodes to depth {depth}, summed over {len(positions)} positions ({load()})")
    Engine(COEF).search(positions[0], depth=2)  # load the compiled code before timing
    ref_nodes = 0
    for name, change in TECHNIQUES:
        opts = replace(base, **change)  # type: ignore[arg-type]
        nodes = 0
        cpu = 0.0
        for pos in positions:
            r, _w, c = timed(Engine(COEF, opts).search, pos, depth=depth)
            nodes += r.nodes
            cpu += c
        ref_nodes = ref_nodes or nodes
        print(f"  {name:38s} {nodes:13,d} nodes ({nodes / ref_nodes:6.2f}x)  {cpu:7.2f} s CPU  {load()}")


def section_perft() -> None:
    golden = json.loads(GOLDEN.read_text())
    print(f"== perft depth 6 from the start ({load()})")
    for variant_name, variant in (("openspiel", Variant.parse("openspiel")), ("standard", STANDARD)):
        st = state_of(Position.start(variant))
        for removal in (False, True):
            n, w, c = timed(st.perft, 6, removal)
            want = golden["removal_plies" if removal else "turn_plies"]["6"]
            conv = "removal plies" if removal else "turn plies"
            print(
                f"  {variant_name:9s} {conv:13s} {n:12,d} {'==' if n == want else '!='} golden {want:,d}  "
                f"{w:.2f} s wall {c:.2f} s CPU  {load()}"
            )


def section_games(games: int, seed: int) -> None:
    print(f"== {games} random games against rules.Position ({load()})")
    start = time.perf_counter()
    steps = 0
    ends: dict[str, int] = {}
    variants = [STANDARD, Variant.parse("openspiel"), Variant.parse("standard,no_mill_turns=12,flying=no")]
    for g in range(games):
        variant = variants[g % len(variants)]
        rng = random.Random(seed * 1_000_003 + g)
        pos = Position.start(variant)
        st = state_of(pos)
        while True:
            legal = pos.legal_turns()
            mine = [turn_of(m) for m in st.legal()]
            if mine != legal or st.hash != pos.zobrist:
                raise SystemExit(f"game {g}: legal turns differ in {pos.text()}: {mine} != {legal}")
            steps += 1
            outcome = pos.outcome()
            if outcome is not None:
                if st.status() != (-1 if outcome.winner is not None else 2):
                    raise SystemExit(f"game {g}: game end differs in {pos.text()}: {outcome}")
                ends[outcome.termination.name] = ends.get(outcome.termination.name, 0) + 1
                break
            hist = pos.history
            back = None
            if len(hist) >= 2 and hist[-2].src is not None and hist[-2].remove is None:
                t = hist[-2]
                back = next(
                    (x for x in legal if x.src == t.dst and x.dst == t.src and x.remove is None), None
                )
            turn = back if back is not None and rng.random() < 0.3 else rng.choice(legal)
            pos.push(turn)
            st.make(encode(turn))
    print(
        f"  {games} games, {steps:,} positions: legal-turn sets, hashes and game ends all equal "
        f"({time.perf_counter() - start:.1f} s); endings {ends}"
    )


def section_searcher(count: int, depth: int, seed: int) -> None:
    print(f"== full-width core vs today's Searcher at depth {depth}, {count} positions ({load()})")
    eng = Engine(COEF, FULL_WIDTH)
    worst = 0.0
    equal = 0
    for pos in sampled_positions(count, seed):
        a = Searcher(engine="python").search(pos, depth=depth).score
        b = eng.search(pos, depth=depth).score
        worst = max(worst, abs(a - b))
        equal += abs(a - b) <= 1e-9
    print(f"  equal to 1e-9: {equal}/{count}; largest difference {worst:.3g}")


def section_split(positions: list[Position], depth: int) -> None:
    print(f"== root split over 2 workers, depth {depth}, {len(positions)} positions ({load()})")
    warm_up()  # the compiled code loaded before any timing
    whole = slow_half = both = 0.0
    same = 0
    for pos in positions:
        r, _w, c = timed(Engine(COEF).search, pos, depth=depth)
        whole += c
        turns = pos.legal_turns()
        halves = [turns[0::2], turns[1::2]]
        results = []
        cpus = []
        for half in halves:
            rh, _wh, ch = timed(Engine(COEF).search, pos, depth=depth, root_moves=half)
            results.append(rh)
            cpus.append(ch)
        slow_half += max(cpus)
        both += sum(cpus)
        best = max(results, key=lambda x: x.score)
        same += best.move == r.move
    print(
        f"  whole: {whole:.2f} s CPU; split: slower half {slow_half:.2f} s CPU (ideal wall on 2 idle cores), "
        f"both halves {both:.2f} s CPU; speed-up {whole / max(slow_half, 1e-9):.2f}x, work "
        f"{both / max(whole, 1e-9):.2f}x; same move {same}/{len(positions)} ({load()})"
    )


def section_smp(positions: list[Position], depth: int) -> None:
    """Lazy SMP (``EngineOptions(threads=2)``): wall time to a fixed depth against one thread, each
    position searched by a fresh engine with 1 then 2 threads (alternating, so a change of load hits both),
    plus the nodes of all threads and how often the move agrees. The speed-up means something only when a
    second core is free: read it beside the load printed."""
    print(f"== Lazy SMP: depth {depth}, {len(positions)} positions, 1 vs 2 threads ({load()})")
    warm_up()
    walls = {1: 0.0, 2: 0.0}
    nodes = {1: 0, 2: 0}
    same = 0
    for pos in positions:
        moves = {}
        for threads in (1, 2):
            r, w, _c = timed(Engine(COEF, EngineOptions(threads=threads)).search, pos, depth=depth)
            walls[threads] += w
            nodes[threads] += r.nodes + r.helper_nodes
            moves[threads] = r.move
        same += moves[1] == moves[2]
    print(
        f"  wall to depth {depth}: 1 thread {walls[1]:.2f} s, 2 threads {walls[2]:.2f} s: speed-up "
        f"{walls[1] / max(walls[2], 1e-9):.2f}x; nodes (all threads) {nodes[1]:,} vs {nodes[2]:,} "
        f"({nodes[2] / max(nodes[1], 1):.2f}x); same move {same}/{len(positions)} ({load()})"
    )


def tb_positions(count: int, seed: int, keys: frozenset[tuple[int, int]]) -> list[Position]:
    """``count`` seeded moving/flying positions, no men in hand, not covered by the tablebase (``keys``:
    its built (side to move, other) men counts), at most 6 men a side: the tables lie a capture or more
    below them."""
    out: list[Position] = []
    k = 0
    while len(out) < count:
        for pos in sampled_positions(200, seed * 1000 + k):
            counts = (pos.men[pos.side].bit_count(), pos.men[pos.side ^ 1].bit_count())
            if pos.hand == [0, 0] and counts not in keys and max(counts) <= 6 and len(out) < count:
                out.append(pos)
        k += 1
    return out


def section_tbprobe(count: int, depth: int, nodes: int, seed: int, folder: str | None) -> None:
    from boardeval.morris import Tablebase, default_tablebase_dir

    tb = Tablebase.open(Path(folder) if folder else default_tablebase_dir())
    keys = frozenset(tb.subdatabases)
    positions = tb_positions(count, seed, keys)
    print(
        f"== tablebase probes in the tree: {len(positions)} positions (<= 6 men a side, tables "
        f"{','.join(f'{a}v{b}' for a, b in sorted(keys))}), depth {depth} and {nodes:,} nodes ({load()})"
    )
    warm_up()
    rows = {}
    for probe in (True, False):
        opts = EngineOptions(tb_probe=probe)
        fixed = budget = 0
        depths: list[int] = []
        hits = 0
        cpu = 0.0
        results = []
        for pos in positions:
            searcher = Searcher(tablebase=tb, options=opts)
            r, _w, c = timed(searcher.search, pos, depth=depth)
            fixed += r.nodes
            cpu += c
            hits += searcher.tb_hits
            results.append(r)
            searcher = Searcher(tablebase=tb, options=opts)
            rb = searcher.search(pos, node_limit=nodes)
            budget += rb.nodes
            depths.append(rb.depth)
        rows[probe] = results
        print(
            f"  tb_probe={'on ' if probe else 'off'}: {fixed:13,d} nodes to depth {depth} ({cpu:6.2f} s CPU, "
            f"{hits:,} probes); within {nodes:,} nodes: depth median {statistics.median(depths)}, "
            f"min {min(depths)}, max {max(depths)} ({load()})"
        )
    on, off = rows[True], rows[False]
    moves = sum(a.move != b.move for a, b in zip(on, off, strict=True))
    scores = sum(abs(a.score - b.score) > 1e-9 for a, b in zip(on, off, strict=True))
    exact = sum(abs(a.score) >= WIN_SCORE - 1000 for a in on)
    print(
        f"  nodes on/off {sum(r.nodes for r in on) / max(1, sum(r.nodes for r in off)):.2f}x; root score "
        f"differs on {scores}/{len(on)}, move on {moves}/{len(on)}; decided (mate-scale) scores with probes "
        f"{exact}, without {sum(abs(b.score) >= WIN_SCORE - 1000 for b in off)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", default="compile,speed,depth,techniques,perft,games,searcher,split")
    add_common_options(ap, seed=12)
    ap.add_argument("--positions-placing", type=int, default=20)
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position for the depth section")
    ap.add_argument("--target-depth", type=int, default=12)
    ap.add_argument("--speed-depth", type=int, default=9)
    ap.add_argument("--searcher-depth", type=int, default=4)
    ap.add_argument("--technique-depth", type=int, default=8)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=300, help="positions for the Searcher comparison")
    ap.add_argument("--split-depth", type=int, default=10)
    ap.add_argument("--smp-depth", type=int, default=11, help="depth of the smp section (Lazy SMP)")
    ap.add_argument("--tb-positions", type=int, default=40, help="positions for the tbprobe section")
    ap.add_argument("--tb-depth", type=int, default=8)
    ap.add_argument("--tb-nodes", type=int, default=1_000_000)
    ap.add_argument("--tablebase", default=None, help="tablebase folder (default: the default folder)")
    args = ap.parse_args()
    sections = set(args.sections.split(","))
    placing = placing_positions(args.positions_placing, args.seed)
    options = EngineOptions()
    print(f"boardeval morris_search: {load_text()}")
    if "compile" in sections:
        section_compile()
    if "speed" in sections:
        section_speed(placing, args.speed_depth, args.searcher_depth)
    if "depth" in sections:
        section_depth(placing, args.time, args.target_depth, options)
    if "techniques" in sections:
        section_techniques(placing, args.technique_depth, EngineOptions())
        moving = [p for p in sampled_positions(400, args.seed + 1) if p.phase() != "placing"][:20]
        print("   (the same on 20 sampled moving/flying-phase positions)")
        section_techniques(moving, args.technique_depth, EngineOptions())
    if "perft" in sections:
        section_perft()
    if "games" in sections:
        section_games(args.games, args.seed)
    if "searcher" in sections:
        section_searcher(args.positions, 3, args.seed)
    if "split" in sections:
        section_split(placing, args.split_depth)
    if "smp" in sections:
        section_smp(placing, args.smp_depth)
    if "tbprobe" in sections:
        section_tbprobe(args.tb_positions, args.tb_depth, args.tb_nodes, args.seed, args.tablebase)


if __name__ == "__main__":
    main()
