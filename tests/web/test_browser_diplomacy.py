"""Real-browser tests of the Diplomacy page (issue 15): the engine-drawn board following the phase slider,
the game and phase kept in the URL, uploads that never leave the page in a mixed state (defect 10), readable
chart axes (defect 11), highlight / show-hide / hover readout, glossary tooltips, and a phone layout.

Debian's chromium through Playwright against uvicorn on 127.0.0.1; no request may leave the app.
"""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest

from tests.web.helpers import HTTP_GUARD, Held, screenshot

pytestmark = pytest.mark.browser
MAP_LOADED = (
    "p => { const m = document.getElementById('board-map');"
    " return m.dataset.phase === p && m.complete && m.naturalWidth > 0; }"
)


def _clean(page: Any) -> None:
    assert page.outside_requests == [], f"page requested outside the app: {page.outside_requests}"
    assert page.console_errors == [], f"JavaScript errors: {page.console_errors}"


def _phase_is(page: Any, phase: str) -> None:
    page.wait_for_function("p => document.getElementById('phase-name').textContent === p", arg=phase)


def test_board_map_follows_the_slider_and_the_url_keeps_game_and_phase(page: Any, live_server: str) -> None:
    view = httpx.get(live_server + "/api/diplomacy/games/2", timeout=HTTP_GUARD).json()
    page.goto(live_server + "/diplomacy?game=2&phase=F1905M")
    _phase_is(page, "F1905M")
    assert page.input_value("#game") == "2"
    page.wait_for_function(MAP_LOADED, arg="F1905M")
    assert "phase=F1905M" in page.get_attribute("#board-map", "src")
    # the charts: one per series, one line per power
    assert page.locator("#charts svg[data-measure]").count() == len(view["series"])
    assert page.locator('#charts svg[data-measure="tempi"] path.line').count() == len(view["powers"])
    t = 30
    page.locator("#phase").fill(str(t))
    _phase_is(page, view["phases"][t])
    page.wait_for_function(MAP_LOADED, arg=view["phases"][t])
    assert f"phase={view['phases'][t]}" in page.url and "game=2" in page.url
    fear = view["tables"]["fear_dynamic"][t]
    cell = page.locator('#heat-fear td[data-row="AUSTRIA"][data-col="RUSSIA"]').inner_text()
    assert float(cell) == pytest.approx(fear[0][5], abs=0.051)
    change = view["tables"]["fear_mutual_change"][t]
    top = max(abs(change[i][j]) for i in range(7) for j in range(i + 1, 7) if change[i][j])
    assert f"by {top:.0f}" in page.locator("#fear-signals li").first.inner_text()
    page.click("#phase-next")
    _phase_is(page, view["phases"][t + 1])
    page.reload()  # the URL brings back the same game and phase
    _phase_is(page, view["phases"][t + 1])
    assert page.input_value("#game") == "2"
    page.set_viewport_size({"width": 1400, "height": 900})
    screenshot(page, "diplomacy-1400.png")
    _clean(page)


def test_upload_then_broken_upload_never_mixes_games(page: Any, live_server: str) -> None:
    """Defect 10: after an upload the game box names it; a broken upload says so and that the previous game
    is still shown, and the CSV is that game's; uploaded games get SVG chart downloads too."""
    from boardeval.diplomacy import shipped_game_paths

    game3 = next(p for p in shipped_game_paths() if p.stem == "3")
    page.goto(live_server + "/diplomacy")
    page.wait_for_selector("#charts svg[data-measure]")
    page.set_input_files("#upload", str(game3))
    page.click("#upload-form button")
    page.wait_for_function("() => document.getElementById('game-info').textContent.startsWith('3.json')")
    assert page.input_value("#game") == "upload"
    assert "3.json" in page.locator("#game option:checked").inner_text()
    first = httpx.get(live_server + "/api/diplomacy/games/3", timeout=HTTP_GUARD).json()["phases"][0]
    page.wait_for_function(MAP_LOADED, arg=first)
    assert page.get_attribute("#board-map", "src").startswith("blob:")
    assert page.locator("#charts .chart-link").count() > 0  # library charts for uploads as well
    with page.expect_download() as dl:
        page.locator('#charts .chart-link[data-measure="tempi"]').click()
    assert dl.value.suggested_filename == "3-tempi.svg"
    with open(dl.value.path(), encoding="utf-8") as fh:
        assert "<svg" in fh.read(2000)
    page.set_input_files(
        "#upload",
        files=[{"name": "broken.json", "mimeType": "application/json", "buffer": b'{"id": "x", "phases": ['}],
    )
    page.click("#upload-form button")
    page.locator("#game-error").wait_for(state="visible")
    error = page.inner_text("#game-error")
    assert "broken.json" in error and "still showing 3.json" in error
    assert page.inner_text("#game-info").startswith("3.json")
    assert page.input_value("#game") == "upload"
    with page.expect_download() as dl:
        page.click("#download-csv")
    want = httpx.get(live_server + "/api/diplomacy/games/3/measures.csv", timeout=HTTP_GUARD).text
    with open(dl.value.path(), encoding="utf-8") as fh:
        assert fh.read() == want  # the CSV is the game on screen
    page.select_option("#game", "1")
    page.wait_for_function("() => document.getElementById('game-info').textContent.startsWith('Game 1')")
    assert page.locator("#game-error").is_hidden()
    _clean(page)


