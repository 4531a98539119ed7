"""Sandboxed bots in `arena web` answer for as long as their game (issue 65, X2): the page's
requests are served by threads that end, and bwrap died with the thread that started it, so
one of two class-path bots answered nothing but fallbacks (27-33 refusal notes per 30-40
moves) and the game never resumed. Here two sandboxed class-path bots play 40 moves through
the HTTP server with no fallback, and the game plays on in a restarted server.

bubblewrap is required under CI (.ci/run installs it): there a missing sandbox fails."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from arena.web.app import Lobby, make_lobby, make_server
from tests.helpers.sandbox import need_sandbox
from tests.helpers.web import Client, person_move

CLASS_BOT = "game.bots:RandomBot"  # a class path: plays isolated, in the sandbox




def _play(client: Client, lobby: Lobby, gid: str, bot_moves: int) -> None:
    """Through the HTTP server: advance the bots and move for the person until the bots made
    `bot_moves` more moves (or the game ended)."""
    game = lobby.games[gid]
    start = len(game.transcript())
    while len(game.transcript()) - start < bot_moves and not game.over:
        status, out = client.call("POST", f"/api/games/{gid}/advance", {"max": 5})
        assert status == 200, out
        if game.decision() is not None and not game.over:
            status, out = client.call("POST", f"/api/games/{gid}/act", person_move(game))
            assert status == 200, out


def test_two_sandboxed_bots_play_through_request_threads_and_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    need_sandbox()
    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    folder = str(tmp_path / "games")
    lobby = make_lobby([CLASS_BOT, CLASS_BOT], seat=0, rules_text="cap=12", seed=1,
                       replay_file=None, games_dir=folder)
    srv = make_server(lobby, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    client = Client(int(srv.server_address[1]))
    try:
        status, out = client.call("POST", "/api/games", {})  # the bots start in this thread
        assert status == 200, out
        gid = out["id"]
        time.sleep(1.5)  # that request's thread is gone
        _play(client, lobby, gid, 40)
        game = lobby.games[gid]
        assert game.notes == []  # no fallback: both bots answered every question
        lines = game.transcript()
    finally:
        srv.shutdown()
        srv.server_close()
        for g in lobby.games.values():
            g.close()
        assert lobby.saves is not None
        lobby.saves.close()
    again = make_lobby([CLASS_BOT, CLASS_BOT], seat=0, rules_text="cap=12", seed=1,
                       replay_file=None, games_dir=folder, background=True)
    srv = make_server(again, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    again.resume_in_background()  # as `arena web` does once it listens
    client = Client(int(srv.server_address[1]))
    try:
        end = time.monotonic() + 120
        while again.resume_pending and time.monotonic() < end:
            time.sleep(0.1)
        assert list(again.games[gid].transcript()[:len(lines)]) == list(lines)
        time.sleep(1.5)  # the resuming thread is gone
        _play(client, again, gid, 10)
        assert again.games[gid].notes == []
    finally:
        srv.shutdown()
        srv.server_close()
        for g in again.games.values():
            g.close()
        assert again.saves is not None
        again.saves.close()
