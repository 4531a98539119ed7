"""Isolated bots' processes: not readable by each other, killed with every process they fork,
their output bounded (docs/trust.md, issue 42)."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.isolation.sandbox import MAX_STDERR, close_idle, not_dumpable
from arena.play import play_specs
from game.state import Rules

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc")


@pytest.fixture(autouse=True)
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """These bots write their pids and flags to files, and the pids must be this namespace's:
    their processes run without the sandbox, and what is shown here holds without it (in it,
    every process a bot forks also dies with its PID namespace: tests/arena/test_sandbox.py)."""
    monkeypatch.setenv("RISKEVO_SANDBOX", "off")


def _gone(pid: int, within: float = 10.0) -> bool:
    """The process has ended (or is a zombie nobody reaped yet)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            return True
        if state == b"Z":
            return True
        time.sleep(0.1)
    return False


@linux
def test_a_process_a_bot_forks_ends_with_its_game(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    close_idle()
    monkeypatch.setenv("RISKEVO_TEST_FORK", str(pids))
    play_specs(["tests.helpers.hostile_bots:Fork", "random", "random"], 1, Rules(cap=2), timeout=20)
    forked = [int(x) for x in pids.read_text().split()]
    assert forked and all(_gone(p) for p in forked)


@linux
def test_an_engine_killed_takes_the_bots_forks_with_it(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    env = {**os.environ, "RISKEVO_TEST_FORK": str(pids), "RISKEVO_TEST_FORK_SLEEP": "60",
           "RISKEVO_SANDBOX": "off"}
    engine = subprocess.Popen([sys.executable, "-m", "arena", "play",
                               "tests.helpers.hostile_bots:Fork", "random", "--cap", "5"],
                              cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 120
        while not pids.exists() and time.monotonic() < end:
            time.sleep(0.2)
        forked = [int(x) for x in pids.read_text().split()]
        time.sleep(1.0)  # the bot is asleep in its first attack
    finally:
        engine.kill()  # kill -9: no cleanup of its own runs
        engine.wait()
    assert forked and all(_gone(p) for p in forked)  # the bot's watcher ended its group


def test_a_forking_bot_neither_holds_nor_floods_the_callers_stderr() -> None:
    # Before: the forked child kept the pipe open and this run hung until killed.
    res = subprocess.run([sys.executable, "-m", "arena", "play", "tests.helpers.hostile_bots:Fork",
                          "random", "--cap", "2"], capture_output=True, cwd=ROOT, timeout=180)
    assert res.returncode == 0, res.stderr[-500:]
    assert MAX_STDERR <= len(res.stderr) < MAX_STDERR + 1000  # 1 MiB shouted, 64 KiB passed on
    assert b"output beyond 65536 bytes dropped" in res.stderr


@linux
def test_every_isolated_bot_process_is_not_dumpable(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seen = tmp_path / "seen.json"
    close_idle()  # a new process: a kept one would write to an earlier test's file
    monkeypatch.setenv("RISKEVO_TEST_THIEF", str(seen))
    play_specs(["tests.helpers.hostile_bots:Thief", "random"], 1, Rules(cap=2), timeout=20)
    assert json.loads(seen.read_text())["dumpable"] == 0  # set before the bot's code loaded


def _in_child(body: Callable[[], int]) -> int:
    """Run `body` in a forked child as an unprivileged user (nobody when this is root, as the
    kernel lets root read any process); its return value is the child's exit code."""
    pid = os.fork()
    if pid == 0:
        code = 99
        with contextlib.suppress(BaseException):
            if os.getuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # dumpable again, as after an exec
            code = body()
        os._exit(code)
    return pid


def _sleeper(protect: bool) -> Callable[[], int]:
    def body() -> int:
        if protect:
            not_dumpable()
        time.sleep(30)
        return 0
    return body


def _can_read_memory(victim: int) -> int:
    def body() -> int:
        try:
            with open(f"/proc/{victim}/mem", "rb"):
                return 0
        except PermissionError:
            return 1
    pid = _in_child(body)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@linux
def test_a_bot_cannot_open_another_bots_memory() -> None:
    victims = {protect: _in_child(_sleeper(protect)) for protect in (False, True)}
    try:
        time.sleep(0.5)  # both have dropped their privileges
        readable = {protect: _can_read_memory(pid) for protect, pid in victims.items()}
    finally:
        for pid in victims.values():
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    if readable[False] != 0:
        pytest.skip("this kernel already forbids a process to read a same-user sibling's "
                    "memory (Yama ptrace_scope >= 1): nothing left to show")
    assert readable[True] == 1  # same user, yet the protected one's memory stays closed
