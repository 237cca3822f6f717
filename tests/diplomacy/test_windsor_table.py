"""Our static fear table against the published one (Windsor 1999, as reprinted by Tuft 2000).

37 of the 42 off-diagonal cells agree exactly. The five that differ are listed in the golden file; this
test fails if any other cell moves away from the published value, or if a listed cell changes.
"""

from __future__ import annotations

import json
from pathlib import Path

from boardeval.diplomacy import static_fear


def test_static_fear_matches_published_table(data_dir: Path) -> None:
    golden = json.loads((data_dir / "diplomacy_windsor_fear.json").read_text())
    powers = golden["powers"]
    ours = static_fear("standard")
    known = {(r, c): (pub, mine) for r, c, pub, mine in golden["known_differences"]["cells"]}
    agree = 0
    for i, row in enumerate(powers):
        for j, col in enumerate(powers):
            published = golden["table"][i][j]
            if published is None:
                continue
            if (row, col) in known:
                pub, mine = known[(row, col)]
                assert published == pub
                assert ours[i, j] == mine, f"{row} fears {col}: expected our documented {mine}"
            else:
                assert ours[i, j] == published, f"{row} fears {col}: ours {ours[i, j]}, published {published}"
                agree += 1
    assert agree == 37
