"""The compiled Morris engine (``_search/compiled/``) checked against the rules and the Python engine.

Perft against the golden table (both conventions), equal legal-turn sets, hashes and game ends along seeded
random games, the static score equal to ``evaluate(...).total``, and search values equal to plain alpha-beta
and to today's ``Searcher`` at equal depth (full width). The first run compiles the core (cached per
machine in ``src/boardeval/morris/__pycache__``).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from boardeval.core import ParamsError
from boardeval.morris import (
    BASE_WEIGHTS,
    OPENSPIEL,
    STANDARD,
    WIN_SCORE,
    Evaluator,
    Position,
    Searcher,
    Variant,
    evaluate,
    load_weights,
    perft,
)
from boardeval.morris._evaluate import MATE_BOUND, NORM, PHASE_SCALE
from boardeval.morris._features import FEATURES
from boardeval.morris._search.compiled.engine import WIN, Engine
from boardeval.morris._search.compiled.evaluate import ENGINE_FEATURES
from boardeval.morris._search.compiled.layout import MATE_BOUND as LAYOUT_MATE_BOUND
from boardeval.morris._search.compiled.options import FULL_WIDTH, EngineOptions, coefficients, full_width
from boardeval.morris._search.compiled.state import decode, encode, state_of, turn_of
from boardeval.morris._search.plain import alphabeta

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "data" / "morris_perft.json").read_text())
COEF = coefficients(BASE_WEIGHTS, PHASE_SCALE, NORM)
SHORT = Variant(max_turns=60, threefold_repetition=True, no_mill_turns=12, flying=False)


def walk(seed: int, variant: Variant, turns: int = 160, shuffle: float = 0.3) -> list[Position]:
    """Positions along a seeded random game; mills preferred, and in the moving phase a side often plays
    back its own last move (so repetitions and quiet-turn limits are reached)."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    out = [pos.copy()]
    for _ in range(turns):
        legal = pos.legal_turns()
        if not legal:
            break
        hist = pos.history
        back = None
        if len(hist) >= 2 and hist[-2].src is not None and hist[-2].remove is None:
            t = hist[-2]
            back = next((x for x in legal if x.src == t.dst and x.dst == t.src and x.remove is None), None)
        mills = [t for t in legal if t.remove is not None]
        if back is not None and rng.random() < shuffle:
            pos.push(back)
        else:
            pos.push(rng.choice(mills if mills and rng.random() < 0.5 else legal))
        out.append(pos.copy())
    return out


def sample(n: int, seed: int, variant: Variant = STANDARD) -> list[Position]:
    out: list[Position] = []
    i = 0
    while len(out) < n:
        out.extend(p for p in walk(seed * 1000 + i, variant) if not p.is_over())
        i += 1
    return out[:n]


# ---- state, move generation, make/unmake -------------------------------------------------------------


def test_feature_order_is_the_evaluations() -> None:
    assert tuple(FEATURES) == ENGINE_FEATURES
    assert WIN == WIN_SCORE
    assert LAYOUT_MATE_BOUND == MATE_BOUND  # the compiled search's copy (layout imports nothing heavy)


def test_turn_encoding_round_trips() -> None:
    pos = Position.from_moves("a7 b6 d7 d6")
    for t in pos.legal_turns():
        assert turn_of(encode(t)) == t
        assert decode(encode(t)) == (t.src, t.dst, t.remove)


