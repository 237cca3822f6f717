"""Screenshots for ``docs/web.md``: `/`, `/catan`, `/morris` and `/diplomacy` at 1400 and 390 px wide.

Usage: ``.venv/bin/python benchmarks/web_screenshots.py [--out docs/img] [--src DIR] [--url URL]``

Starts the app (as ``benchmarks/web_budget.py`` does: from this checkout, from ``--src DIR``, or uses
``--url``), opens every page in Debian's chromium at 1400 x 900 and at 390 x 844, waits until the page's
content is drawn (network idle, then the page's own marker element), and saves the top of the page
(at most ``MAX_HEIGHT`` px tall) as ``OUT/<name>-<width>.png``.  A PNG over 200 KB is re-saved with a
256-colour palette (Pillow), so that the docs stay small; the script prints each file's size and fails
(exit 1) if one is still over 200 KB.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _harness import CHROMIUM, CHROMIUM_ARGS, ROOT, add_server_options, app_server

LIMIT = 200 * 1024
PAGES = {
    "home": ("/?seed=7", "svg"),
    "catan": ("/catan", "svg"),
    # a game with the graph filled in and the hint's why-panel open (one sign convention, issue 23 §2)
    "morris": (
        "/morris?colour=both&moves=b4+d2+d6+f4+b6+e4+f6xf4+b2&why=8",
        "() => document.querySelector('#why .why-eval') !== null"
        " && document.querySelectorAll('#graph circle.ev').length === 9",
    ),
    "diplomacy": ("/diplomacy?game=1&phase=F1905M", "#eval-breakdown table"),
}
"""Name -> (path, a selector or a ``() => ...`` JavaScript condition that shows the page is drawn)."""
WIDTHS = {1400: 900, 390: 844}
MAX_HEIGHT = {1400: 2300, 390: 3200}


def shoot(base: str, out: Path) -> list[tuple[Path, int]]:
    """Take every screenshot; ``(file, bytes)`` for each."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    done = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for width, height in WIDTHS.items():
            for name, (path, marker) in PAGES.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.route(
                    "**/*",
                    lambda route: route.continue_() if route.request.url.startswith(base) else route.abort(),
                )
                page.set_default_timeout(60000)
                page.goto(base + path, wait_until="networkidle")
                if marker.startswith("() =>"):
                    page.wait_for_function(marker)
                else:
                    page.wait_for_selector(marker)
                page.wait_for_timeout(400)
                full = page.evaluate("() => document.documentElement.scrollHeight")
                clip = {"x": 0, "y": 0, "width": width, "height": min(full, MAX_HEIGHT[width])}
                file = out / f"{name}-{width}.png"
                page.screenshot(path=str(file), clip=clip, full_page=True)
                page.close()
                if file.stat().st_size > LIMIT:
                    with Image.open(file) as img:
                        img.convert("RGB").quantize(colors=256).save(file, optimize=True)
                done.append((file, file.stat().st_size))
        browser.close()
    return done


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"))
    add_server_options(parser)
    args = parser.parse_args()
    with app_server(args.src, args.url) as base:
        done = shoot(base, Path(args.out))
    over = False
    for file, size in done:
        flag = "" if size <= LIMIT else "  OVER 200 KB"
        over = over or size > LIMIT
        print(f"{file}: {size / 1024:.0f} KB{flag}")
    raise SystemExit(1 if over else 0)


if __name__ == "__main__":
    main()
