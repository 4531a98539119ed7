"""The bot protocol over TCP: one game session per connection, bounded (see docs/protocol.md).

At most `MAX_SESSIONS` connections are served at once (one more gets a "server busy" reply and
is closed), a connection without a complete request line for `IDLE_TIMEOUT_S` is closed, a
request line is at most `MAX_LINE` bytes, and a client that resets costs no traceback.
"""

from __future__ import annotations

import contextlib
import socketserver
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from arena.recorder import Recorder
from arena.serve import Server, reply_line
from game.protocol import Player

__all__ = ["IDLE_TIMEOUT_S", "MAX_LINE", "MAX_SESSIONS", "parse_address", "serve_tcp"]

MAX_LINE = 1 * 2**20  # bytes of one request line over TCP; a longer one ends the connection
MAX_SESSIONS = 64  # TCP connections served at once; one more gets a "server busy" reply
IDLE_TIMEOUT_S = 300.0  # a TCP connection without a complete request line this long is closed


class _Session(socketserver.StreamRequestHandler):
    """One connection = one game session with its own player."""

    server: _TCPServer

    def setup(self) -> None:
        super().setup()
        # A connection silent this long is closed (its slot and descriptor freed).
        self.connection.settimeout(self.server.idle_timeout)

    def handle(self) -> None:
        session = Server(self.server.make_player, decision_timeout=self.server.decision_timeout,
                         recorder=self.server.recorder)
        while True:
            try:
                line = self.rfile.readline(MAX_LINE + 1)
            except (TimeoutError, OSError):
                return  # idle (or reset): the connection goes, its slot frees
            if not line:
                return
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                # One error reply, then the connection goes: reading on could take forever.
                reply = {"id": None, "error": f"request line longer than {MAX_LINE} bytes"}
                self.wfile.write(reply_line(reply).encode())
                return
            if not line.strip():
                continue
            reply = session.handle(line)
            self.wfile.write(reply_line(reply).encode())
            self.wfile.flush()


class _TCPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], make_player: Callable[[], Player],
                 max_sessions: int = MAX_SESSIONS, idle_timeout: float = IDLE_TIMEOUT_S,
                 decision_timeout: float | None = None,
                 recorder: Recorder | None = None) -> None:
        self.make_player = make_player
        self.recorder = recorder
        self.idle_timeout = idle_timeout
        self.decision_timeout = decision_timeout
        self.slots = threading.BoundedSemaphore(max_sessions)
        self.max_sessions = max_sessions
        super().__init__(address, _Session)

    def get_request(self) -> tuple[Any, Any]:
        try:
            return super().get_request()
        except OSError:
            time.sleep(0.05)  # out of file descriptors: wait instead of spinning on accept
            raise

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            busy = {"id": None, "error": f"server busy: {self.max_sessions} sessions already"}
            with contextlib.suppress(OSError):
                request.sendall(reply_line(busy).encode())
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that resets or vanishes is routine: one line, no traceback."""
        e = sys.exc_info()[1]
        if isinstance(e, ConnectionError | TimeoutError | BrokenPipeError):
            return
        print(f"session {client_address}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)


def serve_tcp(make_player: Callable[[], Player], host: str, port: int,
              ready: Callable[[str, int], None] | None = None,
              max_sessions: int = MAX_SESSIONS, idle_timeout: float = IDLE_TIMEOUT_S,
              decision_timeout: float | None = None,
              recorder: Recorder | None = None) -> None:
    """Serve JSON lines on host:port, one session per connection, until interrupted: at most
    `max_sessions` at once, each closed after `idle_timeout` s without a request line;
    `recorder` keeps every session's games (serve --record)."""
    with _TCPServer((host, port), make_player, max_sessions, idle_timeout,
                    decision_timeout, recorder) as srv:
        h, p = srv.server_address[:2]
        if ready is not None:
            ready(str(h), int(p))
        srv.serve_forever()


def parse_address(text: str) -> tuple[str, int]:
    """'HOST:PORT', ':PORT' or 'PORT' (host 127.0.0.1) -> (host, port)."""
    host, _, port = text.rpartition(":")
    try:
        p = int(port)
    except ValueError:
        p = -1
    if not 0 <= p <= 65535:
        raise ValueError(f"--tcp must be HOST:PORT with PORT 0..65535, got {text!r}")
    return host or "127.0.0.1", p
