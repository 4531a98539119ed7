"""Engine side of the bot protocol: a riskevo player whose decisions come from another process.

`SubprocessPlayer` forwards every decision to `python -m arena serve BOT` (or any other command
that speaks docs/protocol.md), so riskevo can play bots that live in another process or language.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.wire.protocol import PROTOCOL, ProtocolError, encode_state
from game.actions import Attack, Fortify, MoveIn, Pass, Place, Trade, parse_action
from game.decision import Decision, answer_named
from game.map import Map
from game.protocol import IllegalActionError
from game.rules import layout as L
from game.rules.cards import classic_card_kinds
from game.untrusted import UntrustedJSONError, parse_json
from game.view import GameView

__all__ = ["BotTimeoutError", "SubprocessPlayer", "map_json"]


def map_json(m: Map) -> dict[str, Any]:
    """The board in the JSON layout of game/maps/classic.json (territory order = index order)."""
    conts = [{"name": c, "bonus": int(m.bonus[ci]),
              "territories": [t for i, t in enumerate(m.territories) if m.continent_of[i] == ci]}
             for ci, c in enumerate(m.continents)]
    ii, jj = np.nonzero(np.triu(m.adjacency))
    d: dict[str, Any] = {
        "name": m.name, "continents": conts,
        "borders": [[m.territories[i], m.territories[j]] for i, j in zip(ii, jj, strict=True)]}
    if not np.array_equal(m.card_kind, classic_card_kinds(m.n_territories)):
        d["card_kinds"] = {t: L.KIND_NAMES[m.card_kind[i]] for i, t in enumerate(m.territories)}
    return d


class BotTimeoutError(ProtocolError):
    """The bot process gave no answer within its time limit (the process is killed)."""


MAX_REPLY = 1 << 20  # bytes of one reply line: an action text is a few dozen
CLOSE_GRACE_S = 10.0  # seconds a bot has to exit once its input closes, then it is killed


class SubprocessPlayer:
    """A riskevo player whose decisions come from a subprocess speaking the protocol.

    `timeout` (seconds, None = wait forever) bounds every exchange: a process that has not
    answered by then is killed and the request raises `BotTimeoutError`; `start_timeout` bounds
    the first exchange (the interpreter starting and the bot loading as well).
    """

    name = "subprocess"

    def __init__(self, command: Sequence[str] | None, *, timeout: float | None = None,
                 start_timeout: float | None = None, env: dict[str, str] | None = None,
                 **popen: Any) -> None:
        self.command = list(command or [])
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, **popen) if command else None
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.map: Map | None = None
        self._id = 0
        self._buf = b""
        self._started = False
        self.broken = False

    @classmethod
    def for_bot(cls, spec: str) -> SubprocessPlayer:
        """`python -m arena serve SPEC` with this interpreter."""
        return cls([sys.executable, "-m", "arena", "serve", spec])

    def kill(self) -> None:
        """End the process now (its pipes closed, its exit collected)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            for f in (self.proc.stdin, self.proc.stdout):
                if f is not None:
                    with contextlib.suppress(OSError):
                        f.close()
            self.proc.wait()

    def exchange(self, line: str) -> str:
        """Send one request line, return the reply line ("" if the process closed its output)."""
        if self.proc is None or self.proc.stdin is None or self.proc.stdout is None:
            raise ProtocolError("no bot process to talk to")
        limit = self.timeout if self._started or self.start_timeout is None else self.start_timeout
        self._started = True
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            self.kill()
            return ""
        fd = self.proc.stdout.fileno()
        deadline = None if limit is None else time.monotonic() + limit
        while b"\n" not in self._buf:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                self.kill()
                raise BotTimeoutError(f"no answer within {limit:g} s (bot process killed)")
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return ""
            self._buf += chunk
            if len(self._buf) > MAX_REPLY:
                self.kill()
                raise ProtocolError(f"reply line longer than {MAX_REPLY} bytes (bot process "
                                    "killed)")
        raw, _, self._buf = self._buf.partition(b"\n")
        return raw.decode("utf-8", "replace") + "\n"

    def request(self, ask: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return the reply (ProtocolError on an error reply)."""
        try:
            return self._request(ask, **fields)
        except BaseException:
            self.broken = True  # the process may be gone or out of step: never reuse it
            raise

    def _request(self, ask: str, **fields: Any) -> dict[str, Any]:
        self._id += 1
        line = self.exchange(json.dumps({"id": self._id, "ask": ask, **fields},
                                        separators=(",", ":")))
        if not line:  # named by its repr, not its argv (bwrap's is 1 KB)
            raise ProtocolError(f"bot process {self!r} closed its output")
        try:
            reply = parse_json(line, f"bot reply to {ask}")
        except UntrustedJSONError as e:
            raise ProtocolError(f"{e}: {line[:80]!r}") from None
        if not isinstance(reply, dict):
            raise ProtocolError(f"bot reply to {ask} is not a JSON object")
        if "error" in reply and reply.get("id") in (self._id, None):
            raise ProtocolError(f"bot error on {ask}: {reply['error']}")
        if reply.get("id") != self._id:
            raise ProtocolError(f"reply id {reply.get('id')!r}, expected {self._id}")
        return dict(reply)

    def _act(self, view: GameView, ask: str, **fields: Any) -> Any:
        if self.map is None:
            raise ProtocolError(f"{ask} before start_game")
        text = self.request(ask, state=encode_state(view), **fields).get("action")
        if not isinstance(text, str):
            raise ProtocolError(f"bot reply to {ask} has no action text")
        try:
            return parse_action(str(text), self.map)
        except ValueError as e:
            raise IllegalActionError(f"bot answered {text!r} to {ask}: {e}") from None

    def rng_fields(self, rng: np.random.Generator) -> dict[str, Any]:
        """The bot's randomness at start_game: this player's generator state (the same game
        as in-process; an untrusted bot gets a seed instead, arena.isolation.sandbox)."""
        return {"rng_state": rng.bit_generator.state}

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Send the board, rules, seat and the bot's randomness (`rng_fields`)."""
        self.map = view.map
        r = view.rules
        self.request("start_game", map=map_json(view.map), seat=view.seat,
                     n_players=view.n_players, **self.rng_fields(rng),
                     rules=dataclasses.asdict(r), protocol=PROTOCOL,
                     state=encode_state(view))

    def act(self, view: GameView, decision: Decision) -> Any:
        """Forward the decision (the named method of its kind)."""
        return answer_named(self, view, decision)

    def place_initial(self, view: GameView) -> int:
        """Forward the initial placement."""
        act = self._act(view, "place_initial")
        if not isinstance(act, Place):
            raise IllegalActionError(f"expected 'place T 1', got {act!r}")
        return act.territory

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Forward the reinforcement decision."""
        return self._act(view, "reinforce", armies=armies)

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """Forward the trade decision ('end-trade' becomes None)."""
        a = self._act(view, "trade", compulsory=compulsory)
        return None if isinstance(a, Pass) else a

    def attack(self, view: GameView) -> Attack | None:
        """Forward the attack decision ('stop' becomes None)."""
        a = self._act(view, "attack")
        return None if isinstance(a, Pass) else a

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Forward the move-in decision."""
        a = self._act(view, "move_in", lo=lo, hi=hi)
        if not isinstance(a, MoveIn):
            raise IllegalActionError(f"expected 'move N', got {a!r}")
        return a.count

    def fortify(self, view: GameView) -> Fortify | None:
        """Forward the fortify decision ('skip' becomes None)."""
        a = self._act(view, "fortify")
        return None if isinstance(a, Pass) else a

    def close(self) -> None:
        """End the subprocess (closing its input ends `serve`)."""
        if self.proc is not None:
            with contextlib.suppress(OSError, ValueError):
                if self.proc.stdin:
                    self.proc.stdin.close()
            try:  # a clean exit takes ~0.4 s on an idle machine; a loaded one needs more
                self.proc.wait(timeout=CLOSE_GRACE_S)
            except subprocess.TimeoutExpired:
                self.kill()
            self.kill()

    def __repr__(self) -> str:
        return f"SubprocessPlayer({' '.join(self.command[-1:])!r})"
