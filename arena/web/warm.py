"""The first game's numba kernels compiled in the background as `arena web` starts, so that the
page opens at once and a first Start does not wait for a compile the person did not ask for;
the page asks `/api/config` how far it is (`Engine.json`) and says so. numba compiles on one
thread, so each bot's kernels compile in a process of their own at once (`python -m
arena.web.warm SPEC` writes them to numba's on-disk cache); the server's own warm-up game then
loads them."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from arena.bots import make_bot, trusted
from arena.play import labels_for
from arena.web.live import LiveGame, Seat
from game.map import Map
from game.state import Rules

WARM_TIMEOUT_S = 1800  # a compiling process is waited for at most this long


class Engine:
    """Whether the kernels are compiled: ready from the start unless `warm` runs."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.finished: float | None = self.started
        self.error = ""
        self.procs: list[subprocess.Popen[bytes]] = []
        self.done = threading.Event()
        self.done.set()

    def warm(self, m: Map, rules: Rules, specs: Sequence[str]) -> threading.Thread:
        """Play a throwaway two-round game of the trusted `specs` on a thread (the compile)."""
        self.started, self.finished = time.monotonic(), None
        self.done.clear()
        t = threading.Thread(target=self._run, args=(m, rules, list(specs)), daemon=True,
                             name="riskevo-warm")
        t.start()
        return t

    def _run(self, m: Map, rules: Rules, specs: list[str]) -> None:
        try:
            mine = [s for s in specs if trusted(s)] or ["random"]
            mine = [*mine, "random"][:max(2, len(mine))]
            self.procs = [subprocess.Popen([sys.executable, "-m", "arena.web.warm", spec],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                          for spec in dict.fromkeys(mine)]
            for p in self.procs:
                p.wait(WARM_TIMEOUT_S)
            players = [Seat(lab, make_bot(s), True, s)
                       for lab, s in zip(labels_for(mine), mine, strict=True)]
            game = LiveGame(m, dataclasses.replace(rules, cap=2), players, 1)
            game.public()
            game.advance(100_000)
            game.close()
        except Exception as e:  # noqa: BLE001 - a failed warm-up only means a slower first game
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.finished = time.monotonic()
            self.done.set()

    def wait(self) -> None:
        """Until the warm-up is over: a game started meanwhile would compile the same kernels
        again beside it, on the same cores."""
        self.done.wait(WARM_TIMEOUT_S)

    def stop(self) -> None:
        """End the compiling processes (the server is stopping)."""
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    def json(self) -> dict[str, Any]:
        """{ready, seconds spent so far or in all, error} for the page."""
        end = self.finished if self.finished is not None else time.monotonic()
        return {"ready": self.finished is not None, "seconds": round(end - self.started),
                "error": self.error}


def warm_one(spec: str) -> None:
    """A throwaway two-round game of bot `spec` against `random`: its kernels compiled."""
    from game.map import classic_map

    players = [Seat(spec, make_bot(spec), True, spec), Seat("random", make_bot("random"), True)]
    game = LiveGame(classic_map(), Rules(cap=2), players, 1)
    game.public()
    game.advance(100_000)
    game.close()


if __name__ == "__main__":
    warm_one(sys.argv[1])


__all__ = ["Engine", "warm_one"]