def test_chart_axes_ticks_and_the_100_percent_note(page: Any, live_server: str) -> None:
    """Defect 11: round, evenly spaced ticks; never-negative measures start at 0; progress past 100%
    says why."""
    page.goto(live_server + "/diplomacy?game=1")
    page.wait_for_selector("#charts svg[data-measure]")
    for measure in ("progress", "tempi", "battle_tiedness", "personal_progress", "neighbour_effect"):
        labels = page.locator(f'#charts svg[data-measure="{measure}"] text.ytick').all_text_contents()
        values = [float(v) for v in labels]
        steps = {round(b - a, 6) for a, b in itertools.pairwise(values)}
        assert len(steps) == 1, (measure, labels)
        step = steps.pop()
        mantissa = step / 10 ** int(f"{step:e}".split("e")[1])
        assert round(mantissa, 6) in (1, 2, 2.5, 5), (measure, labels)
        if measure != "neighbour_effect":
            assert values[0] == 0, (measure, labels)
    note = page.locator('#charts svg[data-measure="progress"] text.note-100').text_content()
    assert "100%" in note and "pass" in note
    with page.expect_download() as dl:  # the shipped game's tidy table
        page.click("#download-csv")
    with open(dl.value.path(), encoding="utf-8") as fh:
        assert (
            fh.read()
            == httpx.get(live_server + "/api/diplomacy/games/1/measures.csv", timeout=HTTP_GUARD).text
        )
    _clean(page)


def test_highlight_show_hide_hover_and_glossary(page: Any, live_server: str) -> None:
    page.goto(live_server + "/diplomacy?game=1&phase=S1901M")
    page.wait_for_selector("#charts svg[data-measure]")
    page.click('#legend button[data-power="FRANCE"]')
    assert "hl" in page.get_attribute('#charts svg[data-measure="tempi"] path[data-power="FRANCE"]', "class")
    opacity = page.eval_on_selector(
        '#charts svg[data-measure="tempi"] path[data-power="ENGLAND"]', "p => getComputedStyle(p).opacity"
    )
    assert float(opacity) < 0.5
    assert page.locator('#heat-fear td.hl[data-row="FRANCE"]').count() == 7
    assert "hl" in page.get_attribute('#sc-table tr[data-power="FRANCE"]', "class")
    page.uncheck('#legend input[data-show="ENGLAND"]')
    assert page.locator('#charts svg[data-measure="tempi"] path[data-power="ENGLAND"]').is_hidden()
    # hover readout: the phase under the mouse with each shown power's value
    svg = page.locator('#charts svg[data-measure="tempi"]')
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.97, box["y"] + box["height"] * 0.5)
    view = httpx.get(live_server + "/api/diplomacy/games/1", timeout=HTTP_GUARD).json()
    readout = page.locator('#charts .readout[data-measure="tempi"]').inner_text()
    assert readout.startswith(view["phases"][-1]) and "Eng" not in readout and "Fra" in readout
    # click the chart (above the lines): go to that phase
    page.mouse.click(box["x"] + box["width"] * 0.97, box["y"] + box["height"] * 14 / 220)
    _phase_is(page, view["phases"][-1])
    # every Diplomacy number's tooltip is its glossary definition
    gloss = httpx.get(live_server + "/api/glossary", params={"game": "diplomacy"}, timeout=HTTP_GUARD).json()[
        "diplomacy"
    ]
    page.wait_for_selector('#charts .term[data-def][data-gloss="cohesion"]')  # popovers set up (issue 23 §4)
    for key in ("stab_potential", "tempi", "supply_centres", "phase"):
        assert page.get_attribute(f'.term[data-gloss="{key}"] >> nth=0', "data-def") == gloss[key]
    assert (
        page.get_attribute('#charts .chart-title .term[data-gloss="cohesion"] >> nth=0', "data-def")
        == gloss["cohesion"]
    )
    assert (
        page.get_attribute('#charts .chart-title .term[data-gloss="neighbour_effect"]', "data-def")
        == gloss["neighbour_effect"]
    )
    _clean(page)


