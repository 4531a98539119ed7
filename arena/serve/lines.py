"""The bot protocol's line transport: a request line's bound, one JSON line a reply, and `serve`,
one session of `arena.serve.server.Server` over stdin/stdout (`arena.serve.tcp` the same over
TCP)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from arena.serve.recorder import Recorder
from arena.serve.server import Server
from game.protocol import Player

__all__ = ["MAX_LINE", "TOO_LONG_REPLY", "reply_line", "serve", "too_long"]

MAX_LINE = 1 * 2**20  # bytes of one request line (stdin or TCP); a longer one ends the session


def reply_line(reply: dict[str, Any]) -> str:
    """A reply as one JSON line (ids that cannot be written back become null)."""
    try:
        return json.dumps(reply, separators=(",", ":"), allow_nan=False) + "\n"
    except (ValueError, TypeError, RecursionError, OverflowError):
        return json.dumps({**reply, "id": None}, separators=(",", ":"), allow_nan=False) + "\n"


def too_long(line: bytes) -> bool:
    """A line cut at MAX_LINE + 1 bytes before its newline: longer than a request may be."""
    return len(line) > MAX_LINE and not line.endswith(b"\n")


TOO_LONG_REPLY = {"id": None, "error": f"request line longer than {MAX_LINE} bytes"}


def serve(make_player: Callable[[], Player], inp: IO[bytes], out: IO[str],
          strict: bool = False, decision_timeout: float | None = None,
          recorder: Recorder | None = None) -> None:
    """Answer request lines from `inp` on `out` until end of input (one game session); a line
    longer than MAX_LINE bytes gets one error reply and ends it (reading on could take
    forever)."""
    server = Server(make_player, strict, decision_timeout, recorder)
    while line := inp.readline(MAX_LINE + 1):
        if too_long(line):
            out.write(reply_line(TOO_LONG_REPLY))
            out.flush()
            return
        if not line.strip():
            continue
        out.write(reply_line(server.handle(line)))
        out.flush()