@pytest.mark.parametrize(
    ("variant", "games", "seed"),
    [(STANDARD, 120, 1), (OPENSPIEL, 60, 2), (SHORT, 60, 3)],
    ids=["standard", "openspiel", "short-no-flying"],
)
def test_random_games_have_equal_legal_turns(variant: Variant, games: int, seed: int) -> None:
    """Along seeded random games: the same legal turns in the same order, the same hash, the same game end;
    unmake restores every earlier state."""
    ends: set[str] = set()
    for g in range(games):
        rng = random.Random(seed * 10_000 + g)
        pos = Position.start(variant)
        st = state_of(pos)
        snapshots = []
        while True:
            legal = pos.legal_turns()
            assert [turn_of(m) for m in st.legal()] == legal, pos.text()
            assert st.hash == pos.zobrist
            assert st.quiet == pos.quiet_turns
            outcome = pos.outcome()
            code = st.status()
            if outcome is None:
                assert code == 0
            else:
                assert code == (-1 if outcome.winner is not None else 2), (pos.text(), outcome)
                ends.add(outcome.termination.name)
                break
            hist = pos.history
            back = None
            if len(hist) >= 2 and hist[-2].src is not None and hist[-2].remove is None:
                t = hist[-2]
                back = next(
                    (x for x in legal if x.src == t.dst and x.dst == t.src and x.remove is None), None
                )
            turn = back if back is not None and rng.random() < 0.4 else rng.choice(legal)
            snapshots.append((st.men[:], st.hand[:], st.side, st.turns, st.quiet, st.hash))
            pos.push(turn)
            st.make(encode(turn))
        while snapshots:
            m = st.unmake()
            assert turn_of(m) == pos.pop()
            assert (st.men, st.hand, st.side, st.turns, st.quiet, st.hash) == snapshots.pop()
    assert len(ends) >= 2  # the games end in more than one way (losses and draws)


# ---- perft ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [OPENSPIEL, STANDARD], ids=["openspiel", "standard"])
@pytest.mark.parametrize("removal_plies", [False, True], ids=["turns", "removal-plies"])
def test_perft_golden_table(variant: Variant, removal_plies: bool) -> None:
    table = GOLDEN["removal_plies" if removal_plies else "turn_plies"]
    st = state_of(Position.start(variant))
    for depth in range(1, 6):
        assert st.perft(depth, removal_plies) == table[str(depth)]


@pytest.mark.slow
@pytest.mark.parametrize("removal_plies", [False, True], ids=["turns", "removal-plies"])
def test_perft_golden_table_depth_6(removal_plies: bool) -> None:
    table = GOLDEN["removal_plies" if removal_plies else "turn_plies"]
    for variant in (OPENSPIEL, STANDARD):
        assert state_of(Position.start(variant)).perft(6, removal_plies) == table["6"]


@pytest.mark.parametrize("variant", [STANDARD, OPENSPIEL, SHORT], ids=["standard", "openspiel", "short"])
def test_perft_equals_python_perft_midgame(variant: Variant) -> None:
    """Positions of every phase, with game history (repetition and quiet-turn rules in the tree)."""
    positions = sample(400, 5, variant)[::40]
    for pos in positions:
        st = state_of(pos)
        for removal_plies in (False, True):
            assert st.perft(3, removal_plies) == perft(pos, 3, removal_plies), pos.text()


# ---- evaluation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [STANDARD, SHORT], ids=["standard", "no-flying"])
def test_static_score_equals_evaluate(variant: Variant) -> None:
    positions = sample(2500, 11, variant)
    phases = {p.phase() for p in positions}
    assert phases == {"placing", "moving", "flying"} if variant.flying else {"placing", "moving"}
    engine = Engine(COEF)
    for pos in positions:
        want = evaluate(pos).total
        assert engine.evaluate(pos) == pytest.approx(want, abs=1e-9), pos.text()
        assert state_of(pos, 1).evaluate(COEF) == pytest.approx(want, abs=1e-9), pos.text()


def test_static_score_follows_every_weight() -> None:
    """Other weight sets (the initiative profile, one feature at a time) give evaluate's total too."""
    positions = sample(300, 13)
    sets = [load_weights("initiative")] + [{f: (1.0 if f == g else 0.0) for f in FEATURES} for g in FEATURES]
    for weights in sets:
        engine = Engine(coefficients(weights, PHASE_SCALE, NORM))
        for pos in positions:
            assert engine.evaluate(pos) == pytest.approx(evaluate(pos, weights).total, abs=1e-9)


