"""Diplomacy page and API: per-phase measures of a game record as charts and heatmaps, CSV download.

The three human games shipped inside the installed ``diplomacy`` package (its ``tests/network``) are read
in place, never copied. An uploaded saved game (JSON, or JSONL with one game a line) is measured and
answered at once; the server keeps nothing of it. Uploads over the app's body limit answer 413.

Size: about 745 lines: every route of one page (the page, the games, their CSV, charts and board maps,
uploads, evaluations) and the views they share (a game's view, the upload's checks). The routes are thin;
the views are what make the page's words, and they are used by more than one route.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Annotated, Any

import numpy as np
from fastapi import File, Form, HTTPException, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from boardeval import __version__
from boardeval.core import DiplomacyError
from boardeval.diplomacy import (
    MEASURE_INFO,
    MEASURES,
    GameMeasures,
    RecordError,
    board_svg,
    compute_measures,
    load_map_graph,
    load_records,
    measures_table,
    power_colour,
    saved_games,
    shipped_game_paths,
    validate_measures,
)
from boardeval.web.common import (
    PayloadTooLarge,
    api_router,
    content_disposition,
    templates,
    text_bool,
    text_int,
)
from boardeval.web.glossary import GLOSSARY

__all__ = ["router"]

router = api_router(tags=["diplomacy"])

MAX_GAME_INDEX = 10_000
GameIndexForm = Annotated[
    int,
    Form(ge=0, le=MAX_GAME_INDEX, description="which game of a JSONL file (0 = first)"),
    text_int("game_index", 0, MAX_GAME_INDEX),
]
"""An upload's ``game_index`` form field, read by the shared number reader (``0_0`` is refused)."""


class GameInfo(BaseModel):
    """A game as a player recognises it: map, who played, the years, the result."""

    id: str
    name: str = Field(description="'Game 1: human players, standard map, 1901–1913, …' (the page's label)")
    phases: int
    map: str
    players: str = Field(description="who played the powers, as far as the record tells")
    years: str = Field(description="first–last game year")
    result: str = Field(description="the centres at the end, largest first")
    first_phase: str
    last_phase: str
    info: str = Field(description="the game box's line: name, phases and their range (see info_line)")


def info_line(name: str, phases: Sequence[str]) -> str:
    """The game box's line under the game chooser: the game's name, its phases and their range. One wording
    for the page rendered with a shipped game (no layout shift) and for diplomacy.js after an upload."""
    return f"{name} · {len(phases)} phases ({phases[0]} … {phases[-1]})"


class GameView(BaseModel):
    """Every measure of one game in compact arrays (``null`` where a measure is undefined)."""

    game: str = Field(description="game id or file name")
    info: str = Field(description="the game box's line: name, phases and their range (see info_line)")
    map: str
    phases: list[str]
    powers: list[str]
    colours: dict[str, str]
    sc_counts: list[list[int]] = Field(description="[phase][power] supply centres")
    victory_centres: int = Field(description="R: the supply centres that win on this map")
    supply_centres: int = Field(description="S: the map's supply centres")
    series: dict[str, dict[str, list[float | None]]] = Field(
        description="values per phase: per-power measures keyed by power, per-position ones by ''"
    )
    tables: dict[str, list[list[list[float | None]]]] = Field(
        description="[phase][row power][column power] for fear_dynamic, stab_potential, fear_mutual_change"
    )
    static_fear: list[list[float | None]]
    labels: dict[str, str] = Field(description="measure -> caption with its display unit (the library's)")
    units: dict[str, str] = Field(description="measure -> display unit ('%' = per cent, '' = a number)")


def _clean(x: Any) -> float | None:
    v = float(x)
    return None if math.isnan(v) or math.isinf(v) else round(v, 6)


