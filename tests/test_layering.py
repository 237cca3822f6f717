"""DESIGN.md's one-way import rule, enforced on the source tree.

- ``core`` imports no game and no front end.
- A game imports ``core`` and itself, never another game or a front end.
- Inside a game, a module may import only modules of a strictly lower layer (model -> evaluation ->
  search/generation); "side" modules (rendering, I/O) may import any layer of their game, and no layered
  module may import a side module.
- ``cli`` and ``web`` import only the public packages (``boardeval.core``, ``boardeval.catan``, ...),
  and only names those packages export in ``__all__``.
Every game module must be listed in LAYERS, so that a new module is classified on purpose, and every entry
of LAYERS must be a module that exists.

The public face (httpx's rule in DESIGN.md): no name a package exports in ``__all__`` equals one of its
submodules (the name would hide the module: ``import boardeval.catan.generate.anneal`` broke that way), and
every import line shown in README.md and docs/*.md works.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "boardeval"
DOCS = [SRC.parents[1] / "README.md", *sorted((SRC.parents[1] / "docs").glob("*.md"))]
GAMES = ("catan", "morris", "diplomacy")
FRONTS = ("cli", "web")
SIDE = "side"

# module (relative to the game package, dotted) -> layer rank, or SIDE
LAYERS: dict[str, dict[str, int | str]] = {
    "catan": {
        "__init__": 99,
        "topology": -1,
        "board": 0,
        "params": 0,
        "spots": 1,
        "energy": 1,
        "constraints": 2,
        "_generate.__init__": 4,
        "_generate.common": 3,
        "_generate.harbours": 3,
        "_generate.layouts": 2,  # layout geometry and exact-energy scale for the generators (board only)
        "_generate.random": 4,
        "_generate.anneal": 4,
        "_generate.cp": 4,
        "_generate.tournament": 4,
        "_generate.fairness": 5,
        "blogmodel": 3,
        "playtest": SIDE,  # drives catanatron through catanatron_io (I/O) and the public boardeval.catan
        "advisor": SIDE,  # the opening rule and catanatron-facing players (used by playtest)
        "study": SIDE,  # fairness-vs-play study over playtest (charts)
        "spot_tuning": SIDE,  # Optuna search of the advisor's weights over playtest games
        "draft": SIDE,  # the advisor-in-every-seat opening draft (the advisor's rule, on arrays)
        "equity": SIDE,  # seat equity: the draft's terms and the play-fitted model
        "equity_fast": SIDE,  # the same prediction compiled (numba) for the generators
        "equity_fit": SIDE,  # fitting and measuring the seat model on play data
        "equity_play": SIDE,  # boards played by four advisors, resumable, through the job runner
        "equity_generate": SIDE,  # the seat-equity objective for anneal and tournament repair
        "render": SIDE,
        "catanatron_io": SIDE,
    },
    "morris": {
        "__init__": 99,
        # the game
        "board": 0,
        "variants": 0,
        "turns": 1,
        "outcome": 1,
        "rules": 2,
        "_perft": 3,
        "symmetry": 2,  # the board's 16 symmetries, for the opening book's canonical positions
        # the evaluation
        "_features": 3,
        "_evaluate": 4,
        # the endgame tablebase: the rules only
        "tablebase.__init__": 8,
        "tablebase.retrograde": 0,  # compiled kernels over index tables passed in
        "tablebase.index": 3,
        "tablebase.files": 4,
        "tablebase.plain": 3,
        "tablebase.probe": 7,
        "tablebase.packed": 6,  # the tables packed in the layout _search.endgame defines
        "tablebase.build": 5,
        # the search: the rules and the evaluation; the tablebase only through _search.endgame's interface
        "_search.__init__": 0,
        "_search.clock": 0,  # time use over a game: core only
        "_search.opening": 3,  # the book's interface, as _search.endgame is the tablebase's
        "_search.compiled.__init__": 0,
        "_search.compiled.jit": 1,
        "_search.compiled.movegen": 2,
        "_search.compiled.evaluate": 4,  # the features' definitions and order
        "_search.compiled.state": 3,
        "_search.compiled.ordering": 3,  # move ordering kernels over the move generator
        "_search.compiled.pvs": 7,
        "_search.compiled.options": 4,  # which techniques are on, the result, the coefficients (no numba)
        "_search.compiled.engine": 5,
        "_search.compiled.layout": 0,  # the state arrays' layout (offsets), shared by the kernels
        "_search.compiled.sources": 0,  # the sources the compiled code holds (the AOT module's digest)
        "_search.compiled.aot": 1,  # the ahead-of-time extension (its kernels imported lazily)
        "_search.compiled.kernels": 1,  # hands out the AOT module or numba's dispatchers
        "_search.compiled.tbprobe": 6,  # the in-tree probe, over the packed layout
        "_search.endgame": 5,
        "_search.plain": 5,
        "_search.reference": 5,  # the Python alpha-beta: the rules and the evaluation
        "_search.searcher": 6,  # over the compiled engine and the reference
        # play, over the search and the tablebase
        "why": 9,
        # the opening book: positions searched deeply offline, stored as data
        "book.store": 4,  # over the book interface (_search.opening: turn_outcomes, for proven_value)
        "book.build": 8,  # the search and, for the exact ply, the tablebase's probe
        "book.__init__": 9,
        "players": 10,
        "match": 11,
        # tuning, over everything below
        "tuning.__init__": 14,
        "tuning.data": 12,
        "tuning.selfplay": 6,
        "tuning.texel": 13,
    },
    "diplomacy": {
        "__init__": 99,
        "_catalog": 0,
        "graph": 0,
        "convoys": 1,  # the engine's convoy-path table, built under our control (issue 24)
        "records": 2,
        "measures": 3,
        "_table": 4,
        "_plain": 4,
        "_colours": SIDE,
        "bots": 4,
        "tournament": 6,  # plays every bot kind, EvalBot included
        "evaluation": 4,  # fitted from the measures (issue 14 §2)
        "evalbot": 5,  # DumbBot re-ranked by a lookahead scored with the evaluation (issue 14 §4)
        "alliances": 4,  # detected from mutual fear (issue 14 §3)
        "corpus": 7,  # bot-game corpora over tournament
        "charts": SIDE,
        "render": SIDE,  # the board drawn by the engine's SVG renderer
    },
}


def _modules(pkg: str) -> list[Path]:
    return sorted((SRC / pkg).rglob("*.py"))


def _dotted(path: Path, pkg: str) -> str:
    rel = path.relative_to(SRC / pkg).with_suffix("")
    return ".".join(rel.parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(absolute module, imported names) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg_parts = ["boardeval", *path.relative_to(SRC).with_suffix("").parts[:-1]]
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg_parts[: len(pkg_parts) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((mod, [a.name for a in node.names]))
    return out


def _game_module(mod: str, game: str) -> str | None:
    prefix = f"boardeval.{game}"
    if mod == prefix:
        return "__init__"
    if mod.startswith(prefix + "."):
        rest = mod[len(prefix) + 1 :]
        table = LAYERS[game]
        return rest if rest in table else rest + ".__init__" if rest + ".__init__" in table else rest
    return None


def test_core_imports_no_game_or_front_end() -> None:
    for path in _modules("core"):
        for mod, _ in _imports(path):
            for other in (*GAMES, *FRONTS):
                assert not mod.startswith(f"boardeval.{other}"), f"{path.name} imports {mod}"


@pytest.mark.parametrize("game", GAMES)
def test_game_layers(game: str) -> None:
    table = LAYERS[game]
    for path in _modules(game):
        me = _dotted(path, game)
        assert me in table, f"boardeval.{game}.{me} is not classified in tests/test_layering.py LAYERS"
        my_rank = table[me]
        for mod, _ in _imports(path):
            for other in (*GAMES, *FRONTS):
                if other != game:
                    assert not mod.startswith(f"boardeval.{other}"), f"{game}.{me} imports {mod}"
            target = _game_module(mod, game)
            if target is None or target == me or me == "__init__":
                continue
            assert target in table, f"{game}.{me} imports unclassified {mod}"
            their_rank = table[target]
            if their_rank == SIDE:
                assert my_rank == SIDE, f"{game}.{me} (layer {my_rank}) imports side module {target}"
            elif my_rank != SIDE:
                assert isinstance(my_rank, int) and isinstance(their_rank, int)
                assert their_rank < my_rank, (
                    f"{game}.{me} (layer {my_rank}) imports {target} (layer {their_rank}): "
                    "imports must flow from lower layers to higher ones"
                )


# Inside morris, the rooms of DESIGN.md: the game, then the evaluation, then the search; the tablebase knows
# only the game, and the search asks it through the interface of _search/endgame.py instead of importing it;
# play (why-panel, players, matches) and tuning sit on top. module or package prefix -> room
MORRIS_ROOMS: dict[str, str] = {
    "board": "game",
    "variants": "game",
    "turns": "game",
    "outcome": "game",
    "rules": "game",
    "_perft": "game",
    "symmetry": "game",
    "_features": "evaluation",
    "_evaluate": "evaluation",
    "tablebase": "tablebase",
    "_search": "search",
    # the search's two contracts: what it asks of a tablebase (and the packed layout a tablebase fills for the
    # compiled probe) and of an opening book; their providers implement them without importing the search
    "_search.endgame": "contracts",
    "_search.opening": "contracts",
    "why": "play",
    "players": "play",
    "match": "play",
    "book": "play",
    "tuning": "tuning",
}
MORRIS_MAY_IMPORT: dict[str, set[str]] = {
    "game": {"game"},
    "evaluation": {"game", "evaluation"},
    "contracts": {"game", "evaluation"},
    "tablebase": {"game", "tablebase", "contracts"},
    "search": {"game", "evaluation", "contracts", "search"},
    "play": {"game", "evaluation", "contracts", "search", "tablebase", "play"},
    "tuning": {"game", "evaluation", "contracts", "search", "tablebase", "play", "tuning"},
}


def _morris_room(module: str) -> str:
    parts = module.removesuffix(".__init__").split(".")
    return MORRIS_ROOMS.get(".".join(parts[:2]), MORRIS_ROOMS[parts[0]])


def test_morris_rooms_flow_one_way() -> None:
    """rules -> evaluation -> search -> play -> tuning; the tablebase beside the search, on the rules and the
    search's contracts only."""
    seen_rooms = set()
    for path in _modules("morris"):
        me = _dotted(path, "morris")
        if me == "__init__":
            continue
        mine = _morris_room(me)
        seen_rooms.add(mine)
        for mod, _ in _imports(path):
            target = _game_module(mod, "morris")
            if target is None or target == "__init__":
                continue
            theirs = _morris_room(target)
            assert theirs in MORRIS_MAY_IMPORT[mine], (
                f"morris.{me} (room {mine!r}) imports {mod} (room {theirs!r}): {mine!r} may import only "
                f"{sorted(MORRIS_MAY_IMPORT[mine])}"
            )
    assert seen_rooms == set(MORRIS_MAY_IMPORT), "every room has modules, and every module a room"