def test_coefficients_reject_missing_features() -> None:
    with pytest.raises(ParamsError, match="'mobility'"):
        coefficients({f: 1.0 for f in FEATURES if f != "mobility"}, PHASE_SCALE, NORM)
    with pytest.raises(ParamsError, match="3 x 14"):
        Engine(np.zeros((2, 10)))


# ---- search ---------------------------------------------------------------------------------------------


def test_full_width_equals_plain_alphabeta_with_history() -> None:
    """Without a table the engine's value is plain alpha-beta's, draws by repetition and quiet turns
    decided on the game history exactly like the rules module."""
    engine = Engine(
        COEF,
        EngineOptions(pvs=True, aspiration=False, tt="off", lmr=False, quiescence=False, mate_pruning=False),
    )
    quiet = [p for p in sample(3000, 17, SHORT) if p.quiet_turns >= 4]
    positions = quiet[:: max(1, len(quiet) // 16)] + sample(600, 19)[::60]
    assert len(positions) >= 20 and any(p.repetitions >= 2 for p in positions)
    ev = Evaluator()
    for pos in positions:
        got = engine.search(pos, depth=3)
        assert got.score == pytest.approx(alphabeta(pos, 3, ev), abs=1e-9), pos.text()


def test_full_width_equals_searcher() -> None:
    """Same depth, same evaluation, both full-width alpha-beta: the same root score."""
    engine = Engine(COEF, FULL_WIDTH)
    positions = sample(3000, 23)[::50]
    for pos in positions:
        want = Searcher(engine="python").search(pos, depth=3)
        got = engine.search(pos, depth=3)
        assert got.score == pytest.approx(want.score, abs=1e-9), pos.text()
        assert got.depth == want.depth


def test_search_finds_the_fastest_win() -> None:
    # White to move plays g4-g7 (a mill a7-d7-g7) and removes a man: Black is left with 2 men.
    pos = Position.parse("WW............WBB.....B. w 0 0")
    result = Engine(COEF).search(pos, depth=4)
    assert result.move is not None and result.move.remove is not None
    assert result.score == WIN - 1
    assert result.pv[0] == result.move


def test_search_result_fields_and_limits() -> None:
    pos = Position.from_moves("d2 f4 b4 d6")
    engine = Engine(COEF)
    r = engine.search(pos, depth=5)
    assert r.depth == 5 and r.nodes > 0 and r.move in pos.legal_turns()
    work = pos.copy()
    for t in r.pv:
        assert t in work.legal_turns()
        work.push(t)
    assert pos.text() == Position.from_moves("d2 f4 b4 d6").text()
    limited = engine.search(pos, node_limit=3000)
    assert limited.stopped and limited.depth >= 1 and limited.nodes <= 3000 + 1
    timed = engine.search(Position.start(), time_limit=0.05)
    assert timed.stopped and timed.seconds < 3.0  # 0.05 s asked; slack for a loaded machine
    over = Position.parse("WWW......BB............. b 0 0")
    assert engine.search(over, depth=3).move is None


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"depth": 0}, "depth"), ({"time_limit": -1.0}, "time limit"), ({"node_limit": 0}, "node limit")],
)
def test_search_rejects_bad_limits(kwargs: dict[str, float], match: str) -> None:
    with pytest.raises(ParamsError, match=match):
        Engine(COEF).search(Position.start(), **kwargs)  # type: ignore[arg-type]


def test_options_are_validated_and_full_width_switches_off_reductions() -> None:
    with pytest.raises(ParamsError, match="'sometimes'"):
        EngineOptions(tt="sometimes")
    for bad in (4, -1, True, 1.0):
        with pytest.raises(ParamsError, match=f"exact_placing must be 0, 1, 2 or 3, got {bad!r}"):
            EngineOptions(exact_placing=bad)  # type: ignore[arg-type]
    fw = full_width(EngineOptions(killers=False))
    assert not fw.lmr and not fw.quiescence and fw.tt == "exact" and not fw.killers


