"""Untrusted bots play isolated: in their own process, through the bot protocol.

A bot named by class path (`package.module:Class`, see `arena.bots.trusted`) is third-party
code. Imported into the game's process it could reach the live game through Python (make a
read-only array writable, follow a private attribute to the opponents' cards, patch the
engine at import). So the arena never imports it: `isolated_bot(spec)` starts
`python -m arena.serve.child SPEC`, which loads the bot in a fresh interpreter and answers
the protocol (docs/protocol.md) in strict mode (`arena.serve.server.Server(strict=True)`: the
bot's own answer or an error, never a fallback). Each decision sends only what the seat may see
(`arena.wire.protocol.encode_state`); the bot gets a view built on its own decoded copy, so
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
import queue
import re
import secrets
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

import numpy as np

from arena.isolation import bubblewrap
from arena.wire.protocol import ProtocolError
from arena.wire.subprocess_player import SubprocessPlayer

__all__ = ["DECISION_TIMEOUT_S", "MAX_STDERR", "SECRET_ENV", "SECRET_FILE_ENV", "START_GRACE_S",
           "IsolatedBot",
           "close_idle", "isolated_bot", "not_dumpable", "release", "secret", "secret_seed"]

DECISION_TIMEOUT_S = 10.0  # default per-decision time limit of every arena tool
START_GRACE_S = 30.0  # added to the first exchange: the interpreter and the bot loading
MAX_STDERR = 64 * 1024  # bytes of a bot process's output passed on to the engine's stderr


def not_dumpable() -> None:
    """Linux: mark this process not dumpable, so that a process of the same user (a bot) cannot
    read its memory through /proc/PID/mem or ptrace (root still can). The engine calls it when
    it starts an isolated bot, every bot's process before it loads the bot."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4

SECRET_ENV = "RISKEVO_SECRET"  # refused: a variable is readable through every wrapper process
SECRET_FILE_ENV = "RISKEVO_SECRET_FILE"  # names a file (or pipe) holding the key, never the key
MAX_SECRET_FILE = 1024  # bytes read of it: a key is 32..128 hex digits


def secret() -> bytes:
    """The key that deals every game with an isolated seat: 16 bytes of fresh OS entropy, or
    the 32..128 hex digits of the file $RISKEVO_SECRET_FILE names (readable by its owner only,
    or a pipe such as `<(cat key)`); ValueError (one line) if it is malformed, or if
    $RISKEVO_SECRET is set. The key never passes through an environment variable, a file the
    engine writes or a command line: a process that exported it (a shell, `timeout`, `make`)
    would keep it readable in /proc/PID/environ for every process of its user. It stays in
    this process (not dumpable from now on); workers get the seeds it made."""
    global _SECRET
    not_dumpable()
    if _SECRET is None:
        if os.environ.pop(SECRET_ENV, None) is not None:
            raise ValueError(f"${SECRET_ENV} is not read (a variable stays readable in every "
                             "process that passed it on); put the key in a file only you can "
                             f"read and name it with ${SECRET_FILE_ENV}")
        path = os.environ.pop(SECRET_FILE_ENV, "")
        key = _read_key(path) if path else secrets.token_bytes(16)
        _SECRET = key
    return _SECRET