@pytest.mark.parametrize("front", FRONTS)
def test_front_ends_use_public_api_only(front: str) -> None:
    public = {"boardeval", "boardeval.core", *(f"boardeval.{g}" for g in GAMES)}
    for path in _modules(front):
        for mod, names in _imports(path):
            if not mod.startswith("boardeval") or mod.startswith(f"boardeval.{front}"):
                continue
            if front == "web" and mod.startswith("boardeval.cli"):
                pytest.fail(f"web/{path.name} imports the CLI ({mod})")
            if front == "cli" and mod.startswith("boardeval.web"):
                continue  # `boardeval web` starts the app
            assert mod in public, f"{front}/{path.name} imports {mod}: use the package's public API"
            exported = set(getattr(importlib.import_module(mod), "__all__", []))
            for name in names:
                assert name in exported, f"{front}/{path.name} imports {mod}.{name}, not in its __all__"


@pytest.mark.parametrize("game", GAMES)
def test_layers_name_only_existing_modules(game: str) -> None:
    existing = {_dotted(path, game) for path in _modules(game)}
    missing = sorted(set(LAYERS[game]) - existing)
    assert missing == [], f"LAYERS[{game!r}] lists modules that do not exist: {missing}"


def _public_packages() -> list[Path]:
    """Every package directory under src/boardeval whose dotted path has no private (``_x``) part."""
    inits = sorted(SRC.rglob("__init__.py"))
    return [
        p.parent for p in inits if not any(part.startswith("_") for part in p.parent.relative_to(SRC).parts)
    ]


