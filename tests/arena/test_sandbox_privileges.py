"""A sandboxed bot holds no privilege, whoever starts the engine (issue 65, X1): run as root (as
CI runs it), bwrap's default mapped the bot to uid 0 with every capability but one, and it
remounted its read-only binds read-write and wrote into the checkout. Here the process the
sandbox starts tries every such call on every bind it was given and each must fail.

bubblewrap is required under CI (.ci/run installs it): there a missing sandbox fails."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.isolation import bubblewrap
from tests.helpers.sandbox import need_sandbox

SPEC = "tests.helpers.hostile_bots:Snoop"  # its module (the tests folder) is bound too
MARK = ".riskevo-x1-probe"

# Runs inside the sandbox as the bot's process would; argv: the bound paths. Prints
# {attempt: "done" | "refused: why"} and the process's credentials.
PROBE = r"""
import ctypes, json, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                       ctypes.c_void_p]
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
MS_BIND, MS_REMOUNT = 4096, 32
got = {}

def c(r):
    if r != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))

def attempt(name, call):
    try:
        call()
        got[name] = "done"
    except OSError as e:
        got[name] = f"refused: {e.strerror or e}"

def write(path):
    if os.path.isdir(path):
        with open(os.path.join(path, sys.argv[1]), "x") as f:
            f.write("x")
    else:
        with open(path, "ab") as f:
            f.write(b"")

for b in sys.argv[2:]:
    attempt(f"remount {b}", lambda: c(libc.mount(None, b.encode(), None, MS_REMOUNT | MS_BIND,
                                                  None)))
    attempt(f"write {b}", lambda: write(b))
m = os.path.join(os.sep, "tmp", "m")  # the sandbox's own /tmp
os.makedirs(m, exist_ok=True)
attempt("mount tmpfs", lambda: c(libc.mount(b"none", m.encode(), b"tmpfs", 0, None)))
attempt("mount bind /usr", lambda: c(libc.mount(b"/usr", m.encode(), None, MS_BIND, None)))
attempt("raw socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW,
                                            socket.IPPROTO_ICMP).close())
attempt("packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close())
attempt("setuid 0", lambda: os.setuid(0))
attempt("unshare a user namespace", lambda: c(libc.unshare(0x10000000)))
for path in ("/proc/sys/kernel/hostname", "/proc/sys/kernel/core_pattern",
             "/proc/sys/vm/swappiness"):  # writable by uid 0 with no capability
    attempt(f"write {path}", lambda: open(path, "a").close())
for pid in (p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()):
    attempt(f"ptrace {pid}", lambda: c(libc.ptrace(16, int(pid), None, None)))
status = {k: v.strip() for k, _, v in (line.partition(":") for line in
          open("/proc/self/status")) if k in ("Uid", "CapEff", "CapPrm", "CapBnd", "CapAmb")}
attempt("chroot", lambda: os.chroot(m))  # last: it would hide /proc
print(json.dumps({"got": got, "status": status}))
"""



def _binds(argv: list[str]) -> list[str]:
    """The destinations of the read-only binds in a bwrap command line."""
    return [argv[i + 2] for i, a in enumerate(argv) if a == "--ro-bind"]


def test_a_sandboxed_bot_can_gain_no_privilege_even_when_root_starts_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    need_sandbox()
    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    probe = [sys.executable, "-c", PROBE, MARK]
    argv = bubblewrap.wrap(probe, SPEC)
    binds = _binds(argv)
    assert str(Path(__file__).resolve().parents[1]) in binds  # the bot's module: tests/
    assert any(b.endswith("/game") for b in binds)  # riskevo's packages
    try:
        res = subprocess.run([*argv, *binds], capture_output=True, text=True, timeout=120,
                             check=False)
        reached = [b for b in binds if Path(b, MARK).exists()]
    finally:  # a sandbox that let it write leaves nothing behind
        for b in binds:
            with contextlib.suppress(OSError):
                Path(b, MARK).unlink()
    assert reached == []
    assert res.returncode == 0, res.stderr[-800:]
    report = json.loads(res.stdout)
    if "--disable-userns" not in argv:  # bwrap < 0.8 or setuid: its locked mounts still hold
        report["got"].pop("unshare a user namespace")
    done = {k: v for k, v in report["got"].items() if not v.startswith("refused")}
    assert done == {}
    assert len(report["got"]) >= 2 * len(binds) + 8
    status = report["status"]
    inside = str(bubblewrap.NOBODY) if os.getuid() == 0 else str(os.getuid())
    assert status["Uid"].split() == [inside] * 4  # never uid 0 inside
    assert {status[k] for k in ("CapEff", "CapPrm", "CapBnd", "CapAmb")} == {"0" * 16}
    if os.getuid() == 0:  # the case of the report: the engine run as root
        assert any("remount" in k for k in report["got"])
