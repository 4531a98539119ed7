"""The isolated bot's own process: `python -m arena.isolation.child SPEC` (started by
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

__all__ = ["main"]


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


def main(argv: list[str]) -> int:
    """`python -m arena.isolation.child SPEC`: serve one untrusted bot to its engine."""
    from arena.isolation.sandbox import not_dumpable

    not_dumpable()  # before any bot code: the other bots' processes cannot read this one
    # The protocol keeps this process's stdin/stdout; the bot's prints go to stderr and its
    # reads of stdin see nothing.
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    from arena.bots import make_bot
    from arena.serve.server import serve

    if len(argv) != 1:
        proto_out.write(json.dumps({"id": None, "error": "usage: python -m arena.isolation.child "
                                                         "package.module:Class"}) + "\n")
        return 2
    spec = argv[0]

    def make() -> object:
        return make_bot(spec, isolate=False)

    try:
        make()
    except Exception as e:  # noqa: BLE001 - whatever the bot's import does: one line back
        first = proto_in.readline()
        try:
            rid = json.loads(first).get("id")
        except (ValueError, AttributeError, RecursionError):
            rid = None
        msg = " ".join(f"{e}".split())[:300] or type(e).__name__
        proto_out.write(json.dumps({"id": rid, "error": msg}) + "\n")
        return 2
    serve(make, proto_in, proto_out, strict=True)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