def _read_key(path: str) -> bytes:
    """The key in the file `path` names (ValueError naming $RISKEVO_SECRET_FILE if unusable)."""
    where = f"${SECRET_FILE_ENV} ({path})"
    # A link is not followed (another user's link to a key file), but for a descriptor this
    # process holds, /dev/fd/N: a pipe as `<(cat key)` gives it (the kernel's link to it).
    held = re.fullmatch(r"/(dev|proc/self)/fd/[0-9]+", path) is not None
    try:
        fd = os.open(path, os.O_RDONLY | (0 if held else os.O_NOFOLLOW)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise ValueError(f"{where}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            if st.st_mode & 0o077:
                raise ValueError(f"{where}: readable by others (mode "
                                 f"{stat.S_IMODE(st.st_mode):o}); chmod 600 it")
        elif not stat.S_ISFIFO(st.st_mode):
            raise ValueError(f"{where}: not a regular file or a pipe")
        data = b""
        while len(data) <= MAX_SECRET_FILE:
            chunk = os.read(fd, MAX_SECRET_FILE + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as e:
        raise ValueError(f"{where}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    text = data.decode("ascii", "replace").strip() if len(data) <= MAX_SECRET_FILE else ""
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if not 16 <= len(key) <= 64:
        raise ValueError(f"{where}: must hold 32..128 hex digits, got {len(data)} bytes")
    return key


_SECRET: bytes | None = None


def secret_seed(seed: int) -> int:
    """A 63-bit seed no bot can compute: the keyed hash (BLAKE2b, key `secret()`) of `seed`."""
    digest = hashlib.blake2b(str(seed).encode(), key=secret(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class IsolatedBot(SubprocessPlayer):
    """A third-party bot in its own process (`python -m arena.serve.child SPEC`)."""

    def __init__(self, spec: str, timeout: float | None = DECISION_TIMEOUT_S) -> None:
        not_dumpable()
        env = {k: v for k, v in os.environ.items() if k not in (SECRET_ENV, SECRET_FILE_ENV)}
        # The child imports what this process could import (tests, the working folder, ...;
        # in the sandbox only riskevo's packages, the runtime and the bot's module exist).
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        start = None if timeout is None else timeout + START_GRACE_S
        argv = bubblewrap.wrap([sys.executable, "-m", "arena.serve.child", spec], spec)
        self.sandboxed = argv[0] != sys.executable
        # Its own session and process group (every process it forks is killed with it), its
        # output through a pipe this process bounds (a forked child cannot hold our stderr).

        def begin() -> None:
            SubprocessPlayer.__init__(self, argv, timeout=timeout, start_timeout=start, env=env,
                                      start_new_session=True, stderr=subprocess.PIPE)

        # bwrap dies with the thread that started it (its parent-death signal follows that
        # thread, issue 65, X2): started from one that lives as long as this process.
        if self.sandboxed:
            _from_lasting_thread(begin)
        else:
            begin()
        self.spec = spec
        if self.proc is not None and self.proc.stderr is not None:
            threading.Thread(target=_pass_on, args=(self.proc.stderr, spec),
                             daemon=True).start()

    def kill(self) -> None:
        """End the bot's process and every process of its group."""
        if self.proc is not None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        super().kill()

    def alone(self) -> bool:
        """True when the bot forked no process that lives: no other process in its group, or
        in the sandbox, no process under bwrap but the bot's interpreter (its PID 1)."""
        if self.proc is None:
            return False
        if self.sandboxed:
            return _descendants(self.proc.pid) == 1
        try:
            stats = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != self.proc.pid]
        except OSError:
            return False  # cannot tell: do not keep it
        for pid in stats:
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rpartition(b")")[2].split()
                if int(fields[2]) == self.proc.pid:  # pgrp
                    return False
        return True

    def __repr__(self) -> str:
        return f"IsolatedBot({self.spec!r})"

    def rng_fields(self, rng: np.random.Generator) -> dict[str, Any]:
        """A seed for the bot's own randomness, not its seat's generator state: a draw from
        it, which reveals nothing of a game dealt from a secret seed (`secret_seed`)."""
        return {"seed": int(rng.integers(2**63))}

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.kill()


_IDLE: dict[tuple[str, float | None], list[IsolatedBot]] = {}  # processes between games
_MAX_IDLE = 6  # per spec and time limit: a 6-player game of copies


def release(bot: IsolatedBot) -> None:
    """After a game: keep a healthy process for the next game of this spec (a new game starts
    a new player in it: start_game), else end it."""
    idle = _IDLE.setdefault((bot.spec, bot.timeout), [])
    if (bot.broken or bot.proc is None or bot.proc.poll() is not None or len(idle) >= _MAX_IDLE
            or not bot.alone()):
        bot.close()
        return
    try:
        bot.request("end_game")
    except Exception:  # noqa: BLE001 - a process that cannot end its game is not kept
        bot.close()
        return
    bot.map = None
    idle.append(bot)


def _descendants(pid: int) -> int:
    """How many live processes descend from `pid` (a large number if /proc cannot tell)."""
    children: dict[int, list[int]] = {}
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return 1 << 30
    for p in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{p}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
            if fields[0] != b"Z":
                children.setdefault(int(fields[1]), []).append(p)
    seen, todo = 0, list(children.get(pid, []))
    while todo:
        seen += 1
        todo += children.get(todo.pop(), [])
    return seen


_spawner: tuple[threading.Thread, queue.SimpleQueue[Any]] | None = None
_spawner_lock = threading.Lock()


def _forget_spawner() -> None:
    """In a forked child: its parent's spawner thread is not there, its lock may be held."""
    global _spawner, _spawner_lock
    _spawner, _spawner_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_spawner)


def _from_lasting_thread(start: Callable[[], None]) -> None:
    """Run `start` (which starts a process) in a daemon thread that lives as long as this
    process, and wait for it: a process whose parent-death signal is set (bwrap's
    --die-with-parent) then ends with this process, not with the calling thread."""
    global _spawner
    with _spawner_lock:
        if _spawner is None or not _spawner[0].is_alive():  # none yet, or a fork's copy
            jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
            thread = threading.Thread(target=_spawn_forever, args=(jobs,), daemon=True,
                                      name="riskevo-sandbox-spawner")
            thread.start()
            _spawner = (thread, jobs)
        jobs = _spawner[1]
    done = threading.Event()
    failed: list[BaseException] = []
    jobs.put((start, done, failed))
    done.wait()
    if failed:
        raise failed[0]


def _spawn_forever(jobs: queue.SimpleQueue[Any]) -> None:
    while True:
        start, done, failed = jobs.get()
        try:
            start()
        except BaseException as e:  # noqa: BLE001 - raised in the thread that asked
            failed.append(e)
        finally:
            done.set()


def _pass_on(stream: IO[bytes], spec: str) -> None:
    """Copy a bot process's output to stderr, at most MAX_STDERR bytes, until it closes."""
    sent = 0
    while True:
        try:
            chunk = os.read(stream.fileno(), 65536)
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            break
        with contextlib.suppress(Exception):
            if sent < MAX_STDERR:
                sys.stderr.write(chunk[:MAX_STDERR - sent].decode("utf-8", "replace"))
            if sent <= MAX_STDERR < sent + len(chunk):
                sys.stderr.write(f"\n[{spec}: output beyond {MAX_STDERR} bytes dropped]\n")
            sys.stderr.flush()
        sent += len(chunk)
    with contextlib.suppress(OSError):
        stream.close()


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
