"""Command-line values past their bounds are one-line errors naming the option and what it
allows, before any game is played (an audit found these accepted, or a traceback)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from arena.measure.diagnose import main as diagnose_main
from arena.measure.gauntlet import main as gauntlet_main
from arena.measure.tournament import main as tournament_main
from arena.play import main as play_main
from arena.serve.command import main as serve_main
from arena.watch import main as watch_main
from arena.web.app import main as web_main
from evolve.run_cmd import main as run_main

BIG_SEED = str(2**70)
FOUR = ["random"] * 4
MAINS: dict[str, Callable[[list[str]], int]] = {
    "tournament": tournament_main, "gauntlet": gauntlet_main, "diagnose": diagnose_main,
    "play": play_main, "watch": watch_main, "serve": serve_main, "run": run_main,
    "web": web_main}
CASES = [
    ("tournament", [*FOUR, "--games", "2000000"], "--games must be 1..1000000"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "0"], "--jobs must be -1 (all cores) or"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "-5"], "got -5"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "100000"], "1..4096, got 100000"),
    ("tournament", [*(["random"] * 8), "--games", "1", "--per-game", "8"],
     "--per-game must be 2..6, got 8"),
    ("tournament", [*(["random"] * 60), "--games", "1", "--per-game", "6"], "lineups"),
    ("tournament", [*FOUR, "--games", "1", "--seed", BIG_SEED], "--seed must be 0.."),
    ("gauntlet", ["random", "--games", str(10**12)], "--games must be 1..1000000"),
    ("diagnose", ["random", "--games", "0"], "--games must be 1..1000000, got 0"),
    ("play", [*FOUR, "--seed", BIG_SEED], "--seed must be 0..9223372036854775807"),
    ("watch", [*FOUR, "--seed", "1", "--out", "w", "--ms", "700000"], "--ms must be 1..655350"),
    ("serve", ["random", "--max-sessions", "0"], "--max-sessions must be 1..10000, got 0"),
    ("serve", ["random", "--idle-timeout", "-1"], "--idle-timeout must be more than 0"),
    ("serve", ["random", "--record-games", "-1"], "--record-games must be 1.."),
    ("run", ["--name", "", "--generations", "1"], "run name ''"),
    ("web", ["--host", "", "--port", "0"], "--host must name an address"),
    ("web", ["--seed", BIG_SEED, "--port", "0"], "--seed must be 0.."),
]


@pytest.mark.parametrize(("command", "argv", "said"), CASES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES)])
def test_a_value_past_its_bound_is_one_line_before_any_game(
        command: str, argv: list[str], said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # any folder an accepted value would write lands here
    assert MAINS[command](argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], err
    assert list(tmp_path.iterdir()) == []  # no output folder made for nothing
