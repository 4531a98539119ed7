"""`arena web` listens first and plays its saved games on in the background (issue 65, H3):
after a restart, saved games against a slow bot were replayed before the server listened,
141 s with no output and the page down. A game being resumed answers "resuming" (503) until
it is ready, then plays as before."""

from __future__ import annotations

import threading
import time
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from arena.web import saves as websave
from arena.web.app import make_lobby
from arena.web.httpd import RequestError
from arena.web.routes import _route
from game.rules import layout as L

BOTS = ["aggressive", "bully"]


def _saved_game(folder: Path) -> str:
    """A saves folder holding one unfinished game (three of the person's moves); its id."""
    lobby = make_lobby(BOTS, seat=1, rules_text="cap=12", seed=None, replay_file=None,
                       games_dir=str(folder))
    gid, game = lobby.new_game({})
    for _ in range(3):
        _route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 5000})
        st = game.state
        t = next(t for t in range(game.m.n_territories) if st.owner[t] == game.human)
        if st.phase not in (L.PH_SETUP, L.PH_REINFORCE):
            break
        _route(lobby, "POST", f"/api/games/{gid}/act",
                   {"type": "place", "territory": t, "count": 1})
    game.close()
    assert lobby.saves is not None
    lobby.saves.close()
    return gid


def test_saved_games_resume_after_the_server_listens_and_answer_resuming_till_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    gid = _saved_game(folder)
    slow = threading.Event()
    real = websave.resume

    def slow_resume(game: Any, lines: list[str]) -> None:  # a slow bot's replay
        slow.wait(30)
        real(game, lines)

    monkeypatch.setattr(websave, "resume", slow_resume)
    start = time.monotonic()
    lobby = make_lobby(BOTS, seat=1, rules_text="cap=12", seed=None, replay_file=None,
                       games_dir=str(folder), background=True)
    assert time.monotonic() - start < 5  # before: the replays ran here, before the listen
    assert lobby.resume_pending and gid not in lobby.games
    lobby.resume_in_background()
    for _ in range(2):  # before the thread has started it, and while it replays
        with pytest.raises(RequestError) as e:
            _route(lobby, "GET", f"/api/games/{gid}", None)
        assert e.value.status == HTTPStatus.SERVICE_UNAVAILABLE
        assert str(e.value).startswith("resuming: ")
        time.sleep(0.5)
    listed: Any = _route(lobby, "GET", "/api/games", None)[0]
    assert all(g["id"] != gid for g in listed["games"])
    slow.set()
    end = time.monotonic() + 60
    while lobby.resume_pending and time.monotonic() < end:
        time.sleep(0.05)
    assert not lobby.resume_pending and gid in lobby.games
    out: Any = _route(lobby, "GET", f"/api/games/{gid}", None)[0]
    assert out["human"] == 1 and "error" not in out  # served as before the restart
    lobby.games[gid].close()
    assert lobby.saves is not None
    lobby.saves.close()
