"""The first game's numba kernels compiled in the background as `arena web` starts, so that the
page opens at once and a first Start does not wait for a compile the person did not ask for;
the page asks `/api/config` how far it is (`Engine.json`) and says so."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Sequence
from typing import Any

from arena.bots import make_bot, trusted
from arena.live import LiveGame, Seat
from arena.play import labels_for
from game.map import Map
from game.state import Rules


class Engine:
    """Whether the kernels are compiled: ready from the start unless `warm` runs."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.finished: float | None = self.started
        self.error = ""

    def warm(self, m: Map, rules: Rules, specs: Sequence[str]) -> threading.Thread:
        """Play a throwaway two-round game of the trusted `specs` on a thread (the compile)."""
        self.started, self.finished = time.monotonic(), None
        t = threading.Thread(target=self._run, args=(m, rules, list(specs)), daemon=True,
                             name="riskevo-warm")
        t.start()
        return t

    def _run(self, m: Map, rules: Rules, specs: list[str]) -> None:
        try:
            mine = [s for s in specs if trusted(s)] or ["random"]
            mine = [*mine, "random"][:max(2, len(mine))]
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

    def json(self) -> dict[str, Any]:
        """{ready, seconds spent so far or in all, error} for the page."""
        end = self.finished if self.finished is not None else time.monotonic()
        return {"ready": self.finished is not None, "seconds": round(end - self.started),
                "error": self.error}


__all__ = ["Engine"]
