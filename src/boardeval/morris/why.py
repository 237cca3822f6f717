"""The why-panel (spec section 3): why the engine prefers its top candidate turns, as JSON-able data.

For a position the panel lists the top N candidate turns with their search scores, the **raw** feature
values of both sides before and after each turn, how each turn changes them, and a plain-language ranking
of the features that mattered most ("threats matter more than mobility here").

Phase scaling and normalisation are engine-internal (seed section 5: users see that X matters more than Y,
never the factor), so the panel carries raw values, signed changes and an *order* of importance only --
no scales, no weighted contributions.

Decided lines are said in words, never as a raw score (issue 23 section 2): a candidate whose turn ends the
game, which the tablebase rates, or whose search score is a win/loss distance (``WIN_SCORE`` minus the turns
to the end) carries a structured ``verdict`` ("wins: Black has no legal move after this", "tablebase: wins
in 7", "loses in 3"); every other line says the first men won or lost along its principal variation ("loses
a man in 3"). Scores: ``score`` is from the side to move's view (the search's), ``white_score`` from White's
view (+ good for White), the one convention the CLI and the web app show (as lichess does).

Importance of a feature in a position (used only to order the ranking): the size of its weighted term in
the current evaluation plus the average size of the change of that term over the candidate turns, both from
the side to move's view. A feature with weight 0 in the active profile never ranks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from boardeval.core import ParamsError
from boardeval.morris._evaluate import MATE_BOUND, WIN_SCORE, Evaluator
from boardeval.morris._features import (
    FEATURES,
    JUNCTIONS,
    LIBERTY_CAP,
    cramped_men,
    features,
    groups,
    neighbours,
    position_phase,
    side_phase,
)
from boardeval.morris._search.opening import OUTCOME_NAMES, OpeningBook, turn_outcomes
from boardeval.morris._search.searcher import Searcher
from boardeval.morris.board import points_of
from boardeval.morris.outcome import Termination
from boardeval.morris.rules import WHITE, Position
from boardeval.morris.turns import Turn

if TYPE_CHECKING:
    from boardeval.morris._search.endgame import Probe
    from boardeval.morris.tablebase import Tablebase

__all__ = [
    "FEATURE_LABELS",
    "OUTCOME_VERBS",
    "game_verdict",
    "liberty_sentences",
    "placing_sentences",
    "turn_outcomes",
    "turn_verdict",
    "white_view",
    "why_panel",
]

FEATURE_LABELS: Final[dict[str, str]] = {
    "material": "material",
    "mills": "closed mills",
    "open_mills": "open mills",
    "threats": "threats",
    "double_threats": "double threats",
    "fork_threats": "fork threats",
    "mobility": "mobility",
    "blocked": "opposing men blocked",
    "connectivity": "connectivity",
    "initiative": "initiative",
    "future_mobility": "mobility after placing",
    "cramped": "opposing men hemmed in",
    "junctions": "junction points",
    "liberties": "free points next to own men",
}
"""Plain-language names of the features for explanations."""

_PLURAL: Final[frozenset[str]] = frozenset(
    {
        "mills",
        "open_mills",
        "threats",
        "double_threats",
        "fork_threats",
        "blocked",
        "cramped",
        "junctions",
        "liberties",
    }
)
_NUMBER_WORDS: Final[tuple[str, ...]] = ("no", "one", "two", "three", "four")
_COLOUR = ("white", "black")


OUTCOME_VERBS: dict[str, str] = {"win": "wins", "draw": "draws", "loss": "loses"}
"""What a turn does with best play, by its proven outcome for the mover (the why-panel's candidates, the
player's note where it keeps a proven value)."""

_PROVEN_WORDS: dict[str, str] = {k: f"{verb} with best play" for k, verb in OUTCOME_VERBS.items()}
"""A candidate turn's value with best play, as the opening book proves it, in words."""

_NEGATED = {"win": "loss", "draw": "draw", "loss": "win"}
_POSITION_WORDS = {"win": "is won", "draw": "is a draw", "loss": "is lost"}


def white_view(score: float, side: int) -> float:
    """A score from ``side``'s view (the search's convention) seen from White's: + is good for White."""
    return score if side == WHITE else -score


def _verdict(
    result: str, mover: int, turns: int | None, source: str, text: str, headline: str
) -> dict[str, Any]:
    winner = None if result == "draw" else _COLOUR[mover if result == "win" else 1 - mover]
    return {
        "result": result,
        "winner": winner,
        "turns": turns,
        "source": source,
        "text": text,
        "headline": headline,
    }


def _end_words(pos: Position) -> tuple[str, str] | None:
    """How a finished game ended ("Black has no legal move") and whether it was won ("win") or drawn
    ("draw"), or None if it goes on. Right after a turn, "win" is the turn's mover's: a turn never loses
    its own game on the spot."""
    outcome = pos.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        words = {
            Termination.TURN_LIMIT: f"the {outcome.limit}-turn limit is reached",
            Termination.NO_MILL_TURNS: f"{outcome.limit} turns pass without a mill",
        }.get(outcome.termination, outcome.reason)
        return "draw", words
    loser = _COLOUR[1 - outcome.winner].capitalize()
    rest = "has no legal move" if outcome.termination is Termination.NO_LEGAL_MOVE else "has fewer than 3 men"
    return "win", f"{loser} {rest}"


def _line_verdict(pos: Position, turn: Turn, score: float, rated: Probe | None) -> dict[str, Any] | None:
    """The verdict of playing ``turn`` in ``pos`` (``pos`` unchanged): the game's end right after it, the
    tablebase's rating (``rated``: the probe of ``pos``), or a win/loss distance in the search ``score``
    (the mover's view); None while the line is undecided."""
    mover, who = pos.side, _COLOUR[pos.side].capitalize()
    pos.push(turn)
    try:
        end = _end_words(pos)
    finally:
        pos.pop()
    if end is not None:
        result, words = end
        if result == "win":
            return _verdict("win", mover, 1, "rules", f"wins: {words} after this", f"{who} wins: {words}")
        return _verdict("draw", mover, 1, "rules", f"draws: {words}", f"Draw: {words}")
    decided = abs(score) > MATE_BOUND
    tb = None if rated is None else next((t for t in rated.turns if t.turn == turn), None)
    if tb is not None and (tb.value == "draw") != decided:  # a decided value the turn limit makes a draw
        if tb.value == "draw":
            return _verdict("draw", mover, None, "tablebase", "tablebase: draw", "tablebase: draw")
        n = tb.distance
        verb = "wins" if tb.value == "win" else "loses"
        winner = who if tb.value == "win" else _COLOUR[1 - mover].capitalize()
        return _verdict(
            tb.value, mover, n, "tablebase", f"tablebase: {verb} in {n}", f"tablebase: {winner} wins in {n}"
        )
    if decided:
        n = round(WIN_SCORE - abs(score))
        if score > 0:
            return _verdict("win", mover, n, "search", f"wins in {n}", f"{who} wins in {n}")
        other = _COLOUR[1 - mover].capitalize()
        return _verdict("loss", mover, n, "search", f"loses in {n}", f"{other} wins in {n}")
    return None


def turn_verdict(
    pos: Position, turn: Turn, score: float, tablebase: Tablebase | None = None
) -> dict[str, Any] | None:
    """The verdict of playing ``turn`` in ``pos`` with search ``score`` (side to move's view), or None.

    A JSON-able dict: ``result`` ("win", "loss" or "draw", for the side to move), ``winner`` ("white",
    "black" or None), ``turns`` to the end counting this one (None for a draw the tablebase rates),
    ``source`` ("rules": the game ends right after the turn; "tablebase"; "search": a win/loss distance in
    the score), ``text`` for the mover ("wins: Black has no legal move after this", "tablebase: wins in 7",
    "loses in 3") and ``headline`` naming the winner ("White wins in 3"). None: the line is undecided.
    """
    rated = None
    if tablebase is not None and Searcher(tablebase=tablebase).tb_covers(pos):
        rated = tablebase.probe(pos)
    return _line_verdict(pos, turn, score, rated)


def game_verdict(pos: Position) -> dict[str, Any] | None:
    """The verdict of a finished game in the shape of :func:`turn_verdict` (``turns`` 0, ``source``
    "rules", ``result`` for the side to move: "loss" or "draw"), e.g. "White has won: Black has no legal
    move"; None while the game goes on."""
    end = _end_words(pos)
    if end is None:
        return None
    result, words = end
    if result == "draw":
        return _verdict("draw", pos.side, 0, "rules", f"draw: {words}", f"Draw: {words}")
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner is not None
    text = f"{_COLOUR[outcome.winner].capitalize()} has won: {words}"
    return _verdict("win" if outcome.winner == pos.side else "loss", pos.side, 0, "rules", text, text)


def _men_on_line(pv: tuple[Turn, ...]) -> str | None:
    """The first two removals along a principal variation, for its first mover: "wins a man in 1, loses a
    man in 4" (turns counted from the panel's position, the line's first turn being 1; the sides
    alternate); None without a removal."""
    events = [
        f"{'wins' if i % 2 == 0 else 'loses'} a man in {i + 1}"
        for i, t in enumerate(pv)
        if t.remove is not None
    ]
    return ", ".join(events[:2]) if events else None


def _side_dicts(pos: Position) -> dict[str, dict[str, float]]:
    both = features(pos)
    return {"white": both[WHITE].to_dict(), "black": both[1 - WHITE].to_dict()}


def _terms(ev: Evaluator, pos: Position, me: int) -> dict[str, float]:
    """Weighted terms of the evaluation from side ``me``'s view (internal; never put in the panel)."""
    bd = ev.breakdown(pos)
    sign = 1.0 if pos.side == me else -1.0
    contrib = bd.contributions()
    return {f: sign * contrib.get(f, 0.0) for f in FEATURES}


def _delta(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, float]:
    return {f: after[f] - before[f] for f in FEATURES}


def _move_summary(
    me: str, opp: str, change: Mapping[str, Mapping[str, float]], weights: Mapping[str, float]
) -> str:
    """One phrase listing the raw changes of a turn: the mover's first, then the opponent's, each named by
    its colour ("White: ...; Black: ..."), not "you"/"opponent": the panel also serves a hint for either
    side and an analysis board where both sides are human, where "you" would name the wrong side."""
    halves: list[str] = []
    for colour in (me, opp):
        who = colour.capitalize()
        parts = [
            f"{FEATURE_LABELS[f]} {change[colour][f]:+g}"
            for f in FEATURES
            if weights[f] != 0.0 and change[colour][f]
        ]
        if parts:
            halves.append(f"{who}: {', '.join(parts)}")
    return "; ".join(halves) if halves else "no feature changes"


def why_panel(
    pos: Position,
    n: int = 3,
    depth: int = 3,
    evaluator: Evaluator | None = None,
    *,
    tablebase: Tablebase | None = None,
    engine: str = "compiled",
    book: OpeningBook | None = None,
    searcher: Searcher | None = None,
    fresh: bool = True,
) -> dict[str, Any]:
    """The why-panel of ``pos`` as plain JSON-able data (``pos`` is left unchanged).

    Keys: ``position``, ``side`` (to move), ``phase``, ``over`` (and ``outcome``/``reason`` when the game is
    finished), ``features`` (raw values of both sides), ``candidates`` (best first: ``move``, ``score`` (side
    to move's view), ``white_score`` (White's view), ``verdict`` (see :func:`turn_verdict`; None while
    undecided), ``outlook`` (the verdict's text, else the men won or lost along the line, else None), ``pv``,
    ``features_after``, ``change`` = raw after - before per side, ``summary``, ``book``: True for the opening
    book's move, which is always among them, last when the panel's search does not rank it in the top
    ``n``; ``proven``: where the book holds the position after the turn, its value with best play for the
    mover, ``{"value": "loss", "text": "loses with best play (opening book)"}``, else None), ``verdict``
    (the best candidate's), ``nodes`` (visited by the candidates' searches), ``ranking`` (feature names, most
    important first) and ``explanation`` (sentences: a decided best line is said first, in words, and
    then the features are not ranked in words, since they decide nothing). With a ``tablebase`` that covers
    ``pos``:
    ``tablebase`` = ``{"value", "distance", "summary", "text"}`` (``text`` = "tablebase: White wins in 7",
    also the first explanation sentence) and each candidate's ``tablebase`` verdict; otherwise
    ``tablebase`` is None. ``engine``: the search that scores the candidates (``"compiled"`` or
    ``"python"``, see :class:`~boardeval.morris.Searcher`). With an opening ``book`` that holds ``pos``:
    ``book`` = ``{"move", "depth", "score", "white_score", "pv", "stale", "text"}`` (``text`` = "book move:
    searched to depth 20, +0.40", side to move's view; the first explanation sentence says it from White's
    view; ``stale``: the book is another version of the search's, and both say so, with the rebuild command);
    otherwise ``book`` is None. ``searcher``: search with this one (its evaluator, tablebase and table)
    instead of a new one; ``fresh=False`` keeps its table (right after it searched ``pos``:
    ``AlphaBetaPlayer.why``). ``seconds``: the panel's time.
    """
    import time

    begin = time.perf_counter()
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ParamsError(f"why-panel depth must be an integer >= 1, got {depth!r}")
    if searcher is None:
        searcher = Searcher(evaluator, tablebase=tablebase, engine=engine)
        fresh = True
    ev = searcher.evaluator
    before = _side_dicts(pos)
    panel: dict[str, Any] = {
        "position": pos.text(),
        "side": _COLOUR[pos.side],
        "phase": position_phase(pos),
        "over": False,
        "features": before,
        "candidates": [],
        "verdict": None,
        "nodes": 0,
        "ranking": [],
        "explanation": [],
        "tablebase": None,
        "book": None,
        "proven": None,
        "seconds": 0.0,
    }
    outcome = pos.outcome()
    if outcome is not None:
        panel.update(over=True, outcome=outcome.result, reason=outcome.reason)
        end = game_verdict(pos)
        assert end is not None  # the same rules decide both
        panel["explanation"] = [f"The game is over. {end['headline']}."]
        return panel

    table = tablebase if tablebase is not None else searcher.tablebase
    probe = table.probe(pos) if table is not None and searcher.tb_covers(pos) else None
    if book is None:
        book = searcher.book
    entry = book.probe(pos) if book is not None else None
    keep = entry.move if entry is not None else None
    # off the book, a panel whose every turn leads into the book knows each turn's proven outcome: it keeps
    # the best-ranked turn among those that keep the position's value (never a proven loser first)
    known = turn_outcomes(pos, book) if entry is None and book is not None else None
    best = None if known is None else max(known.values())
    keepers = None if known is None else frozenset(t for t, v in known.items() if v == best)
    candidates, importance, nodes = _candidates(
        searcher, pos, n, depth, before, probe, fresh, keep, book, keepers
    )
    active = [f for f in FEATURES if ev.weights[f] != 0.0]
    ranking = sorted(
        (f for f in active if importance[f] > 1e-12), key=lambda f: (-importance[f], FEATURES.index(f))
    )
    quiet = [f for f in active if f not in ranking]
    verdict = candidates[0]["verdict"] if candidates else None
    if verdict is None:
        explanation = (
            _ranking_sentences(ranking, quiet)
            + placing_sentences(pos, ev.weights)
            + liberty_sentences(pos, ev.weights)
        )
    else:
        explanation = [f"{verdict['headline']} ({candidates[0]['move']})."]
    if known is not None:
        mine = next(c for c in candidates if c["keeps"])
        assert best is not None
        value = OUTCOME_NAMES[best]  # the position's: its best turn's, the mover's view
        panel["proven"] = {"move": mine["move"], "value": value, "text": mine["proven"]["text"]}
        worse = [c["move"] for c in candidates if c["proven"]["value"] != value]
        explanation.insert(
            0,
            f"The opening book proves the outcome of every turn here: the position {_POSITION_WORDS[value]} "
            f"with best play, and {mine['move']} is this panel's best-ranked turn that keeps it"
            + (f" ({' and '.join(worse)} would not)" if worse else "")
            + ".",
        )
    if keep is not None:
        # the book's move is the one played: the panel's shallower search ranks the candidates, and where it
        # ranks another turn first that turn is not called best (the book searched deeper, or proved it)
        mine = next(c for c in candidates if c["book"])
        better = sum(1 for c in candidates if c["score"] > mine["score"])  # scores rounded alike
        ties = [c["move"] for c in candidates if c is not mine and c["score"] == mine["score"]]
        if better >= n:
            where = f"is not among their top {n} (shown last)"
        else:
            where = "has their best score" if better == 0 else f"ranks #{better + 1} of them"
            if ties:
                where += f", tied with {' and '.join(ties)}"
        explanation.append(
            f"The candidates are scored by this panel's search to depth {depth}; the book's move "
            f"{keep} {where}."
        )
    for i, cand in enumerate(candidates):
        if keep is not None or known is not None:
            tag = "book move" if cand["book"] else "keeps the value" if cand["keeps"] else f"#{i + 1} here"
        else:
            tag = "best" if i == 0 else f"#{i + 1}"
        words = cand["summary"] if cand["verdict"] is None else cand["verdict"]["text"]
        if cand["verdict"] is None and cand["outlook"] is not None:
            words = f"{cand['outlook']} on its line; {words}"
        if cand["proven"] is not None:
            words = f"{cand['proven']['text']}; {words}"
        explanation.append(f"{cand['move']} ({tag}): {words}.")
    if probe is not None:
        text = "tablebase: " + probe.summary()[:1].upper() + probe.summary()[1:]
        panel["tablebase"] = {
            "value": probe.value,
            "distance": probe.distance,
            "summary": probe.summary(),
            "text": text,
        }
        rated = {str(t.turn): t for t in probe.turns}
        for cand in candidates:
            t = rated.get(cand["move"])
            if t is not None:
                cand["tablebase"] = "draw" if t.value == "draw" else f"{t.value} in {t.distance}"
        if verdict is None or verdict["source"] != "tablebase":
            explanation.insert(0, text + ".")
    if entry is not None:
        panel["book"] = {
            "move": str(entry.move),
            "depth": entry.depth,
            "score": round(entry.score, 4),
            "white_score": round(white_view(entry.score, pos.side), 4),
            "pv": [str(t) for t in entry.pv],
            "stale": entry.stale,
            "value": entry.value or None,
            "exact": entry.exact,
            "text": entry.text(),
        }
        # the panel's one sign convention: the book's score (side to move's view) said from White's
        said = (
            f"Book move: searched to depth {entry.depth}, {panel['book']['white_score']:+.2f} (White's view)"
        )
        who = _COLOUR[pos.side].capitalize()
        proven = {"win": f"{who} wins", "draw": "a draw", "loss": f"{who} loses"}.get(entry.value, "")
        if entry.stale:  # the score is another search's; a proof is not (see BookEntry.text)
            said += f" by another version of the search (`{entry.rebuild}` makes the book again)"
        if entry.exact:
            said = f"Book move: {proven} with best play, proven to the last placement with the K <= 9 tables"
        elif proven:
            said += f"; the position is {proven} with best play and the move keeps it (K <= 9 tables)"
        explanation.insert(0, f"{said} ({entry.move}).")
    panel.update(
        candidates=candidates,
        verdict=verdict,
        nodes=nodes,
        ranking=ranking,
        explanation=explanation,
        seconds=round(time.perf_counter() - begin, 4),
    )
    return panel


def _candidates(
    searcher: Searcher,
    pos: Position,
    n: int,
    depth: int,
    before: dict[str, dict[str, float]],
    probe: Probe | None,
    fresh: bool = True,
    keep: Turn | None = None,
    book: OpeningBook | None = None,
    keepers: frozenset[Turn] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, float], int]:
    """The top ``n`` turns as panel entries (and ``keep``, the book's move, after them when it is not one
    of them), each feature's importance (see the module docstring) and the nodes searched. A turn into a
    position whose value the ``book`` proves carries it: ``proven`` = ``{"value", "text"}`` (the mover's
    view: "win", "draw" or "loss"; "loses with best play (opening book)"), else None. ``keepers``: the
    turns that keep the position's proven value (no ``keep``): the best-ranked of them is kept like the
    book's move and flagged ``keeps``."""
    ev = searcher.evaluator
    me = pos.side
    base_terms = _terms(ev, pos, me)
    importance = {f: abs(base_terms[f]) for f in FEATURES}
    candidates: list[dict[str, Any]] = []
    # The book's move must have its score. A fresh search scores every turn anyway; after the AI's own
    # search the top n are screened first (null-window tests skip most other turns), and only when the
    # book's move is not among them are all turns scored, from the now warm table (over 40 book positions
    # of plies 0-3 at the AI's panel depth: 18.8 M nodes against 28.8 M scoring all at once; 9 of the 40
    # needed the second pass).
    total = len(pos.legal_turns())
    every = fresh and (keep is not None or keepers is not None)
    tops = searcher.top_moves(pos, total if every else n, depth, fresh=fresh)
    nodes = searcher.nodes
    kept = None
    if keepers is not None:
        if not any(m.move in keepers for m in tops) and len(tops) < total:  # screened: score every turn
            tops = searcher.top_moves(pos, total, depth, fresh=False)
            nodes += searcher.nodes
        kept = keep = next(m.move for m in tops if m.move in keepers)
    if keep is not None and all(m.move != keep for m in tops[:n]):
        if len(tops) < total:
            tops = searcher.top_moves(pos, total, depth, fresh=False)
            nodes += searcher.nodes
        tops = tops[:n] + [m for m in tops[n:] if m.move == keep]
    else:
        tops = tops[:n]
    for ms in tops:
        pos.push(ms.move)
        try:
            after = _side_dicts(pos)
            after_terms = _terms(ev, pos, me)
            entry = book.probe(pos) if book is not None else None
        finally:
            pos.pop()
        # the position after the turn, the opponent to move: its proven value, negated, is the turn's
        value = _NEGATED.get(entry.value) if entry is not None and entry.value else None
        proven = None if value is None else {"value": value, "text": f"{_PROVEN_WORDS[value]} (opening book)"}
        change = {c: _delta(before[c], after[c]) for c in _COLOUR}
        for f in FEATURES:
            importance[f] += abs(after_terms[f] - base_terms[f]) / len(tops)
        verdict = _line_verdict(pos, ms.move, ms.score, probe)
        candidates.append(
            {
                "move": str(ms.move),
                "score": round(ms.score, 4),
                "white_score": round(white_view(ms.score, me), 4),
                "verdict": verdict,
                "outlook": verdict["text"] if verdict is not None else _men_on_line(ms.pv),
                "pv": [str(t) for t in ms.pv],
                "features_after": after,
                "change": change,
                "summary": _move_summary(_COLOUR[me], _COLOUR[1 - me], change, ev.weights),
                "book": ms.move == keep and kept is None,
                "keeps": ms.move == kept,
                "proven": proven,
            }
        )
    return candidates, importance, nodes