def _game_view(name: str, gm: GameMeasures) -> GameView:
    powers = list(gm.powers)
    graph = load_map_graph(gm.map_name)
    colours = {p: power_colour(p, i) for i, p in enumerate(powers)}
    series: dict[str, dict[str, list[float | None]]] = {}
    tables: dict[str, list[list[list[float | None]]]] = {}
    for measure in MEASURES:
        info = MEASURE_INFO[measure]
        if measure in ("fear_static", "fear_mutual"):
            continue
        arr = np.asarray(gm.series(measure), dtype=np.float64)
        if info.kind == "position":
            series[measure] = {"": [_clean(v * info.scale) for v in arr]}
        elif info.kind == "power":
            series[measure] = {p: [_clean(v * info.scale) for v in arr[:, i]] for i, p in enumerate(powers)}
        else:
            tables[measure] = [[[_clean(v) for v in row] for row in phase] for phase in arr]
    return GameView(
        game=name,
        info=info_line(name, gm.phases),
        map=gm.map_name,
        phases=list(gm.phases),
        powers=powers,
        colours=colours,
        sc_counts=[[int(v) for v in row] for row in np.asarray(gm.sc_counts)],
        victory_centres=graph.win,
        supply_centres=len(graph.sc_names),
        series=series,
        tables=tables,
        static_fear=[[_clean(v) for v in row] for row in np.asarray(gm.fear_static)],
        labels={m: MEASURE_INFO[m].caption for m in MEASURES},
        units={m: MEASURE_INFO[m].unit for m in MEASURES},
    )


def _shipped() -> dict[str, Any]:
    return {p.stem: p for p in shipped_game_paths()}


_PHASE = re.compile(r"^[SFW](\d{4})[MRA]$")


def _years(phases: Sequence[str]) -> str:
    years = [int(m.group(1)) for p in phases if (m := _PHASE.match(p))]
    if not years:
        return "no dated phase"
    return str(years[0]) if years[0] == years[-1] else f"{years[0]}–{years[-1]}"


def _result(centres: Mapping[str, int], last_phase: str) -> str:
    """'Italy 16, Russia 12, Germany 3 centres at S1913R' (powers with none left out)."""
    ranked = sorted(((n, p) for p, n in centres.items() if n > 0), key=lambda x: (-x[0], x[1]))
    if not ranked:
        return f"no centres held at {last_phase}"
    return ", ".join(f"{p.capitalize()} {n}" for n, p in ranked) + f" centres at {last_phase}"


def _players(game_id: str, human: bool) -> str:
    if human:
        return "human players"
    if game_id.startswith("bots-"):
        return "bots (boardeval diplomacy bot-game)"
    if game_id.startswith("random-"):
        return "random orders (boardeval diplomacy random-game)"
    return "players not recorded"


def describe_game(
    title: str, *, map_name: str, players: str, phases: Sequence[str], centres: Mapping[str, int]
) -> tuple[str, str, str]:
    """(label, years, result) of a game: ``'Game 1: human players, standard map, 1901–1913; Italy 16, …'``.

    Issue 23 §3.2: a game is named by what a player recognises (the map, who played, the years, the
    result), never by its file name and engine id alone.
    """
    years = _years(phases)
    result = _result(centres, phases[-1])
    return f"{title}: {players}, {map_name} map, {years}; {result}", years, result


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, tuple[GameInfo, tuple[str, ...]]]:
    """The shipped games' labels and phase names, read with the plain JSON parser.

    The page lists the games on its first request: this must not build the engine's map or measure the
    games (that took ~1 s, issue 23 §5); the files are the engine's own test data, read in place.
    """
    out: dict[str, tuple[GameInfo, tuple[str, ...]]] = {}
    for gid, path in sorted(_shipped().items()):
        saved = json.loads(path.read_bytes())
        phases = tuple(str(p["name"]) for p in saved["phases"])
        centres = {str(p): len(cs) for p, cs in saved["phases"][-1]["state"]["centers"].items()}
        players = _players(str(saved.get("id", "")), human=True)
        map_name = str(saved.get("map", "standard"))
        label, years, result = describe_game(
            f"Game {gid}", map_name=map_name, players=players, phases=phases, centres=centres
        )
        info = GameInfo(
            id=gid,
            name=label,
            phases=len(phases),
            map=map_name,
            players=players,
            years=years,
            result=result,
            first_phase=phases[0],
            last_phase=phases[-1],
            info=info_line(label, phases),
        )
        out[gid] = (info, phases)
    return out


def _record_label(title: str, record: Any, human: bool = False) -> str:
    graph = record.graph
    last = record.phases[-1]
    centres = {p: len(cs) for p, cs in zip(graph.powers, last.centers, strict=True)}
    label, _, _ = describe_game(
        title,
        map_name=record.map_name,
        players=_players(record.game_id, human),
        phases=[p.phase for p in record.phases],
        centres=centres,
    )
    return label


