"""Per-generation progress bar on a terminal; silent otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """`update(done, total)` redraws one line (games done, games/s, ETA) when `stream` is a TTY."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 24) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self.width = width
        self.t0 = time.perf_counter()

    def update(self, done: int, total: int) -> None:
        """Redraw the bar."""
        if not self.enabled or total <= 0:
            return
        dt = max(time.perf_counter() - self.t0, 1e-9)
        rate = done / dt
        eta = (total - done) / rate if rate > 0 else float("inf")
        fill = int(self.width * done / total)
        bar = "#" * fill + "." * (self.width - fill)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} games "
                          f"{rate:6.0f} games/s ETA {eta:4.0f}s ")
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar so the summary line prints cleanly."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
