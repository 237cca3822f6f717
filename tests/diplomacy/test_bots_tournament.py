"""Bot tournaments: rotation, the summary, same games on any back end, Ctrl-C, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from diplomacy.utils.export import load_saved_games_from_disk

from boardeval.core import DiplomacyError
from boardeval.diplomacy.bots import UnknownBotError, UnsupportedMapError
from boardeval.diplomacy.records import load_records
from boardeval.diplomacy.tournament import TournamentError, TournamentResult, run_tournament

BOTS = "dumb,random*6"


@pytest.fixture(scope="module")
def serial() -> TournamentResult:
    return run_tournament(BOTS, 3, 5, max_year=1902)


def _fingerprint(result: TournamentResult) -> list[object]:
    return [(g.index, g.seed, g.seats, g.final_scs, g.saved) for g in result.games]


def test_seats_rotate_across_powers(serial: TournamentResult) -> None:
    assert [g.seats.index("dumb") for g in serial.games] == [0, 1, 2]
    assert len({g.seed for g in serial.games}) == 3


def test_summary_counts_every_seat(serial: TournamentResult) -> None:
    data = serial.to_json()
    assert list(data) == ["games", "bots"]
    assert data["games"] == 3
    assert [b["name"] for b in data["bots"]] == ["dumb", "random"]
    for row in data["bots"]:
        assert list(row) == ["name", "seats", "mean_final_scs", "ci95", "solos", "survivals"]
        lo, hi = row["ci95"]
        assert lo <= row["mean_final_scs"] <= hi
        assert 0 <= row["survivals"] <= row["seats"]
    assert [b["seats"] for b in data["bots"]] == [3, 18]
    dumb_scs = [g.final_scs[g.seats.index("dumb")] for g in serial.games]
    assert data["bots"][0]["mean_final_scs"] == pytest.approx(sum(dumb_scs) / 3)
    assert sum(b["mean_final_scs"] * b["seats"] for b in data["bots"]) == pytest.approx(
        sum(sum(g.final_scs) for g in serial.games)
    )


def test_same_seed_same_json_twice(serial: TournamentResult) -> None:
    again = run_tournament(BOTS, 3, 5, max_year=1902)
    assert json.dumps(again.to_json()) == json.dumps(serial.to_json())
    assert _fingerprint(again) == _fingerprint(serial)
    other = run_tournament(BOTS, 3, 6, max_year=1902)
    assert _fingerprint(other) != _fingerprint(serial)


def test_two_workers_play_the_same_games(serial: TournamentResult) -> None:
    pooled = run_tournament(BOTS, 3, 5, max_year=1902, workers=2)
    assert _fingerprint(pooled) == _fingerprint(serial)
    assert pooled.to_json() == serial.to_json()


def test_dask_plays_the_same_games(serial: TournamentResult) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        on_dask = run_tournament(BOTS, 3, 5, max_year=1902, address=c.scheduler_address)
    assert _fingerprint(on_dask) == _fingerprint(serial)


def test_ctrl_c_keeps_the_finished_games(serial: TournamentResult) -> None:
    def stop_after_two(done: int, total: int, message: str) -> None:
        if done == 2:
            raise KeyboardInterrupt

    cut = run_tournament(BOTS, 3, 5, max_year=1902, progress=stop_after_two)
    assert cut.interrupted and cut.requested == 3
    assert _fingerprint(cut) == _fingerprint(serial)[:2]
    assert cut.to_json()["games"] == 2


def test_saved_folder_replays(serial: TournamentResult, tmp_path: Path) -> None:
    folder = serial.save(tmp_path / "t")
    games = load_saved_games_from_disk(str(folder / "games.jsonl"))
    assert [g.get_current_phase() for g in games] == [g.last_phase for g in serial.games]
    records = load_records(folder / "games.jsonl")
    assert [r.game_id for r in records] == [g.saved["id"] for g in serial.games]
    results = json.loads((folder / "results.json").read_text())
    assert results["summary"] == serial.to_json()
    assert results["games"][1]["seats"]["ENGLAND"] == "dumb"


@pytest.mark.parametrize(
    ("kwargs", "error", "quoted"),
    [
        ({"bots": "dumb,smart*6"}, UnknownBotError, "'smart'"),
        ({"games": 0}, TournamentError, "got 0"),
        ({"games": -3}, TournamentError, "got -3"),
        ({"workers": 0}, TournamentError, "got 0"),
        ({"map_name": "world"}, UnsupportedMapError, "'world'"),
        ({"max_year": 1850}, TournamentError, "got 1850"),
        ({"address": "garbage"}, TournamentError, "'garbage'"),
        ({"seed": -1}, TournamentError, "got -1"),
    ],
)
def test_bad_input(kwargs: dict[str, object], error: type[DiplomacyError], quoted: str) -> None:
    args: dict[str, object] = {"bots": BOTS, "games": 2, "seed": 1, "max_year": 1901}
    args.update(kwargs)
    with pytest.raises(error, match=quoted.replace("*", "\\*")):
        run_tournament(**args)  # type: ignore[arg-type]


def test_unreachable_dask_address_is_a_diplomacy_error(quick_dask_connect: float) -> None:
    with pytest.raises(DiplomacyError, match=r"tcp://127\.0\.0\.1:9"):
        run_tournament(BOTS, 1, 1, max_year=1901, address="tcp://127.0.0.1:9")


def test_games_do_not_depend_on_the_string_hash_seed() -> None:
    """Pool workers forked from one parent share its hash seed; a fresh interpreter (a Dask worker on
    another machine) does not.  Two interpreters with different PYTHONHASHSEED play the same game."""
    code = (
        "import hashlib, json; from boardeval.diplomacy.tournament import bot_game; "
        "r = bot_game('dumb*3,random*4', 5, max_year=1902, allies='AUSTRIA:ENGLAND'); "
        "print(hashlib.sha256(json.dumps(r.saved).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(h)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for h in (1, 2)
    }
    assert len(digests) == 1