@lru_cache(maxsize=8)
def _shipped_measures(game_id: str) -> tuple[str, GameMeasures]:
    listed = _catalogue()
    if game_id not in listed:
        raise HTTPException(
            status_code=404,
            detail=f"no shipped game {game_id!r}: choose one of {', '.join(sorted(listed)) or '(none)'}",
        )
    record = load_records(_shipped()[game_id])[0]
    return listed[game_id][0].name, compute_measures(record)


@lru_cache(maxsize=8)
def _shipped_view(game_id: str) -> GameView:
    name, gm = _shipped_measures(game_id)
    return _game_view(name, gm)


GameId = Path(..., pattern=r"^[A-Za-z0-9_-]{1,32}$", description="shipped game id: 1, 2 or 3")


def _start(game: str | None, phase: str | None) -> tuple[dict[str, Any], int]:
    """What the page shows first, from ``?game=&phase=``, and the HTTP status (issue 23 §3.4).

    An unknown game is a 404 with a sentence naming the games there are (the page used to show game 1
    without a word); an unknown phase a 422 naming the game's phase range, and the game from its start.
    """
    listed = _catalogue()
    ids = sorted(listed)
    if game is None:
        return {"game": ids[0] if ids else None, "phase": phase, "error": None}, 200
    if game not in listed:
        choices = ", ".join(f"{listed[g][0].id}" for g in ids)
        return {
            "game": None,
            "phase": None,
            "error": f"There is no game “{game[:40]}” here: choose one of the games {choices} above, "
            "or upload a saved game.",
        }, 404
    phases = listed[game][1]
    if phase is not None and phase not in phases:
        return {
            "game": game,
            "phase": None,
            "error": f"Game {game} has no phase “{phase[:20]}”: its phases run {phases[0]} … {phases[-1]} "
            "(a phase is a season S/F/W, a year and M, R or A, e.g. F1905M). Showing its first phase.",
        }, 422
    return {"game": game, "phase": phase, "error": None}, 200


@router.get("/diplomacy", response_class=HTMLResponse, include_in_schema=False)
def diplomacy_page(
    request: Request,
    game: str | None = Query(None, max_length=200),
    phase: str | None = Query(None, max_length=200),
) -> HTMLResponse:
    start, status = _start(game, phase)
    return templates.TemplateResponse(
        request,
        "diplomacy.html",
        {
            "page": "diplomacy",
            "version": __version__,
            "games": api_games(),
            "start": start,
            "max_upload_mb": request.app.state.max_upload_bytes // (1024 * 1024),
            "glossary": dict(GLOSSARY["diplomacy"]),
        },
        status_code=status,
    )


@router.get("/api/diplomacy/games", response_model=list[GameInfo], summary="The shipped human games")
def api_games() -> list[GameInfo]:
    """The three human games inside the installed ``diplomacy`` package (read in place), each with a
    label a player recognises: who played, the map, the years and the centres at the end."""
    return [info for info, _ in _catalogue().values()]


@router.get(
    "/api/diplomacy/games/{game_id}", response_model=GameView, summary="All measures of a shipped game"
)
def api_game(game_id: str = GameId) -> GameView:
    return _shipped_view(game_id)


@router.get("/api/diplomacy/games/{game_id}/measures.csv", summary="The tidy measures table as CSV")
def api_game_csv(game_id: str = GameId) -> Response:
    """Columns ``phase, power, measure, other, value`` (the same table as the CLI's ``--csv``)."""
    _, gm = _shipped_measures(game_id)
    return _csv_response(gm, f"diplomacy-game-{game_id}-measures.csv")


def _csv_response(gm: GameMeasures, filename: str) -> Response:
    csv = measures_table(gm).to_csv(index=False)
    return Response(
        csv, media_type="text/csv", headers={"Content-Disposition": content_disposition(filename)}
    )


UPLOAD_SECONDS = 120.0
"""Time limit of the work on one uploaded file (read, check, measure, draw) in a worker process; a 5 MB
file of valid games takes a few seconds. Past it the worker is killed and the request answers 503."""


class UploadError(DiplomacyError):
    """422 from the work on an upload (done in a worker process), said for a player: no such game in the
    file, no such phase in the game."""


