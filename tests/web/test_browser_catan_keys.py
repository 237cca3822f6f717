"""Real-browser tests of /catan with the keyboard (issue 23 §4.2 as it applies to the Catan page): every board
spot was a Tab stop (54, 80 on the 5-6 player board), so reaching "Play-test" took ~93 Tab presses. Now the
board is one Tab stop whose arrow keys move between its spots (or the hexes and harbours being edited), and a
skip link leads to the play-test."""

from __future__ import annotations

from typing import Any

import pytest

from boardeval.catan import Board

pytestmark = pytest.mark.browser
SPEC = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
GUARD = 300  # Tab presses before a walk gives up: a bound on a loop, not a verdict
FOCUSED = """() => { const e = document.activeElement;
  const item = e.closest && e.closest('#board g[data-spot], #board g[data-hex], #board g[data-port]');
  return { id: e.id, board: item ? item.outerHTML.slice(0, 40) : null, row: e.dataset.spotRow || null }; }"""
CENTRE = """e => { const r = (e.querySelector('circle.spot-dot, polygon') || e).getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2]; }"""
ACTIVE_SPOT = "() => document.activeElement.getAttribute('data-spot')"
MOVED = "s => document.activeElement.getAttribute('data-spot') !== s"  # the moves load on first use


def _tab_to(page: Any, target: str) -> list[dict[str, Any]]:
    """Press Tab from where focus is until ``#target`` has it; what each press focused."""
    seen: list[dict[str, Any]] = []
    for _ in range(GUARD):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUSED))
        if seen[-1]["id"] == target:
            return seen
    raise AssertionError(f"#{target} not reached in {GUARD} Tab presses: {seen[-5:]}")


@pytest.mark.parametrize("layout", ["base", "extended"])
def test_the_board_is_one_tab_stop_and_a_skip_link_reaches_the_playtest(
    page: Any, live_server: str, layout: str
) -> None:
    page.goto(live_server + "/catan?board=" + Board.random(3, layout=layout).code())
    page.wait_for_selector("#spot table.breakdown")
    seen = _tab_to(page, "pt-games")  # the play-test's games box (Play-test is off on a 5-6 player board)
    stops = [s["board"] for s in seen if s["board"]]
    assert len(stops) == 1, stops  # was 54 (80)
    assert len([s for s in seen if s["row"]]) == 1  # the best spots table: one stop too (was 6)
    assert len(seen) <= 50, len(seen)  # 97 presses to Play-test before (44 after)
    assert page.locator('#board g.spot[tabindex="0"]').count() == 1
    # the skip link: from the top of the page, a few presses reach the play-test
    page.goto(live_server + "/catan?board=" + Board.random(3, layout=layout).code())
    page.wait_for_selector("#spot table.breakdown")
    seen = _tab_to(page, "skip-playtest")
    assert len(seen) <= 3
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "playtest-card"
    seen = _tab_to(page, "pt-games")
    assert len(seen) <= 6 and not any(s["board"] for s in seen)
    assert page.console_errors == []


