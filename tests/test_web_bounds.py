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


def _crafted(lines: int, header: str = "seats 0 1") -> list[str]:
    """A transcript whose every line draws a card: before, every frame copied every hand."""
    from game.transcript import FORMAT

    deal = " ".join(str(i % 2) for i in range(42))
    return [FORMAT, "map classic", header, f"deal {deal}",
            *(f"r1 s0 card {i % 44}" for i in range(lines))]


@pytest.mark.parametrize(("lines", "header", "needle"), [
    (20_000, "seats 0 1", "card 0 is not in the deck"),       # the 260 KB file of issue 42
    (3, "seats " + " ".join(["0"] * 5000), "a game has 2..6 seats"),
])
def test_a_crafted_replay_is_refused_in_linear_time(lines: int, header: str,
                                                    needle: str) -> None:
    import time

    from arena.replay import ReplayError, replay

    start = time.perf_counter()
    with pytest.raises(ReplayError, match=needle):
        replay(_crafted(lines, header))
    assert time.perf_counter() - start < 2.0


def test_a_replay_holds_each_card_once() -> None:
    from arena.replay import replay

    rep = replay(_crafted(44))  # every card drawn once: fine
    assert sum(len(h) for h in rep.frames[-1].hands) == 44
