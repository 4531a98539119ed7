"""What an isolated bot is sent reveals nothing its seat may not see (docs/trust.md, issue 42).

Each test plays the attack a hostile tester used: from what the bot got at start_game (its
generator's state, the board it was dealt, its environment), rebuild the game's seed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from arena.bots import game_seed
from arena.isolation import sandbox as isolation
from arena.measure.tournament import run_tournament
from arena.play import main as play_main
from game.bots import RandomBot
from game.engine import play_game
from game.referee import game_rngs
from game.state import Rules

THIEF = "tests.helpers.hostile_bots:Thief"
KEY = "ab" * 16


class _Deal(RandomBot):
    """In-process: the board seat 0 is dealt (what a bot that knows the seed can compute)."""

    owner: ClassVar[list[int]] = []

    def start_game(self, view: Any, rng: np.random.Generator) -> None:
        _Deal.owner = np.asarray(view.owner).tolist()
        super().start_game(view, rng)


@pytest.fixture(autouse=True)
def fresh_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test reads the key anew (a process reads it once) and leaves none behind; its bots
    are new processes (a kept one would write to an earlier test's file). The thief writes
    its evidence to a file, so its bots run without the sandbox: what is shown here holds
    without it too (the sandbox's own routes: tests/arena/test_sandbox.py)."""
    isolation.close_idle()
    monkeypatch.setattr(isolation, "_SECRET", None)
    monkeypatch.delenv(isolation.SECRET_ENV, raising=False)
    monkeypatch.delenv(isolation.SECRET_FILE_ENV, raising=False)
    monkeypatch.setenv("RISKEVO_SANDBOX", "off")


def _key_file(tmp_path: Path, key: str) -> str:
    path = tmp_path / f"key-{key[:4]}"
    path.write_text(key + "\n")
    path.chmod(0o600)
    return str(path)


@pytest.mark.parametrize("tool", ["play", "tournament"])
def test_an_isolated_bot_cannot_rebuild_the_game_from_the_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str) -> None:
    seen_file = tmp_path / "seen.json"
    monkeypatch.setenv("RISKEVO_TEST_THIEF", str(seen_file))
    monkeypatch.setenv(isolation.SECRET_FILE_ENV, _key_file(tmp_path, KEY))  # the user's key
    specs = [THIEF, "random", "random"]
    if tool == "play":
        assert play_main([*specs, "--seed", "5", "--cap", "2"]) == 0
        seed = 5
    else:  # the first game of a tournament: the seed its schedule gives game 0
        seeds = np.random.SeedSequence(5).spawn(2)[1:]
        seed = int(seeds[0].generate_state(1, np.uint64)[0] >> np.uint64(1))
        run_tournament(specs, 1, per_game=3, seed=5, rules="cap=2", timeout=20)
    seen = json.loads(seen_file.read_text())
    # Knowing --seed 5 (the command line is readable by any user) is not enough: the deal
    # comes from a keyed hash of it, and the bot's generator is not its seat's generator.
    play_game([_Deal(), RandomBot(), RandomBot()], seed=seed, rules=Rules(cap=1))
    _, rngs = game_rngs(seed, 3)
    assert seen["owner"] != _Deal.owner
    assert all(seen["rng"] != r.bit_generator.state for r in rngs)
    assert seen["secret"] is None and seen["secret_file"] is None  # nor reach the bot


def test_the_same_secret_deals_the_same_game(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    games = []
    for i, key in enumerate([KEY, KEY, "cd" * 16]):
        monkeypatch.setattr(isolation, "_SECRET", None)
        monkeypatch.setenv(isolation.SECRET_FILE_ENV, _key_file(tmp_path, key))
        path = tmp_path / f"game-{i}.txt"
        assert play_main([THIEF, "random", "random", "--seed", "3", "--cap", "5",
                          "--save", str(path)]) == 0
        assert isolation.SECRET_FILE_ENV not in os.environ  # no later process inherits it
        games.append(path.read_text())
    assert games[0] == games[1]  # the thief's own randomness included
    assert games[2] != games[0]


@pytest.mark.parametrize(("specs", "same"), [
    (["random", "continent"], True),           # trusted: the same games as ever
    (["tests/data/x.json", "random"], True),   # a bot file is trusted
    ([THIEF, "random"], False),                # one isolated seat: a keyed hash
])
def test_only_games_with_an_isolated_seat_are_dealt_from_the_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, specs: list[str], same: bool) -> None:
    monkeypatch.setenv(isolation.SECRET_FILE_ENV, _key_file(tmp_path, KEY))
    assert (game_seed(7, specs) == 7) is same
    assert 0 <= game_seed(7, specs) < 2**63


@pytest.mark.parametrize("key", ["xyz", "ab", "ab" * 80])
def test_a_malformed_secret_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                key: str) -> None:
    monkeypatch.setenv(isolation.SECRET_FILE_ENV, _key_file(tmp_path, key))
    assert play_main([THIEF, "random", "--cap", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must hold 32..128 hex digits" in err


def test_play_says_how_to_deal_the_game_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(isolation.SECRET_FILE_ENV, _key_file(tmp_path, KEY))
    assert play_main([THIEF, "random", "--cap", "2"]) == 0
    assert (f"secret key, {KEY}; that key in a file named by $RISKEVO_SECRET_FILE deals them "
            "again") in capsys.readouterr().out