def test_arrow_keys_move_between_spots_and_enter_selects(page: Any, live_server: str) -> None:
    """Inside the board each arrow moves to the nearest spot within 45° of its direction; Enter keeps a spot
    selected; Tab leaves the board and Shift+Tab comes back to the spot last used."""
    page.goto(live_server + "/catan?board=" + SPEC)
    page.wait_for_selector("#spot table.breakdown")
    centres = {
        int(k): v
        for k, v in page.evaluate(
            f"() => [...document.querySelectorAll('#board g.spot')].map(e => [e.dataset.spot, ({CENTRE})(e)])"
        )
    }
    page.focus('#board g.spot[tabindex="0"]')
    page.keyboard.press("Home")
    page.wait_for_function("() => document.activeElement.getAttribute('data-spot') === '0'")
    moves = {"ArrowRight": (0, 1), "ArrowDown": (1, 1), "ArrowLeft": (0, -1), "ArrowUp": (1, -1)}
    visited = {0}
    for key in ["ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight"]:
        axis, sign = moves[key]
        here = int(page.evaluate(ACTIVE_SPOT))
        a = centres[here]

        def ahead(s: int, a: list[float] = a, axis: int = axis, sign: int = sign) -> tuple[float, float]:
            b = centres[s]
            return sign * (b[axis] - a[axis]), abs(b[1 - axis] - a[1 - axis])

        cone = [s for s in centres if s != here and ahead(s)[0] > 0.5 and ahead(s)[1] <= ahead(s)[0]]
        page.keyboard.press(key)
        page.wait_for_function(MOVED, arg=str(here))
        there = int(page.evaluate(ACTIVE_SPOT))
        assert cone, (key, here)  # the walk above stays inside the board
        nearest = min(cone, key=lambda s: sum(x * x for x in ahead(s)))
        assert there == nearest, (key, here, there, nearest)
        visited.add(there)
        # the focused spot is the board's one stop, and the panel previews it
        assert page.locator('#board [tabindex="0"]').count() == 1
        assert page.evaluate("() => document.activeElement.getAttribute('tabindex')") == "0"
        assert page.get_attribute("#spot-card", "data-spot") == str(there)
    assert len(visited) >= 6, visited
    page.keyboard.press("End")
    page.wait_for_function("() => document.activeElement.getAttribute('data-spot') === '53'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(MOVED, arg="53")
    here = page.evaluate(ACTIVE_SPOT)
    page.keyboard.press("Enter")
    assert (
        "selected" in page.inner_text("#spot-rank") and page.get_attribute("#spot-card", "data-spot") == here
    )
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE_SPOT) is None
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(ACTIVE_SPOT) == here
    # the best spots table: one stop, the arrows between its rows, Enter selects the row's spot
    rows = page.locator("#top-spots tbody tr").evaluate_all("rs => rs.map(r => r.dataset.spotRow)")
    page.focus('#top-spots tr[tabindex="0"]')
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.dataset.spotRow") == rows[1]
    assert page.locator('#top-spots tr[tabindex="0"]').count() == 1
    page.keyboard.press("Enter")
    assert page.get_attribute("#spot-card", "data-spot") == rows[1]
    assert page.console_errors == []


def test_editing_keeps_the_board_one_stop_and_swaps_by_keyboard(page: Any, live_server: str) -> None:
    """In an edit mode the hexes (or harbours) are the board's one stop; arrows and Enter swap two of them,
    and focus stays on the board after the swap."""
    page.goto(live_server + "/catan?board=" + SPEC)
    page.wait_for_selector("#spot table.breakdown")
    page.check('input[name="edit"][value="hexes"]')
    page.wait_for_selector('#board g.hex[role="button"][tabindex="0"]')  # the editor, loaded on first use
    assert page.locator("#board [tabindex='0']").count() == 1
    assert page.locator('#board g.spot[tabindex="0"]').count() == 0
    page.focus('#board g.hex[tabindex="0"]')
    page.keyboard.press("Home")
    page.wait_for_function("() => document.activeElement.getAttribute('data-hex') === '0'")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")  # the next hex of the top row
    page.wait_for_function("() => document.activeElement.getAttribute('data-hex') === '1'")
    page.keyboard.press("Enter")
    page.wait_for_function("c => document.getElementById('code').textContent !== c", arg=SPEC)
    assert Board.parse(page.inner_text("#code")) == Board.parse(SPEC).with_swapped("hexes", 0, 1)
    page.wait_for_function("() => document.activeElement.getAttribute('data-hex') === '1'")
    assert page.locator("#board [tabindex='0']").count() == 1
    # harbours: the same, one stop
    page.check('input[name="edit"][value="ports"]')
    page.wait_for_selector('#board g.port[role="button"][tabindex="0"]')
    assert page.locator("#board [tabindex='0']").count() == 1
    page.check('input[name="edit"][value="none"]')
    page.wait_for_selector('#board g.spot[tabindex="0"]')
    assert page.locator("#board [tabindex='0']").count() == 1
    assert page.console_errors == []
