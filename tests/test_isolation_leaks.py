"""What an isolated bot is sent reveals nothing its seat may not see (docs/trust.md, issue 42).

Each test plays the attack a hostile tester used: from what the bot got at start_game (its
generator's state, the board it was dealt, its environment), rebuild the game's seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from arena.bots import game_seed
from arena.play import main as play_main
from arena.play import play_specs
from game.bots import RandomBot
from game.engine import game_rngs, play_game
from game.state import Rules

THIEF = "tests.hostile_bots:Thief"
KEY = "ab" * 16


class _Deal(RandomBot):
    """In-process: the board seat 0 is dealt (what a bot that knows the seed can compute)."""

    owner: ClassVar[list[int]] = []

    def start_game(self, view: Any, rng: np.random.Generator) -> None:
        _Deal.owner = np.asarray(view.owner).tolist()
        super().start_game(view, rng)


def _steal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> dict[str, Any]:
    seen = tmp_path / "seen.json"
    monkeypatch.delenv("RISKEVO_SECRET", raising=False)  # the key made here goes at teardown
    monkeypatch.setenv("RISKEVO_TEST_THIEF", str(seen))
    play_specs([THIEF, "random", "random"], seed, Rules(cap=2), timeout=20)
    return dict(json.loads(seen.read_text()))


def test_an_isolated_bot_cannot_rebuild_the_game_from_the_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _steal(tmp_path, monkeypatch, seed=5)
    play_game([_Deal(), RandomBot(), RandomBot()], seed=5, rules=Rules(cap=1))
    _, rngs = game_rngs(5, 3)
    # Knowing --seed 5 (the command line is readable by any user) is not enough: the deal
    # comes from a keyed hash of it, and the bot's generator is not its seat's generator.
    assert seen["owner"] != _Deal.owner
    assert seen["rng"] != rngs[0].bit_generator.state
    assert seen["secret"] is None  # the key never reaches the bot's process


def test_the_same_secret_deals_the_same_game(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RISKEVO_SECRET", KEY)
    games = []
    for i in range(2):
        path = tmp_path / f"game-{i}.txt"
        play_specs([THIEF, "random", "random"], 3, Rules(cap=5), timeout=20, transcript_to=path)
        games.append(path.read_text())
    assert games[0] == games[1]  # the thief's own randomness included
    monkeypatch.setenv("RISKEVO_SECRET", "cd" * 16)
    play_specs([THIEF, "random", "random"], 3, Rules(cap=5), timeout=20,
               transcript_to=tmp_path / "other.txt")
    assert (tmp_path / "other.txt").read_text() != games[0]


@pytest.mark.parametrize(("specs", "same"), [
    (["random", "continent"], True),           # trusted: the same games as ever
    (["tests/data/x.json", "random"], True),   # a bot file is trusted
    ([THIEF, "random"], False),                # one isolated seat: a keyed hash
])
def test_only_games_with_an_isolated_seat_are_dealt_from_the_secret(
        monkeypatch: pytest.MonkeyPatch, specs: list[str], same: bool) -> None:
    monkeypatch.setenv("RISKEVO_SECRET", KEY)
    assert (game_seed(7, specs) == 7) is same
    assert 0 <= game_seed(7, specs) < 2**63


@pytest.mark.parametrize("key", ["xyz", "ab", "ab" * 80])
def test_a_malformed_secret_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                key: str) -> None:
    monkeypatch.setenv("RISKEVO_SECRET", key)
    assert play_main([THIEF, "random", "--cap", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RISKEVO_SECRET must be 32..128 hex digits" in err


def test_play_says_how_to_deal_the_game_again(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RISKEVO_SECRET", KEY)
    assert play_main([THIEF, "random", "--cap", "2"]) == 0
    assert f"RISKEVO_SECRET={KEY} deals them again" in capsys.readouterr().out
