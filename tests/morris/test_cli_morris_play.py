"""CLI: ``boardeval morris eval|best|play|match`` output shapes, piped play, bad input -> one line, exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from boardeval.cli.main import app
from boardeval.morris._features import features
from boardeval.morris.rules import Position
from tests.cli.json_shapes import assert_same_fields

START = "........................ w 9 9"
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["morris", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_eval_json_shape() -> None:
    code, out, _ = run("eval", "--moves", "d2 f4 b4", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"phase", "features", "breakdown", "score"}
    assert data["phase"] == "placing"
    pos = Position.from_moves("d2 f4 b4")
    fw, fb = features(pos)
    assert data["features"] == {"white": fw.to_dict(), "black": fb.to_dict()}
    assert data["score"] == pytest.approx(data["breakdown"]["total"])
    assert all("scale" not in t for t in data["breakdown"]["terms"])
    # the same position given as text
    code2, out2, _ = run("eval", pos.text(), "--json")
    assert code2 == 0 and json.loads(out2)["score"] == data["score"]


def test_eval_human_output() -> None:
    code, out, _ = run("eval", START)
    assert code == 0
    assert "score" in out and "material" in out


def test_best_json_shape() -> None:
    pos_text = "WW.BB................... w 7 7"  # white a7 d7, black b6 d6, placing: g7 closes a mill
    code, out, _ = run("best", pos_text, "--depth", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"move", "score", "pv", "nodes", "why"}
    assert_same_fields("morris best", data)
    assert data["move"].startswith("g7x")
    assert data["pv"][0] == data["move"]
    assert data["nodes"] > 0
    assert data["why"]["candidates"][0]["move"] == data["move"]
    assert "scale" not in json.dumps(data["why"])


def test_best_says_a_decided_line_in_words() -> None:
    """Issue 23 §2.1: f2-d2 leaves Black no legal move; the output says so and shows no win score (9999);
    the JSON keeps the number beside a structured verdict, and White's view beside the mover's."""
    blockade = "......BW..WBW.WBBB..W... w 0 0"
    code, out, _ = run("best", blockade, "--depth", "2", "--tablebase", "none", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["move"] == "f2-d2" and data["score"] == 9999.0 and data["white_score"] == 9999.0
    assert data["verdict"]["headline"] == "White wins: Black has no legal move"
    assert data["verdict"]["source"] == "rules" and data["verdict"]["turns"] == 1
    assert data["why"]["candidates"][0]["verdict"] == data["verdict"]
    code, out, _ = run("best", blockade, "--depth", "2", "--tablebase", "none")
    assert code == 0
    assert "White wins: Black has no legal move" in out and "wins: Black has no" in out  # the row wraps
    assert not re.search(r"(^|[^0-9.])(99[0-9][0-9]|10000)([^0-9]|$)", out), out
    # a finished position: eval says who won, in words
    code, out, _ = run("eval", "WWW.........BB.......... b 0 0")
    assert code == 0 and "White has won: Black has fewer than 3 men" in out and "10000" not in out
    code, out, _ = run("eval", "WWW.........BB.......... b 0 0", "--json")
    data = json.loads(out)
    assert data["verdict"]["headline"] == "White has won: Black has fewer than 3 men"
    assert data["score"] == -10000.0  # the number stays, beside the verdict
    code, out, _ = run("eval", START, "--json")
    assert json.loads(out)["verdict"] is None
    # and so does best, which has no turn to name there (it said only "the game is over")
    code, out, _ = run("best", "WWW.........BB.......... b 0 0", "--depth", "2")
    assert code == 0 and "the game is over: White has won: Black has fewer than 3 men" in out
    assert "The game is over. White has won: Black has fewer than 3 men." in out  # the why-panel's line
    code, out, _ = run("best", "WWW.........BB.......... b 0 0", "--depth", "2", "--json")
    data = json.loads(out)
    assert data["move"] is None and data["white_score"] is None
    assert data["verdict"]["headline"] == "White has won: Black has fewer than 3 men"
    assert data["verdict"]["result"] == "loss" and data["verdict"]["turns"] == 0


def test_best_scores_are_from_whites_view() -> None:
    """One sign convention: with Black to move the human output's evaluation is White's (JSON: both)."""
    code, out, _ = run("best", "--moves", "d2 a7 f4", "--depth", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["white_score"] == pytest.approx(-data["score"], abs=1e-4)
    code, out, _ = run("best", "--moves", "d2 a7 f4", "--depth", "3")
    assert code == 0
    assert f"evaluation {data['white_score']:+.3f} (White's view)" in out
    assert "scores from White's view" in out


def test_best_at_a_strength_level() -> None:
    """--strength sets the budget of a named level: easy searches one turn, medium is time per move."""
    pos_text = "WW.BB................... w 7 7"
    code, out, _ = run("best", pos_text, "--strength", "easy", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["depth"] == 1 and data["move"].startswith("g7x")
    # the seed's weights: the default's placing judgement may keep the threat and place for mobility
    code, out, _ = run("best", pos_text, "--strength", "medium", "--weights", "seed", "--json")
    assert code == 0
    data = json.loads(out)  # 0.05 s a move: the depth reached depends on the machine's load
    assert data["depth"] >= 1 and data["move"].startswith("g7x")
    assert data["why"]["candidates"][0]["pv"][0].startswith("g7x")


def test_best_with_time_limit_and_human_output() -> None:
    code, out, _ = run("best", START, "--time", "0.05")
    assert code == 0
    assert "best:" in out and "Top candidate turns" in out
    # the start is the opening book's: no search ran, so no "nodes 0  0.00s", and the book's line says more
    assert re.search(r"best: \S+  evaluation \+[0-9.]+ \(White's view\)  from the opening book\n", out), out
    assert "nodes 0" not in out and "book move: searched to depth 20" in out
    code, out, _ = run("best", START, "--depth", "2", "--no-book")
    assert code == 0 and re.search(r"  depth 2  nodes [1-9][0-9]*  [0-9.]+s\n", out), out


def test_match_json() -> None:
    code, out, _ = run(
        "match", "--white", "ai:depth=1", "--black", "random", "--games", "2", "--seed", "5",
        "--alternate", "--variant", "openspiel", "--json", "--tablebase", "none",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 2
    assert data["wins"] + data["draws"] + data["losses"] == 2
    assert data["player_a"] == "ai:depth=1" and data["player_b"] == "random"


def test_match_human_output() -> None:
    code, out, _ = run("match", "--white", "random", "--black", "random", "--games", "1", "--seed", "2")
    assert code == 0
    assert "wins" in out and "losses" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("eval", "WWW w 9 9"), "bad position"),
        (("eval",), "give a position text"),
        (("eval", START, "--moves", "d2"), "either a position text or --moves"),
        (("eval", "--moves", "d2 d2"), "d2 is occupied"),
        (("eval", START, "--profile", "nosuch"), "unknown weight profile"),
        (("eval", START, "--variant", "chess"), "variant"),
        (("best", START, "--depth", "0"), "depth"),
        (("best", START, "--time", "-1"), "--time: '-1' is out of range (0, 1000000]"),
        (("best", START, "--time", "0_1"), "--time: '0_1' is not a decimal number"),
        (("best", START, "--depth", "0_2"), "--depth: '0_2' is not an integer"),
        (("best", START, "--candidates", "0_3"), "--candidates: '0_3' is not an integer"),
        (("best", START, "--candidates", "100000"), "--candidates 100000: the position has 24 legal turns"),
        (("best", START, "--strength", "godlike"), "unknown --strength 'godlike'; choose from easy"),
        (("best", START, "--strength", "Expert"), "did you mean 'expert'"),
        (("best", START, "--strength", "easy", "--depth", "2"), "without --depth/--time"),
        (("play", "--strength", "godlike"), "unknown --strength 'godlike'; choose from easy"),
        (("play", "--colour", "green"), "unknown --colour 'green'; choose from white, black"),
        (("play", "--colour", "White"), "did you mean 'white'"),
        (("match", "--white", "AI:depth=1"), "did you mean 'ai'"),
        (("match", "--white", "minimax"), "player 'minimax'"),
        (("match", "--games", "0"), "--games: '0' is out of range 1..1000000"),
        (("match", "--games", "0_1"), "--games: '0_1' is not an integer"),
        (("match", "--workers", "0_1"), "--workers: '0_1' is not an integer"),
        (("match", "--seed", "-1"), "--seed"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in " ".join(lines)
    assert "Traceback" not in err


def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from boardeval.cli.main import main; main()", "morris", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_play_with_piped_stdin() -> None:
    """A real pipe: place d2, ask why, play an illegal turn (reported, game goes on), undo, quit."""
    proc = _cli(["play", "--depth", "1"], "d2\nwhy\nd2\nundo\nb4\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.count("AI plays") == 2  # after d2, and again after b4 (undo took d2 and the reply back)
    assert "Top candidate turns" in out  # the why-panel
    assert "undone" in out and "bye" in out
    assert "illegal turn d2" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_play_as_black_until_end_of_input() -> None:
    proc = _cli(["play", "--colour", "black", "--depth", "1"], "")
    assert proc.returncode == 0, proc.stderr
    assert "AI plays" in proc.stdout  # the AI (white) moved first
    assert "White's view; opening book)" in proc.stdout  # the start is a book position: said, not searched
    assert "end of input" in proc.stdout


def test_bad_input_one_red_line_in_a_real_process() -> None:
    proc = _cli(["best", "WWW w 9 9"], "")
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: bad position")
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("human", "last"), [(0, "You win."), (1, "The AI wins.")])
def test_play_says_who_won_at_the_end(human: int, last: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's end in the words of eval/best, and which player that is (it printed 'game over: white
    (black has no legal move)'). f2-d2 leaves Black no legal move: the person plays it as White, the AI
    finds it (one turn deep) when the person is Black."""
    import io

    from boardeval.cli.common import console
    from boardeval.cli.morris_game import TerminalSession
    from boardeval.morris import AlphaBetaPlayer

    blockade = Position.parse("......BW..WBW.WBBB..W... w 0 0")
    monkeypatch.setattr("sys.stdin", io.StringIO("f2-d2\n"))
    with console.capture() as captured:
        TerminalSession(blockade, AlphaBetaPlayer(depth=1, book=None), human).run()
    out = captured.get()
    assert f"game over: White has won: Black has no legal move. {last}\n" in out, out
