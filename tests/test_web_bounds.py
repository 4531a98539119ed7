"""`arena web` bounded against many and hostile clients (issue 42): bot processes, replays,
connections, origins."""

from __future__ import annotations

from typing import Any

import pytest

from arena import web
from arena.web import RequestError, make_lobby

CLASS_BOT = "game.bots:RandomBot"  # a class path: plays isolated, one process per seat


def test_a_refused_game_starts_no_bot_process(monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = make_lobby([CLASS_BOT], seat=0, rules_text="cap=5", seed=1, replay_file=None)
    started: list[str] = []
    real = web.make_bot

    def counting(spec: str, **kw: Any) -> Any:
        started.append(spec)
        return real(spec, **kw)

    monkeypatch.setattr(web, "make_bot", counting)
    monkeypatch.setattr(web, "MAX_GAMES", 2)
    try:
        for _ in range(2):
            lobby.new_game({})
        for _ in range(3):
            with pytest.raises(RequestError, match="too many live games"):
                lobby.new_game({})
        assert len(started) == 2  # the cap is checked before any bot starts
    finally:
        for game in lobby.games.values():
            game.close()


def test_live_bot_processes_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = make_lobby([CLASS_BOT], seat=0, rules_text="cap=5", seed=1, replay_file=None)
    monkeypatch.setattr(web, "MAX_BOT_PROCESSES", 3)
    try:
        lobby.new_game({"opponents": [lobby.defaults[0]] * 2})
        with pytest.raises(RequestError, match="too many bot processes"):
            lobby.new_game({"opponents": [lobby.defaults[0]] * 2})
        lobby.new_game({"opponents": [lobby.defaults[0]]})  # 3 in all: still allowed
    finally:
        for game in lobby.games.values():
            game.close()
