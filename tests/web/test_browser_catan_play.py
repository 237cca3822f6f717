"""Real-browser test of the "Play-test this board" panel on /catan (issue 11 section 6): a seeded play-test
shows the library's win rates with intervals and game length, draws the advisor's picks on the board,
Cancel keeps the finished games flagged, and the overlay leaves with the board it was played on."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from boardeval.catan import Board, advise, run_playtest
from tests.web.helpers import GUARD_MS, screenshot

pytestmark = pytest.mark.browser
BOARD = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"
LINEUP = ["advisor", "pips", "pips", "pips"]
SLOW = GUARD_MS  # a hang guard: games on a loaded 2-core machine can take a while; a pass is a few seconds


def _clean(page: Any) -> None:
    assert page.outside_requests == [], f"page requested outside the app: {page.outside_requests}"
    assert page.console_errors == [], f"JavaScript errors: {page.console_errors}"


def _run(page: Any, games: int, seed: int) -> None:
    for seat, name in enumerate(LINEUP, start=1):
        page.select_option(f"#pt-seat-{seat}", name)
    page.fill("#pt-games", str(games))
    page.fill("#pt-seed", str(seed))
    page.click("#pt-run")


def test_playtest_panel_shows_rates_picks_and_cancel(page: Any, live_server: str) -> None:
    page.goto(live_server + "/catan?board=" + BOARD)
    page.wait_for_selector("#board svg .spot")
    _run(page, games=3, seed=2)
    page.wait_for_function(
        "() => document.getElementById('pt-info').textContent.includes('games/s')", timeout=SLOW
    )
    expected = run_playtest(Board.parse(BOARD), LINEUP, games=3, seed=2, rotate=True)
    rows = page.locator("#pt-players tbody tr").all_inner_texts()
    assert len(rows) == 4 and rows[0].startswith("advisor")
    # issue 23: each player's row names the seat it is listed in, and the count was said before the run
    assert [r.split("\t")[0] for r in rows] == [f"{n} (listed seat {k})" for k, n in enumerate(LINEUP, 1)]
    for row, stats in zip(rows, expected.players, strict=True):
        cells = row.split("\t")
        assert cells[1:4] == [str(stats.games), str(stats.wins), f"{100 * stats.rate.value:.1f}%"]
        assert cells[4] == f"{100 * stats.rate.lo:.1f}%–{100 * stats.rate.hi:.1f}%"
    assert page.locator("#pt-seats tbody tr").count() == 4
    assert page.locator("#pt-players svg[aria-label^='95% interval']").count() == 4
    turns = page.inner_text("#pt-turns")
    mean = re.search(r"mean ([\d.]+) turns \(95% ([\d.]+)–([\d.]+)\)", turns)
    assert mean is not None, turns
    assert float(mean.group(1)) == pytest.approx(expected.turns["mean"], abs=0.051)
    # the advisor's picks: one ring per distinct spot it settled, sized by count; "A" on advise()'s spot
    picks = Counter(
        s for r in expected.records for seat, o in enumerate(r.openings) if r.seating[seat] == 0 for s in o
    )
    rings = page.locator("#board #pt-overlay circle.advisor-pick")
    assert rings.count() == len(picks)
    shown = {
        int(rings.nth(i).get_attribute("data-pick")): int(rings.nth(i).get_attribute("data-count"))
        for i in range(rings.count())
    }
    assert shown == dict(picks)
    first = advise(Board.parse(BOARD)).spot
    marker = page.locator("#advice-marker")
    assert marker.text_content() == "A"
    dot = page.locator(f'#board g.spot[data-spot="{first}"] circle.spot-dot')
    assert float(marker.get_attribute("x") or 0) == pytest.approx(float(dot.get_attribute("cx") or 0) + 9)
    assert f"({Board.parse(BOARD).spot_name(first)})" in page.inner_text("#pt-picks")  # named, as everywhere
    screenshot(page, "catan-playtest.png")

    # cancel: the finished games stay, flagged
    _run(page, games=500, seed=3)
    page.wait_for_function(
        "() => /^[1-9]\\d* of 2000 games/.test(document.getElementById('pt-info').textContent)",
        timeout=SLOW,
    )
    page.click("#pt-cancel")
    page.wait_for_function(
        "() => document.getElementById('pt-info').textContent.includes('stopped early')", timeout=SLOW
    )
    m = re.search(r"stopped early: (\d+) of 2000 games kept", page.inner_text("#pt-info"))
    assert m is not None and 1 <= int(m.group(1)) < 2000
    games = sum(int(r.split("\t")[1]) for r in page.locator("#pt-seats tbody tr").all_inner_texts())
    assert games == 4 * int(m.group(1))  # every game has 4 seats
    assert not page.is_disabled("#pt-run") and page.is_hidden("#pt-cancel")

    # another board: the overlay belongs to the board it was played on and goes
    page.select_option("#method", "random")
    page.click("#new-board")
    page.wait_for_function("c => document.getElementById('code').textContent !== c", arg=BOARD)
    assert page.locator("#board #pt-overlay").count() == 0
    _clean(page)