def test_default_search_agrees_with_full_width_on_forced_lines() -> None:
    """Every technique on: the same (winning) score as the full-width search where the result is forced."""
    pos = Position.parse("WW............WBB.....B. w 0 0")
    a = Engine(COEF).search(pos, depth=5)
    b = Engine(COEF, FULL_WIDTH).search(pos, depth=5)
    assert a.score == b.score == WIN - 1


def test_stale_engine_cache_is_dropped_when_the_core_changes(tmp_path: Path) -> None:
    """numba's cache does not follow imports: the compiled search's cache files go when a source it depends
    on changes (and only then), so the search never runs an old copy of the move generator or evaluation."""
    from boardeval.morris._search.compiled.jit import drop_stale_cache

    cache = tmp_path / "__pycache__"
    cache.mkdir()
    core = tmp_path / "movegen.py"
    core.write_text("def evaluate_fast(): return 1\n")
    files = [
        cache / "pvs._pvs-1.py311.nbi",
        cache / "pvs._pvs-1.py311.1.nbc",
        cache / "movegen.generate-9.py311.nbi",
    ]
    other = cache / "pvs.cpython-311.pyc"  # not numba's: never touched
    for f in [*files, other]:
        f.write_bytes(b"x")
    assert drop_stale_cache(cache, [core]) is True  # no stamp yet: dropped
    assert not any(f.exists() for f in files) and other.exists()
    for f in files:
        f.write_bytes(b"x")  # recompiled against this core
    assert drop_stale_cache(cache, [core]) is False  # unchanged core: kept
    assert all(f.exists() for f in files)
    core.write_text("def evaluate_fast(): return 2\n")
    assert drop_stale_cache(cache, [core]) is True  # edited core: dropped again
    assert not any(f.exists() for f in files) and other.exists()
    kept = cache / "other.f-1.py311.nbi"
    kept.write_bytes(b"x")
    core.write_text("def evaluate_fast(): return 3\n")
    assert drop_stale_cache(cache, [core], prefix="pvs.") is True  # a prefix limits what goes
    assert kept.exists()


def test_the_cache_check_covers_every_source_the_compiled_code_holds() -> None:
    """The digest of jit.CACHE_SOURCES must cover every module with cached compiled functions and every
    Morris module they import, directly or through others (their tables are compiled in as constants)."""
    import ast

    from boardeval.morris._search.compiled import jit

    compiled_dir = Path(jit.__file__).parent
    morris_dir = compiled_dir.parents[1]

    def compiles(path: Path) -> bool:
        tree = ast.parse(path.read_text())
        return any(
            "njit" in ast.unparse(d)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            for d in node.decorator_list
        )

    with_cache = {p.name for p in compiled_dir.glob("*.py") if compiles(p)}
    assert with_cache == set(jit.COMPILED_MODULES)

    def morris_imports(path: Path) -> set[Path]:
        out = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("boardeval.morris."):
                rel = Path(*node.module.split(".")[2:])
                for cand in (morris_dir / rel.with_suffix(".py"), morris_dir / rel / "__init__.py"):
                    if cand.is_file():
                        out.add(cand.resolve())
        return out

    needed: set[Path] = set()
    todo = [compiled_dir / name for name in jit.COMPILED_MODULES]
    while todo:
        path = todo.pop().resolve()
        if path in needed:
            continue
        needed.add(path)
        todo.extend(morris_imports(path))
    needed.discard((compiled_dir / "jit.py").resolve())  # njit_cached itself holds no compiled code
    missing = sorted(
        str(p.relative_to(morris_dir)) for p in needed - {p.resolve() for p in jit.CACHE_SOURCES}
    )
    assert missing == [], f"jit.CACHE_SOURCES misses {missing}"


