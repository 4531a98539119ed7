"""The isolated bot's own process: `python -m arena.serve.child SPEC` (started by
`arena.isolation.sandbox.IsolatedBot`) loads one untrusted bot and answers the engine that
started it through the bot protocol in strict mode (`arena.serve.server.Server(strict=True)`). See
docs/trust.md.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from typing import BinaryIO, TextIO

__all__ = ["SANDBOXED_ENV", "main"]

SANDBOXED_ENV = "RISKEVO_SANDBOXED"  # set to 1 by arena.isolation.bubblewrap in the sandbox


def _watch_parent(parent: int) -> None:
    """End this process and its group (whatever the bot forked) when the engine that started
    it is gone, even if the bot hangs."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            with contextlib.suppress(OSError):
                if os.getpgrp() == os.getpid():  # its own group (IsolatedBot starts it so)
                    os.killpg(0, signal.SIGKILL)
            os._exit(3)


def _missing(e: ImportError) -> str:
    """One line for a module this process cannot import, naming the sandbox when it is in one
    (issue 65, X7: before, a traceback and bwrap's whole command line)."""
    name = e.name or str(e)
    if os.environ.get(SANDBOXED_ENV):
        return (f"the sandbox (bubblewrap) cannot import module {name!r}: it holds only the "
                "system's libraries, the Python runtime, riskevo's packages and the bot's own "
                f"module (install {name} into {sys.prefix}, or RISKEVO_SANDBOX=off)")
    return f"cannot import module {name!r} ({' '.join(str(e).split())[:200]})"


_FIRST_LINE_BYTES = 1 << 20  # read for its id only (the engine is riskevo's: a runaway guard)


def _refuse(proto_in: BinaryIO, proto_out: TextIO, msg: str) -> int:
    """Answer the engine's first request with `msg` as its error, then end."""
    first = proto_in.readline(_FIRST_LINE_BYTES)
    try:
        rid = json.loads(first).get("id")
    except (ValueError, AttributeError, RecursionError):
        rid = None
    proto_out.write(json.dumps({"id": rid, "error": msg}) + "\n")
    return 2


def main(argv: list[str]) -> int:
    """`python -m arena.serve.child SPEC`: serve one untrusted bot to its engine."""
    # The protocol keeps this process's stdin/stdout; the bot's prints go to stderr and its
    # reads of stdin see nothing.
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    try:
        from arena.isolation.sandbox import not_dumpable
    except ImportError as e:  # riskevo's own dependencies (numpy) out of the sandbox's sight
        return _refuse(proto_in, proto_out, _missing(e))
    not_dumpable()  # before any bot code: the other bots' processes cannot read this one
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    try:
        from arena.bots import make_bot
        from arena.serve.lines import serve
    except ImportError as e:
        return _refuse(proto_in, proto_out, _missing(e))

    if len(argv) != 1:
        proto_out.write(json.dumps({"id": None, "error": "usage: python -m arena.serve.child "
                                                         "package.module:Class"}) + "\n")
        return 2
    spec = argv[0]

    def make() -> object:
        return make_bot(spec, isolate=False)

    try:
        make()
    except Exception as e:  # noqa: BLE001 - whatever the bot's import does: one line back
        cause: BaseException | None = e
        while cause is not None and not isinstance(cause, ImportError):
            cause = cause.__cause__ or cause.__context__  # make_bot wraps it in a ValueError
        if isinstance(cause, ImportError) and os.environ.get(SANDBOXED_ENV):
            return _refuse(proto_in, proto_out, f"bot spec {spec!r}: {_missing(cause)}")
        return _refuse(proto_in, proto_out, " ".join(f"{e}".split())[:300] or type(e).__name__)
    serve(make, proto_in, proto_out, strict=True)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
