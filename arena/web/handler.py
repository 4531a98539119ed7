"""`arena web`'s request handler: the page's static files and the JSON API (`routes._route`),
every error a JSON {"error": ...} reply and at most one line on the terminal."""

from __future__ import annotations

import errno
from http import HTTPStatus
from importlib import resources
from typing import Any

from arena.web.httpd import GuardedHandler, RequestError
from arena.web.routes import Lobby, _route
from arena.web.saves import out_of_descriptors, warn

__all__ = ["STATIC", "Handler"]

STATIC = {"index.html": "text/html; charset=utf-8", "style.css": "text/css; charset=utf-8",
          **{f"{js}.js": "text/javascript; charset=utf-8"
             for js in ("app", "story", "board", "people", "controls", "setup", "replay")}}


class Handler(GuardedHandler):
    """Static files and the JSON API; every error is a JSON {"error": ...} reply."""

    lobby: Lobby  # set on the subclass made by make_server
    server_version = "riskevo-web"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Quiet: the terminal shows the address, not every poll."""

    def _handle(self, method: str) -> None:
        try:
            self._answer(method)
        except ConnectionError:  # the client went away before its answer: routine, no line
            self.close_connection = True

    def _answer(self, method: str) -> None:
        try:
            if method == "GET" and not self.path.startswith("/api/"):
                self.request_in()
                self._static()
                return
            if why := self.foreign():
                raise RequestError(why, HTTPStatus.FORBIDDEN)
            body = self._body() if method == "POST" else None
            self.request_in()  # answering it may take longer than the deadline
            out, kind = _route(self.lobby, method, self.path, body)
            if kind == "text":
                self._send(200, str(out).encode(), "text/plain; charset=utf-8")
            else:
                assert isinstance(out, dict)
                self._json(200, out)
        except RequestError as e:
            self._json(e.status, {"error": str(e)})
        except ConnectionError:
            raise  # not a server bug (`_handle`)
        except OSError as e:
            if e.errno not in (errno.EMFILE, errno.ENFILE):
                self._bug(e)
                return
            # Out of file descriptors (a bot process's pipes, a save): one line a burst, a 503.
            out_of_descriptors(e)
            self._json(503, {"error": "the server is out of file descriptors (too many games "
                                      "or connections); try again when some have closed"})
        except Exception as e:  # a server bug must not end the server, nor hide the cause
            self._bug(e)

    def _bug(self, e: Exception) -> None:
        warn(f"{type(e).__name__}: {' '.join(str(e).split())}")
        self._json(500, {"error": f"internal error: {type(e).__name__}: {e}"})

    def _static(self) -> None:
        name = self.path.split("?", 1)[0].lstrip("/") or "index.html"
        if name not in STATIC:
            raise RequestError(f"no such page {name[:80]!r}", HTTPStatus.NOT_FOUND)
        data = (resources.files("arena.web") / "static" / name).read_bytes()
        self._send(200, data, STATIC[name])

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        """GET: a page file or an API read."""
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        """POST: an API action."""
        self._handle("POST")
