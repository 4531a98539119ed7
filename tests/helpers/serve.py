"""Bot protocol test helpers: a tiny board and state, and sessions over a subprocess or TCP."""

from __future__ import annotations

import copy
import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from arena.bots import make_bot
from arena.serve.server import Server, SubprocessPlayer
from features.botfile import save_genome
from features.genome import LAYOUT, hand_set_genome
from features.registry import G_TRADE_AT

TINY = {"name": "tiny",
        "continents": [{"name": "North", "bonus": 2, "territories": ["Alpha", "Bravo", "Charlie"]},
                       {"name": "South", "bonus": 1, "territories": ["Delta", "Echo"]}],
        "borders": [["Alpha", "Bravo"], ["Alpha", "Charlie"], ["Bravo", "Charlie"],
                    ["Charlie", "Delta"], ["Delta", "Echo"]]}
# Seat 0 holds Alpha, Bravo and Echo; seat 1 Charlie and Delta. Card ids: 0..4 the territories
# (classic kinds i % 3), 5 and 6 the wilds.
STATE: dict[str, Any] = {"phase": "attack", "current": 0, "round": 3,
                         "owner": [0, 0, 1, 1, 0], "armies": [5, 3, 2, 2, 1]}
START: dict[str, Any] = {"id": 0, "ask": "start_game", "map": TINY, "seat": 0, "n_players": 2,
                         "rules": {"cap": 20}, "state": {**STATE, "phase": "setup", "round": 0},
                         "seed": 3}
TIMEOUT = 60.0


def request(ask: str, rid: int = 1, **state: Any) -> dict[str, Any]:
    """A decision request on STATE with some state fields replaced (None drops one)."""
    s = copy.deepcopy(STATE)
    s["phase"] = {"place_initial": "setup", "reinforce": "reinforce", "trade": "trade",
                  "attack": "attack", "move_in": "occupy", "fortify": "fortify"}[ask]
    for k, v in state.items():
        if v is None:
            s.pop(k, None)
        else:
            s[k] = v
    return {"id": rid, "ask": ask, "state": s}


def hand(*cards: tuple[int, str]) -> list[dict[str, Any]]:
    """A hand as the request sends it: (card id, kind name)."""
    return [{"id": c, "kind": k} for c, k in cards]


def write_bot(path: str, trade_at: float = 0.5) -> str:
    """The hand-set linear genome with cards.trade_at set (0.5: optional sets worth >= 10)."""
    w = hand_set_genome(LAYOUT)
    w[G_TRADE_AT] = trade_at
    save_genome(path, np.asarray(w), {"run": "test"})
    return path


class Session:
    """One game session: a line out, a line back."""

    def __init__(self, out: Any, inp: Any, close: Any = None) -> None:
        self.out, self.inp, self._close = out, inp, close

    def ask(self, req: dict[str, Any] | str) -> dict[str, Any]:
        """Send one request (object or raw line) and return the parsed reply."""
        line = req if isinstance(req, str) else json.dumps(req)
        self.out.write((line + "\n").encode())
        self.out.flush()
        reply = self.inp.readline()
        assert reply, "the server closed the session"
        return dict(json.loads(reply))

    def close(self) -> None:
        """End the session."""
        if self._close is not None:
            self._close()


class StdioServer:
    """`python -m arena serve BOT`: one session over its stdin/stdout."""

    def __init__(self, bot: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", bot],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def session(self) -> Session:
        """The one session (start_game starts a new game)."""
        return Session(self.proc.stdin, self.proc.stdout)

    def stop(self) -> int:
        """Close stdin and wait: the server ends with its input."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=TIMEOUT)


class TcpServer:
    """`python -m arena serve BOT --tcp 127.0.0.1:0`: a session per connection."""

    def __init__(self, bot: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", bot, "--tcp", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline().decode()
        m = re.search(r"on ([\d.]+):(\d+)", line)
        assert m, f"no address in {line!r}"
        self.host, self.port = m.group(1), int(m.group(2))

    def session(self) -> Session:
        """A new connection: a new session."""
        sock = socket.create_connection((self.host, self.port), timeout=TIMEOUT)
        f = sock.makefile("rwb")

        def close() -> None:
            f.close()
            sock.close()

        return Session(f, f, close)

    def stop(self) -> int:
        """Terminate the server (it serves until stopped)."""
        self.proc.terminate()
        return self.proc.wait(timeout=TIMEOUT)


def json_paths(v: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value (object keys and list indices), the value's own included."""
    yield prefix
    if isinstance(v, dict):
        for k, x in v.items():
            yield from json_paths(x, (*prefix, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from json_paths(x, (*prefix, i))


def replaced(v: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A deep copy of v with the value at `path` replaced."""
    if not path:
        return new
    out = copy.deepcopy(v)
    at = out
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = new
    return out


class Loopback(SubprocessPlayer):
    """The adapter talking to a Server in this process (same bytes, no process)."""

    def __init__(self, spec: str) -> None:
        super().__init__(None)
        self.server = Server(lambda: make_bot(spec))
        self.lines: list[str] = []

    def exchange(self, line: str) -> str:
        reply = json.dumps(self.server.handle(line), separators=(",", ":"))
        self.lines += [line, reply]
        return reply + "\n"