def _ranking_sentences(ranking: list[str], quiet: list[str]) -> list[str]:
    """What matters most, what matters more than what, and what is not a factor, in words."""
    out: list[str] = []
    if ranking:
        head = FEATURE_LABELS[ranking[0]]
        rest = [FEATURE_LABELS[f] for f in ranking[1:3]]
        out.append(f"What matters most here: {head}" + (f", then {' and '.join(rest)}." if rest else "."))
        last = ranking[-1] if len(ranking) > 1 else (quiet[0] if quiet else None)
        if last is not None and last != ranking[0]:
            verb = "matter" if ranking[0] in _PLURAL else "matters"
            out.append(f"{head.capitalize()} {verb} more than {FEATURE_LABELS[last]} here.")
    if quiet:
        out.append("Not a factor in this position: " + ", ".join(FEATURE_LABELS[f] for f in quiet) + ".")
    return out


def _names(mask: int) -> str:
    return ", ".join(points_of(mask))


def placing_sentences(pos: Position, weights: Mapping[str, float] | None = None) -> list[str]:
    """The placing-phase judgement in words (while a man is still in hand; else no sentence).

    Blockade danger ("after placing, White's men on a7, d7, g7 have one free neighbour between them (a4)"),
    the mobility each side would have if placing ended now, and the junction points held. A sentence is
    left out when its feature has weight 0 in ``weights`` (default: all sentences).
    """
    if not (pos.hand[0] or pos.hand[1]):
        return []

    def on(f: str) -> bool:
        return weights is None or weights[f] != 0.0

    out: list[str] = []
    empty = pos.empty
    if on("cramped"):
        for side in (WHITE, 1 - WHITE):
            colour = _COLOUR[side].capitalize()
            locked = cramped_men(pos.men[side], empty)
            for group in groups(locked):
                free = neighbours(group) & empty
                n = free.bit_count()
                where = f" ({_names(free)})" if n else ""
                if group.bit_count() == 1:
                    out.append(
                        f"After placing, {colour}'s man on {_names(group)} has {_NUMBER_WORDS[n]} free "
                        f"neighbour{where}."
                    )
                else:
                    out.append(
                        f"After placing, {colour}'s men on {_names(group)} have {_NUMBER_WORDS[n]} free "
                        f"neighbour between them{where}."
                    )
    if on("future_mobility"):
        both = features(pos)
        w, b = both[WHITE].future_mobility, both[1 - WHITE].future_mobility
        out.append(
            f"If placing ended now, White would have {w} sliding move{'' if w == 1 else 's'} and Black {b}."
        )
    if on("junctions"):
        held = [
            f"{_COLOUR[s].capitalize()} {_names(pos.men[s] & JUNCTIONS)}"
            for s in (WHITE, 1 - WHITE)
            if pos.men[s] & JUNCTIONS
        ]
        if held:
            out.append("Junction points (four neighbours each) held: " + "; ".join(held) + ".")
    return out