async def _upload_bytes(request: Request, file: UploadFile) -> tuple[bytes, str]:
    """(the file's bytes, its display name), refused at once when over the app's limit or empty."""
    limit: int = request.app.state.max_upload_bytes
    data = await file.read(limit + 1)
    name = _file_name(file)
    if len(data) > limit:
        raise PayloadTooLarge(limit, f"the file “{name}”")
    if not data.strip():
        raise HTTPException(status_code=422, detail=f"The file “{name}” is empty: there is no game in it.")
    return data, name


async def _upload_task(request: Request, file: UploadFile, game_index: int, kind: str, **options: Any) -> Any:
    """What ``kind`` asks of an upload, computed by :func:`_upload_work` on the app's workers (off the
    event loop, at most :data:`UPLOAD_SECONDS`; a client that goes away stops it).

    A file the library cannot read answers 422 with a sentence in a player's words (issue 23 §3.4:
    never "'utf-8' codec can't decode byte 0xb7" or "$.phases must be a list"; the CLI keeps the
    library's exact message for the same file).
    """
    data, name = await _upload_bytes(request, file)
    try:
        return await request.app.state.tasks.run(
            _upload_work,
            kind,
            data,
            name,
            game_index,
            options,
            time_limit=UPLOAD_SECONDS,
            disconnected=request.is_disconnected,
        )
    except RecordError as exc:
        raise UploadProblem(name, exc) from None


def _read_upload(data: bytes, name: str, game_index: int) -> tuple[str, Any]:
    """(display name, the chosen game's record) of an upload, checked (in a worker process)."""
    records = load_records(data, name=name)
    if not 0 <= game_index < len(records):
        raise UploadError(
            f"There is no game #{game_index} in “{name}”: it holds {len(records)} game(s), "
            f"numbered from 0 (game_index {game_index} is out of range)."
        )
    record = records[game_index]
    label = f"{name}" + (f" #{game_index}" if len(records) > 1 else "")
    return _record_label(label, record), record


def _upload_work(kind: str, data: bytes, name: str, game_index: int, options: dict[str, Any]) -> Any:
    """The work on an upload, in a worker process: ``view`` (GameView), ``csv`` (text), ``map`` and
    ``chart`` (SVG text), ``evaluation`` (EvaluationView). Bad input raises a BoardevalError (422)."""
    try:
        label, record = _read_upload(data, name, game_index)
        if kind == "map":
            saved = saved_games(data, name=name)[game_index]
            return board_svg(saved, options["phase"], orders=options["orders"])
        gm = compute_measures(record)
        if kind == "view":
            return _game_view(label, gm)
        if kind == "csv":
            return measures_table(gm).to_csv(index=False)
        if kind == "chart":
            from boardeval.diplomacy import chart_svg

            phase = options["phase"]
            if phase is not None and phase not in gm.phases:
                raise UploadError(f"phase {phase!r} is not in {label} ({gm.phases[0]} .. {gm.phases[-1]})")
            table = measures_table(gm, [options["measure"]])
            with _CHART_LOCK:
                return chart_svg(table, options["measure"], phase=phase)
        if kind == "evaluation":
            return _evaluation_view(label, record, gm, options["phase"])
    except HTTPException as exc:  # the shared view builders say 422 this way
        raise UploadError(str(exc.detail)) from None
    raise ValueError(f"unknown upload work {kind!r}")


def _file_name(file: UploadFile) -> str:
    return os.path.basename(file.filename or "upload.json")[:80]


class UploadProblem(HTTPException):
    """422: an uploaded file that is not a saved game the app can read, said in a player's words."""

    def __init__(self, name: str, exc: RecordError) -> None:
        super().__init__(status_code=422, detail=player_words(name, exc))


_SAVED_BY = "a game saved by the diplomacy engine or by boardeval (bot-game, random-game)"