def _package_name(directory: Path) -> str:
    return ".".join(["boardeval", *directory.relative_to(SRC).parts])


@pytest.mark.parametrize("package", _public_packages(), ids=_package_name)
def test_no_exported_name_equals_a_submodule(package: Path) -> None:
    submodules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    submodules |= {d.name for d in package.iterdir() if (d / "__init__.py").is_file()}
    exported = set(getattr(importlib.import_module(_package_name(package)), "__all__", []))
    clashes = sorted(exported & submodules)
    assert clashes == [], (
        f"{_package_name(package)} exports names that hide its submodules {clashes}: make the module private "
        "(_name.py) and re-export the public names from the package"
    )


_FENCE = re.compile(r"^\s*(```|~~~)")
_IMPORT = re.compile(
    r"^\s*(?:>>>\s*|\.\.\.\s*)?((?:from\s+boardeval[\w.]*\s+import\s|import\s+boardeval\b).*)$"
)


def documented_imports() -> list[tuple[str, str]]:
    """(``file:line``, statement) for every boardeval import line inside a fenced code block of the docs.

    A parenthesised import that spans lines is joined into one statement.
    """
    found: list[tuple[str, str]] = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        in_block = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if _FENCE.match(line):
                in_block = not in_block
            elif in_block and (m := _IMPORT.match(line)):
                where, statement = f"{doc.name}:{i + 1}", m.group(1).split("  #")[0].rstrip()
                while statement.count("(") > statement.count(")") and i + 1 < len(lines):
                    i += 1
                    statement += " " + lines[i].strip()
                found.append((where, statement))
            i += 1
    return found


def test_the_docs_show_imports() -> None:
    files = {where.split(":")[0] for where, _ in documented_imports()}
    assert len(files) >= 2, f"expected import examples in README.md and docs/*.md, found them in {files}"


@pytest.mark.parametrize(("where", "statement"), documented_imports(), ids=lambda v: str(v)[:60])
def test_documented_import_works(where: str, statement: str) -> None:
    try:
        code = compile(statement, where, "exec")
    except SyntaxError as exc:
        pytest.fail(f"{where}: documented import is not valid Python: {statement!r} ({exc.msg})")
    try:
        exec(code, {})
    except ImportError as exc:
        pytest.fail(f"{where}: documented import fails: {statement!r}: {exc}")
