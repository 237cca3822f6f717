"""The glossary: one definition per term for all three games, served at /api/glossary, the source of the
Morris page's tooltips and of docs/glossary.md."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from boardeval.morris import FEATURES
from boardeval.web.glossary import GLOSSARY, markdown

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "boardeval" / "web"

# The terms issue 15 asks to define where they are shown.
ISSUE_TERMS = {
    "catan": ["scarcity_production", "prime_variate", "parity", "energy", "pip_variance"],
    "morris": ["score"],
    "diplomacy": ["cohesion", "tempi", "neighbour_effect", "stab_potential", "progress"],
}


def test_api_serves_every_game(client: TestClient) -> None:
    body = client.get("/api/glossary").json()
    assert body == GLOSSARY
    assert client.get("/api/glossary", params={"game": "morris"}).json() == {"morris": GLOSSARY["morris"]}
    r = client.get("/api/glossary", params={"game": "chess"})
    assert r.status_code == 422 and "chess" in r.json()["detail"]


def test_the_issue_terms_are_defined() -> None:
    for game, terms in ISSUE_TERMS.items():
        for term in terms:
            assert len(GLOSSARY[game][term]) > 20, (game, term)
    score = GLOSSARY["morris"]["score"]
    assert "positive" in score and "White's view" in score and "points" in score  # sign and unit
    assert "in words" in score  # a decided line is never a number (issue 23 §2)
    assert "1, 2, 3" in GLOSSARY["diplomacy"]["cohesion"]
    assert "100 ×" in GLOSSARY["catan"]["energy"]  # its terms and scale


def test_every_morris_term_on_the_page_is_defined() -> None:
    """Terms the template and the page script mark, and every feature row of the why-panel."""
    shown = set(re.findall(r'term\("([^"]+)"', (WEB / "templates" / "morris.html").read_text()))
    shown |= set(re.findall(r'data-gloss="([^"{]+)"', (WEB / "templates" / "morris.html").read_text()))
    script = "".join((WEB / "static" / name).read_text() for name in ("morris.js", "morris_why.js"))
    shown |= set(re.findall(r'term\("([^"]+)"', script))
    shown |= {"not scored", "not a factor here"}  # the row tags, built from a variable
    shown |= set(FEATURES)
    assert {"score", "phase", "strength", "evaluation graph"} <= shown
    missing = sorted(t for t in shown if t not in GLOSSARY["morris"])
    assert not missing, f"shown on /morris but not in the glossary: {missing}"


def test_docs_page_is_generated_from_the_module() -> None:
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == markdown(), (
        "docs/glossary.md is stale: python -m boardeval.web.glossary > docs/glossary.md"
    )
