"""The web page's HTTP server, bounded for a page open on one person's machine.

At most `MAX_CONNECTIONS` connections are served at once (one more gets a 503 and is
closed), a request must arrive whole (line, headers, body) within `REQUEST_DEADLINE_S` however
it trickles in, an API request from another site's page (its Origin) or through a foreign host
name (DNS rebinding) is refused, and a client that resets costs no traceback.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import socket
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from arena.capped import Capped
from game.untrusted import UntrustedJSONError, parse_json

__all__ = ["MAX_BODY", "MAX_CONNECTIONS", "MAX_QUERY_FIELDS", "REQUEST_DEADLINE_S",
           "BoundedHTTPServer", "Deadline", "GuardedHandler", "RequestError", "foreign_request",
           "split_path"]

MAX_BODY = 64 * 1024  # a request body's bytes
MAX_CONNECTIONS = 32  # connections served at once (a page polls over one or two)
MAX_QUERY_FIELDS = 8  # a query string's fields (the API reads bot, line and since)
REQUEST_DEADLINE_S = 20.0  # a request arrives whole by then (an idle keep-alive closes too)


class BoundedHTTPServer(Capped, ThreadingHTTPServer):
    """ThreadingHTTPServer with a cap on connections and no traceback for routine resets."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any) -> None:
        self.capped(MAX_CONNECTIONS)
        super().__init__(address, handler)

    def busy_reply(self) -> bytes:
        body = json.dumps({"error": f"server busy: {self.max_connections} connections "
                                    "already"}).encode()
        return ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that resets, times out or vanishes is routine: no traceback."""
        e = sys.exc_info()[1]
        if isinstance(e, OSError):
            return
        print(f"riskevo web: {client_address}: {type(e).__name__}: {e}", file=sys.stderr,
              flush=True)


class RequestError(ValueError):
    """A request the server refuses; the message is sent back as {"error": ...}."""

    def __init__(self, msg: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(msg)
        self.status = status


class GuardedHandler(BaseHTTPRequestHandler):
    """A request handler whose request must arrive whole within REQUEST_DEADLINE_S (call
    `request_in` once it has) and that can tell a request from another site (`foreign`)."""

    def handle_one_request(self) -> None:
        """One request, cut if it has not arrived whole in time."""
        self._deadline = Deadline(self.connection, REQUEST_DEADLINE_S)
        try:
            super().handle_one_request()
        finally:
            self._deadline.stop()

    def request_in(self) -> None:
        """The request has arrived whole: no cut while it is answered."""
        self._deadline.stop()

    def _send(self, status: int, data: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, obj: dict[str, Any]) -> None:
        self._send(status, json.dumps(obj, separators=(",", ":")).encode(),
                   "application/json")

    def _body(self) -> dict[str, Any] | None:
        length = self.headers.get("Content-Length")
        if length is None:
            return None
        if not (length.isascii() and length.isdigit() and len(length) <= 18):
            self.close_connection = True  # "²" is a digit to Python, "0" x 5000 beyond int()
            raise RequestError("Content-Length must be a whole number of bytes",
                               HTTPStatus.BAD_REQUEST)
        if int(length) > MAX_BODY:
            self.close_connection = True
            raise RequestError(f"request body must be at most {MAX_BODY} bytes",
                               HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        raw = self.rfile.read(int(length))
        if not raw:
            return None
        try:
            body = parse_json(raw, "the request body")
        except UntrustedJSONError as e:
            raise RequestError(str(e)) from None
        if not isinstance(body, dict):
            raise RequestError("the request body must be a JSON object")
        return body

    def foreign(self) -> str | None:
        """Why this request must be refused (`foreign_request`); the connection then closes."""
        why = foreign_request(self.headers.get("Host"), self.headers.get("Origin"))
        if why is not None:
            self.close_connection = True
        return why


class Deadline:
    """Cuts a connection whose request has not arrived whole in time (`stop` when it has)."""

    def __init__(self, conn: socket.socket, seconds: float) -> None:
        self.timer = threading.Timer(seconds, self._cut, args=(conn,))
        self.timer.daemon = True
        self.timer.start()

    @staticmethod
    def _cut(conn: socket.socket) -> None:
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        """The request is in: no cut."""
        self.timer.cancel()


def _local_name(host: str) -> bool:
    """An IP literal or localhost: no DNS name another site could point at this server."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def foreign_request(host: str | None, origin: str | None) -> str | None:
    """Why a request from a browser must be refused (None: it may be served): its Host is
    not an address of this machine, or its Origin is another site's page."""
    if not host:
        return "a Host header is required"
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if not _local_name(name):
        return f"host {host[:60]!r} is not an address of this server (use 127.0.0.1)"
    if origin is not None and origin != f"http://{host}":
        return f"requests from {origin[:60]!r} are refused (only this server's own page)"
    return None


def split_path(path: str) -> tuple[list[str], dict[str, str]]:
    """A request path's segments and its decoded query (RequestError beyond MAX_QUERY_FIELDS)."""
    url = urlsplit(path)
    try:
        query = parse_qsl(url.query, keep_blank_values=True, max_num_fields=MAX_QUERY_FIELDS)
    except ValueError:
        raise RequestError(f"a query string takes at most {MAX_QUERY_FIELDS} fields") from None
    return [p for p in url.path.split("/") if p], dict(query)
