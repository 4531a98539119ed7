"""A run's plots redrawn in the background while it plays (`output.plot_every`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from evolve.runfolder import RunFolder

__all__ = ["PlotRefresher"]


class PlotRefresher:
    """Redraws the run's plots in a background process every `every` generations.

    A separate process keeps matplotlib out of the generation loop; a refresh is skipped while
    the previous one is still drawing, so plots never pile up behind a fast run.
    """

    def __init__(self, run: Path, every: int) -> None:
        self.run, self.every = run, every
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_after = -1  # the generation the last refresh was started after

    def _start(self) -> subprocess.Popen[bytes]:
        # No ladder while the run plays: its games would compete with the workers.
        # --parent: the drawing stops when the run dies (kill -9), instead of writing on.
        self.proc = subprocess.Popen([sys.executable, "-m", "evolve", "plot", str(self.run),
                                      "--no-ladder", "--parent", str(os.getpid())],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self.proc

    def maybe_start(self, generation: int) -> None:
        """Start a refresh after every `every`-th generation unless one is still running."""
        if (self.every and generation % self.every == 0
                and (self.proc is None or self.proc.poll() is not None)):
            self._start()
            self.started_after = generation

    def finish(self, final: bool, generation: int) -> None:
        """Wait for a running refresh; with `final`, draw once more so plots show the end
        (`generation`), unless that refresh was started there and drew it all."""
        if not self.every:
            return
        if self.proc is not None:
            self.proc.wait()
        if final and not (self.started_after == generation
                          and RunFolder(self.run).drawn_generation() >= generation):
            self._start().wait()