def test_phone_layout_has_no_horizontal_overflow(page: Any, live_server: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server + "/diplomacy?game=1&phase=F1903M")
    page.wait_for_function(MAP_LOADED, arg="F1903M")
    page.wait_for_selector("#eval-breakdown table.dip-eval")  # the evaluation card is drawn too
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, f"page is {wide} px wide at 390 px"
    box = page.locator("#board-map").bounding_box()
    assert box["width"] <= 390 and box["height"] > 100
    for card in ("#eval-chart svg", "#eval-breakdown table.dip-eval"):
        inner = page.locator(card).bounding_box()
        assert inner["x"] >= 0 and inner["x"] + inner["width"] <= 390, card
    screenshot(page, "diplomacy-390.png")
    _clean(page)


def test_evaluation_chart_breakdown_and_alliances_follow_the_phase(page: Any, live_server: str) -> None:
    """Issue 14's web part: the evaluation per power over the phases, its breakdown at the phase of the
    slider (value, weight, contribution of each measure), and the alliances detected in that year."""
    api = live_server + "/api/diplomacy/games/2/evaluation"
    ev = httpx.get(api, params={"phase": "F1905M"}, timeout=HTTP_GUARD).json()
    again = httpx.get(api, params={"phase": "S1908M"}, timeout=HTTP_GUARD).json()
    page.goto(live_server + "/diplomacy?game=2&phase=F1905M")
    page.wait_for_function("() => (document.getElementById('eval-phase') || {}).textContent === 'F1905M'")
    assert page.locator("#eval-chart svg path.line").count() == len(ev["powers"])
    alive = [row for row in ev["breakdown"] if not row["eliminated"]]
    best = max(alive, key=lambda row: row["total"])
    table = page.locator("#eval-breakdown table.dip-eval")
    assert table.get_attribute("data-power") == best["power"]  # no power chosen: the strongest one
    assert table.locator("tbody tr").count() == len(best["terms"])
    for t in best["terms"]:
        cells = table.locator(f'tr[data-term="{t["name"]}"] td').all_inner_texts()
        assert float(cells[2]) == pytest.approx(t["weight"], abs=0.0006)
        assert float(cells[3].replace("+", "")) == pytest.approx(t["contribution"], abs=0.0006)
    assert float(table.locator("tfoot td b").inner_text().replace("+", "")) == pytest.approx(
        best["total"], abs=6e-4
    )
    year = next(a for a in ev["alliances"] if a["year"] == 1905)
    assert page.inner_text("#alliance-year") == "1905"
    shown = page.locator("#alliances li[data-pair]").evaluate_all("els => els.map(e => e.dataset.pair)")
    assert shown == ["-".join(p) for p in year["pairs"]]
    # choosing a power shows its breakdown and highlights it in every chart
    later_alive = {r["power"] for r in again["breakdown"] if not r["eliminated"]}
    other = next(r for r in alive if r["power"] != best["power"] and r["power"] in later_alive)
    page.click(f'#eval-breakdown button[data-power="{other["power"]}"]')
    assert page.get_attribute("#eval-breakdown table.dip-eval", "data-power") == other["power"]
    line = f'#eval-chart path.line[data-power="{other["power"]}"]'
    assert "hl" in page.get_attribute(line, "class")
    assert page.get_attribute(f'#legend button[data-power="{other["power"]}"]', "aria-pressed") == "true"
    # the slider moves the breakdown and the year of the alliances
    later = ev["phases"].index("S1908M")
    page.locator("#phase").fill(str(later))
    page.wait_for_function("() => document.getElementById('eval-phase').textContent === 'S1908M'")
    assert page.inner_text("#alliance-year") == "1908"
    row = next(r for r in again["breakdown"] if r["power"] == other["power"])
    foot = page.locator("#eval-breakdown tfoot td b").inner_text().replace("+", "")
    assert float(foot) == pytest.approx(row["total"], abs=6e-4)
    # every term of the evaluation card is defined by the glossary
    gloss = httpx.get(live_server + "/api/glossary", params={"game": "diplomacy"}, timeout=HTTP_GUARD).json()
    gloss = gloss["diplomacy"]
    page.wait_for_selector("#eval-breakdown .term[data-def]")
    terms = page.locator("#evaluation .term").evaluate_all(
        "els => els.map(e => [e.dataset.gloss, e.dataset.def])"
    )
    assert len(terms) >= 15
    for key, title in terms:
        assert title == gloss[key], key
    _clean(page)


