"""Accessibility (issue 23 §4, WCAG 2.2 AA): an axe-core audit of every page, and the glossary's popovers.

The audit runs axe-core (bundled by ``axe-playwright-python``: no download at test time) in Debian's chromium
on ``/``, ``/catan``, ``/morris``, ``/diplomacy`` and the error page, at 1400 and 390 px, each in an
interesting state (a spot chosen and the seats' draft and why shown, a hint explained, the AI's move
explained, a decided line in words, an evaluation shown with a definition open, a zoomed map), and fails on
any serious or critical violation, or on the empty table headers and skipped heading levels the issue found.
Before issue 23: colour contrast failed on every page (31 elements on /diplomacy), plus empty table headers,
heading order and 13 px checkboxes.

The glossary tests check what a keyboard, pointer and touch user meet: a skip link first, each section's
terms one Tab stop with the arrow keys between them, a popover on focus, hover and tap that Escape closes,
and every term described by its entry in the page's definitions list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe

from boardeval.web.glossary import GLOSSARY
from tests.web.helpers import GUARD_MS, HTTP_GUARD, quick_selector_waits

pytestmark = pytest.mark.browser

AXE = Axe()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
GATED = {"empty-table-header", "heading-order"}  # not serious, but named by the issue
POP = "#gloss-pop"
POP_SHOWS = (
    "t => { const p = document.getElementById('gloss-pop');"
    " return p && !p.hidden && p.textContent.includes(t); }"
)
POP_HIDDEN = "() => { const p = document.getElementById('gloss-pop'); return !p || p.hidden; }"


LINES_PER_HEADER = """table => [...document.querySelector(table).querySelectorAll('thead th')].map(th => {
    const r = document.createRange(); r.selectNodeContents(th);
    const tops = [...r.getClientRects()].filter(x => x.width > 2).map(x => Math.round(x.top));
    return new Set(tops).size || 1; })"""


def _catan(page: Any) -> None:
    page.wait_for_selector("#board svg [data-spot]")
    page.click('#board g.spot[data-spot="20"]')
    page.wait_for_selector("#spot table.breakdown")
    page.click("#equity-draft")  # issue 26: the draft drawn and the seats' why shown, audited with the rest
    page.click("#equity-why")
    page.wait_for_selector("#equity-overlay circle.draft-pick")
    page.wait_for_selector("#equity-breakdown table.breakdown")


def _morris(page: Any) -> None:
    page.wait_for_selector("#board [data-point]")
    page.click("#hint-btn")
    page.wait_for_function(
        "() => document.getElementById('why-title').textContent.startsWith('Best move here')"
    )


def _morris_ai(page: Any) -> None:
    """The why-panel of the AI's move (issue 23 §2), paused AI vs AI with its controls."""
    page.wait_for_function("() => (document.getElementById('ai-move') || {}).textContent !== '–'")
    page.click("#ai-pause")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Paused')")


def _morris_decided(page: Any) -> None:
    """A decided line in words: the hint where f2-d2 leaves Black no legal move."""
    _morris(page)
    page.wait_for_function("() => document.getElementById('why').textContent.includes('White wins')")


def _morris_proven(page: Any) -> None:
    """Off the book, where it proves every turn's outcome: the hint's kept turn and the losing candidates."""
    _morris(page)
    page.wait_for_function("() => document.getElementById('why').textContent.includes('keeps the value')")


def _diplomacy(page: Any) -> None:
    page.wait_for_selector("#eval-breakdown table.dip-eval")
    page.wait_for_selector("#charts svg[data-measure]")
    page.click('#legend button[data-power="ITALY"]')
    page.click("#map-zoom-in")
    page.focus("#evaluation .term[tabindex='0']")
    page.wait_for_function(POP_SHOWS, arg="")


def _home(page: Any) -> None:
    page.wait_for_selector("#home-board svg")
    page.hover("#home-energy")
    page.hover("h2 .term")
    page.wait_for_function(POP_SHOWS, arg="")