def player_words(name: str, exc: RecordError) -> str:
    """The library's record error as a sentence for a player who uploaded ``name``."""
    text = str(exc)
    file = f"“{name}”"
    if "codec can't decode" in text or "cannot read the file" in text:
        return f"{file} is not a text file: a saved Diplomacy game is JSON text ({_SAVED_BY})."
    if "is not valid JSON" in text:
        found = re.search(r"line (\d+) column (\d+)", text)
        at = f" (it breaks off at line {found.group(1)}, column {found.group(2)})" if found else ""
        return f"{file} is not a saved game: its text is not complete JSON{at}. Expected {_SAVED_BY}."
    if "nests deeper" in text or ("characters" in text and "larger" in text):
        return f"{file} is not a saved game: its JSON is nested too deeply or too long to be one."
    if "holds no game" in text:
        return f"{file} holds no game (an empty list). Expected {_SAVED_BY}."
    if exc.field == "map" or "unknown map" in text:
        known = text.split("give one of", 1)[-1].strip() if "give one of" in text else ""
        return f"{file} is played on a map the diplomacy engine does not know" + (
            f" (it knows {known})." if known else "."
        )
    if exc.phase is not None:  # the content of a phase: the library's reason without its field path
        where = [w for w in (exc.game and f"game {exc.game!r}", f"phase {exc.phase!r}", exc.field) if w]
        prefix = ", ".join(where) + ": "
        reason = text[len(prefix) :] if text.startswith(prefix) else text
        return f"{file} has a problem at phase {exc.phase}: {reason.rstrip('.')}."
    structural = (
        "must be a JSON object",
        "must be a list",
        "unknown field",
        "is not an object",
        "has no phases",
        "Field required",
        "missing",
    )
    if text.startswith("game") or any(k in text for k in structural):
        what = "it has no list of phases" if "phases" in text else "its parts are not those of a saved game"
        return f"{file} is JSON but not a saved Diplomacy game: {what}. Expected {_SAVED_BY}."
    return f"{file} could not be read as a saved game: {text}"


@router.post("/api/diplomacy/upload", response_model=GameView, summary="Measure an uploaded saved game")
async def api_upload(
    request: Request,
    file: UploadFile = File(..., description="the engine's saved-game JSON, or JSONL with one game a line"),
    game_index: GameIndexForm = 0,
) -> GameView:
    view: GameView = await _upload_task(request, file, game_index, "view")
    return view


@router.post("/api/diplomacy/upload.csv", summary="The tidy measures table of an uploaded game as CSV")
async def api_upload_csv(
    request: Request,
    file: UploadFile = File(...),
    game_index: GameIndexForm = 0,
) -> Response:
    csv: str = await _upload_task(request, file, game_index, "csv")
    stem = os.path.splitext(_file_name(file))[0] or "game"
    headers = {"Content-Disposition": content_disposition(f"{stem}-measures.csv")}
    return Response(csv, media_type="text/csv", headers=headers)


_CHART_LOCK = threading.Lock()  # matplotlib's global state is not thread-safe


@lru_cache(maxsize=64)
def _chart_svg(game_id: str, measure: str, phase: str | None) -> str:
    from boardeval.diplomacy import chart_svg  # matplotlib loads on first use, not at app start

    _, gm = _shipped_measures(game_id)
    table = measures_table(gm, [measure])
    with _CHART_LOCK:
        return chart_svg(table, measure, phase=phase)


@router.get(
    "/api/diplomacy/games/{game_id}/chart.svg", summary="One measure drawn by the library (matplotlib)"
)
def api_game_chart(
    game_id: str = GameId,
    measure: str = Query(..., max_length=40, description="a measure name, e.g. tempi or fear_dynamic"),
    phase: str | None = Query(None, max_length=12, description="phase of a table measure (default: last)"),
) -> Response:
    """A time series (one line per power) or, for power x power tables, a heatmap at ``phase``."""
    chosen = validate_measures([measure])[0]
    _, gm = _shipped_measures(game_id)
    if phase is not None and phase not in gm.phases:
        raise HTTPException(
            status_code=422,
            detail=f"phase {phase!r} is not in game {game_id} ({gm.phases[0]} .. {gm.phases[-1]})",
        )
    svg = _chart_svg(game_id, chosen, phase)
    fname = f"diplomacy-{game_id}-{chosen}{'-' + phase if phase else ''}.svg"
    return Response(
        svg, media_type="image/svg+xml", headers={"Content-Disposition": content_disposition(fname)}
    )


@lru_cache(maxsize=4)
def _shipped_saved(game_id: str) -> dict[str, Any]:
    _shipped_measures(game_id)  # 404 for an unknown id
    return saved_games(_shipped()[game_id])[0]


