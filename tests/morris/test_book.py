"""The placing-phase opening book (issue 25): symmetries, the file's round trip, lookups in every frame,
a resumable build, its use in search and the why-panel, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardeval.morris import AlphaBetaPlayer, Position, Searcher, Turn, Variant, why_panel
from boardeval.morris.board import ADJ_MASK, MILL_MASKS
from boardeval.morris.book import Book, BookEntry, BookError, book_positions, build_book
from boardeval.morris.book.build import code_text, file_digest, is_current, search_key
from boardeval.morris.book.store import canonical_text
from boardeval.morris.symmetry import INVERSE, SYMMETRIES, canonical, map_mask, map_turn


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Book, Path]:
    """A book of the start (depth 3) and its 4 replies (depth 2), built serially with checkpoints."""
    folder = tmp_path_factory.mktemp("book")
    result = build_book([3, 2], checkpoint=folder / "ck", command="test")
    assert result.total == 5 and result.searched == 5 and not result.interrupted
    path = folder / "book.json"
    result.book.write(path)
    return result.book, path


def test_symmetries_keep_edges_and_mills_and_invert() -> None:
    for g, perm in enumerate(SYMMETRIES):
        back = SYMMETRIES[INVERSE[g]]
        assert all(back[perm[p]] == p for p in range(24))
        for p in range(24):
            assert map_mask(g, ADJ_MASK[p]) == ADJ_MASK[perm[p]]
        assert {map_mask(g, m) for m in MILL_MASKS} == set(MILL_MASKS)


def test_canonical_form_is_the_same_for_every_image() -> None:
    pos = Position.from_moves("d2 a1 g4")
    key, g = canonical_text(pos)
    (w, b), _ = canonical(pos.men[0], pos.men[1])
    assert (map_mask(g, pos.men[0]), map_mask(g, pos.men[1])) == (w, b)
    for h in range(16):
        men = [map_mask(h, pos.men[0]), map_mask(h, pos.men[1])]
        image = Position(men, pos.hand, pos.side, validate=False)
        assert canonical_text(image)[0] == key


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=24, max_size=24))
def test_map_mask_and_canonical_agree_with_the_point_permutations(cells: list[int]) -> None:
    """The byte tables behind ``map_mask`` against the permutations point by point, and ``canonical``
    against the smallest of the 16 images as pairs."""
    white = sum(1 << p for p, c in enumerate(cells) if c == 1)
    black = sum(1 << p for p, c in enumerate(cells) if c == 2)

    def image(g: int, mask: int) -> int:
        return sum(1 << SYMMETRIES[g][p] for p in range(24) if mask >> p & 1)

    pairs = [(image(g, white), image(g, black)) for g in range(16)]
    assert [map_mask(g, white) for g in range(16)] == [w for w, _ in pairs]
    best = min(pairs)
    assert canonical(white, black) == (best, pairs.index(best))


def test_book_positions_count_the_symmetry_classes() -> None:
    assert [len(level) for level in book_positions(3)] == [1, 4, 46]


def tmp_path_file(beside: Path, data: dict[str, object]) -> Path:
    """``data`` written as JSON into a new file next to ``beside``."""
    path = beside.with_name("other.json")
    path.write_text(json.dumps(data))
    return path


def test_file_round_trip(tiny: tuple[Book, Path]) -> None:
    book, path = tiny
    again = Book.read(path)
    assert again.entries == book.entries
    assert again.to_json() == book.to_json()
    data = json.loads(path.read_text())
    assert data["format"] == "boardeval-morris-book/2" and data["command"] == "test"
    assert all(len(row) == 6 for row in data["entries"])  # no proven values without the tables
    old = tmp_path_file(path, {**data, "format": "boardeval-morris-book/1"})
    assert Book.read(old).entries == book.entries  # a book of format 1 (no proven values) still reads
    assert data["depths"] == [3, 2] and data["complete"] is True
    assert [row[0] for row in data["entries"]] == sorted(row[0] for row in data["entries"])


def test_lookup_in_every_frame(tiny: tuple[Book, Path]) -> None:
    book, _ = tiny
    start = book.probe(Position.start())
    assert start is not None and start.depth == 3 and start.move in Position.start().legal_turns()
    assert start.text().startswith("book move: searched to depth 3, ")
    # every reply of the start is held, under whichever symmetry it is played
    for turn in Position.start().legal_turns():
        pos = Position.start()
        pos.push(turn)
        entry = book.probe(pos)
        assert entry is not None and entry.depth == 2
        assert entry.move in pos.legal_turns()
        # the entry is the canonical position's move, mapped back: map it forward again and compare
        key, g = canonical_text(pos)
        stored = book.entries[key]
        assert map_turn(g, entry.move) == stored.move
        assert all(isinstance(t, type(entry.move)) for t in entry.pv)
    assert book.probe(Position.from_moves("d2 f4")) is None  # ply 2 is not in this book
    assert book.probe(Position.parse("WWW.BBB................. w 0 0", validate=False)) is None
    assert book.probe(Position.start(Variant.parse("openspiel"))) is None


def test_build_resumes_from_checkpoints_and_keeps_an_interrupt(tmp_path: Path) -> None:
    folder = tmp_path / "ck"

    def stop_after_two(done: int, total: int, _msg: str) -> None:
        if done == 2:
            raise KeyboardInterrupt

    first = build_book([2, 1], checkpoint=folder, progress=stop_after_two)
    assert first.interrupted and first.searched == 2 and len(first.book) == 2
    assert first.book.meta["complete"] is False
    second = build_book([2, 1], checkpoint=folder)
    assert second.resumed == 2 and second.searched == 3 and len(second.book) == 5
    assert second.book.meta["complete"] is True
    third = build_book([2, 1], checkpoint=folder)
    assert third.searched == 0 and third.book.entries == second.book.entries


def test_bad_book_files(tmp_path: Path, tiny: tuple[Book, Path]) -> None:
    with pytest.raises(BookError, match="cannot read"):
        Book.read(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(BookError, match="not JSON"):
        Book.read(bad)
    bad.write_text(json.dumps({"format": "other"}))
    with pytest.raises(BookError, match="is not a boardeval-morris-book/2"):
        Book.read(bad)
    data = json.loads(tiny[1].read_text())
    data["entries"][0][1] = "a1-a4"  # not legal while placing
    bad.write_text(json.dumps(data))
    with pytest.raises(BookError, match="entry 0"):
        Book.read(bad)
    data = json.loads(tiny[1].read_text())
    for proof, words in [
        ({"value": "won", "exact": True}, "value must be one of"),
        ({"value": "draw"}, "7th field"),
        ({"value": "draw", "exact": "yes"}, "exact true or false"),
    ]:
        data["entries"][1] = [*data["entries"][1][:6], proof]
        bad.write_text(json.dumps(data))
        with pytest.raises(BookError, match=f"entry 1: .*{words}"):
            Book.read(bad)


def test_the_shipped_book_is_read_trusted_and_passes_every_check() -> None:
    """``default_book`` reads the package's book without checking each position (``check=False``, the
    start-up cost of every search); read checked, the same file gives the same entries and meta."""
    from boardeval.morris.book import DEFAULT_BOOK, default_book

    shipped = default_book()
    assert shipped is not None
    checked = Book.read(DEFAULT_BOOK)
    assert checked.entries == shipped.entries and checked.meta == shipped.meta


def test_an_unchecked_read_still_refuses_a_bad_shape_and_probe_a_bad_move(
    tmp_path: Path, tiny: tuple[Book, Path]
) -> None:
    data = json.loads(tiny[1].read_text())
    bad = tmp_path / "bad.json"
    for damage, words in [
        ((1, "z9"), "cannot read turn"),
        ((0, 7), "must be text"),
        ((3, "x"), "score must be a finite number"),
    ]:
        rows = json.loads(json.dumps(data))
        rows["entries"][0][damage[0]] = damage[1]
        bad.write_text(json.dumps(rows))
        with pytest.raises(BookError, match=f"entry 0: .*{words}"):
            Book.read(bad, check=False)
    rows = json.loads(json.dumps(data))
    rows["entries"].append(rows["entries"][0])  # the same position twice: which one to play?
    bad.write_text(json.dumps(rows))
    for check in (True, False):
        with pytest.raises(
            BookError, match=f"entry {len(rows['entries']) - 1}: position .* has an entry already"
        ):
            Book.read(bad, check=check)
    rows = json.loads(json.dumps(data))
    start = Position.start()
    key = canonical_text(start)[0]
    (row,) = [r for r in rows["entries"] if r[0] == key]
    row[1] = "a1-a4"  # a move while placing: refused by a checked read; an unchecked one never plays it
    bad.write_text(json.dumps(rows))
    with pytest.raises(BookError, match="not legal there"):
        Book.read(bad)
    assert Book.read(bad, check=False).probe(start) is None


def test_search_and_player_take_the_book_move(tiny: tuple[Book, Path]) -> None:
    book, _ = tiny
    entry = book.probe(Position.start())
    assert entry is not None
    res = Searcher(book=book).search(Position.start(), time_limit=0.05)
    assert res.move == entry.move and res.book == entry.text() and res.nodes == 0
    budget = Searcher(book=book).search(Position.start(), node_limit=1000)  # a node budget, like a clock
    assert budget.move == entry.move and budget.book == entry.text() and budget.nodes == 0
    deeper = Searcher(book=book).search(Position.start(), depth=4)  # deeper than the book: searched
    assert deeper.book is None and deeper.nodes > 0
    ai = AlphaBetaPlayer(time=0.05, book=book)
    assert ai.search(Position.start()).book == entry.text()
    panel = ai.why(Position.start(), 2, 2)
    assert panel["book"]["text"] == entry.text() and panel["book"]["move"] == str(entry.move)
    assert panel["explanation"][0].startswith("Book move: searched to depth 3")
    json.dumps(panel)
    assert why_panel(Position.start(), 2, 2)["book"] is None
    assert AlphaBetaPlayer(time=0.05, book=None).search(Position.start()).book is None


def test_cli_build_and_probe(tmp_path: Path) -> None:
    from boardeval.cli.main import app

    out = tmp_path / "b.json"
    res = CliRunner().invoke(
        app,
        ["morris", "book", "build", "--depths", "2", "--out", str(out), "--checkpoint", str(tmp_path / "ck")],
    )
    assert res.exit_code == 0, res.output
    assert "book of 1 positions" in res.output and out.is_file()
    probe = CliRunner().invoke(
        app, ["morris", "book", "probe", "........................ w 9 9", "--book", str(out), "--json"]
    )
    assert probe.exit_code == 0, probe.output
    assert json.loads(probe.output)["book"]["depth"] == 2
    bad = CliRunner().invoke(app, ["morris", "book", "build", "--depths", "2,0x"])
    assert bad.exit_code == 2 and "--depths" in bad.output
    # --from-book: the start taken from the book just written, its 4 replies searched
    more = tmp_path / "c.json"
    args = [
        "morris",
        "book",
        "build",
        "--depths",
        "2,1",
        "--out",
        str(more),
        "--checkpoint",
        str(tmp_path / "c"),
    ]
    other = CliRunner().invoke(app, [*args, "--from-book", str(out)])
    assert other.exit_code == 2 and "built with --depths [2]" in other.output  # other depths: refused
    (tmp_path / "one.json").write_text(json.dumps({**json.loads(out.read_text()), "depths": [2, 1]}))
    res = CliRunner().invoke(app, [*args, "--from-book", str(tmp_path / "one.json")])
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split())
    assert "book of 5 positions" in said and "4 searched now, 0 from checkpoints, 1 from" in said


def test_entry_json() -> None:
    pos = Position.start()
    e = BookEntry(pos.legal_turns()[0], 20, 0.4, 10, ())
    assert e.to_dict()["text"] == "book move: searched to depth 20, +0.40"


def test_shipped_book_in_best_and_no_book() -> None:
    """The shipped book answers ``best`` at the start (no search; the why-panel says so); ``--no-book``
    searches instead."""
    from boardeval.cli.main import app
    from boardeval.morris.book import default_book

    shipped = default_book()
    assert shipped is not None and shipped.meta["complete"] is True
    entry = shipped.probe(Position.start())
    assert entry is not None
    start = ["morris", "best", "........................ w 9 9"]
    args = ["--time", "0.05", "--candidates", "2", "--json"]
    res = CliRunner().invoke(app, [*start, *args])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["book"] == entry.text() and data["nodes"] == 0 and data["move"] == str(entry.move)
    assert data["why"]["book"]["text"] == entry.text()
    off = CliRunner().invoke(app, [*start, "--no-book", *args])
    assert off.exit_code == 0, off.output
    searched = json.loads(off.output)
    assert searched["book"] is None and searched["nodes"] > 0 and searched["why"]["book"] is None


def test_checkpoints_of_another_search_are_not_reused(tmp_path: Path) -> None:
    """Issue 25: checkpoints were keyed by position and depth only, so a build resumed after a change of
    the weights (or of the engine) silently took the old search's entries. They are keyed by the search
    (weights' values, options, code) now: another profile searches again and says how many it passed
    over; a checkpoint without a key (written before) is passed over too."""
    folder = tmp_path / "ck"
    first = build_book([2], checkpoint=folder)
    assert first.searched == 1 and first.stale == 0
    (saved,) = [json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")]
    assert search_key("base") != search_key("seed") and saved["key"] == search_key("base")
    other = build_book([2], profile="seed", checkpoint=folder)
    assert other.resumed == 0 and other.searched == 1 and other.stale == 1
    # an old-style checkpoint (no key) that says another move: not taken, searched again
    for p in folder.glob("*.json"):
        p.unlink()
    old = {k: v for k, v in saved.items() if k not in ("key", "asked")}
    old["move"] = "g1" if saved["move"] != "g1" else "a7"
    (folder / "old.json").write_text(json.dumps(old), encoding="utf-8")
    again = build_book([2], checkpoint=folder)
    assert again.resumed == 0 and again.searched == 1 and again.stale == 1
    assert again.book.entries == first.book.entries


def test_a_book_of_another_search_says_so(tiny: tuple[Book, Path], tmp_path: Path) -> None:
    """Issue 25: a book's meta carries its build's search key (the checkpoints' key). A book whose key is
    not the current search's (edited weights, engine options or code), or that has none, is stale: its
    moves are still played, but every answer from it (the entry, the player's result, the why-panel) says
    so, with the command that makes it again. The shipped book carries its key."""
    from boardeval.morris.book import default_book

    book, path = tiny
    start = Position.start()
    assert book.meta["search_key"] == search_key("base") and not book.stale()
    fresh = book.probe(start)
    assert fresh is not None and not fresh.stale and "another version" not in fresh.text()
    assert book.meta["file_digest"] == file_digest("base")
    for key in ("0123456789abcdef", None):  # another search's key; none (a book written before keys)
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("search_key")
        data.pop("file_digest")  # (the files' digest alone makes a book current: tested below)
        if key is not None:
            data["search_key"] = key
        other = tmp_path / "other.json"
        other.write_text(json.dumps(data), encoding="utf-8")
        old = Book.read(other)
        assert old.stale()
        entry = old.probe(start)
        assert entry is not None and entry.stale and entry.to_dict()["stale"] is True
        assert entry.move == fresh.move and entry.text() == (
            fresh.text() + " (by another version of the search: `test` makes the book again)"
        )
        ai = AlphaBetaPlayer(time=0.05, book=old, shuffle_ties=False, manage_time=False)
        result = ai.search(start)
        assert result.move == fresh.move and result.nodes == 0 and result.book == entry.text()
        panel = ai.why(start, 2, 2)
        assert panel["book"]["stale"] is True and panel["book"]["text"] == entry.text()
        assert "by another version of the search (`test` makes the book again)" in panel["explanation"][0]
    shipped = default_book()
    assert shipped is not None and len(str(shipped.meta["search_key"])) == 16


_MODULE = '''"""A module."""

import math  # the one import

LIMIT = 3
"""How many."""


def f(x: int) -> float:
    """Twice ``x``, über."""
    # a comment on its own line
    y = x * 2  # and one after code
    return math.sqrt(y) if y > LIMIT else f"{y}#"  # the '#' in the string stays
'''


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("# the one import", "# imports"),  # a comment
        ('"""Twice ``x``, über."""', '"""Twice x.\n\n    More words.\n    """'),  # a docstring
        ('"""How many."""', ""),  # a constant's string
        ("LIMIT = 3\n", "LIMIT = 3   \n\n\n"),  # trailing spaces, blank lines
        ("    # a comment on its own line\n", ""),
    ],
)
def test_the_search_key_ignores_comments_and_docstrings(old: str, new: str) -> None:
    """Issue 25, twenty-ninth session: the search key hashed the keyed files' raw bytes, so a docstring
    edit in the search's code made the shipped book stale (~6 h of CPU to search again). It hashes each
    file's :func:`code_text` now: comments, string statements and blank lines left out, code kept."""
    assert old in _MODULE
    assert code_text(_MODULE.replace(old, new)) == code_text(_MODULE)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("LIMIT = 3", "LIMIT = 4"),  # a number
        ("x * 2", "x*2"),  # spacing inside a line is code text too (a reformat makes the book stale)
        ('f"{y}#"', 'f"{y}%"'),  # a '#' inside a string is not a comment
        ("    return", "    return -1\n    return"),  # a statement
        ("import math  #", "import cmath as math  #"),
    ],
)
def test_the_search_key_sees_every_code_change(old: str, new: str) -> None:
    assert old in _MODULE
    assert code_text(_MODULE.replace(old, new)) != code_text(_MODULE)


def test_a_book_is_current_by_its_files_or_by_its_code() -> None:
    """A book records its search key and its files' digest. The same files: current without parsing them
    (a player's first answer: ~1 ms instead of ~0.3 s). Other files (a docstring edited since): current
    when the key, which leaves comments and docstrings out, is the same. Neither: stale."""
    key, files = search_key("base"), file_digest("base")
    assert key != files
    assert is_current({"search_key": key, "file_digest": files})
    assert is_current({"search_key": "0123456789abcdef", "file_digest": files})  # trusts the files' digest
    assert is_current({"search_key": key, "file_digest": "0123456789abcdef"})  # only comments differ
    assert is_current({"search_key": key})  # a book written before the digest
    assert not is_current({"search_key": "0123456789abcdef", "file_digest": "0123456789abcdef"})
    assert not is_current({})
    assert not is_current({"search_key": search_key("seed"), "file_digest": file_digest("seed")})
    assert is_current({"search_key": search_key("seed"), "weights": "seed"})


def test_code_text_keeps_the_code_of_the_keyed_files() -> None:
    """Of every file the key covers, what :func:`code_text` keeps parses to the same statements as the
    file, its docstrings and string statements aside (they are the only thing it drops but comments)."""
    import ast

    from boardeval.morris._search import searcher
    from boardeval.morris._search.compiled import engine, options
    from boardeval.morris._search.compiled.sources import CACHE_SOURCES

    def code(tree: ast.AST) -> str:
        for node in ast.walk(tree):
            for name in ("body", "orelse", "finalbody"):
                body = getattr(node, name, None)
                if isinstance(body, list):
                    kept = [s for s in body if not (isinstance(s, ast.Expr) and _string(s.value))]
                    setattr(node, name, kept or [ast.Pass()])
        return ast.dump(tree)

    for path in (*CACHE_SOURCES, *(Path(m.__file__ or "") for m in (engine, options, searcher))):
        text = path.read_text(encoding="utf-8")
        kept = code_text(text)
        assert "\n\n" not in kept
        # a function whose body was only its docstring has no body left: give it one to parse
        fixed = "\n".join(
            line + (" pass" if line.rstrip().endswith(":") and not _more_indented(kept, i) else "")
            for i, line in enumerate(kept.splitlines())
        )
        assert code(ast.parse(fixed)) == code(ast.parse(text)), path.name


def _string(node: object) -> bool:
    import ast

    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _more_indented(text: str, i: int) -> bool:
    """Whether the line after line ``i`` of ``text`` is indented deeper than line ``i``."""
    lines = text.splitlines()
    if i + 1 >= len(lines):
        return False
    depth = len(lines[i]) - len(lines[i].lstrip())
    return len(lines[i + 1]) - len(lines[i + 1].lstrip()) > depth


def test_the_why_panel_says_what_the_book_proves_of_each_candidate() -> None:
    """Issue 25, twenty-ninth session: where the book holds the position a candidate turn leads to, the
    candidate carries its proven value for the mover (every first placement leads to a position of ply 3,
    all of which the book holds). Of this drawn position's turns some keep the draw and d6 loses: the
    analysis' depth-6 search put d6 first, and the panel now says it loses with best play."""
    from boardeval.morris.book import default_book

    book = default_book()
    assert book is not None
    pos = Position.parse(".W........B............. w 8 8")  # ply 2, White to move, a proven draw
    entry = book.probe(pos)
    assert entry is not None and entry.value == "draw"
    panel = why_panel(pos, len(pos.legal_turns()), 2, book=book)
    negated = {"win": "loss", "draw": "draw", "loss": "win"}
    seen = set()
    for cand in panel["candidates"]:
        child = pos.copy()
        child.play(cand["move"])
        after = book.probe(child)
        assert after is not None and cand["proven"]["value"] == negated[after.value]
        seen.add(cand["proven"]["value"])
    assert seen == {"draw", "loss"}  # a drawn position: no turn wins; the book's keeps the draw
    (mine,) = [c for c in panel["candidates"] if c["book"]]
    assert mine["proven"] == {"value": "draw", "text": "draws with best play (opening book)"}
    (d6,) = [c for c in panel["candidates"] if c["move"] == "d6"]
    assert d6["proven"]["value"] == "loss"
    said = [s for s in panel["explanation"] if s.startswith("d6 (")]
    assert len(said) == 1 and "loses with best play (opening book)" in said[0]
    # past the book (and without one): no claim
    off = Position.start()
    for turn in ("d2", "a7", "f4", "g7", "b4", "a1", "d6", "g1"):  # ply 8: past the book's plies
        off.play(turn)
    assert all(c["proven"] is None for c in why_panel(off, 3, 2, book=book)["candidates"])
    assert all(c["proven"] is None for c in why_panel(pos, 3, 2)["candidates"])


def test_off_the_book_a_panel_keeps_the_proven_value_where_the_book_knows_every_turn() -> None:
    """White leaves the book at once (a7), Black answers from it twice: White's ply-4 position is not in
    the book, but every turn from it leads to a position of Black's book lines, so each turn's outcome is
    proven. The panel keeps the analysis' best-ranked turn among those that keep the position's value
    (``keeps``, ``proven``) and says which candidates would not; here the analysis ranks three losing
    placements above it. The AI plays that turn where its search picked a losing one."""
    from boardeval.morris.book import default_book

    book = default_book()
    assert book is not None
    pos = Position.start()
    for turn in ("a7", None, "g1", None):  # None: Black's book move
        entry = book.probe(pos)
        assert entry is not None
        pos.play(turn or str(entry.move))
    assert book.probe(pos) is None
    panel = why_panel(pos, 3, 6, book=book)
    proven = panel["proven"]
    assert proven is not None and proven["value"] == "draw"
    (mine,) = [c for c in panel["candidates"] if c["keeps"]]
    assert mine["move"] == proven["move"] and mine["proven"]["value"] == "draw" and not mine["book"]
    assert all(c["proven"] is not None for c in panel["candidates"])
    # the best-ranked keeper: every turn the analysis scores higher loses with best play
    ranked = Searcher().top_moves(pos, len(pos.legal_turns()), 6)
    order = [str(m.move) for m in ranked]
    for better in order[: order.index(mine["move"])]:
        child = pos.copy()
        child.play(better)
        after = book.probe(child)
        assert after is not None and after.value == "win"  # the opponent's: the turn loses
    losers = [c["move"] for c in panel["candidates"] if c["proven"]["value"] == "loss"]
    assert losers and f"{mine['move']} is this panel's best-ranked turn that keeps it" in " ".join(
        panel["explanation"]
    )
    assert panel["explanation"][0].startswith("The opening book proves the outcome of every turn here: ")
    assert book.proven_value(pos) == "draw" and book.probe(pos) is None  # from its turns' outcomes
    assert book.proven_value(Position.start()) == "draw"  # its own entry
    past = pos.copy()
    for turn in ("d6", "b2", "f2", "b6xf2"):  # past the book's lines: it cannot tell
        past.play(turn)
    assert book.proven_value(past) is None
    # the AI in such a position (never in its own games, but `morris best` on any position): a shallow
    # search picks a losing turn, and the player plays the best-ranked turn that keeps the value instead
    from boardeval.morris.why import turn_outcomes

    outcomes = turn_outcomes(pos, book)
    assert outcomes is not None and max(outcomes.values()) == 0
    plain = AlphaBetaPlayer(depth=4, manage_time=False, book=None).search(pos)
    assert plain.move is not None and outcomes[plain.move] == -1  # the search alone loses the draw
    result = AlphaBetaPlayer(depth=4, manage_time=False).search(pos)
    assert result.move is not None and outcomes[result.move] == 0 and result.move != plain.move
    assert result.book == (
        f"opening book: {result.move} draws with best play, every turn's outcome proven; the search's "
        f"{plain.move} loses"
    )
    # its panel, after that search, keeps the same turn among its candidates
    ai = AlphaBetaPlayer(depth=4, manage_time=False)
    played = ai.search(pos).move
    after = ai.why(pos, 3)
    assert after["proven"] is not None and after["proven"]["move"] == str(played)
    assert [c["move"] for c in after["candidates"] if c["keeps"]] == [str(played)]


def test_proven_entries_say_so_and_round_trip(tmp_path: Path) -> None:
    """An entry with a proven value (a book made with the K <= 9 tables) says what is proven; the value and
    the exact flag survive the file."""
    pos = Position.start()
    turn = pos.legal_turns()[0]
    exact = BookEntry(turn, 15, 0.0, 10, (), value="draw", exact=True)
    assert exact.text() == "book move: holds the draw, proven to the last placement with the K <= 9 tables"
    checked = BookEntry(turn, 20, 0.94, 10, (), value="draw")
    assert checked.text() == (
        "book move: searched to depth 20, +0.94; keeps the draw, proven with the K <= 9 tables"
    )
    lost = BookEntry(turn, 15, -9950.0, 10, (), value="loss", exact=True)
    assert "lost; this move holds out longest" in lost.text()
    assert exact.to_dict()["value"] == "draw" and exact.to_dict()["exact"] is True
    assert BookEntry(turn, 20, 0.4, 10, ()).to_dict()["value"] is None
    key = canonical_text(pos)[0]
    book = Book({key: checked}, {"command": "test"})
    book.write(tmp_path / "b.json")
    again = Book.read(tmp_path / "b.json")
    assert again.entries == book.entries
    assert json.loads((tmp_path / "b.json").read_text())["entries"][0][6] == {"value": "draw", "exact": False}
    probed = again.probe(pos)
    assert probed is not None and probed.value == "draw" and not probed.exact
    # the why-panel says what is proven, from the mover's side
    panel = why_panel(pos, 2, 2, book=again)
    assert panel["book"]["value"] == "draw" and panel["book"]["exact"] is False
    # a book without a search key is another search's: its score says so, its proven value does not need to
    assert again.stale() and probed.text() == (
        "book move: searched to depth 20, +0.94 (by another version of the search: `test` makes the book"
        " again); keeps the draw, proven with the K <= 9 tables"
    )
    assert panel["explanation"][0].startswith(
        "Book move: searched to depth 20, +0.94 (White's view) by another version of the search (`test` "
        "makes the book again); the position is a draw with best play and the move keeps it (K <= 9 tables)"
    )
    won = Book({key: BookEntry(turn, 18, 9950.0, 10, (), value="win", exact=True)})
    panel = why_panel(pos, 2, 2, book=won)
    assert won.stale() and panel["book"]["exact"] is True and panel["book"]["stale"] is True
    # a proof stands whatever version of the search reads it: nothing about another search
    assert panel["explanation"][0] == (
        f"Book move: White wins with best play, proven to the last placement with the K <= 9 tables ({turn})."
    )
    probe = won.probe(pos)
    assert probe is not None and probe.stale and "another version" not in probe.text()


def test_back_up_gives_earlier_plies_their_values_and_checks_their_moves() -> None:
    """:func:`back_up`: the start's value is the best of its replies' values (negated), and a book move
    whose reply is worth less than the start is searched again among the turns that keep the value."""
    from boardeval.morris.book.build import BookJob, back_up, search_position

    levels = book_positions(2)
    start = levels[0][0]
    row = search_position(BookJob(start, 2, "base"))
    pos = Position.parse(start)
    child = pos.copy()
    child.push(Turn.parse(row["move"]))
    moved = canonical_text(child)[0]
    # the book move's reply is a win for Black, every other reply a draw: the move loses the draw
    rows = {start: dict(row)} | {t: {"value": "win" if t == moved else "draw"} for t in levels[1]}
    changed = back_up(levels, rows, "base")
    assert changed == [start] and rows[start]["value"] == "draw" and rows[start]["was"] == row["move"]
    again = pos.copy()
    again.push(Turn.parse(rows[start]["move"]))
    assert canonical_text(again)[0] != moved
    # the book move's reply is lost for Black: White's start is won and the move keeps it
    rows = {start: dict(row)} | {t: {"value": "loss" if t == moved else "draw"} for t in levels[1]}
    assert back_up(levels, rows, "base") == [] and rows[start]["value"] == "win"
    assert rows[start]["move"] == row["move"]


def test_the_exact_ply_needs_the_tables_of_every_moving_position(
    tablebase_3v3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--tablebase``: the last ply's depth must reach the last placement, the tables must cover K <= 9,
    and a search that does not end in proven values is an error, not an entry."""
    from boardeval.core import ParamsError
    from boardeval.morris.book import build
    from boardeval.morris.tablebase import Tablebase

    with pytest.raises(
        ParamsError,
        match=r"last ply \(1\) is searched exactly and needs depth >= 17 \(to the last placement\), got 2",
    ):
        build_book([3, 2], tablebase=tablebase_3v3)
    with pytest.raises(ParamsError, match=r"needs tables of every moving position .* cover K <= 3"):
        build_book([3, 17], tablebase=tablebase_3v3)
    # tables taken as full: a search to depth 2 ends in static scores, which the job refuses to book
    monkeypatch.setattr(build, "full_tables", lambda folder: Tablebase.open(folder))
    job = build.BookJob("W....................... b 8 9", 2, "base", tablebase=str(tablebase_3v3))
    with pytest.raises(BookError, match="not a proven value"):
        build.search_position(job)
    from boardeval.cli.main import app

    bad = CliRunner().invoke(
        app, ["morris", "book", "build", "--depths", "2,3", "--tablebase", str(tablebase_3v3)]
    )
    assert bad.exit_code == 2 and "needs depth >= 17" in bad.output


def test_the_shipped_book_proves_the_game_a_draw_and_its_moves_keep_it() -> None:
    """The shipped book was made with the K <= 9 tables (``--tablebase``): the start is a draw, as Gasser
    (1996) proved when he solved the game, each earlier ply's value is the best of its children's (the
    minimax the build did), and every book move keeps its position's value; ply 3 is the exact ply, and
    plies 4-6 are proven along the book's own lines."""
    from boardeval.morris.book import default_book
    from boardeval.morris.book.build import VALUES, book_line, check_line

    book = default_book()
    assert book is not None and book.meta.get("exact_ply") == 3 and book.meta.get("line_plies") == [4, 5, 6]
    levels = book_positions(4)
    rows = {text: {"move": str(e.move), "value": e.value} for text, e in book.entries.items()}
    lines = {ply: book_line(ply, rows)[1] for ply in (4, 5, 6)}
    everything = [text for level in levels for text in level] + [t for line in lines.values() for t in line]
    assert sorted(book.entries) == sorted(everything)
    assert book.entries[levels[0][0]].value == "draw"
    for ply, level in enumerate(levels[:3]):
        for text in level:
            pos, entry = Position.parse(text), book.entries[text]
            worth = {}
            for turn in pos.legal_turns():
                child = pos.copy()
                child.push(turn)
                worth[turn] = -VALUES[book.entries[canonical_text(child)[0]].value]
            assert VALUES[entry.value] == max(worth.values()), (ply, text)
            assert worth[entry.move] == VALUES[entry.value] and not entry.exact, (ply, text)
    assert all(book.entries[text].exact and book.entries[text].value for text in levels[3])
    # the line plies (White's plies 4 and 6, Black's ply 5, on the book's own lines): proven, and their
    # values agree with the earlier plies', searched apart (ply 4's parents are ply-3 positions, ply 5's
    # the positions after Black's ply-3 book moves, worth the negated ply-3 values, ply 6's those after
    # White's ply-4 line moves)
    for ply, line in lines.items():
        assert all(book.entries[text].exact and book.entries[text].value for text in line), ply
        check_line(ply, rows)


def _fake_search(lost: frozenset[str] = frozenset()) -> object:
    """A stand-in for the book's search (no tables, no depth): the first legal turn, "draw" unless the
    position is in ``lost`` (then lost for the side to move), proven when the job is exact."""
    from boardeval.morris.book.build import BookJob, _checkpoint_file

    def search(job: BookJob) -> dict[str, object]:
        pos = Position.parse(job.text)
        move = min(pos.legal_turns(), key=str)
        row: dict[str, object] = {
            "text": job.text, "move": str(move), "depth": job.depth, "score": 0.0, "nodes": 1,
            "pv": [str(move)], "cpu_seconds": 0.0, "asked": job.depth, "key": job.key,
        }  # fmt: skip
        if job.tablebase is not None:
            row |= {"value": "loss" if job.text in lost else "draw", "exact": True}
        if job.checkpoint is not None:
            path = _checkpoint_file(Path(job.checkpoint), job.text, job.depth, job.key)
            path.write_text(json.dumps(row), encoding="utf-8")
        return row

    return search


def test_line_plies_follow_the_books_own_lines_and_are_checked(
    tablebase_3v3: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``line_plies``: past the exact ply, the positions a side meets when it plays the book's moves (the
    other side anything) are proven too, and each line ply's values are checked against the book's values
    before it: a line value that disagrees is an error naming a position, not an entry."""
    from boardeval.morris.book import build
    from boardeval.morris.tablebase import Tablebase

    monkeypatch.setattr(build, "full_tables", lambda folder: Tablebase.open(folder))
    monkeypatch.setattr(build, "search_position", _fake_search())
    result = build_book([1, 17], tablebase=tablebase_3v3, line_plies=2)
    book = result.book
    rows = {t: {"move": str(e.move), "value": e.value} for t, e in book.entries.items()}
    white = build.book_line(2, rows)
    black = build.book_line(3, rows)
    assert result.lines == (len(white[1]), len(black[1])) and book.meta["line_plies"] == [2, 3]
    assert len(book) == 1 + 4 + len(white[1]) + len(black[1]) == result.total
    start = Position.start()
    first = start.copy()
    first.push(book.entries[canonical_text(start)[0]].move)
    # White's line at ply 2: every reply to White's book move; Black's at ply 3: every White turn after
    # Black's book move to each of White's first placements
    assert set(white[0]) == {canonical_text(first)[0]}
    assert set(white[1]) == {canonical_text(c)[0] for c in _children(first)}
    black_parents = set()
    for one in _children(start):
        two = one.copy()
        two.push(book.probe(one).move)  # type: ignore[union-attr]
        black_parents.add(canonical_text(two)[0])
    assert set(black[0]) == black_parents
    assert set(black[1]) == {
        canonical_text(c)[0] for p in black_parents for c in _children(Position.parse(p))
    }
    assert all(book.entries[t].exact and book.entries[t].value == "draw" for t in [*white[1], *black[1]])
    # checkpoints: a second build takes every line position from them; one of another search, none
    folder = tmp_path / "ck"
    first = build_book([1, 17], tablebase=tablebase_3v3, line_plies=2, checkpoint=folder)
    again = build_book([1, 17], tablebase=tablebase_3v3, line_plies=2, checkpoint=folder)
    assert first.searched == result.total and again.searched == 0 and again.resumed == result.total
    assert again.book.entries == book.entries
    monkeypatch.setattr(build, "search_key", lambda profile: "another")
    other = build_book([1, 17], tablebase=tablebase_3v3, line_plies=2, checkpoint=folder)
    assert other.searched == result.total and other.stale == result.total
    # a ply-3 position lost for Black below a drawn ply-2 one: the line's proofs and the book disagree
    lost = sorted(black[1])[0]
    monkeypatch.setattr(build, "search_position", _fake_search(frozenset({lost})))
    with pytest.raises(BookError, match=r"value by the exact searches of ply 3 \(\+1\) is not the one"):
        build_book([1, 17], tablebase=tablebase_3v3, line_plies=2)
    with pytest.raises(Exception, match="--line-plies needs --tablebase"):
        build_book([1], line_plies=2)
    from boardeval.cli.main import app

    bad = CliRunner().invoke(app, ["morris", "book", "build", "--depths", "2", "--line-plies", "9"])
    assert bad.exit_code == 2 and "--line-plies" in bad.output
    from boardeval.cli import morris_book

    assert morris_book.MAX_LINE_PLIES == build.MAX_LINE_PLIES  # the CLI's reader and the build agree


def test_a_build_takes_what_a_book_of_the_same_search_holds(
    tablebase_3v3: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``from_book``: one more line ply searches only its own positions, the rest comes from the book
    given (the same entries as a build from scratch); a book of another search, other depths or another
    exact ply is refused, naming what differs."""
    from boardeval.core import ParamsError
    from boardeval.morris.book import build
    from boardeval.morris.tablebase import Tablebase

    monkeypatch.setattr(build, "full_tables", lambda folder: Tablebase.open(folder))
    monkeypatch.setattr(build, "search_position", _fake_search())
    two = build_book([1, 17], tablebase=tablebase_3v3, line_plies=2)
    three = build_book([1, 17], tablebase=tablebase_3v3, line_plies=3)
    asked: list[str] = []
    fake = _fake_search()

    def counted(job: build.BookJob) -> object:
        asked.append(job.text)
        return fake(job)  # type: ignore[operator]

    monkeypatch.setattr(build, "search_position", counted)
    seeded = build_book(
        [1, 17], tablebase=tablebase_3v3, line_plies=3, from_book=two.book, checkpoint=tmp_path
    )
    assert seeded.book.entries == three.book.entries
    assert seeded.from_book == len(two.book) and seeded.searched == three.lines[2] == len(asked)
    assert set(asked) == set(three.book.entries) - set(two.book.entries)
    assert seeded.resumed == len(two.book) and len(list(tmp_path.glob("*.json"))) == len(three.book)
    for book, words in [
        (Book(two.book.entries, {**two.book.meta, "search_key": "other"}), "made by another search"),
        (Book(two.book.entries, {**two.book.meta, "depths": [2, 17]}), r"built with --depths \[2, 17\]"),
    ]:
        with pytest.raises(ParamsError, match=words):
            build_book([1, 17], tablebase=tablebase_3v3, line_plies=3, from_book=book)
    with pytest.raises(ParamsError, match="exact ply None"):
        build_book([1, 17], from_book=two.book)  # no tables: the book's exact ply 1 cannot stand in


def _children(pos: Position) -> list[Position]:
    out = []
    for turn in pos.legal_turns():
        child = pos.copy()
        child.push(turn)
        out.append(child)
    return out


def test_the_why_panel_never_calls_another_turn_best_than_the_book_move() -> None:
    """A book position's panel: its shallower search may rank another turn first (here depth 8 ranks
    d2, f4 and d6 above the book's b4), but the book's move is the one played, so it is always a candidate
    (last when it is not in the top n), tagged "book move", and no turn is called "best"."""
    from boardeval.morris.book import default_book

    book = default_book()
    pos = Position.parse("W.......B............... w 8 8")
    entry = book.probe(pos) if book is not None else None
    assert entry is not None
    sizes = []
    for n, depth in [(3, 8), (3, 4), (1, 4)]:
        panel = why_panel(pos, n, depth, book=book)
        sizes.append(len(panel["candidates"]) - n)
        cands = panel["candidates"]
        assert [c["book"] for c in cands].count(True) == 1
        (mine,) = [c for c in cands if c["book"]]
        assert mine["move"] == str(entry.move) and len(cands) in (n, n + 1)
        assert len(cands) == n or cands[-1] is mine  # added after the top n only when it is not one of them
        words = panel["explanation"]
        assert not any("(best)" in s for s in words)
        assert f"{entry.move} (book move): " in words[len(words) - len(cands) + cands.index(mine)]
        better = sum(1 for c in cands if c["score"] > mine["score"])
        rank = (
            "is not among"
            if better >= n
            else "has their best score"
            if better == 0
            else f"ranks #{better + 1}"
        )
        assert any(f"to depth {depth}; the book's move {entry.move} {rank}" in s for s in words)
    assert sorted(set(sizes)) == [0, 1]  # both cases met: the book's move in the top n, and added after them
    # after the AI's own answer (its table kept: the top n screened first, every turn scored only when
    # the book's move is not among them) the book's move is there too, with the nodes of both passes
    ai = AlphaBetaPlayer.at_strength("expert", shuffle_ties=False, manage_time=False)
    assert ai.search(pos).move == entry.move
    panels = [ai.why(pos, n, 8) for n in (1, 3)]
    # a searcher that has not searched here: its screening does not start with the book's move
    panels += [why_panel(pos, n, 8, book=book, searcher=Searcher(), fresh=False) for n in (1, 2, 3)]
    for n, panel in zip((1, 3, 1, 2, 3), panels, strict=True):
        (mine,) = [c for c in panel["candidates"] if c["book"]]
        assert mine["move"] == str(entry.move) and panel["nodes"] > 0
        assert len(panel["candidates"]) == n or panel["candidates"][-1] is mine
    # at the start the book's first placement has symmetric images that score exactly the same
    start = why_panel(Position.start(), 3, 6, book=book)
    (said,) = [s for s in start["explanation"] if "the book's move" in s]
    ties = [c["move"] for c in start["candidates"] if not c["book"]]
    assert said.endswith(f"has their best score, tied with {' and '.join(ties)}.")
    plain = why_panel(pos, 2, 4)
    assert plain["book"] is None and [c["book"] for c in plain["candidates"]] == [False, False]
    assert any("(best)" in s for s in plain["explanation"])
