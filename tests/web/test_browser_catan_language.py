"""Real-browser tests of /catan for issue 23 section 1, "one board language": each test reproduces one of
the issue's defects (they fail on the page as it was) and checks what a player should see instead.

1. spots named by what they touch, ids on demand and drawn when asked, harbours numbered when named;
2. the info line tells the board's own story and "Generate with this seed" makes the board shown again;
3. one fairness dial whose ends mean the same for every method;
4. a harbours control and rule presets; 5. tournament defaults said before the run;
6. the play-test says how many games it plays and refuses a 5-6 player board with the reason;
7. one precision per quantity; the Board select acts at once and clears an old error;
and on a 390 px phone: 24 px touch targets and table headers that never break inside a word.
No page may request anything outside the app.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from boardeval.catan import Board, generate, optimum
from tests.web.helpers import GUARD_MS, HTTP_GUARD, screenshot

pytestmark = pytest.mark.browser
SPEC = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
IDLE = "() => !document.getElementById('generate').disabled"
SHOWS_CODE = "code => document.getElementById('code').textContent === code"


def _clean(page: Any) -> None:
    assert page.outside_requests == [], f"page requested outside the app: {page.outside_requests}"
    assert page.console_errors == [], f"JavaScript errors: {page.console_errors}"


def _generate(page: Any, button: str = "#generate") -> str:
    """Run the generator from the form and wait until its board is shown; the info line."""
    page.evaluate("() => { document.getElementById('gen-info').textContent = ''; }")
    page.click(button)
    page.wait_for_function(
        IDLE + " && /seed \\d+/.test(document.getElementById('gen-info').textContent)", timeout=GUARD_MS
    )
    return str(page.inner_text("#gen-info"))


def _swap(page: Any, kind: str, a: int, b: int) -> None:
    """Swap two hexes or harbours with the keyboard (focus, Enter), and wait for the new board."""
    key = "port" if kind == "ports" else "hex"
    before = page.inner_text("#code")
    page.check(f'input[name="edit"][value="{kind}"]')
    page.wait_for_selector(f'#board g[data-{key}="{a}"][role="button"]')  # the editor is loaded on first use
    page.focus(f'#board g[data-{key}="{a}"]')
    page.keyboard.press("Enter")
    page.focus(f'#board g[data-{key}="{b}"]')
    page.keyboard.press("Enter")
    page.wait_for_function("c => document.getElementById('code').textContent !== c", arg=before)


def test_spots_named_by_what_they_touch_ids_on_demand(page: Any, live_server: str) -> None:
    """Defect 1.1: spot ids were never drawn although the text said "Spot 13", "hexes 2, 5, 6" and "ports
    1↔8". Now a spot reads "ore 10 · grain 12 · brick 6"; ids appear (text and board) only when asked;
    harbour numbers appear when an edit or a rule names harbours."""
    view = httpx.get(live_server + "/api/catan/board", params={"board": SPEC}, timeout=HTTP_GUARD).json()
    names = {s["spot"]: s["name"] for s in view["spots"]}
    assert names[9] == Board.parse(SPEC).spot_name(9) == "ore 10 · grain 12 · brick 6"
    page.goto(live_server + "/catan?board=" + SPEC)
    page.wait_for_selector("#board svg .spot")
    top = sorted(view["spots"], key=lambda s: s["rank"])[:6]
    cells = page.locator("#top-spots tbody tr td:nth-child(2)").all_inner_texts()
    assert cells == [s["name"] for s in top]
    assert "hexes" not in page.inner_text("#top-spots") and "hexes" not in page.inner_text("#spot")
    best = top[0]["spot"]
    assert page.inner_text("#spot-name") == names[best]
    assert not page.is_visible("#spot-id") and page.locator("#catan-ids").count() == 0
    # ids on demand: written beside the names and drawn on the board
    page.check("#show-ids")
    page.wait_for_selector("#catan-ids text.catan-spot-id")  # drawn by catan_edit.js, loaded now
    assert page.is_visible("#spot-id") and page.inner_text("#spot-id") == f"spot {best}"
    assert page.locator("#catan-ids text.catan-spot-id").count() == 54
    assert page.locator("#catan-ids text.catan-hex-id").count() == 19
    assert page.locator("#catan-ids text.catan-port-id").count() == 9
    spot9 = page.locator('#catan-ids text.catan-spot-id:text-is("9")')
    dot9 = page.locator('#board g.spot[data-spot="9"] circle.spot-dot')
    assert float(spot9.get_attribute("x") or 0) == pytest.approx(float(dot9.get_attribute("cx") or 0))
    page.uncheck("#show-ids")
    page.wait_for_selector("#catan-ids", state="detached")
    # a rule that names harbours numbers them
    page.fill("#rules", "no-port-own-resource")
    page.wait_for_selector("#catan-ids text.catan-port-id")
    assert page.locator("#catan-ids text.catan-port-id").count() == 9
    assert page.locator("#catan-ids text.catan-spot-id").count() == 0
    page.fill("#rules", "")
    page.wait_for_selector("#catan-ids", state="detached")
    # swapping harbours: they are numbered while the edit mode is on and after the swap
    _swap(page, "ports", 0, 1)
    assert Board.parse(page.inner_text("#code")) == Board.parse(SPEC).with_swapped("ports", 0, 1)
    assert page.locator("#catan-ids text.catan-port-id").count() == 9
    assert "edited by hand (1 swap)" in page.inner_text("#gen-info")
    _clean(page)


def test_info_line_is_the_boards_own_and_the_seed_remakes_it(page: Any, live_server: str) -> None:
    """Defect 1.2: the first board was random while Method said anneal, "Generate with this seed" made a
    different board, and an edited board still claimed "proven optimal". Now the form says what made the
    first board, the same seed makes it again, and edits are said (and undone edits unsaid)."""
    page.goto(live_server + "/catan")
    page.wait_for_function(IDLE + " && /seed \\d+/.test(document.getElementById('gen-info').textContent)")
    info = page.inner_text("#gen-info")
    method, seed = page.input_value("#method"), page.input_value("#seed")
    assert method == "random" and info.startswith(f"random, seed {seed}"), info
    first = page.inner_text("#code")
    assert _generate(page).startswith(f"random, seed {seed}")
    assert page.inner_text("#code") == first == generate("random", int(seed)).board.code()
    # an annealed board: its seed makes it again too, and it is proven optimal
    page.select_option("#method", "anneal")
    assert "proven optimal" in _generate(page, "#new-board")
    seed, first = page.input_value("#seed"), page.inner_text("#code")
    assert _generate(page).startswith(f"anneal, seed {seed}") and page.inner_text("#code") == first
    assert first == generate("anneal", int(seed), fairness=1.0, ports="balanced").board.code()
    # edits: said, the generator's claim dropped, the seed box emptied; undoing them restores all three
    _swap(page, "hexes", 0, 4)
    info = page.inner_text("#gen-info")
    assert "edited by hand (1 swap)" in info and "proven optimal" not in info
    assert page.input_value("#seed") == "" and "edited by hand" in page.inner_text("#seed-note")
    _swap(page, "hexes", 5, 6)
    assert "edited by hand (2 swaps)" in page.inner_text("#gen-info")
    _swap(page, "hexes", 5, 6)
    _swap(page, "hexes", 0, 4)
    info = page.inner_text("#gen-info")
    assert page.inner_text("#code") == first and "edited" not in info and "proven optimal" in info
    assert page.input_value("#seed") == seed
    _clean(page)


def test_fairness_dial_means_the_same_for_every_method(page: Any, live_server: str) -> None:
    """Defect 1.3: the dial sat at 1 while it read "off", a checkbox switched it on, and "off" meant the
    optimum under anneal but a 553 board under cp. Now there is one dial: 0 = no balancing beyond the
    rules, 1 = the fairest board, for anneal and cp alike; random and tournament say why it stays at 0."""
    assert page.goto(live_server + "/catan?board=" + SPEC) is not None
    page.wait_for_selector("#board svg .spot")
    assert page.locator("#use-fairness").count() == 0
    best = optimum(()).energy
    for method in ("anneal", "cp"):
        page.select_option("#method", method)
        page.locator("#fairness").fill("1")
        assert page.inner_text("#fairness-value") == "1"
        assert "the fairest board" in page.inner_text("#fairness-says")
        page.fill("#seed", "8")
        info = _generate(page)
        assert "fairness 1" in info and "proven optimal" in info, info
        assert float(page.inner_text("#energy-total")) == pytest.approx(best, abs=0.005)
        page.locator("#fairness").fill("0")
        assert "no balancing beyond the rules" in page.inner_text("#fairness-says")
        info = _generate(page)
        assert "fairness 0" in info and float(page.inner_text("#energy-total")) > 100, (method, info)
    page.locator("#fairness").fill("0.5")
    assert page.input_value("#fairness") == "1"  # cp: 0 or 1 only (the step is 1)
    for method, why in (("random", "never balanced"), ("tournament", "repairs only")):
        page.select_option("#method", method)
        assert page.is_disabled("#fairness") and page.input_value("#fairness") == "0"
        assert why in page.inner_text("#fairness-says")
    _clean(page)


def test_harbours_control_presets_and_tournament_defaults(page: Any, live_server: str) -> None:
    """Defects 1.4 and 1.5: no harbours control (every generator has --ports), rule names had to be typed,
    and tournament added rules silently. Now the harbours select follows the method's default until the
    player picks, presets fill the Rules box, and the tournament defaults are stated before the run."""
    page.goto(live_server + "/catan?board=" + SPEC)
    page.wait_for_selector("#board svg .spot")
    assert page.locator("#ports option").all_inner_texts() == ["random", "fixed", "balanced"]
    assert page.input_value("#ports") == "balanced"
    page.select_option("#method", "random")
    assert page.input_value("#ports") == "fixed"
    page.select_option("#ports", "random")
    page.fill("#seed", "5")
    info = _generate(page)
    assert "harbours random" in info
    assert page.inner_text("#code") == generate("random", 5, ports="random").board.code()
    link = page.get_attribute("#share-link", "href") or ""
    assert parse_qs(urlparse(link).query)["ports"] == ["random"]
    page.goto(live_server + link)
    page.wait_for_selector("#board svg .spot")
    assert page.input_value("#ports") == "random" and "harbours random" in page.inner_text("#gen-info")
    # presets fill the Rules box; typing makes it custom
    page.select_option("#preset", "no-hot-spots")
    assert page.input_value("#rules") == "no-68-neighbours, max-spot-pips=12, 2-12-apart"
    page.fill("#rules", "no-68-neighbours")
    assert page.input_value("#preset") == "custom"
    # tournament with an empty Rules box: its defaults are said before the run, and after it
    page.fill("#rules", "")
    page.select_option("#method", "tournament")
    assert "tournament repairs its defaults, max-spot-pips=12 and max-cluster=2" in page.inner_text(
        "#rules-note"
    )
    page.fill("#seed", "2")
    info = _generate(page)
    assert "tournament defaults: max-spot-pips=12 ✓, max-cluster=2 ✓" in info, info
    _clean(page)


def test_playtest_count_seats_and_board_select(page: Any, live_server: str) -> None:
    """Defects 1.6 and 1.7b: Games = 200 ran 800 games (only a tooltip said so), the button stayed enabled
    on a 5-6 player board and failed with a 422; changing the Board select did nothing and kept an old
    error. Now the count is stated, the button is off with the reason, and the select acts at once."""
    page.goto(live_server + "/catan?board=" + SPEC)
    page.wait_for_selector("#board svg .spot")
    page.fill("#pt-games", "200")
    assert page.inner_text("#pt-count").startswith("Plays 800 games: 200 games × 4 seatings")
    assert page.inner_text("#pt-games-label") == "Games per seating" and not page.is_disabled("#pt-run")
    page.uncheck("#pt-rotate")
    assert page.inner_text("#pt-count").startswith("Plays 200 games")
    assert page.inner_text("#pt-games-label") == "Games"
    page.check("#pt-rotate")
    page.fill("#pt-games", "600")
    assert "at most 2000" in page.inner_text("#pt-count") and page.is_disabled("#pt-run")
    page.fill("#pt-games", "25")
    # an old error on screen, then the Board select: a 5-6 player board at once, the error gone
    page.fill("#rules", "max-spot-pips=x")
    page.click("#generate")
    page.wait_for_function("() => document.getElementById('gen-info').textContent.includes('max-spot-pips')")
    assert page.is_visible("#toast")
    page.fill("#rules", "")
    page.select_option("#layout", "extended")
    page.wait_for_function(IDLE + " && /5-6 players/.test(document.getElementById('gen-info').textContent)")
    assert page.locator("#board svg g.spot").count() == 80 and not page.is_visible("#toast")
    assert "max-spot-pips" not in page.inner_text("#gen-info")
    assert page.is_disabled("#pt-run") and "base board" in page.inner_text("#pt-count")
    page.select_option("#layout", "base")
    page.wait_for_function(IDLE + " && document.querySelectorAll('#board svg g.spot').length === 54")
    assert not page.is_disabled("#pt-run")
    # a broken link's error card goes too when the select draws a board
    page.goto(live_server + "/catan?board=W4-B3")
    page.wait_for_function(IDLE + " && document.querySelectorAll('#board svg g.spot').length === 54")
    assert page.is_visible("#page-error")
    page.select_option("#layout", "extended")
    page.wait_for_function(IDLE + " && document.querySelectorAll('#board svg g.spot').length === 80")
    assert not page.is_visible("#page-error")
    _clean(page)


def test_one_precision_per_quantity(page: Any, live_server: str) -> None:
    """Defect 1.7a: the energy header said 0.0 beside a table total of 0.02, a spot's header 22.512 beside
    22.51. Now every place shows a quantity with the same digits (the server's DISPLAY_DIGITS)."""
    board = generate("anneal", 1).board  # a proven optimum: energy 0.02
    page.goto(live_server + "/catan?board=" + board.code())
    page.wait_for_selector("#board svg .spot")
    total = page.locator("#energy table.breakdown tr.total td.num").inner_text()
    assert page.inner_text("#energy-total") == total == "0.02"
    best = page.locator("#top-spots tbody tr").first
    spot = int(best.get_attribute("data-spot-row") or -1)
    page.click(f'#board g.spot[data-spot="{spot}"]')
    score = page.locator("#spot table.breakdown tr.total td.num").inner_text()
    assert re.fullmatch(r"\d+\.\d\d", score), score
    assert page.locator("#spot p b.num").inner_text() == score
    assert best.locator("td.num").last.inner_text() == score
    label = page.get_attribute(f'#board g.spot[data-spot="{spot}"]', "aria-label") or ""
    assert f"score {score}" in label
    _clean(page)


@pytest.mark.parametrize("layout", ["base", "extended"])
def test_phone_touch_targets_and_headers(page: Any, live_server: str, layout: str) -> None:
    """At 390 px: spots were 9.5 px targets and "contribution" broke mid-word in a table header. Now every
    spot (and harbour in the harbour edit mode) is a target of at least 24 x 24 CSS px, targets do not
    overlap, controls are 24 px tall, and no header breaks inside a word."""
    page.set_viewport_size({"width": 390, "height": 844})  # the shared tab: reset after the test
    page.goto(live_server + "/catan?board=" + Board.random(3, layout=layout).code())
    page.wait_for_selector("#spot table.breakdown")
    sizes = page.locator("#board g.spot").evaluate_all(
        "gs => gs.map(g => { const r = g.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert len(sizes) == (54 if layout == "base" else 80)
    assert min(min(w, h) for w, h in sizes) >= 24, min(sizes)
    overlap = page.evaluate(
        """() => {
             const c = [...document.querySelectorAll('#board circle.spot-hit')].map(e => {
               const r = e.getBoundingClientRect();
               return [r.x + r.width / 2, r.y + r.height / 2, r.width / 2]; });
             let worst = Infinity;
             for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) {
               const d = Math.hypot(c[i][0] - c[j][0], c[i][1] - c[j][1]);
               worst = Math.min(worst, d - c[i][2] - c[j][2]);
             }
             return worst; }"""
    )
    assert overlap > -0.5
    page.check('input[name="edit"][value="ports"]')
    ports = page.locator("#board circle.port-hit").evaluate_all(
        "cs => cs.map(c => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height))"
    )
    assert min(ports) >= 24
    small = page.evaluate(
        """() => [...document.querySelectorAll(
               'main button, main select, main input[type=text], main input[type=number], main a.button, '
               + 'main label.inline, #top-spots tbody tr')]
             .filter(e => e.offsetParent !== null)
             .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect().height])
             .filter(([, h]) => h < 24)"""
    )
    assert small == [], small
    broken = page.evaluate(
        """() => [...document.querySelectorAll('main table th')].flatMap(th => {
             const out = [];
             const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
             for (let n = walk.nextNode(); n; n = walk.nextNode()) {
               const re = /\\S+/g; let m;
               while ((m = re.exec(n.textContent))) {
                 const range = document.createRange();
                 range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
                 const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                 if (tops.size > 1) out.push(m[0]);
               }
             }
             return out; })"""
    )
    assert broken == [], f"words broken inside a header: {broken}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, f"catan-phone-{layout}.png")
