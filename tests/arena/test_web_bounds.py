"""`arena web` bounded against many and hostile clients (issue 42): bot processes, replays,
connections, origins."""

from __future__ import annotations

from typing import Any

import pytest

from arena.web import app as web
from arena.web.app import RequestError, make_lobby

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
    from game.record.transcript import FORMAT

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

    from game.record.replay import ReplayError, replay

    start = time.perf_counter()
    with pytest.raises(ReplayError, match=needle):
        replay(_crafted(lines, header))
    assert time.perf_counter() - start < 2.0


def test_a_replay_holds_each_card_once() -> None:
    from game.record.replay import replay

    rep = replay(_crafted(44))  # every card drawn once: fine
    assert sum(len(h) for h in rep.frames[-1].hands) == 44


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Any:
    import threading

    from arena.web import httpd as webserver
    from arena.web.app import make_server

    monkeypatch.setattr(webserver, "MAX_CONNECTIONS", 3)
    monkeypatch.setattr(webserver, "REQUEST_DEADLINE_S", 1.0)
    lobby = make_lobby(["random"], seat=0, rules_text="cap=5", seed=1, replay_file=None)
    srv = make_server(lobby, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv, lobby
    srv.shutdown()
    srv.server_close()


def _ask(srv: Any, method: str, path: str, headers: dict[str, str]) -> tuple[int, str]:
    import http.client

    c = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=10)
    c.request(method, path, body=b"{}" if method == "POST" else None, headers=headers)
    r = c.getresponse()
    text = r.read().decode()
    c.close()
    return r.status, text


@pytest.mark.parametrize(("headers", "status"), [
    ({}, 200),                                                   # no Origin: curl, scripts
    ({"Origin": "http://{here}"}, 200),                          # this server's own page
    ({"Origin": "https://evil.example"}, 403),                   # another site's page
    ({"Host": "evil.example:{port}"}, 403),                      # DNS rebinding
    ({"Host": "localhost:{port}", "Origin": "http://localhost:{port}"}, 200),
])
def test_requests_from_other_sites_are_refused(server: Any, headers: dict[str, str],
                                               status: int) -> None:
    srv, lobby = server
    port = srv.server_address[1]
    filled = {k: v.format(here=f"127.0.0.1:{port}", port=port) for k, v in headers.items()}
    got, text = _ask(srv, "POST", "/api/games", filled)
    assert got == status, text
    assert len(lobby.games) == (1 if status == 200 else 0)
    for game in lobby.games.values():
        game.close()


def _closed_within(sock: Any, seconds: float) -> bool:
    import time

    sock.settimeout(seconds)
    start = time.monotonic()
    try:
        while sock.recv(4096):
            pass
    except OSError:
        return False
    return time.monotonic() - start < seconds


def test_a_trickled_request_is_cut_and_connections_are_capped(server: Any) -> None:
    import socket
    import time

    srv, _ = server
    address = ("127.0.0.1", srv.server_address[1])
    slow = [socket.create_connection(address, timeout=5) for _ in range(3)]
    for s in slow:
        s.sendall(b"GET /api/config HTTP/1.1\r\n")  # and never the rest
    time.sleep(0.2)
    extra = socket.create_connection(address, timeout=5)
    assert b"503" in extra.recv(4096)  # 3 connections at once: a fourth is refused
    extra.close()
    for s in slow:
        assert _closed_within(s, 3.0)  # cut at the 1 s deadline, however slowly it trickles
        s.close()
    time.sleep(0.2)
    assert _ask(srv, "GET", "/api/config", {})[0] == 200  # the slots are free again


def test_a_client_reset_prints_no_traceback(server: Any,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import struct
    import time

    srv, _ = server
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=5)
        s.sendall(b'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}')
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # RST before the answer
    time.sleep(1.0)
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("length", "status"), [
    ("\u00b2".encode(), b" 400 "),  # a digit to Python, no number to HTTP
    (b"0" * 5000, b" 400 "),        # beyond int()'s digit limit
    (b"-1", b" 400 "),
    (b"99999999", b" 413 "),
])
def test_a_bad_content_length_is_a_client_error(server: Any, length: bytes, status: bytes,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    srv, _ = server
    s = socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=5)
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + length
              + b"\r\n\r\n{}")
    first = s.recv(4096).split(b"\r\n", 1)[0]
    s.close()
    assert status in first, first
    assert "Traceback" not in capsys.readouterr().err


def test_a_poll_puts_only_the_new_transcript_lines_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.web.live import LiveGame, Seat
    from game.bots import BOTS
    from game.map import classic_map
    from game.record import replay_board
    from game.state import Rules

    bots = ["aggressive", "continent", "random"]
    game = LiveGame(classic_map(), Rules(cap=40), [Seat(b, BOTS[b](), True) for b in bots],
                    seed=9)
    polled = []
    while not game.over:
        game.advance(50)
        polled.append(game.public(0)["log"])
    applied = []
    real = replay_board.Board.apply

    def counting(self: Any, *args: Any) -> str:
        applied.append(1)
        return real(self, *args)

    monkeypatch.setattr(replay_board.Board, "apply", counting)
    assert game.public(len(game.transcript()))["log"] == []
    assert applied == []  # before: every request replayed the whole transcript
    game._logs = {}  # a fresh reading of the whole game gives the same log
    assert game.public(0)["log"] == polled[-1] and len(applied) > 100
