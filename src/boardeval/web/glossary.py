"""One glossary for every number the app shows: term -> definition, per game, served at ``/api/glossary``.

The pages take their term popovers and definitions lists from here (``templates/_glossary.html`` marks a
term, ``static/common.js`` shows it) and ``docs/glossary.md`` is generated from it (``python -m
boardeval.web.glossary > docs/glossary.md``; a test checks the file is current), so a definition is
written once. The texts follow ``docs/catan.md``, ``docs/diplomacy.md``,
``docs/morris-eval.md`` and the specs; a term's key is the name the library and the API use.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from fastapi import Query

from boardeval.catan import SEAT_EQUITY_TERMS
from boardeval.web.common import api_router, templates

__all__ = ["GLOSSARY", "LAZY_TERMS", "Game", "markdown", "morris_terms", "page_glossary", "router", "term_id"]

Game = Literal["catan", "morris", "diplomacy"]

_MORRIS: Final[dict[str, str]] = {
    "score": (
        "The search score of a move or position, shown from White's view everywhere on the page (positive is "
        "good for White, negative good for Black). Unit: evaluation points; one man of material is worth "
        "about 1.1 points (weight 10 over the normaliser 9), more while flying. A decided line is said in "
        "words instead ('White wins in 3', 'wins: Black has no legal move after this')."
    ),
    "white's view": (
        "The one sign convention of the page, as on lichess: every score is from White's side, + good for "
        "White and − good for Black, whoever is to move (the API also gives the search's own score, from "
        "the side to move's view)."
    ),
    "analysis": (
        "The search behind the evaluation graph and Hint: every position searched 6 turns deep with White "
        "to move and 7 with Black to move, so that the search always stops at a position with White to move "
        "(a fixed depth makes the graph zig-zag every turn); the hint's evaluation is the graph's value. "
        "Where the opening book holds the position, the hint's move is the book's (the AI's), listed among "
        "the analysis' candidates even where this shallower search ranks it lower."
    ),
    "verdict": (
        "A decided line in words: the game ends right after the move ('wins: Black has no legal move after "
        "this'), the tablebase rates it ('tablebase: wins in 7'), or the search sees the end ('wins in 3': "
        "turns from now, counting this move). Otherwise a line says the men it wins or loses ('loses a man "
        "in 3')."
    ),
    "depth": "How many turns ahead the search looked (iterative deepening stops at the depth or time limit).",
    "nodes": "Positions the search visited to find its move.",
    "line": "The principal variation: the best play for both sides that the search expects after the move.",
    "candidates": "The best few turns at the AI's depth, each with its score and line (best first).",
    "keeps the value": (
        "Off the opening book, where every move leads to a position the book holds, each move's outcome "
        "with best play (win, draw or loss) is proven with the endgame tables: Hint then names the "
        "analysis' best-ranked move among those that keep the position's value, even where the analysis "
        "scores another move higher (that move is shown too, with its proven outcome)."
    ),
    "book move": (
        "The opening book's move, searched deeply offline (or proven with the endgame tables): the AI plays "
        "it, and it is always among the candidates, even where their shallower search ranks it lower."
    ),
    "tie": "Two turns with exactly the same score: the search's move ordering picked one of them.",
    "phase": (
        "The phase of the side to move: placing (men in hand), moving (sliding to a neighbour), "
        "flying (exactly 3 men, none in hand: a man may jump to any empty point)."
    ),
    "in hand": "Men not yet placed on the board (each side starts with 9).",
    "evaluation graph": (
        "The analysis score of every position of the game from White's view: above the line White is "
        "better, below Black. The vertical scale fits the largest score shown (between ±2 and ±20, printed "
        "in the corners); a decided position sits at its winner's edge and is said in words."
    ),
    "raw features": (
        "The feature values counted on the board, for each side, before any weight or phase factor; a "
        "candidate's column shows how the move changes them (mover / opponent)."
    ),
    "not scored": (
        "A feature the active weight profile gives weight 0 (initiative in the base profile): its raw "
        "value is shown but never enters the score."
    ),
    "not a factor here": (
        "A scored feature that moves no score in this position: it neither differs between the sides nor "
        "changes with the candidate moves, or it does not count in this phase (mobility and blocked while "
        "placing), so a raw change shown in its row changes nothing."
    ),
    "material": "Men on board plus men in hand.",
    "mills": "Closed mills owned: lines of three own men.",
    "open_mills": "Lines with 2 own men and 1 empty point (structure only, no reachability).",
    "threats": (
        "Distinct empty points that would close a mill and that the side can reach with its next turn "
        "(placing or flying: any point; moving: from an adjacent own man that is not on that line)."
    ),
    "double_threats": "Threat points that close two mills at once.",
    "fork_threats": (
        "With at least 2 threat points: the sum of their ring weights (outer 1.0, middle 1.25, inner 1.0), "
        "else 0."
    ),
    "mobility": "Legal sliding moves of the side (man × empty neighbour) in the moving phase; 0 otherwise.",
    "blocked": (
        "Opponent men with no empty neighbour, counted only while the opponent is in the moving phase."
    ),
    "connectivity": "Pairs of adjacent own men.",
    "initiative": (
        "T·[side to move] + max(0, T − 1), T = threat points: mill closures the side to move can play now "
        "plus forcing power (only the initiative profile scores it)."
    ),
    "future_mobility": (
        "While a man is in hand: the sliding moves the side's men would have if placing ended now "
        "(man × empty neighbour); 0 once placing is over."
    ),
    "cramped": (
        "While a man is in hand: opponent men in groups (men joined by lines) with at most one free "
        "neighbour between them, men that are or soon will be locked in; 0 once placing is over."
    ),
    "junctions": (
        "While a man is in hand: own men on the four 4-way points b4, d2, d6, f4 (four neighbours each); "
        "0 once placing is over."
    ),
    "liberties": (
        "The free points next to the side's men (each counted once), less the opponent's men in hand, "
        "capped at 4: only the last few matter, and none left means the side is shut in; a flying side "
        "always has 4."
    ),
    "strength": (
        "The AI's search budget on the compiled search: easy looks 1 turn ahead; medium 0.05 s, hard 0.25 s, "
        "expert 1 s a move (a median of 10, 14 and 16 turns deep in placing positions on an idle core)."
    ),
    "position text": (
        "24 characters W/B/. in point order (a7 d7 g7 b6 … g1), the side to move (w/b), then White's and "
        "Black's men in hand; the start is '........................ w 9 9'."
    ),
}

_CATAN: Final[dict[str, str]] = {
    "pips": (
        "Dots on a number token: the ways to roll it with two dice out of 36 (6 and 8: 5 pips; 2 and 12: 1)."
    ),
    "raw_production": "Sum of the pips of the hexes around the spot.",
    "scarcity_production": (
        "Production weighted by resource strength: Σ pips[r] × strength[r], where strength grows when a "
        "resource is scarce on the board (1 / its total pips) and when its complement (wood/brick, "
        "grain/ore) is plentiful, damped by the exponent 0.5."
    ),
    "port": (
        "Port bonus: 1.5 for a 3:1 port; for a 2:1 port of resource r, 1.5 × D[r] / the second-highest D, "
        "where D = a resource's total pips × its strength."
    ),
    "prime_variate": "Bonus 2.0 when the spot produces at least 10 pips from at least 3 different resources.",
    "parity": "0.8 × (min(wood, brick) + min(grain, ore)) pips at the spot: rewards both halves of a pair.",
    "spot score": (
        "Σ weight × metric over the five metrics (raw production, scarcity production, port, prime "
        "variate, parity)."
    ),
    "energy": (
        "Board fairness, lower is fairer: 100 × same-resource pairs + 150 × high-number pairs + "
        "10 × pip variance + 10 × ports (harbours). Scale: each adjacent pair costs 100 or 150; a fair "
        "board scores near 0."
    ),
    "same_resource_pairs": "Adjacent hexes (each pair once) with the same non-desert resource.",
    "high_number_pairs": "Adjacent hexes whose tokens are both 6 or 8.",
    "pip_variance": (
        "Population variance of the mean pips per hex of the three regions (corners, centre, edges; the "
        "desert counts 0)."
    ),
    "ports": (
        "Harbour term, in harbour units: the own-resource pips on each 2:1 harbour's spots, + 5 per 2:1 "
        "harbour with no spot within two roads making 3 pips of its resource, + 5 per two 3:1 harbours "
        "next to each other on the coast."
    ),
    "fairness": (
        "The generator's fairness dial F: the first annealed board with energy at most E0 − F·(E0 − E*), "
        "E0 = the random board of the same seed, E* = the optimum; 0 = the random board, 1 = the optimum."
    ),
    "seed": "The number that makes a random board: the same seed gives the same board on any machine.",
    "rotate": (
        "Play-test: every game seed is played once in every seating (each listed player sits in every "
        "seat once), so seat effects and player effects separate; 25 games x 4 seats = 100 games."
    ),
    "advisor picks": (
        "Play-test: the spots where the opening advisor placed its two settlements in the games played (a "
        "ring per spot, larger when more often); A marks its first pick on an empty board (the spot "
        "evaluator's top spot)."
    ),
    "seat equity": (
        "Each seat's predicted chance to win if every player opens with the advisor (the draft): a "
        "conditional-logit model fitted on catanatron games among four advisor openers turns each seat's "
        "opening into a win probability. Spread: the best minus the worst seat, in points; 0 is fair to "
        "the seats. Fair to the seats: the generator anneals for a small spread. Base board only: "
        "catanatron has no 5-6 player map."
    ),
    "draft": (
        "The opening when every seat follows the advisor: seat 1 places first, then 2, 3, 4 and back 4, 3, "
        "2, 1 (six seats: 1..6, 6..1); a first settlement on the free spot with the best score, a second "
        "on the best second-pick score (resources the first lacks, a harbour for what the seat makes). The "
        "board alone decides it."
    ),
    "opening value": (
        "Draft only (5-6 player boards): the advisor's values of a seat's two picks, added (the spot "
        "score of the first, the second-pick score of the second), when it made them."
    ),
    "logit": (
        "A seat's score in the seat-equity model: the sum of weight x (the seat's term minus the table's "
        "mean of it); the raw column is that difference. Win probability: e to the logit, divided by the "
        "sum of e to the logit over the seats (the seats add up to 100 %)."
    ),
    "opening_score": "The spot scores of the seat's two settlements, added.",
    "resource pips": "Pips of this resource that the seat's two settlements make together.",
    "resources": (
        "How many of the five resources the seat's two settlements make (a missing one must be traded for)."
    ),
    "balance": (
        "The sum over the five resources of log(1 + the seat's pips of it): the first pips of a resource "
        "count more than the fifth."
    ),
    "city_pace": "min(grain pips / 2, ore pips / 3): how fast a city's cost (2 grain, 3 ore) comes in.",
    "road_pace": "min(wood pips, brick pips): how fast roads, and the settlements they lead to, come in.",
    "dev_pace": "min(sheep, grain, ore pips): how fast a development card's cost comes in.",
    "harbour_fit": "Pips of the resources the seat's 2:1 harbours take (0 without a 2:1 harbour).",
    "harbour_3to1": "1 if either of the seat's settlements is on a 3:1 harbour, else 0.",
    "hexes": (
        "How many producing hexes the seat's two settlements touch (a hex twice if both do): fewer on the "
        "coast or by the desert."
    ),
    "shared_hexes": (
        "Pips of the seat's hexes that another seat also settles on (the robber there hurts two seats)."
    ),
    "shared_numbers": "Pips of the seat's numbers on which another seat also produces.",
    "numbers": "How many different numbers pay the seat (fewer, with the same pips: a lumpier income).",
    "expansion": (
        "Room to grow: the best spot score among the free legal spots two roads from the seat's "
        "settlements after the draft (where its third settlement can go)."
    ),
    "expansion_2": "The second-best spot score among those spots (a second place to grow).",
    "expansion_free": "The best spot score among those spots that no other seat reaches in two roads.",
    "first_pips": (
        "Pips of the seat's first settlement alone (with the same total, a seat whose first settlement "
        "makes more wins more often among the bots)."
    ),
    "road_spots": (
        "Free legal spots one road beyond the ends of the seat's two opening roads after the draft (each "
        "road to the end whose far spots score best): where a single road takes its third settlement."
    ),
    "road_best": "The best spot score among those spots (0 if there are none).",
    "seat order": "1 in the row of the seat's place in the turn order (seat 1 rolls first: all rows 0).",
}

_DIPLOMACY: Final[dict[str, str]] = {
    "R": (
        "Supply centres needed to win: the map's VICTORY line, else half the centres plus one (18 on "
        "the standard map)."
    ),
    "progress": (
        "Σ SC² / R² over the powers (70/324 = 21.6% at the standard start); it exceeds 100% once "
        "someone has won."
    ),
    "progress_as_written": (
        "Game progress on the two-way-split scale: Σ SC² / (2 (S/2)²), S = the map's supply centres; 100% = "
        "two powers with S/2 centres each (70/578 = 12.1% at the standard start). The same Σ SC² as game "
        "progress, divided by 578 instead of 324."
    ),
    "progress_from_zero": (
        "Game progress counted from the start: (progress − progress at the start) / (1 − that), i.e. "
        "(Σ SC² − 70) / (324 − 70) on the standard map; 0% at the start, 100% = a win; may be negative."
    ),
    "personal_progress": "A power's supply centres / R.",
    "fear_static": (
        "Windsor's table, row fears column: the column power's swiftest route to R centres; the row's fear "
        "= Σ over its homes on that route of max(0, 6 − tempo distance)."
    ),
    "fear_dynamic": (
        "Per phase, row fears column: the column's route = the centres it lacks nearest its units; summed "
        "over the centres the row power owns."
    ),
    "fear_mutual": "fear(A, B) + fear(B, A).",
    "fear_mutual_change": "Mutual fear's change from the previous phase: a rise signals a souring relation.",
    "tempi": "Σ over a power's units of the tempo distance (moves) from its nearest original home centre.",
    "tempi_change": "Tempi's change from the previous phase.",
    "cohesion": (
        "cohesion_n = 1 / incohesion_n, n = 1, 2, 3: incohesion_n is the mean over units of the mean tempo "
        "distance to the n nearest other own units; all units adjacent gives 1; undefined with ≤ n units."
    ),
    "stab_potential": (
        "Row can be stabbed by column: the row power's centres that the column has a unit strictly closer "
        "to than the row's nearest unit; 0 … the row's centres."
    ),
    "battle_tiedness": "Units adjacent to (or in the same province as) an enemy unit / units.",
    "neighbour_effect": (
        "Mean centres of the other surviving powers − mean centres of the power's neighbours; positive "
        "means weak neighbours; 0 with no neighbours."
    ),
    "incohesion": (
        "incohesion_n: the mean over a power's units of the mean tempo distance to its n nearest other own "
        "units (1 = all adjacent); cohesion_n is its inverse."
    ),
    "supply_centres": "Supply centres a power owns at the phase (SCs); R of them win the game.",
    "phase": (
        "A season of the game: S1901M = spring 1901 movement, F…R = fall retreats, W…A = winter "
        "adjustments (builds and disbands). The map shows the units at the start of the phase and the "
        "orders given in it."
    ),
    "evaluation": (
        "A power's strength at a phase: the supply-centre change over the next game year that a linear "
        "model predicts from that phase's measures (fitted on bot games, docs/diplomacy-evaluation.md); "
        "the sum of the contributions in its breakdown. Unit: centres; 0 = holding steady."
    ),
    "value": "The measure's value for the power at the phase (an undefined one counts as the corpus mean).",
    "weight": (
        "The fitted model's weight per unit of the measure (its standardised coefficient divided by the "
        "measure's standard deviation on the bot corpus): value × weight = contribution."
    ),
    "contribution": "value × weight: the centres this measure adds to (or takes from) the evaluation.",
    "vs_average": (
        "The contribution compared with a corpus-average power: weight × (value − the corpus mean); "
        "positive means this measure makes the power stronger than average."
    ),
    "intercept": (
        "The model's constant term: the evaluation of a power whose measures are all 0 (the other "
        "contributions are counted from there)."
    ),
    "stab_received": (
        "Stab potential against the power, summed over the others: its centres others reach first."
    ),
    "stab_given": "The power's stab potential against the others, summed: their centres it reaches first.",
    "fear_mutual_max": "The largest mutual fear between the power and any one other power.",
    "fear_mutual_sum": "Mutual fear between the power and each other power, summed.",
    "alliance": (
        "Two powers detected as allied in a game year: both alive, within reach of each other (mutual "
        "fear > 0), neither has attacked the other so far in the game (taken a centre of the other, or "
        "moved into a province the other's unit held), and each is the other's closest such partner "
        "(largest mutual fear). Checked against seeded allied bots it finds about one allied pair in three "
        "and about one detection in four is right: read it as a hint, not a fact."
    ),
}

GLOSSARY: Final[dict[str, dict[str, str]]] = {"catan": _CATAN, "morris": _MORRIS, "diplomacy": _DIPLOMACY}
"""Game -> term -> definition (one sentence or two, plain text)."""

LAZY_TERMS: Final[dict[str, frozenset[str]]] = {
    "catan": frozenset(
        {"logit", "resource pips", "seat order", *(t for t in SEAT_EQUITY_TERMS if t in _CATAN)}
    )
}
"""Terms a page does not embed: they appear only in a part loaded on first use (the seat-equity why of
``/catan``, ``static/catan_equity.js``), which reads them from ``/api/glossary`` then; the page budget
(``benchmarks/web_budget.py``) counts every byte of the page's definitions."""