@lru_cache(maxsize=256)
def _shipped_board(game_id: str, phase: str, orders: bool) -> str:
    return board_svg(_shipped_saved(game_id), phase, orders=orders)


def _svg(svg: str, filename: str, attachment: bool = False) -> Response:
    headers = {"Content-Disposition": content_disposition(filename, attachment=attachment)}
    return Response(svg, media_type="image/svg+xml", headers=headers)


PhaseQuery = Query(..., max_length=12, description="phase name, e.g. F1901M")


@router.get(
    "/api/diplomacy/games/{game_id}/map.svg",
    summary="The board at one phase, drawn by the diplomacy engine's own SVG renderer",
)
def api_game_map(
    game_id: str = GameId,
    phase: str = PhaseQuery,
    orders: Annotated[
        bool, Query(description="draw the orders given in that phase"), text_bool("orders")
    ] = True,
) -> Response:
    """Units (dislodged ones offset), supply-centre owners and the phase's orders, in our power colours."""
    _, gm = _shipped_measures(game_id)
    if phase not in gm.phases:
        raise HTTPException(
            status_code=422,
            detail=f"phase {phase!r} is not in game {game_id} ({gm.phases[0]} .. {gm.phases[-1]})",
        )
    return _svg(_shipped_board(game_id, phase, orders), f"diplomacy-{game_id}-map-{phase}.svg")


@router.post("/api/diplomacy/upload/map.svg", summary="The board of an uploaded game at one phase")
async def api_upload_map(
    request: Request,
    file: UploadFile = File(...),
    game_index: GameIndexForm = 0,
    phase: str = Form(..., max_length=12),
    orders: Annotated[bool, Form(), text_bool("orders")] = True,
) -> Response:
    svg: str = await _upload_task(request, file, game_index, "map", phase=phase, orders=orders)
    stem = os.path.splitext(_file_name(file))[0] or "game"
    return _svg(svg, f"{stem}-map-{phase}.svg")


@router.post("/api/diplomacy/upload/chart.svg", summary="One measure of an uploaded game (library chart)")
async def api_upload_chart(
    request: Request,
    file: UploadFile = File(...),
    game_index: GameIndexForm = 0,
    measure: str = Form(..., max_length=40),
    phase: str | None = Form(None, max_length=12),
) -> Response:
    """The same chart as ``GET /api/diplomacy/games/{id}/chart.svg``, for an uploaded game."""
    chosen = validate_measures([measure])[0]
    svg: str = await _upload_task(request, file, game_index, "chart", measure=chosen, phase=phase)
    stem = os.path.splitext(_file_name(file))[0] or "game"
    return _svg(svg, f"{stem}-{chosen}{'-' + phase if phase else ''}.svg", attachment=True)


# --------------------------------------------------------------------------------------------------------
# The fitted evaluation and the detected alliances (issue 14 web part)


class EvalTerm(BaseModel):
    """One measure of a power's evaluation: ``value * weight = contribution`` (exactly, before rounding)."""

    name: str = Field(description="the measure (a feature of the fitted model), or 'intercept'")
    value: float = Field(description="the measure's value at the phase (undefined ones: the corpus mean)")
    weight: float = Field(description="the model's weight per unit of the measure (coefficient / its s.d.)")
    standardised: float = Field(description="the model's coefficient on the standardised measure")
    contribution: float
    vs_average: float | None = Field(
        description="contribution relative to the corpus-average power: coefficient × (value − mean) / s.d."
    )


class PowerEvaluation(BaseModel):
    power: str
    total: float | None = Field(description="the evaluation (sum of the contributions); null if eliminated")
    eliminated: bool
    terms: list[EvalTerm]


class AllianceYear(BaseModel):
    year: int
    pairs: list[list[str]]
    first_phase: str = Field(description="'never attacked each other' is checked from this phase")
    last_phase: str = Field(description="the last phase the verdict uses (the year's end or the phase)")
    fear_phase: str = Field(description="the movement phase whose mutual fear the verdict uses")


