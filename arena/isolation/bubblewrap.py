"""The sandbox an isolated bot's process runs in, where the machine has bubblewrap (`bwrap`).

Inside it the bot sees its own processes only (a new PID namespace and /proc), no network (a
new network namespace), and of the file system only what it needs read-only: the system's
libraries, the Python runtime, riskevo's packages and its own module, and an empty /tmp. So
it can reach no other process's environment or command line (the engine's, a `timeout` or
`make` that started it) and none of the project's files (run folders, saved web games).
Whoever starts the engine, root included, the bot holds no capability at all (bounding set
empty, no new privileges, no further user namespace where bwrap can forbid one); when root
starts it, it is `nobody` in its own user namespace, and its /proc is read-only (its process
is still uid 0 to the kernel, which lets uid 0 write /proc/sys without any capability): it
cannot remount a read-only bind, mount, chroot, open a raw socket or write to anything it
sees but its /tmp.
$RISKEVO_SANDBOX chooses: `auto` (the default: the sandbox where bwrap runs, else one warning
and none), `require` (no bot starts without it) or `off`. See docs/trust.md.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

__all__ = ["MODES", "NOBODY", "SANDBOX_ENV", "SandboxError", "mode", "unavailable", "wrap"]

SANDBOX_ENV = "RISKEVO_SANDBOX"
MODES = ("auto", "require", "off")
# System folders bound read-only when present (a symlink, as on merged-/usr systems, is
# recreated as the same symlink); /etc is left out but for the loader's cache.
_SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache")
_RISKEVO = ("game", "features", "evolve", "arena")  # the packages a bot's process imports
# Its own /proc, read-only: root's bot is uid 0 to the kernel, which lets uid 0 write sysctls
# (/proc/sys/kernel/core_pattern: a command the host runs as root) with no capability.
_PROC = ("--proc", "/proc", "--remount-ro", "/proc")
NOBODY = 65534  # the bot's uid and gid inside the sandbox: never 0, even when root starts it
_warned = False


class SandboxError(ValueError):
    """$RISKEVO_SANDBOX is malformed, or `require`d where bubblewrap cannot run."""


def mode() -> str:
    """$RISKEVO_SANDBOX, checked (SandboxError naming the allowed values)."""
    value = os.environ.get(SANDBOX_ENV, "auto") or "auto"
    if value not in MODES:
        raise SandboxError(f"${SANDBOX_ENV} must be one of {', '.join(MODES)}, got {value!r}")
    return value


@functools.cache
def unavailable() -> str | None:
    """None when bubblewrap runs here, else why not (not installed, or the kernel refuses it
    new namespaces: user namespaces off, a container without them)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    probe = [bwrap, *_binds(None), *_PROC, "--dev", "/dev", *_confined(bwrap, _root()),
             "--", "/bin/true" if os.path.exists("/bin/true") else "true"]
    try:
        res = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap does not start ({e})"
    if res.returncode != 0:
        why = " ".join(res.stderr.decode("utf-8", "replace").split())[:200]
        return f"bwrap cannot create its namespaces here ({why or f'exit {res.returncode}'})"
    return None


def _root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@functools.cache
def _confined(bwrap: str, root: bool) -> tuple[str, ...]:
    """The namespaces and the privileges: every namespace new; when root starts it, a user
    namespace in which the bot is `nobody` and every capability dropped (bwrap's default as
    root maps it to uid 0 and keeps every capability but one: issue 65, X1; as another user
    it keeps none, and a setuid bwrap refuses --cap-drop there); no further user namespace
    (bwrap >= 0.8, not setuid); the bot's interpreter as PID 1 (no bwrap init beside it that
    it could ptrace), its own session (no TIOCSTI into the engine's terminal), killed when
    bwrap dies (bwrap itself when the thread that started it ends: `sandbox.IsolatedBot`
    starts it from a thread that lives as long as the process)."""
    flags = ["--unshare-all"]
    try:
        setuid = bool(os.stat(bwrap).st_mode & stat.S_ISUID)
        helptext = subprocess.run([bwrap, "--help"], capture_output=True, text=True,
                                  timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        setuid, helptext = True, ""
    if root or not setuid:  # a setuid bwrap may have no user namespaces to give
        flags.append("--unshare-user")
        if "--disable-userns" in helptext:
            flags.append("--disable-userns")
    if root:
        flags += ["--uid", str(NOBODY), "--gid", str(NOBODY), "--cap-drop", "ALL"]
    return (*flags, "--as-pid-1", "--die-with-parent", "--new-session")


def _bind(path: str) -> list[str]:
    if os.path.islink(path):
        return ["--symlink", os.readlink(path), path]
    return ["--ro-bind", path, path]


def _module_path(module: str) -> str | None:
    """The file or top-level package folder of `module` on this process's path, found without
    importing anything of it (its code runs in the sandbox only)."""
    top = module.split(".")[0]
    for entry in sys.path:
        base = Path(entry or os.getcwd())
        for candidate in (base / top, base / f"{top}.py"):
            if candidate.exists():
                return str(candidate.resolve())
    return None


def _binds(spec: str | None) -> list[str]:
    """Read-only binds: the system, the Python runtime, riskevo's packages, the bot's module."""
    paths: list[str] = [p for p in _SYSTEM if os.path.lexists(p)]
    runtime = {sys.base_prefix, sys.prefix, sys.exec_prefix,
               str(Path(sys.executable).resolve().parent.parent)}
    paths += sorted(str(Path(p).resolve()) for p in runtime)
    root = Path(__file__).resolve().parents[2]  # the checkout: arena/isolation/ is two down
    paths += [str(root / p) for p in _RISKEVO if (root / p).is_dir()]
    if spec is not None:
        found = _module_path(spec.partition(":")[0])
        if found is not None:
            paths.append(found)
    args: list[str] = []
    for p in dict.fromkeys(paths):
        if p.startswith("/usr/") and "/usr" in paths:
            continue  # already inside /usr
        args += _bind(p)
    return args


def wrap(argv: list[str], spec: str) -> list[str]:
    """`argv` (the bot's process) under bubblewrap, or unchanged without the sandbox (`off`,
    or `auto` where bwrap cannot run: said once on stderr); SandboxError when `require`d and
    unavailable."""
    global _warned
    chosen = mode()
    if chosen == "off":
        return argv
    why = unavailable()
    if why is not None:
        if chosen == "require":
            raise SandboxError(f"${SANDBOX_ENV}=require: {why}")
        if not _warned:
            _warned = True
            print(f"warning: isolated bots run without a sandbox: {why}; they can read your "
                  "files and other processes' environments (docs/trust.md; "
                  f"{SANDBOX_ENV}=off silences this)", file=sys.stderr, flush=True)
        return argv
    bwrap = shutil.which("bwrap") or "bwrap"
    # /tmp first: a bind below it (a bot module in a temporary folder) goes on top of it.
    return [bwrap, "--tmpfs", "/tmp", *_binds(spec), *_PROC, "--dev", "/dev",
            "--setenv", "HOME", "/tmp", "--setenv", "RISKEVO_SANDBOXED", "1",  # child.py reads it
            "--chdir", "/tmp", *_confined(bwrap, _root()), "--", *argv]
