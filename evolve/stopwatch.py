"""A small stopwatch: wall time since start and named laps (summed when a name repeats)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class Stopwatch:
    """`with sw.lap("rating"): ...` adds the block's wall time to the lap of that name."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.laps: dict[str, float] = {}

    @contextmanager
    def lap(self, name: str) -> Iterator[None]:
        """Time the block under `name`."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.laps[name] = self.laps.get(name, 0.0) + time.perf_counter() - t0

    def __getitem__(self, name: str) -> float:
        """Seconds spent in laps of that name (0 if none)."""
        return self.laps.get(name, 0.0)

    def elapsed(self) -> float:
        """Seconds since the stopwatch was made."""
        return time.perf_counter() - self.start