def test_a_stopped_depth_still_gives_its_proven_better_move() -> None:
    """When a limit stops depth d+1 after a later root turn proved better than the first (the depth-d best),
    that turn is played (``partial``). Full width without aspiration makes the claim exact: its score is
    that turn's own depth-(d+1) value, and it beats the depth-d best's depth-(d+1) value."""
    options = replace(FULL_WIDTH, pvs=True)
    seen = 0
    for pos in sample(400, 31)[::20]:
        for limit in (300, 700, 1500, 3000):
            r = Engine(COEF, options).search(pos, node_limit=limit)
            if not r.partial:
                continue
            seen += 1
            first = Engine(COEF, options).search(pos, depth=r.depth)  # the same iterations, unstopped
            assert r.move != first.move and r.pv[0] == r.move
            values = {}
            for turn in (r.move, first.move):
                child = pos.copy()
                child.push(turn)
                values[turn] = (
                    -Engine(COEF, options).search(child, depth=r.depth).score if not child.is_over() else None
                )
            if values[r.move] is not None and abs(r.score) < WIN - 1000:
                assert r.score == pytest.approx(values[r.move], abs=1e-9)
                assert values[first.move] is None or values[r.move] > values[first.move] - 1e-9
    assert seen >= 3


def test_ctrl_c_inside_the_compiled_search_keeps_the_last_depth() -> None:
    """A KeyboardInterrupt that arrives while the compiled search runs (numba wraps it in a SystemError when
    it lands in the clock's object-mode call) returns the last completed depth, flagged as interrupted.

    The Ctrl-C is pressed on the search's own signal (depth 6 reported), from another thread, so it lands
    while the next depth runs, on any machine. SIGINT gets Python's default handler for the test: a handler
    another test left in this worker process (a server's) would swallow the simulated Ctrl-C."""
    import _thread
    import signal
    import threading

    engine = Engine(COEF)
    engine.search(Position.start(), depth=2)  # compiled code loaded
    reached = threading.Event()

    def press() -> None:
        if reached.wait(timeout=600):  # hang guard only: the search reports depth 6 in milliseconds
            _thread.interrupt_main()

    def on_depth(depth: int, score: float, turn: int, nodes: int) -> float | None:
        if depth == 6:
            reached.set()
        return None

    presser = threading.Thread(target=press, daemon=True)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser.start()
    try:
        r = engine.search(Position.start(), time_limit=600.0, on_depth=on_depth)
    finally:
        reached.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert r.interrupted and r.stopped and r.depth >= 6 and r.move in Position.start().legal_turns()


def test_the_table_is_kept_from_move_to_move_only_while_nothing_before_the_root_can_recur() -> None:
    """Under the repetition rule the table survives from one search to the next through placing (every
    placement is irreversible) and is emptied (a new epoch) before a root with quiet turns behind it, and
    after such a search even before a root without them; ``reuse_table=False`` empties it every time."""
    game = [p for seed in range(20) for p in walk(seed, STANDARD) if not p.is_over()]
    placing = [p for p in game if p.hand[0] + p.hand[1] > 0][4:8]
    quiet = next(p for p in game if p.quiet_turns > 0 and not any(p.hand))
    after = next(p for p in game if p.quiet_turns == 0 and not any(p.hand) and len(p.history) > 18)
    engine = Engine(COEF)
    epochs = []
    for pos in [*placing, quiet, after, after]:
        engine.search(pos, depth=3)
        epochs.append(engine.epoch)
    first = epochs[0]
    assert epochs == [first] * 4 + [first + 1, first + 2, first + 2]
    plain = Engine(COEF, EngineOptions(reuse_table=False))
    seen = []
    for pos in placing:
        plain.search(pos, depth=3)
        seen.append(plain.epoch)
    assert seen == list(range(seen[0], seen[0] + len(placing)))


def test_a_kept_table_makes_the_next_placing_search_cheaper() -> None:
    """The point of keeping it: the same placing root searched again costs a fraction of the nodes."""
    pos = Position.from_moves("d2 f4 b4 d6")

    def twice(reuse: bool) -> tuple[int, int]:
        engine = Engine(COEF, EngineOptions(reuse_table=reuse))
        return engine.search(pos, depth=8).nodes, engine.search(pos, depth=8).nodes

    first, again = twice(True)
    assert again < 0.5 * first
    first, again = twice(False)
    assert again > 0.5 * first  # emptied: the search starts over (history tables still help)
