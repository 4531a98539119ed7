"""Baseline bots: complete legal games, determinism, the loader, strength vs random (measure)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from game.bots import BOTS, make_player
from game.engine import Outcome, play_game
from game.protocol import Player
from game.state import Rules

SMART = [name for name in BOTS if name != "random"]


def _check(o: Outcome, n: int, cap: int) -> None:
    """A finished game's outcome is coherent."""
    assert len(o.placements) == n
    assert min(o.placements) == 1
    assert 1 <= o.rounds <= cap
    if not o.capped:
        assert o.winner is not None and o.placements[o.winner] == 1
    assert sum(s.territories for s in o.stats) == 42


def test_registry_names_and_docstrings() -> None:
    assert set(BOTS) == {"random", "aggressive", "bully", "border_patrol", "distributor",
                         "wanderer", "continent", "planner", "hunter", "strategist"}
    for name, cls in BOTS.items():
        assert cls.name == name
        assert cls.__doc__ and cls.__doc__.strip()


@pytest.mark.parametrize("name", SMART)
def test_bot_plays_complete_mixed_games(name: str) -> None:
    others = [x for x in BOTS if x != name]
    for seed in range(2):
        table = [name, "random", others[(seed + 1) % len(others)],
                 others[(seed + 3) % len(others)]]
        o = play_game([make_player(x) for x in table], seed=seed)
        _check(o, 4, 100)


@pytest.mark.parametrize("rules", [Rules(path_fortify=True, cap=40),
                                   Rules(missions=True, cap=40),
                                   Rules(fixed_cards=True, cap=40)], ids=str)
def test_all_bots_under_rule_options(rules: Rules) -> None:
    for i, n in enumerate((2, 3, 6)):
        table = [SMART[(i + k) % len(SMART)] for k in range(n)]
        o = play_game([make_player(x) for x in table], rules=rules, seed=100 + i)
        _check(o, n, rules.cap)


@pytest.mark.parametrize("name", SMART)
def test_same_seed_same_game(name: str) -> None:
    table = [name, "continent", "bully", "random"]
    a = play_game([make_player(x) for x in table], seed=7, transcript=True)
    b = play_game([make_player(x) for x in table], seed=7, transcript=True)
    c = play_game([make_player(x) for x in table], seed=8, transcript=True)
    assert a.transcript == b.transcript
    assert a == b
    assert a.transcript != c.transcript


def test_smart_bots_finish_among_themselves() -> None:
    """Sensible bots attack: games between them end before the cap."""
    for seed in range(3):
        o = play_game([make_player(x) for x in SMART[seed:seed + 4]], seed=seed)
        assert not o.capped


def test_make_player_names_and_dotted_paths(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for name, cls in BOTS.items():
        p = make_player(name)
        assert type(p) is cls and isinstance(p, Player)
        assert make_player(name) is not p
    assert type(make_player("game.bots.table:BullyBot")) is BOTS["bully"]
    (tmp_path / "thirdparty_bot.py").write_text(
        "from game.bots.random_bot import RandomBot\n"
        "class Mine(RandomBot):\n"
        "    def __init__(self, tag='x'):\n"
        "        super().__init__()\n"
        "        self.tag = tag\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mine = make_player("thirdparty_bot:Mine", tag="y")
    assert type(mine).__name__ == "Mine" and mine.tag == "y"  # type: ignore[attr-defined]
    o = play_game([mine, make_player("bully"), make_player("random")], seed=3)
    _check(o, 3, 100)
    sys.modules.pop("thirdparty_bot", None)


@pytest.mark.parametrize(("spec", "words"), [
    ("agressive", ["'agressive'", "allowed", "aggressive", "continent"]),
    ("", ["''", "allowed"]),
    ("a:b:c", ["'a:b:c'", "package.module:Class"]),
    ("game.bots:", ["package.module:Class"]),
    ("no_such_pkg_xyz.mod:Bot", ["cannot import", "no_such_pkg_xyz.mod"]),
    ("game.bots.table:Nope", ["no class", "'Nope'"]),
    ("game.bots.bully:THRESHOLD", ["no class", "THRESHOLD"]),
    ("collections:OrderedDict", ["not a Player", "place_initial"]),
])
def test_make_player_errors(spec: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as e:
        make_player(spec)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_make_player_bad_kwargs_and_type() -> None:
    with pytest.raises(ValueError, match="'aggressive': cannot create"):
        make_player("aggressive", colour="red")
    with pytest.raises(ValueError, match="must be a string"):
        make_player(3)  # type: ignore[arg-type]


def _wilson_low(wins: int, n: int, z: float = 1.96) -> float:
    """Lower end of the Wilson score interval of a win rate."""
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


@pytest.mark.measure
@pytest.mark.parametrize("name", SMART)
def test_bot_beats_random(name: str) -> None:
    n = 100
    wins = 0
    for seed in range(n):
        o = play_game([make_player(name)] + [make_player("random") for _ in range(3)],
                      seed=5000 + seed)
        wins += o.placements[0] == 1
    assert _wilson_low(wins, n) > 0.25, f"{name}: {wins}/{n}"
