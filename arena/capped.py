"""A threading socket server that serves at most N connections at once (`arena.serve.tcp`'s
sessions, `arena.web.app`'s page): one more gets a "busy" reply and is closed, and running out of
file descriptors waits instead of spinning on accept."""

from __future__ import annotations

import contextlib
import socketserver
import threading
import time
from typing import Any

__all__ = ["Capped"]


class Capped(socketserver.TCPServer):
    """Put before the server class (`class S(Capped, ThreadingTCPServer)`); call `capped(n)`
    before the base's __init__, release `slots` when a connection's thread ends."""

    max_connections = 0
    slots: threading.BoundedSemaphore

    def capped(self, n: int) -> None:
        """Serve at most `n` connections at once."""
        self.max_connections = n
        self.slots = threading.BoundedSemaphore(n)

    def busy_reply(self) -> bytes:
        """What a connection over the cap gets before it is closed."""
        raise NotImplementedError

    def get_request(self) -> tuple[Any, Any]:
        try:
            return super().get_request()
        except OSError:
            time.sleep(0.05)  # out of file descriptors: wait instead of spinning on accept
            raise

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(self.busy_reply())
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise
