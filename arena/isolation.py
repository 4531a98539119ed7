"""Untrusted bots play isolated: in their own process, through the bot protocol.

A bot named by class path (`package.module:Class`, see `arena.bots.trusted`) is third-party
code. Imported into the game's process it could reach the live game through Python (make a
read-only array writable, follow a private attribute to the opponents' cards, patch the
engine at import). So the arena never imports it: `isolated_bot(spec)` starts
`python -m arena.isolated_child SPEC`, which loads the bot in a fresh interpreter and answers
the protocol (docs/protocol.md) in strict mode (`arena.serve.Server(strict=True)`: the bot's own
answer or an error, never a fallback). Each decision sends only what the seat may see
(`arena.protocol.encode_state`); the bot gets a view built on its own decoded copy, so
whatever it does to it stays in its process. A decision not answered within the time limit
kills the process; a timeout, crash, protocol error or illegal answer raises in the engine,
which makes the bot forfeit (`game.forfeit`). See docs/trust.md.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import hashlib
import os
import secrets
import sys
from typing import Any

import numpy as np

from arena.protocol import ProtocolError
from arena.subprocess_player import SubprocessPlayer

__all__ = ["DECISION_TIMEOUT_S", "SECRET_ENV", "START_GRACE_S", "IsolatedBot", "close_idle",
           "isolated_bot", "release", "secret", "secret_seed"]

DECISION_TIMEOUT_S = 10.0  # default per-decision time limit of every arena tool
START_GRACE_S = 30.0  # added to the first exchange: the interpreter and the bot loading


def _undumpable() -> None:
    """Linux: mark this (the engine's) process not dumpable, so that a bot process of the same
    user cannot read its memory through /proc/PID/mem or ptrace (root still can)."""
    global _GUARDED
    if _GUARDED or not sys.platform.startswith("linux"):
        return
    _GUARDED = True
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4


_GUARDED = False

SECRET_ENV = "RISKEVO_SECRET"  # hex key dealing games with an isolated seat; never a bot's


def secret() -> bytes:
    """The key that deals every game with an isolated seat: $RISKEVO_SECRET (32..128 hex
    digits) if set, else 16 bytes of fresh OS entropy, kept in this process's environment so
    that worker processes started later deal from the same key (ValueError if malformed).
    A process holding it is made not dumpable; a bot's process never gets it."""
    _undumpable()
    text = os.environ.get(SECRET_ENV, "")
    if not text:
        text = os.environ[SECRET_ENV] = secrets.token_hex(16)
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if not 16 <= len(key) <= 64:
        raise ValueError(f"${SECRET_ENV} must be 32..128 hex digits, got {len(text)} characters")
    return key


def secret_seed(seed: int) -> int:
    """A 63-bit seed no bot can compute: the keyed hash (BLAKE2b, key `secret()`) of `seed`."""
    digest = hashlib.blake2b(str(seed).encode(), key=secret(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class IsolatedBot(SubprocessPlayer):
    """A third-party bot in its own process (`python -m arena.isolated_child SPEC`)."""

    def __init__(self, spec: str, timeout: float | None = DECISION_TIMEOUT_S) -> None:
        _undumpable()
        env = {k: v for k, v in os.environ.items() if k != SECRET_ENV}
        # The child imports what this process could import (tests, the working folder, ...).
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        start = None if timeout is None else timeout + START_GRACE_S
        super().__init__([sys.executable, "-m", "arena.isolated_child", spec], timeout=timeout,
                         start_timeout=start, env=env)
        self.spec = spec

    def __repr__(self) -> str:
        return f"IsolatedBot({self.spec!r})"

    def rng_fields(self, rng: np.random.Generator) -> dict[str, Any]:
        """A seed for the bot's own randomness that reveals nothing of the game's: a keyed
        hash of a draw from its seat's generator (reproducible with the same secret)."""
        return {"seed": secret_seed(int(rng.integers(2**63)))}

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.kill()


_IDLE: dict[tuple[str, float | None], list[IsolatedBot]] = {}  # processes between games
_MAX_IDLE = 6  # per spec and time limit: a 6-player game of copies


def release(bot: IsolatedBot) -> None:
    """After a game: keep a healthy process for the next game of this spec (a new game starts
    a new player in it: start_game), else end it."""
    idle = _IDLE.setdefault((bot.spec, bot.timeout), [])
    if bot.broken or bot.proc is None or bot.proc.poll() is not None or len(idle) >= _MAX_IDLE:
        bot.close()
        return
    try:
        bot.request("end_game")
    except Exception:  # noqa: BLE001 - a process that cannot end its game is not kept
        bot.close()
        return
    bot.map = None
    idle.append(bot)


@atexit.register
def close_idle() -> None:
    """End every kept process (at exit; their input closing ends them anyway)."""
    for idle in _IDLE.values():
        while idle:
            idle.pop().close()


def isolated_bot(spec: str, timeout: float | None = DECISION_TIMEOUT_S) -> IsolatedBot:
    """A started isolated bot whose class loaded (ValueError with the child's message if not):
    a kept process of an earlier game of this spec if there is one (`release`)."""
    idle = _IDLE.get((spec, timeout), [])
    while idle:
        kept = idle.pop()
        if kept.proc is not None and kept.proc.poll() is None:
            return kept
        kept.close()
    bot = IsolatedBot(spec, timeout)
    try:
        bot.request("hello")
    except ProtocolError as e:
        bot.kill()
        raise ValueError(str(e).removeprefix("bot error on hello: ")) from None
    return bot
