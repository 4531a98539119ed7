"""Per-generation progress bar on a terminal (silent otherwise), and a ticker for long waits."""

from __future__ import annotations

import sys
import threading
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


class Ticker:
    """Says what a long wait is while it lasts: after `after` seconds, `what` with the seconds
    spent so far, redrawn every second on a TTY (one line otherwise); `seconds` when done."""

    def __init__(self, what: str, after: float = 3.0, stream: TextIO | None = None) -> None:
        self.what = what
        self.after = after
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.seconds = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="riskevo-ticker")
        self._shown = False

    def __enter__(self) -> Ticker:
        self.t0 = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self.seconds = time.perf_counter() - self.t0
        if self._shown and self.tty:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def _run(self) -> None:
        if self._done.wait(self.after):
            return
        self._shown = True
        if not self.tty:
            self.stream.write(f"{self.what} ...\n")
            self.stream.flush()
            return
        while not self._done.wait(1.0):
            self.stream.write(f"\r{self.what} ... {time.perf_counter() - self.t0:.0f} s ")
            self.stream.flush()
