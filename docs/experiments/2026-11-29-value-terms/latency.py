"""Per-decision CPU time of bot files (the search-budget page's latency.py, by file).

    .venv/bin/python docs/experiments/2026-11-29-value-terms/latency.py FILE...
30 seeded Python-engine games against strategist, continent and aggressive (seeds 900..),
every `act` timed in CPU seconds of this thread; the first 50 calls dropped.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from features.botfile import BotFile
from game.bots import make_player
from game.engine import play_game
from game.state import Rules


def timed(player: Any, sink: list[float]) -> Any:
    act = player.act

    def wrapped(view: Any, decision: Any) -> Any:
        t = time.thread_time()
        out = act(view, decision)
        sink.append(time.thread_time() - t)
        return out

    player.act = wrapped
    return player


for path in sys.argv[1:]:
    bot = BotFile.read(path)
    times: list[float] = []
    for g in range(30):
        others = [make_player(n) for n in ("strategist", "continent", "aggressive")]
        play_game([timed(bot.player("bot"), times), *others], seed=900 + g, rules=Rules())
    t = np.array(times[50:]) * 1000
    print(f"{path}: {t.size} decisions, median {np.median(t):.2f} ms, "
          f"p99 {np.percentile(t, 99):.1f} ms, max {t.max():.1f} ms", flush=True)