HIGHLIGHTED = (
    "p => { const m = document.getElementById('board-map'); return m.dataset.hl === p"
    " && m.src.startsWith('blob:') && m.complete && m.naturalWidth > 0; }"
)

MAP_STATE = (
    "() => { const m = document.getElementById('board-map');"
    " return {dataset: {...m.dataset}, src: m.src.slice(0, 80), complete: m.complete, width: m.naturalWidth,"
    " pressed: [...document.querySelectorAll('#legend button[aria-pressed=\"true\"]')]"
    ".map(b => b.dataset.power),"
    " info: document.getElementById('game-info').textContent, url: location.href}; }"
)
"""What the map shows, for a failure message: whether the highlight was set (the legend's pressed button)
and then lost, or never set (a click that did not land)."""


LEGEND_TOP = (
    "() => { const b = document.querySelector('#legend button[data-power=\"ITALY\"]');"
    " return b ? b.getBoundingClientRect().top + window.scrollY : null; }"
)


def test_nothing_below_the_evaluation_card_moves_when_it_arrives(page: Any, live_server: str) -> None:
    """Issue 22: the evaluation card, above the legend and the charts, was drawn when its answer came, after
    the game: the legend jumped 764 px down under the pointer, and a click on it could land elsewhere (the
    map-highlight test hung once on that). The game is now drawn with its first evaluation."""
    held = Held(page, "**/api/diplomacy/games/1/evaluation?*")
    page.goto(live_server + "/diplomacy?game=1&phase=F1905M")
    held.wait()  # the first evaluation is out: nothing of the game is drawn yet
    assert page.evaluate(LEGEND_TOP) is None, "the legend was drawn before the evaluation card above it"
    held.release()
    page.wait_for_function(MAP_LOADED, arg="F1905M")
    assert page.inner_text("#eval-phase") == "F1905M"
    top = page.evaluate(LEGEND_TOP)
    page.wait_for_selector("#alliances h3")
    assert page.evaluate(LEGEND_TOP) == top
    _clean(page)


def test_the_map_highlights_the_chosen_power(page: Any, live_server: str) -> None:
    """Issue 15: a power chosen in the charts (legend, a line, a table) is highlighted on the map too:
    the other powers' territories are greyed and their units faded; the highlight follows the slider."""
    page.goto(live_server + "/diplomacy?game=1&phase=F1905M")
    page.wait_for_function(MAP_LOADED, arg="F1905M")
    plain = page.get_attribute("#board-map", "src")
    page.click('#legend button[data-power="ITALY"]')
    try:
        page.wait_for_function(HIGHLIGHTED, arg="ITALY")
    except Exception as exc:  # it hung once in ~9 full runs (2026-11-27): say what the page showed
        raise AssertionError(f"the map never showed ITALY highlighted: {page.evaluate(MAP_STATE)}") from exc
    svg = page.evaluate("() => fetch(document.getElementById('board-map').src).then(r => r.text())")
    style = svg[svg.rindex("<style") :]
    assert ".austria, .england, .france, .germany, .russia, .turkey { fill: #ebe7df; }" in style
    assert ".unititaly { stroke" in style and ".italy" not in style.replace(".unititaly", "")
    page.click("#phase-next")
    _phase_is(page, "F1905R")
    page.wait_for_function(
        "() => { const m = document.getElementById('board-map');"
        " return m.dataset.phase === 'F1905R' && m.dataset.base.includes('F1905R')"
        " && m.dataset.hl === 'ITALY' && m.src.startsWith('blob:') && m.complete; }"
    )
    page.click('#sc-table button[data-power="ITALY"]')  # the same power again: no highlight
    page.wait_for_function(MAP_LOADED, arg="F1905R")
    assert page.get_attribute("#board-map", "src") == plain.replace("F1905M", "F1905R")
    assert page.get_attribute("#board-map", "data-hl") is None
    page.locator('#charts svg[data-measure="tempi"] path.line[data-power="TURKEY"]').dispatch_event("click")
    page.wait_for_function(HIGHLIGHTED, arg="TURKEY")
    _clean(page)