STATES: dict[str, tuple[str, Callable[[Any], None]]] = {
    "home": ("/?seed=5", _home),
    "catan": ("/catan", _catan),
    "morris": ("/morris?strength=easy", _morris),
    "morris-ai": ("/morris?strength=easy&colour=none&moves=d2+a7", _morris_ai),
    "morris-decided": ("/morris?colour=both&start=......BW..WBW.WBBB..W...+w+0+0", _morris_decided),
    "morris-proven": ("/morris?colour=both&moves=a7+b4+g1+d2", _morris_proven),
    "diplomacy": ("/diplomacy?game=1&phase=F1907M", _diplomacy),
    "error": ("/no-such-page", lambda page: page.wait_for_selector("h1")),
}


@pytest.fixture(scope="module", params=[1400, 390], ids=["1400px", "390px"])
def sized(request: Any, browser: Any) -> Iterator[Any]:
    """One tab per width for the whole audit (the browser and the server are the session's): a new page per
    audit cost chromium about a second of CPU more than a visit in a reused one."""
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    page = quick_selector_waits(context.new_page())
    page.set_default_timeout(GUARD_MS)  # a hang guard: each settle waits for a signal
    yield page
    context.close()


@pytest.mark.parametrize("name", list(STATES))
def test_axe_finds_no_serious_violation(sized: Any, live_server: str, name: str) -> None:
    path, settle = STATES[name]
    page = sized
    errors: list[str] = []

    def on_error(exc: Any) -> None:
        errors.append(str(exc))

    page.on("pageerror", on_error)
    try:
        page.goto(live_server + path)
        settle(page)
        found = AXE.run(
            page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
        )
        bad = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:6]}"
            for v in found.response["violations"]
            if v["impact"] in ("serious", "critical") or v["id"] in GATED
        ]
        assert bad == [], f"{path}: {bad}"
        assert errors == []
    finally:  # the next audit starts on a blank tab, the pointer back in the corner
        page.remove_listener("pageerror", on_error)
        page.goto("about:blank")
        page.mouse.move(0, 0)


def test_terms_are_few_tab_stops_with_a_popover_on_focus_hover_and_escape(
    page: Any, live_server: str
) -> None:
    """§4.1, §4.2: on /diplomacy every term was a Tab stop (102) with a title= tooltip that nothing but a
    mouse could open."""
    gloss = GLOSSARY["diplomacy"]
    page.goto(live_server + "/diplomacy?game=1&phase=F1905M")
    page.wait_for_selector("#eval-breakdown .term[data-gl]")
    page.wait_for_selector("#charts .term[data-gl]")
    counts = page.evaluate(
        "() => ['.term', '.term[tabindex=\"0\"]', '.term[title]']"
        ".map(s => document.querySelectorAll(s).length)"
    )
    assert counts[0] >= 40 and counts[1] <= 6 and counts[2] == 0, counts
    # the first Tab stop is the skip link; it takes focus past the navigation
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the content"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    # keyboard: Tab reaches the first term of a section and opens its definition, with the keys to use
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('term')"):
            break
    reached = page.evaluate("() => document.activeElement.dataset.gloss")
    assert reached == "phase"  # the phase bar's term, after the game controls
    page.wait_for_function(POP_SHOWS, arg=gloss["phase"])
    assert "Esc closes" in page.inner_text(POP)
    # the arrows move between a section's terms (one Tab stop for the section); Escape closes
    first = page.locator("#evaluation .term[tabindex='0']")
    key = first.get_attribute("data-gloss")
    first.focus()
    page.wait_for_function(POP_SHOWS, arg=gloss[key])
    page.keyboard.press("ArrowRight")
    after = page.evaluate("() => document.activeElement.dataset.gloss")
    assert after != key and page.evaluate("() => document.activeElement.getAttribute('tabindex')") == "0"
    page.wait_for_function(POP_SHOWS, arg=gloss[after])
    assert page.locator("#evaluation .term[tabindex='0']").count() == 1  # still one stop for the section
    page.keyboard.press("Escape")
    page.wait_for_function(POP_HIDDEN)
    # hover opens it too, and the definition is the glossary's
    page.hover('#charts .term[data-gloss="tempi"]')
    page.wait_for_function(POP_SHOWS, arg=gloss["tempi"])
    page.keyboard.press("Escape")
    page.wait_for_function(POP_HIDDEN)
    # every term is described by its entry in the page's definitions list
    described = page.locator(".term").evaluate_all(
        "es => es.map(e => [e.dataset.def,"
        " (document.getElementById(e.getAttribute('aria-describedby')) || {}).textContent])"
    )
    assert all(d == text for d, text in described), described[:3]
    page.focus('a.skip-link[href="#definitions"]')  # the second skip link opens the definitions list
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.tagName") == "SUMMARY"
    assert page.evaluate("() => document.getElementById('definitions').open")
    assert page.locator("#definitions dd").count() >= len(gloss)