class EvaluationView(BaseModel):
    """The fitted evaluation of every power at every phase, its breakdown at one phase, and alliances."""

    game: str
    target: str = Field(description="the fitted target the score predicts (sc_change_1y)")
    phases: list[str]
    powers: list[str]
    colours: dict[str, str]
    scores: dict[str, list[float | None]] = Field(
        description="power -> evaluation per phase (null: eliminated)"
    )
    phase: str = Field(description="the phase of the breakdown")
    breakdown: list[PowerEvaluation]
    alliances: list[AllianceYear] = Field(
        description="allied pairs detected per game year from the phases up to `phase` only (nothing later)"
    )
    alliance_threshold: float


_TARGET = "sc_change_1y"


def _evaluation_view(name: str, record: Any, gm: GameMeasures, phase: str | None) -> EvaluationView:
    """The evaluation answer of one game (``phase`` None: the last one); unknown phase -> 422."""
    from boardeval.diplomacy import detect_alliances, evaluate_game, evaluate_position

    if phase is not None and phase not in gm.phases:
        raise HTTPException(
            status_code=422, detail=f"phase {phase!r} is not in {name} ({gm.phases[0]} .. {gm.phases[-1]})"
        )
    chosen = phase or gm.phases[-1]
    scores = np.asarray(evaluate_game(record, target=_TARGET, measures=gm))
    powers = list(gm.powers)
    rows = []
    for power, bd in evaluate_position(record, chosen, target=_TARGET, measures=gm).items():
        eliminated = bool(bd.extras.get("eliminated", False))
        vs = bd.extras.get("vs_average", {})
        terms = [
            EvalTerm(
                name=t.name,
                value=_clean(t.raw) or 0.0,
                weight=_clean(t.weight * t.scale) or 0.0,
                standardised=_clean(t.weight) or 0.0,
                contribution=_clean(t.contribution) or 0.0,
                vs_average=_clean(vs[t.name]) if t.name in vs else None,
            )
            for t in bd.terms
        ]
        total = None if eliminated else _clean(math.fsum(t.contribution for t in bd.terms))
        rows.append(PowerEvaluation(power=power, total=total, eliminated=eliminated, terms=terms))
    found = detect_alliances(record, measures=gm, through=chosen)
    return EvaluationView(
        game=name,
        target=_TARGET,
        phases=list(gm.phases),
        powers=powers,
        colours={p: power_colour(p, i) for i, p in enumerate(powers)},
        scores={p: [_clean(v) for v in scores[:, i]] for i, p in enumerate(powers)},
        phase=chosen,
        breakdown=rows,
        alliances=[
            AllianceYear(
                year=y.year,
                pairs=[list(p) for p in y.pairs],
                first_phase=y.first_phase,
                last_phase=y.last_phase,
                fear_phase=y.fear_phase,
            )
            for y in found.years
        ],
        alliance_threshold=found.threshold,
    )


@lru_cache(maxsize=8)
def _shipped_record(game_id: str) -> Any:
    _shipped_measures(game_id)  # 404 for an unknown id
    return load_records(_shipped()[game_id])[0]


@lru_cache(maxsize=128)
def _shipped_evaluation(game_id: str, phase: str | None) -> EvaluationView:
    name, gm = _shipped_measures(game_id)
    return _evaluation_view(name, _shipped_record(game_id), gm, phase)


@router.get(
    "/api/diplomacy/games/{game_id}/evaluation",
    response_model=EvaluationView,
    summary="The fitted evaluation per power and phase, its breakdown at a phase, detected alliances",
)
def api_game_evaluation(
    game_id: str = GameId,
    phase: str | None = Query(None, max_length=12, description="phase of the breakdown (default: last)"),
) -> EvaluationView:
    """Per power the predicted supply-centre change over the next game year at every phase (the fitted
    evaluation of ``docs/diplomacy-evaluation.md``), the breakdown of each power's score at ``phase``
    (each measure's value, weight and contribution), and the allied pairs detected per game year."""
    return _shipped_evaluation(game_id, phase)


@router.post(
    "/api/diplomacy/upload/evaluation",
    response_model=EvaluationView,
    summary="The fitted evaluation and detected alliances of an uploaded game",
)
async def api_upload_evaluation(
    request: Request,
    file: UploadFile = File(...),
    game_index: GameIndexForm = 0,
    phase: str | None = Form(None, max_length=12),
) -> EvaluationView:
    """The same answer as ``GET /api/diplomacy/games/{id}/evaluation``, for an uploaded game."""
    view: EvaluationView = await _upload_task(request, file, game_index, "evaluation", phase=phase)
    return view