def page_glossary(game: Game) -> dict[str, str]:
    """The definitions a page of ``game`` embeds: its glossary without :data:`LAZY_TERMS`."""
    lazy = LAZY_TERMS.get(game, frozenset())
    return {k: v for k, v in GLOSSARY[game].items() if k not in lazy}


def term_id(key: str) -> str:
    """The HTML id part of a term (``"spot score"`` -> ``"spot-score"``): its entry is ``def-<id>``.

    base.html writes every term of the page's glossary into a definitions list with these ids; each term on
    the page points at its entry (``aria-describedby``) and the popover of ``static/common.js`` shows it.
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", key)


templates.env.filters["gloss_id"] = term_id

router = api_router(tags=["glossary"])


def morris_terms() -> dict[str, str]:
    """The Morris page's terms (a copy the page embeds for its tooltips)."""
    return dict(_MORRIS)


@router.get("/api/glossary", summary="Definitions of every number the pages show")
def glossary(
    game: Game | None = Query(None, description="one game's terms only"),
) -> dict[str, dict[str, str]]:
    """``{game: {term: definition}}`` for all three games, or for the one named."""
    return {g: dict(t) for g, t in GLOSSARY.items() if game is None or g == game}


def markdown() -> str:
    """The glossary as the Markdown page ``docs/glossary.md``."""
    lines = [
        "# Glossary",
        "",
        "Every number the web app shows, defined once in `src/boardeval/web/glossary.py` (the pages'",
        "tooltips and `GET /api/glossary` use the same text). Regenerate this page with",
        "`python -m boardeval.web.glossary > docs/glossary.md`.",
    ]
    titles = {"catan": "Catan", "morris": "Nine Men's Morris", "diplomacy": "Diplomacy"}
    for game, terms in GLOSSARY.items():
        lines += ["", f"## {titles[game]}", "", "| term | definition |", "|---|---|"]
        lines += [f"| `{term}` | {text.replace('|', '/')} |" for term, text in terms.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
