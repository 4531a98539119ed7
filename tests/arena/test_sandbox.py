"""No isolated bot reaches the secret key or the project's files, by any route of issue 55:
an ancestor's environment (/proc/PID/environ of a `timeout` wrapper), the engine's command
line, the files of the folder the engine runs in (docs/trust.md). Each engine runs as an
unprivileged user, as in the hostile tester's report, where that user can run this Python
(`_unprivileged`).

bubblewrap is required under CI (.ci/run installs it): there a missing sandbox fails."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.sandbox import need_sandbox

ROOT = Path(__file__).resolve().parents[2]  # the checkout
NOBODY = 65534
SNOOP = "tests.helpers.hostile_bots:Snoop"
KEY = "5e" * 16



def _drop() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


@functools.cache
def _as_nobody() -> bool:
    """Root, and nobody may run this interpreter (not when it lives under root's home)."""
    if os.getuid() != 0:
        return False
    pid = os.fork()
    if pid == 0:
        code = 1
        with contextlib.suppress(BaseException):
            _drop()
            code = 0 if os.access(sys.executable, os.X_OK) and os.access(
                os.path.realpath(sys.executable), os.X_OK) else 1
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def _unprivileged() -> None:
    """preexec_fn: drop to nobody when root and nobody can run the interpreter; else the
    engine and its bots stay root, the stronger attacker (root reads any process and file
    outside the sandbox)."""
    if _as_nobody():
        _drop()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder the unprivileged user owns: a key file (0600) and a saved web game (0644,
    as `arena web` wrote them) in runs/web-games/."""
    home = tmp_path / "home"
    saves = home / "runs" / "web-games"
    saves.mkdir(parents=True)
    (home / "key").write_text(KEY + "\n")
    (home / "key").chmod(0o600)
    (saves / "g.json").write_text('{"missions": "every seat\'s"}')
    (saves / "g.json").chmod(0o644)
    if _as_nobody():
        for p in [tmp_path, home, *home.rglob("*")]:
            os.chown(p, NOBODY, NOBODY)
        tmp_path.chmod(0o755)
    return home


def _play(home: Path, *wrapper: str, **env: str) -> tuple[subprocess.CompletedProcess[str],
                                                          dict[str, Any] | None]:
    """`arena play SNOOP random random` as nobody in `home`, started through `wrapper`; what
    the bot read (None if it never started)."""
    full = {**{k: v for k, v in os.environ.items() if not k.startswith("RISKEVO_")},
            "PYTHONPATH": str(ROOT), "HOME": str(home),
            "RISKEVO_TEST_SNOOP": os.pathsep.join(
                [str(home / "key"), str(home / "runs" / "web-games" / "g.json"),
                 str(home / "runs" / "web-games"), str(ROOT / "pyproject.toml")]), **env}
    cmd = [*wrapper, sys.executable, "-m", "arena", "play", SNOOP, "random", "random",
           "--rules", "missions", "--seed", "5", "--cap", "2"]
    res = subprocess.run(cmd, cwd=home, env=full, capture_output=True, text=True, timeout=300,
                         preexec_fn=_unprivileged, check=False)  # noqa: PLW1509 - no threads
    lines = [x for x in res.stderr.splitlines() if x.startswith("SNOOP ")]
    return res, json.loads(lines[0][6:]) if lines else None


def test_a_bot_cannot_reach_the_key_through_an_ancestors_environment(home: Path) -> None:
    need_sandbox()
    # As in the report: the key given to a `timeout` that starts the engine.
    res, seen = _play(home, "env", f"RISKEVO_SECRET_FILE={home / 'key'}", "timeout", "250")
    assert res.returncode == 0, res.stderr[-800:]
    assert seen is not None
    environs = [p["environ"] or [] for p in seen["procs"].values()]
    assert not any("RISKEVO_SECRET" in v for e in environs for v in e)  # not even the name
    assert seen["files"][str(home / "key")] is None
    assert KEY not in json.dumps(seen)
    assert f"secret key, {KEY};" in res.stdout  # and it did deal the games


def test_a_bot_cannot_read_the_engines_command_line(home: Path) -> None:
    need_sandbox()
    res, seen = _play(home)
    assert res.returncode == 0, res.stderr[-800:]
    assert seen is not None
    cmdlines = [p["cmdline"] or "" for p in seen["procs"].values()]
    assert cmdlines and not any("--seed" in c or "arena\0play" in c for c in cmdlines)
    assert len(seen["procs"]) <= 2  # bwrap's init and itself: no other process is visible


def test_a_bot_cannot_read_the_projects_files(home: Path) -> None:
    need_sandbox()
    res, seen = _play(home)
    assert res.returncode == 0, res.stderr[-800:]
    assert seen is not None
    assert seen["files"] == {str(home / "key"): None,
                             str(home / "runs" / "web-games" / "g.json"): None,
                             str(home / "runs" / "web-games"): None,
                             str(ROOT / "pyproject.toml"): None}


def test_a_key_in_the_environment_is_refused_before_any_bot_starts(home: Path) -> None:
    # Before: the engine read it and popped it from its own environment, but the `timeout`
    # that started it kept it in /proc/PID/environ, where a bot of the same user read it.
    res, seen = _play(home, "env", f"RISKEVO_SECRET={KEY}", "timeout", "250",
                      RISKEVO_SANDBOX="off")
    assert res.returncode == 2 and seen is None
    err = res.stderr.strip()
    assert "\n" not in err and "$RISKEVO_SECRET is not read" in err
    assert "$RISKEVO_SECRET_FILE" in err


@pytest.mark.parametrize(("content", "mode", "says"), [
    (KEY, 0o644, "readable by others (mode 644); chmod 600 it"),
    ("xyz", 0o600, "must hold 32..128 hex digits"),
    ("ab" * 600, 0o600, "must hold 32..128 hex digits"),
])
def test_an_unusable_key_file_is_a_one_line_error(home: Path, content: str, mode: int,
                                                  says: str) -> None:
    (home / "key").write_text(content)
    (home / "key").chmod(mode)
    res, seen = _play(home, RISKEVO_SECRET_FILE=str(home / "key"), RISKEVO_SANDBOX="off")
    err = res.stderr.strip()
    assert res.returncode == 2 and seen is None
    assert "\n" not in err and f"$RISKEVO_SECRET_FILE ({home / 'key'}): {says}" in err


@pytest.mark.parametrize(("value", "says"), [
    ("require", "error: $RISKEVO_SANDBOX=require: bubblewrap (bwrap) is not installed"),
    ("maybe", "error: $RISKEVO_SANDBOX must be one of auto, require, off, got 'maybe'"),
])
def test_a_sandbox_that_cannot_be_had_is_a_one_line_error(home: Path, value: str,
                                                          says: str) -> None:
    res, seen = _play(home, RISKEVO_SANDBOX=value, PATH=str(home))  # no bwrap on this PATH
    assert res.returncode == 2 and seen is None
    assert res.stderr.strip() == says


def test_without_bubblewrap_the_games_go_on_with_one_warning(home: Path) -> None:
    res, seen = _play(home, PATH=str(home))
    assert res.returncode == 0, res.stderr[-800:]
    assert seen is not None
    warnings = [x for x in res.stderr.splitlines() if x.startswith("warning: ")]
    assert warnings == ["warning: isolated bots run without a sandbox: bubblewrap (bwrap) is "
                        "not installed; they can read your files and other processes' "
                        "environments (docs/trust.md; RISKEVO_SANDBOX=off silences this)"]


def _alive_with(text: bytes) -> list[int]:
    """Live (not zombie) processes whose command line holds `text`."""
    found = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        with contextlib.suppress(OSError, IndexError):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
            if text in cmdline and state != b"Z" and int(pid) != os.getpid():
                found.append(int(pid))
    return found


def test_in_the_sandbox_every_process_a_bot_forks_ends_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    need_sandbox()
    from arena.isolation.sandbox import close_idle
    from arena.play import play_specs
    from game.state import Rules

    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    close_idle()
    play_specs(["tests.helpers.hostile_bots:Fork", "random"], 1, Rules(cap=2), timeout=20)
    close_idle()
    end = time.monotonic() + 10
    while _alive_with(b"tests.helpers.hostile_bots:Fork") and time.monotonic() < end:
        time.sleep(0.1)
    assert _alive_with(b"tests.helpers.hostile_bots:Fork") == []


def test_a_sandboxed_bot_started_from_a_thread_outlives_the_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 65, X2: bwrap's parent-death signal follows the thread that started it; `arena web`
    # starts bots from request threads, and those bots died with them (fallbacks, no resume).
    need_sandbox()
    from arena.isolation.sandbox import IsolatedBot

    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    started: list[IsolatedBot] = []
    thread = threading.Thread(target=lambda: started.append(IsolatedBot(SNOOP, timeout=20)))
    thread.start()
    thread.join()
    bot = started[0]
    try:
        assert bot.sandboxed and bot.proc is not None
        time.sleep(1.0)  # the thread is gone
        assert bot.proc.poll() is None
        assert "error" not in bot.request("hello")
    finally:
        bot.close()


def test_a_key_from_a_pipe_as_the_docstring_shows_deals_the_games(home: Path) -> None:
    # Issue 65, X8: `RISKEVO_SECRET_FILE=<(cat key)` (the sandbox module's own example) was
    # refused, "Too many levels of symbolic links": /dev/fd/N is a link to the pipe.
    pipe = 'RISKEVO_SECRET_FILE=<(cat "$0") "$@"'
    res, seen = _play(home, "bash", "-c", pipe, str(home / "key"), RISKEVO_SANDBOX="off")
    assert res.returncode == 0, res.stderr[-800:]
    assert seen is not None and f"secret key, {KEY};" in res.stdout


def test_a_forked_process_starts_sandboxed_bots_with_a_spawner_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Workers forked from an engine that started sandboxed bots (a tournament's): the parent's
    # spawner thread does not exist in them, and its lock may have been held at the fork.
    need_sandbox()
    from arena.isolation import sandbox as iso

    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    iso.IsolatedBot(SNOOP, timeout=20).close()  # this process's spawner runs
    with iso._spawner_lock:  # held by another thread at the moment of the fork
        pid = os.fork()
        if pid == 0:
            code = 1
            with contextlib.suppress(BaseException):
                bot = iso.IsolatedBot(SNOOP, timeout=20)
                code = 0 if "error" not in bot.request("hello") else 1
                bot.close()
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
