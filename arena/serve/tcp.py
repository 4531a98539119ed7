"""The bot protocol over TCP: one game session per connection, bounded (see docs/protocol.md).

At most `MAX_SESSIONS` connections are served at once (one more gets a "server busy" reply and
is closed), a connection whose next request line is not whole within `IDLE_TIMEOUT_S` (however
it trickles in) is closed, a request line is at most `MAX_LINE` bytes, a session whose bot's
decision timed out and never returned keeps its slot until it does, and a client that resets
costs no traceback.
"""

from __future__ import annotations

import socketserver
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from arena.capped import Capped
from arena.serve.lines import MAX_LINE, TOO_LONG_REPLY, reply_line, too_long
from arena.serve.recorder import Recorder
from arena.serve.server import Server
from game.protocol import Player

__all__ = ["IDLE_TIMEOUT_S", "MAX_LINE", "MAX_SESSIONS", "parse_address", "serve_tcp"]

MAX_SESSIONS = 64  # TCP connections served at once; one more gets a "server busy" reply
IDLE_TIMEOUT_S = 300.0  # a TCP connection whose next request line is not whole by then closes


class _Session(socketserver.BaseRequestHandler):
    """One connection = one game session with its own player."""

    server: _TCPServer

    def setup(self) -> None:
        self.session = Server(self.server.make_player,
                              decision_timeout=self.server.decision_timeout,
                              recorder=self.server.recorder)
        self._buf = b""

    def _read_line(self) -> bytes | None:
        """The next request line, whole within `idle_timeout` s however it trickles in (None:
        the client closed, went silent or too slow); a line over MAX_LINE bytes comes back
        cut at MAX_LINE + 1 bytes, without its newline."""
        deadline = time.monotonic() + self.server.idle_timeout
        while b"\n" not in self._buf and len(self._buf) <= MAX_LINE:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.request.settimeout(left)
            try:
                chunk = self.request.recv(65536)
            except (TimeoutError, OSError):
                return None  # silent (or reset): the connection goes, its slot frees
            if not chunk:
                return None
            self._buf += chunk
        line, nl, rest = self._buf.partition(b"\n")
        if not nl:
            return self._buf[:MAX_LINE + 1]
        self._buf = rest
        return line + nl

    def handle(self) -> None:
        while True:
            line = self._read_line()
            if line is None:
                return
            if too_long(line):  # one error reply, then the connection goes
                self.request.sendall(reply_line(TOO_LONG_REPLY).encode())
                return
            if not line.strip():
                continue
            reply = self.session.handle(line)
            self.request.sendall(reply_line(reply).encode())


class _TCPServer(Capped, socketserver.ThreadingTCPServer):
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
        self.capped(max_sessions)
        super().__init__(address, _Session)

    def busy_reply(self) -> bytes:
        busy = {"id": None, "error": f"server busy: {self.max_connections} sessions already"}
        return reply_line(busy).encode()

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        busy: threading.Thread | None = None
        try:
            busy = _Session(request, client_address, self).session.busy
        except Exception:  # noqa: BLE001 - handle_error decides what is worth a line
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            if busy is None or not busy.is_alive():
                self.slots.release()
            else:
                # A decision that never returned keeps its slot until it does: stuck bots
                # cannot pile up threads beyond max_sessions.
                threading.Thread(target=_release_after, args=(busy, self.slots),
                                 daemon=True).start()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that resets or vanishes is routine: one line, no traceback."""
        e = sys.exc_info()[1]
        if isinstance(e, ConnectionError | TimeoutError | BrokenPipeError):
            return
        print(f"session {client_address}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)


def _release_after(busy: threading.Thread, slots: threading.BoundedSemaphore) -> None:
    busy.join()
    slots.release()


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
