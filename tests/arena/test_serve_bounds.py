"""The bot server holds its promises against bad bots and bad clients (see docs/protocol.md)."""

from __future__ import annotations

import itertools
import json
import socket
import struct
import threading
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from arena.serve import tcp
from arena.serve.server import Server
from game.bots import RandomBot
from game.decision import Decision
from tests.helpers.serve import START, request


class Fails(RandomBot):
    """A bot with a bug at every decision."""

    def __init__(self, error: type[Exception]) -> None:
        super().__init__()
        self.error = error

    def act(self, view: Any, decision: Decision) -> Any:
        raise self.error("bug")


class Slow(RandomBot):
    """A bot that sleeps 3 s before each answer."""

    def act(self, view: Any, decision: Decision) -> Any:
        time.sleep(3)
        return super().act(view, decision)


@pytest.mark.parametrize("error", [KeyError, ZeroDivisionError, AttributeError])
def test_a_bot_bug_gets_the_fallback_answer(error: type[Exception]) -> None:
    server = Server(lambda: Fails(error))  # type: ignore[arg-type, return-value]
    assert server.handle(json.dumps(START)).get("ok")
    assert server.handle(json.dumps(request("attack"))) == {"id": 1, "action": "stop"}


def test_strict_mode_reports_the_bug() -> None:
    server = Server(lambda: Fails(KeyError), strict=True)  # type: ignore[arg-type, return-value]
    server.handle(json.dumps(START))
    assert "KeyError" in server.handle(json.dumps(request("attack")))["error"]


def test_a_slow_bot_gets_the_fallback_in_time_then_is_not_asked_again() -> None:
    server = Server(lambda: Slow(), decision_timeout=0.3)
    server.handle(json.dumps(START))
    t = time.monotonic()
    assert server.handle(json.dumps(request("attack")))["action"] == "stop"
    assert server.handle(json.dumps(request("attack", 2)))["action"] == "stop"
    assert time.monotonic() - t < 2 and server.stuck