def liberty_sentences(pos: Position, weights: Mapping[str, float] | None = None) -> list[str]:
    """The shut-in danger in words (issue 25): for each side whose ``liberties`` feature is below its cap,
    the free points next to its men and the opponent's men in hand that could fill them ("White's men have
    two free points next to them (a4, g4), and Black has one man in hand to place: shut-in danger").
    No sentence when the feature has weight 0 in ``weights`` (default: always), for a flying side, or
    where both sides have the cap."""
    if weights is not None and weights["liberties"] == 0.0:
        return []
    out: list[str] = []
    empty = pos.empty
    both = features(pos)
    for side in (WHITE, 1 - WHITE):
        if both[side].liberties >= LIBERTY_CAP or side_phase(pos, side) == "flying" or not pos.men[side]:
            continue
        colour, other = _COLOUR[side].capitalize(), _COLOUR[1 - side].capitalize()
        free = neighbours(pos.men[side]) & empty
        n = free.bit_count()
        count = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
        where = f" ({_names(free)})" if n else ""
        text = f"{colour}'s men have {count} free point{'' if n == 1 else 's'} next to them{where}"
        hand = pos.hand[1 - side]
        if hand:
            text += f", and {other} has {hand} {'man' if hand == 1 else 'men'} in hand to place"
        out.append(text + ": shut-in danger.")
    return out
