"""What a run shows as it goes: the line per generation, a progress bar on a terminal (silent
otherwise), and a ticker for long waits."""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from typing import Any, TextIO

from evolve.rating.crownings import beyond_noise, playoff_words
from evolve.stats import base_log_loss


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


def against(ev: dict[str, Any]) -> str:
    """What an evaluation was measured against, in the progress line's words: `3x champion`
    for one opponent in every other seat, else `bots` (the gauntlet rotated over the seats)."""
    opp = ev.get("opponents") or []
    return f"{ev.get('players', 4) - 1}x {opp[0]}" if len(opp) == 1 else "bots"


class RunClock:
    """When the run will end: the generations left times the mean wall time of the last
    `window` (playoffs and evaluations included, as they recur)."""

    def __init__(self, window: int = 100) -> None:
        self.walls: deque[float] = deque(maxlen=window)

    def left(self, rec: dict[str, Any], total: int) -> float:
        """Seconds until generation `total - 1`, after `rec`'s generation."""
        self.walls.append(float(rec["wall_s"]))
        return (total - 1 - int(rec["generation"])) * sum(self.walls) / len(self.walls)


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"


def summary(rec: dict[str, Any], total: int, left_s: float | None = None) -> str:
    """One line per generation (`left_s`: the run's time left, when it has some)."""
    s = (f"gen {rec['generation']:>5}/{total}  {rec['games']} games {rec['wall_s']:6.2f}s "
         f"({rec['games_per_s']:.0f}/s)  mu {rec['mu_mean']:.2f}±{rec['mu_std']:.2f} "
         f"max {rec['mu_max']:.2f}  champion #{rec['champion_index']} "
         f"{rec['champion_mu']:.2f}±{rec['champion_sigma']:.2f}  "
         f"rounds {rec['mean_rounds']:.1f} capped {100 * rec['capped_fraction']:.1f}%")
    if left_s and left_s >= 60:  # a short wait needs no clock
        s += f"  ends in ~{_duration(left_s)}"
    po = rec.get("playoff")
    if po:
        verdict = "kept the champion of generation " + str(po["incumbent_born"])
        if po["crowned"]:
            verdict = ("crowned" if po["incumbent_wins"] < 0 else
                       "crowned, beyond the noise" if beyond_noise(po) else
                       "crowned within the noise")
        need = ""
        if po["incumbent_wins"] >= 0 and po.get("needed"):  # a margin was asked for
            need = f" needs +{po['needed']:.0f}"
        s += f"  playoff {playoff_words(po)}{need}: {verdict}"
    ev = rec["eval"]
    if ev:
        who = ("proven champion" if rec.get("proven_generation") is not None
               else "champion")
        s += f"  {who} vs {against(ev)} {ev['win_rate']:.3f} [{ev['lo']:.3f}, {ev['hi']:.3f}]"
        if "pooled_games" in ev and ev["pooled_games"] > ev["games"]:
            s += (f" (pooled {ev['pooled_win_rate']:.3f} [{ev['pooled_lo']:.3f}, "
                  f"{ev['pooled_hi']:.3f}] of {ev['pooled_games']})")
    v = rec.get("value")
    if v and v.get("positions"):
        s += (f"  value log-loss {v['log_loss']:.4f} (base rate {base_log_loss(v['won']):.4f}, "
              f"calibration {v['calibration']:.3f}, {v['total_positions']:,} positions)")
    if rec.get("island_mu_max"):
        best = rec["island_mu_max"]
        s += (f"  {len(best)} islands: best {min(best):.2f}..{max(best):.2f}, "
              f"apart {rec.get('island_spread', float('nan')):.3f}")
    if rec.get("restart"):
        s += "  restart: a fresh random population from the next generation"
    return s