class Where(RandomBot):
    """A bot that notes the thread each decision runs on."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[threading.Thread] = []

    def act(self, view: Any, decision: Decision) -> Any:
        self.threads.append(threading.current_thread())
        return super().act(view, decision)


def test_timed_decisions_share_one_thread_that_ends_when_idle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Where()
    server = Server(lambda: bot, decision_timeout=5)
    server.handle(json.dumps(START))
    for i in range(1, 6):
        assert "action" in server.handle(json.dumps(request("attack", i)))
    assert len(bot.threads) == 5 and len(set(bot.threads)) == 1  # no thread per decision
    assert threading.current_thread() not in bot.threads  # still run apart, so a limit can hold
    first = server._worker
    assert first is not None
    monkeypatch.setattr(first, "IDLE_S", 0.05)
    first.submit(lambda: None)  # wakes the waiting thread so it re-reads IDLE_S
    first.wait(1)
    first.thread.join(2)
    assert not first.thread.is_alive()  # idle: it ended
    assert "action" in server.handle(json.dumps(request("attack", 6)))  # a new one answers
    assert len(set(bot.threads)) == 2 and bot.threads[-1] is not first.thread


@pytest.mark.parametrize("alive", [[0, 1], [0, 0]])
def test_a_state_where_the_bot_is_dead_is_an_error(alive: list[int]) -> None:
    server = Server(lambda: RandomBot())
    server.handle(json.dumps(START))
    players = [{"alive": a, "cards": 0} for a in alive]
    reply = server.handle(json.dumps(request("attack", players=players)))
    assert "alive" in reply["error"]


@pytest.fixture
def small_server() -> Iterator[tcp._TCPServer]:
    srv = tcp._TCPServer(("127.0.0.1", 0), lambda: RandomBot(), max_sessions=2,
                         idle_timeout=0.5)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _connect(srv: tcp._TCPServer) -> socket.socket:
    return socket.create_connection(srv.server_address[:2], timeout=10)


def _line(sock: socket.socket) -> bytes:
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        buf += chunk
    return buf


def test_connections_are_capped_and_idle_ones_closed(small_server: tcp._TCPServer) -> None:
    a, b = _connect(small_server), _connect(small_server)
    a.sendall(b'{"id": 1, "ask": "hel')  # half a line, then silence
    time.sleep(0.1)
    c = _connect(small_server)
    assert b"server busy" in _line(c)
    assert _line(a) == b"" and _line(b) == b""  # closed after the idle timeout
    time.sleep(0.2)
    d = _connect(small_server)  # their slots are free again
    d.sendall(b'{"id": 7, "ask": "hello"}\n')
    assert json.loads(_line(d))["id"] == 7
    for s in (a, b, c, d):
        s.close()


def test_a_long_line_ends_the_connection(small_server: tcp._TCPServer) -> None:
    s = _connect(small_server)
    s.sendall(b"x" * (tcp.MAX_LINE + 10))
    assert "longer than" in json.loads(_line(s))["error"]
    assert _line(s) == b""
    s.close()


def test_a_client_reset_prints_no_traceback(small_server: tcp._TCPServer,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        s = _connect(small_server)
        s.sendall(b'{"id": 1, "ask": "hello"}\n' * 50)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # RST
    time.sleep(0.3)
    assert "Traceback" not in capsys.readouterr().err


def test_a_line_trickled_a_byte_at_a_time_is_closed_at_the_deadline(
        small_server: tcp._TCPServer) -> None:
    s = _connect(small_server)
    start = time.monotonic()
    closed = False
    for byte in b'{"id": 1, "ask": "hello"' * 4:  # one byte every 0.1 s, never a newline
        try:
            s.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        time.sleep(0.1)
        s.setblocking(False)
        try:
            closed = s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed = True
        s.setblocking(True)
        if closed:
            break
    s.close()
    # Before: every byte reset the 0.5 s idle clock, and the slot was held for ever.
    assert closed and time.monotonic() - start < 2.0


class Never(RandomBot):
    """A bot whose attack decision does not return until the test lets it go."""

    release = threading.Event()

    def act(self, view: Any, decision: Decision) -> Any:
        if decision.kind.value == "attack":
            Never.release.wait(30)
        return super().act(view, decision)


def test_a_decision_that_never_returns_keeps_its_slot() -> None:
    srv = tcp._TCPServer(("127.0.0.1", 0), lambda: Never(), max_sessions=1, idle_timeout=5,
                         decision_timeout=0.3)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    Never.release.clear()
    try:
        a = _connect(srv)
        a.sendall(json.dumps(START).encode() + b"\n")
        assert json.loads(_line(a)).get("ok")
        a.sendall(json.dumps(request("attack")).encode() + b"\n")
        assert json.loads(_line(a))["action"] == "stop"  # the fallback, in time
        a.close()
        time.sleep(0.3)
        b = _connect(srv)  # the stuck decision still runs: no new session starts another
        assert b"server busy" in _line(b)
        b.close()
        Never.release.set()
        time.sleep(0.3)
        c = _connect(srv)
        c.sendall(b'{"id": 3, "ask": "hello"}\n')
        assert json.loads(_line(c))["id"] == 3
        c.close()
    finally:
        Never.release.set()
        srv.shutdown()
        srv.server_close()


def test_a_start_game_with_a_huge_map_is_refused_at_once_in_little_memory() -> None:
    # Issue 65, T1: a 33,000-territory chain map in one ~1 MiB start_game line cost the server
    # 1.6 GB (an n x n adjacency) and 9 s; the map's size is now checked first.
    names = [f"t{i}" for i in range(33_000)]
    big = {"continents": [{"name": "c", "bonus": 1, "territories": names}],
           "borders": [list(p) for p in itertools.pairwise(names)]}
    line = json.dumps({"id": 1, "ask": "start_game", "map": big, "seat": 0, "n_players": 2})
    assert len(line) <= tcp.MAX_LINE
    server = Server(lambda: RandomBot())
    tracemalloc.start()
    start = time.process_time()
    try:
        reply = server.handle(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.process_time() - start
    assert reply["error"] == ("start_game.map: 'continents': 33000 territories, at most 1000 "
                              "allowed")
    assert peak < 64 * 2**20, peak  # measured: 9 MB, the parsed line
    assert took < 5, took  # measured: 0.07 s
