"""Bot protocol: a seat played through the protocol plays the same game; bad input never crashes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.bots import make_bot
from arena.serve.server import PROTOCOL, ProtocolError, Server, SubprocessPlayer
from features.botfile import save_genome
from features.genome import LAYOUT
from game.engine import play_game
from game.state import Rules
from tests.helpers.serve import Loopback

RULES = Rules(cap=12)  # short games keep the suite fast; the protocol is exercised every turn
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@pytest.fixture(scope="module")
def bot_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    rng = np.random.default_rng(7)
    w = rng.uniform(LAYOUT.low, LAYOUT.high)
    w = np.where(LAYOUT.scale, 1.0, w)
    path = tmp_path_factory.mktemp("bot") / "bot.json"
    save_genome(path, w, {"run": "test"})
    return str(path)


def _game(first: object, seed: int) -> tuple[str, ...]:
    others = [make_bot("random") for _ in range(3)]
    out = play_game([first, *others], rules=RULES, seed=seed, transcript=True,  # type: ignore[list-item]
                    labels=["first", "random", "random", "random"])  # the bot's, however served
    assert out.transcript is not None
    return out.transcript


@pytest.mark.parametrize("spec", ["random", "linear"])
def test_loopback_game_identical(spec: str, bot_file: str) -> None:
    spec = bot_file if spec == "linear" else spec
    for seed in (1, 2):
        direct = _game(make_bot(spec), seed)
        via = Loopback(spec)
        assert _game(via, seed) == direct
        assert len(via.lines) > 50


def test_loopback_game_on_a_board_with_its_own_deck(bot_file: str) -> None:
    from tests.helpers.deck import SHUFFLED

    def game(first: object) -> tuple[str, ...]:
        out = play_game([first, *(make_bot("bully") for _ in range(3))],  # type: ignore[list-item]
                        map=SHUFFLED, rules=Rules(cap=30), seed=5, transcript=True,
                        labels=["first", "bully", "bully", "bully"])
        assert out.transcript is not None
        return out.transcript

    direct = game(make_bot(bot_file))
    assert any(" trade " in line for line in direct)
    assert game(Loopback(bot_file)) == direct


def test_subprocess_game_identical(bot_file: str) -> None:
    direct = _game(make_bot(bot_file), 3)
    sp = SubprocessPlayer.for_bot(bot_file)
    try:
        assert _game(sp, 3) == direct
    finally:
        sp.close()
    assert sp.proc is not None and sp.proc.returncode == 0


@pytest.mark.parametrize("line, expect", [
    ("not json", "not JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"id": 4, "ask": "dance"}', "unknown ask 'dance'"),
    ('{"id": 5, "ask": "attack", "state": {}}', "'attack' before start_game"),
    ('{"id": 6, "ask": "start_game"}', "start_game.map must be a JSON object"),
    ('{"id": 7, "ask": "start_game", "map": {"continents": []}, "seat": 0, "n_players": 2}',
     "'continents' must be a non-empty list"),
])
def test_malformed_requests_get_error_lines(line: str, expect: str) -> None:
    reply = Server(lambda: make_bot("random")).handle(line)
    assert expect in reply["error"]
    m = re.search(r'"id": (\d+)', line)
    assert reply["id"] == (int(m.group(1)) if m else None)


def test_bad_state_mid_game_is_an_error_not_a_crash(bot_file: str) -> None:
    via = Loopback("random")
    _game(via, 4)
    start = next(json.loads(x) for x in via.lines if '"ask":"start_game"' in x)
    server = Server(lambda: make_bot("random"))
    assert server.handle(json.dumps(start))["ok"] is True
    bad = {"id": 9, "ask": "attack", "state": {**start["state"], "owner": [0, 1]}}
    assert "error" in server.handle(json.dumps(bad))
    bad2 = {"id": 10, "ask": "attack",
            "state": {**start["state"], "phase": "attack", "scalars": {"nope": 1}}}
    assert "unknown scalar 'nope'" in server.handle(json.dumps(bad2))["error"]


def test_subprocess_survives_garbage() -> None:
    cmd = [sys.executable, "-m", "arena", "serve", "random"]
    lines = "garbage\n{\"id\": 1, \"ask\": \"nope\"}\n{\"id\": 2, \"ask\": \"hello\"}\n"
    res = subprocess.run(cmd, input=lines, capture_output=True, text=True, timeout=60)
    replies = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.returncode == 0 and len(replies) == 3
    assert "error" in replies[0] and "error" in replies[1]
    assert replies[2] == {"id": 2, "protocol": PROTOCOL, "accepts": ["riskevo-bot 1", PROTOCOL],
                          "asks": replies[2]["asks"]}


def test_error_reply_raises_in_adapter() -> None:
    via = Loopback("random")
    with pytest.raises(ProtocolError, match="before start_game"):
        via.request("fortify", state={})


def test_doc_example_replays() -> None:
    """Every request in docs/protocol.md's example gets exactly the reply printed there."""
    text = DOC.read_text(encoding="utf-8")
    reqs = re.findall(r"^> (.*)$", text, flags=re.M)
    reps = re.findall(r"^< (.*)$", text, flags=re.M)
    assert len(reqs) == len(reps) >= 6
    server = Server(lambda: make_bot("random"))
    for q, r in zip(reqs, reps, strict=True):
        assert server.handle(q) == json.loads(r)