# ---- issue 23 §3 -------------------------------------------------------------------------------------


def test_alliances_use_only_the_phases_up_to_the_slider(page: Any, live_server: str) -> None:
    """§3.1: at S1901M, before any order, the page listed "Austria–Germany" from the year's later phases.
    At a phase only the phases up to it count, and the card says which phases its verdict uses."""
    from boardeval.diplomacy import compute_measures, detect_alliances, load_records, shipped_game_paths

    record = load_records(next(p for p in shipped_game_paths() if p.stem == "1"))[0]
    gm = compute_measures(record)
    page.goto(live_server + "/diplomacy?game=1&phase=S1901M")
    page.wait_for_function("() => (document.getElementById('eval-phase') || {}).textContent === 'S1901M'")
    assert page.locator("#alliances li[data-pair]").count() == 0
    assert "no move has been resolved" in page.inner_text("#alliance-none")
    for phase in ("S1903M", "F1905M"):
        page.locator("#phase").fill(str(gm.phases.index(phase)))
        page.wait_for_function(
            "p => (document.getElementById('eval-phase') || {}).textContent === p", arg=phase
        )
        page.wait_for_selector("#alliance-phases")
        want = detect_alliances(record, measures=gm, through=phase).years[-1]
        shown = page.locator("#alliances li[data-pair]").evaluate_all("es => es.map(e => e.dataset.pair)")
        assert shown == ["-".join(p) for p in want.pairs]
        text = page.inner_text("#alliance-phases")
        assert f"S1901M … {phase}" in text and f"nothing after {phase}" in text
    _clean(page)


def test_games_named_progress_explained_no_seed(page: Any, live_server: str) -> None:
    """§3.2, §3.3: games named by map, players, years and result; the three progress charts explained as one
    number on three scales whose figures agree with the charts; "seed" nowhere on the page."""
    page.goto(live_server + "/diplomacy?game=1&phase=F1907M")
    _phase_is(page, "F1907M")
    options = page.locator("#game option:not([hidden])").all_inner_texts()
    assert options[0].startswith("Game 1: human players, standard map, 1901–1913; Italy 16")
    assert not any(".json (" in o for o in options)
    view = httpx.get(live_server + "/api/diplomacy/games/1", timeout=HTTP_GUARD).json()
    t = view["phases"].index("F1907M")
    total = sum(n * n for n in view["sc_counts"][t])
    note = page.inner_text("#progress-note")
    assert f"Σ SC² = {total}" in note
    for measure in ("progress", "progress_from_zero", "progress_as_written"):
        value = f"{view['series'][measure][''][t]:.1f}%"
        assert value in note, (measure, value, note)
        assert value in page.inner_text(f'#charts .readout[data-measure="{measure}"]')
    titles = page.locator("#charts .chart-title").all_inner_texts()
    assert titles[:3] == [
        view["labels"][m] for m in ("progress", "progress_from_zero", "progress_as_written")
    ]
    assert "seed" not in page.inner_text("body").lower()
    page.goto(live_server + "/?seed=5")
    assert "seed 000" not in page.inner_text("main") and "evaluator of seed" not in page.inner_text("main")
    _clean(page)


RECORD_FETCHES = """window.__fetched = [];
const realFetch = window.fetch;
window.fetch = (input, init) => {
  window.__fetched.push(String(input.url || input));
  return realFetch(input, init);
};"""
"""An init script: every URL the page fetches, in ``window.__fetched`` from the moment it is called."""


