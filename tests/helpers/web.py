"""A web server in a thread for a test, and a client of its API."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any

from arena.web.app import Lobby, make_lobby, make_server


class Client:
    def __init__(self, port: int) -> None:
        self.port = port

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        c.request(method, path, body=data, headers=headers or {})
        r = c.getresponse()
        payload = r.read()
        c.close()
        ctype = r.getheader("Content-Type", "")
        return r.status, json.loads(payload) if "json" in ctype else payload.decode()


def serving(bots: list[str]) -> Iterator[tuple[Client, Lobby]]:
    """A server offering `bots` (the person at seat 0, cap 20, seed 3) until the test ends."""
    lobby = make_lobby(bots, seat=0, rules_text="cap=20", seed=3, replay_file=None)
    srv = make_server(lobby, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield Client(srv.server_address[1]), lobby
    srv.shutdown()
    srv.server_close()