def test_a_tap_opens_a_definition_and_a_tap_elsewhere_closes_it(browser: Any, live_server: str) -> None:
    """§4.1 on a phone: nothing opened on tap."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(live_server + "/?seed=5")
        term = page.locator('.term[data-gloss="energy"]').first
        term.tap()
        page.wait_for_function(POP_SHOWS, arg=GLOSSARY["catan"]["energy"])
        page.tap("h1")
        page.wait_for_function(POP_HIDDEN)
        # the Catan page's own terms (drawn by its script) get the same popover
        page.goto(live_server + "/catan")
        page.wait_for_selector('#energy tr[data-term="pip_variance"] td.term[data-gl]')
        page.locator('#energy tr[data-term="pip_variance"] td.term').tap()
        page.wait_for_function(POP_SHOWS, arg=GLOSSARY["catan"]["pip_variance"])
        # §4.4: no header word breaks across lines on a phone ("contrib/ution" did)
        assert page.evaluate(LINES_PER_HEADER, "#energy table.breakdown") == [1] * 5
        page.goto(live_server + "/?seed=5")
        assert page.evaluate(LINES_PER_HEADER, "section table.data") == [1] * 4
    finally:
        context.close()


def test_the_diplomacy_map_zooms_and_the_phase_slider_stays_in_reach_on_a_phone(
    browser: Any, live_server: str
) -> None:
    """§4.5: at 390 px the map was 340 x 252 px and the phase slider scrolled away from the charts."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(live_server + "/diplomacy?game=1&phase=F1905M")
        page.wait_for_function(
            "() => { const m = document.getElementById('board-map');"
            " return m.complete && m.naturalWidth > 0; }"
        )
        box = page.locator("#map-scroll").bounding_box()
        page.click("#map-zoom-in")
        page.click("#map-zoom-in")
        assert page.inner_text("#map-zoom-level") == "200%"
        img = page.locator("#board-map").bounding_box()
        assert img["width"] >= 1.9 * box["width"] and img["height"] >= 1.9 * 252
        assert page.evaluate(
            "() => { const b = document.getElementById('map-scroll'); return b.scrollWidth > b.clientWidth; }"
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # the page does not widen
        for button in ("#map-zoom-in", "#map-zoom-out", "#phase-prev", "#phase-next"):
            b = page.locator(button).bounding_box()
            assert b["width"] >= 24 and b["height"] >= 24, button
        # scroll to the last chart: the slider is still on screen, and moves the phase of the charts
        page.locator("#charts .chart").last.scroll_into_view_if_needed()
        chart = page.locator("#charts .chart").last.bounding_box()
        bar = page.locator("#phase").bounding_box()
        assert chart["y"] < 844 and chart["y"] + chart["height"] > 0
        assert bar["y"] >= 0 and bar["y"] + bar["height"] <= 844, bar
        page.click("#phase-next")
        page.wait_for_function("() => document.getElementById('phase-name').textContent === 'F1905R'")
        readout = page.locator("#charts .readout").last.inner_text()
        assert readout.startswith("F1905R")
    finally:
        context.close()


def test_the_error_page_has_a_skip_link_and_no_definitions(live_server: str) -> None:
    """The error page has the site's skip link and no definitions list (it has no terms)."""
    r = httpx.get(live_server + "/nope", headers={"accept": "text/html"}, timeout=HTTP_GUARD)
    assert r.status_code == 404 and 'class="skip-link"' in r.text and 'id="definitions"' not in r.text