def test_unknown_game_or_phase_in_the_url_is_said(page: Any, live_server: str) -> None:
    """§3.4: ?game=99&phase=X showed game 1 without a word."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    with page.add_init_script(RECORD_FETCHES):
        # goto returns at the page's load event: its start-up code (DOMContentLoaded) has run, so a game it
        # loads is a fetch already called and recorded (no wait for the network to fall quiet)
        response = page.goto(live_server + "/diplomacy?game=99&phase=X")
        assert response is not None and response.status == 404
        error = page.locator("#game-error")
        assert error.is_visible() and "no game “99”" in error.inner_text() and "1, 2, 3" in error.inner_text()
        fetched: list[str] = page.evaluate("window.__fetched")
        assert not any("/api/diplomacy/games/" in url for url in fetched + asked)  # no game silently loaded
        assert page.input_value("#game") == ""
        response = page.goto(live_server + "/diplomacy?game=2&phase=X1999M")
        assert response is not None and response.status == 422
        assert any("/api/diplomacy/games/2" in url for url in page.evaluate("window.__fetched"))  # it records
    _phase_is(page, "S1901M")
    assert "no phase “X1999M”" in page.inner_text("#game-error") and "S1901M … S1912R" in page.inner_text(
        "#game-error"
    )
    _clean(page)


def test_failed_uploads_speak_plainly_and_keep_the_info_line(page: Any, live_server: str) -> None:
    """§3.4: upload errors leaked "'utf-8' codec can't decode byte 0xb7" and "$.phases must be a list";
    after a failed upload the info line lost its phase range."""
    page.goto(live_server + "/diplomacy?game=1")
    page.wait_for_function("() => document.getElementById('game-info').textContent.includes('S1913R')")
    info = page.inner_text("#game-info")
    for name, body, says in (
        ("photo.json", b"\xb7\x00\x01binary", "is not a text file"),
        ("odd.json", b'{"id": "x", "map": "standard", "phases": 3}', "not a saved Diplomacy game"),
    ):
        page.set_input_files(
            "#upload", files=[{"name": name, "mimeType": "application/json", "buffer": body}]
        )
        page.click("#upload-form button")
        page.wait_for_function("n => document.getElementById('game-error').textContent.includes(n)", arg=name)
        error = page.inner_text("#game-error")
        assert says in error and "codec" not in error and "$." not in error and "0xb7" not in error
        assert page.inner_text("#game-info") == info  # "(S1901M … S1913R)" kept
    _clean(page)


def test_unknown_page_is_an_html_404_for_a_browser(page: Any, live_server: str) -> None:
    """§3.4: an unknown page answered a browser with raw JSON {"detail":"Not Found"}."""
    response = page.goto(live_server + "/diplomacy/nope")
    assert response is not None and response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    assert page.locator("h1").inner_text() == "404" and "/diplomacy/nope" in page.inner_text("main")
    assert "detail" not in page.inner_text("body")
    api = httpx.get(live_server + "/api/nope", headers={"accept": "text/html"}, timeout=HTTP_GUARD)
    assert api.status_code == 404 and api.json() == {"detail": "Not Found"}
    _clean(page)


def test_a_failed_upload_during_the_first_load_finishes_that_load(page: Any, live_server: str) -> None:
    """An upload while the page's first load was still running cut that load short; when it failed, the
    info line stayed "measuring photo.json…" and no game came (CI saw it under load). The game's request
    is held here until the upload has failed, so the order is the test's, not the machine's."""
    held: list[Any] = []
    page.route("**/api/diplomacy/games/1", lambda route: held.append(route))
    with page.expect_request("**/api/diplomacy/games/1"):
        page.goto(live_server + "/diplomacy?game=1")
    served = page.inner_text("#game-info")
    page.set_input_files(
        "#upload", files=[{"name": "photo.json", "mimeType": "application/json", "buffer": b"\xb7\x00binary"}]
    )
    page.click("#upload-form button")
    page.wait_for_function("() => document.getElementById('game-error').textContent.includes('photo.json')")
    assert page.inner_text("#game-info") == served  # not "measuring photo.json…"
    for route in held:  # the first load's request, and the one the failed upload makes again
        route.continue_()
    page.unroute("**/api/diplomacy/games/1")
    page.wait_for_function("() => document.getElementById('game-info').textContent.includes('S1913R')")
    assert "photo.json" in page.inner_text("#game-error")  # the upload's error is kept
    _clean(page)
