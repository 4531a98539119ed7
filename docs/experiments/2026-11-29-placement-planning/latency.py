"""Per-decision CPU time of the bundled champion played with each search setting.

Run at the commit the page names, from the checkout (ROLLOUTSxTOP_K, then pPLACE):
    .venv/bin/python docs/experiments/2026-11-29-placement-planning/latency.py 64x8p0 64x8p4
Plays seeded Python-engine games of the champion against strategist, continent and
aggressive (seeds 900..), times every `act` in CPU seconds of this thread (one core), and
prints the median, p99 and max over all its decisions (the planned ones are the slow ones).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import Any

import numpy as np

from features.botfile import BotFile
from game.bots import bot_file, make_player
from game.engine import play_game
from game.state import Rules

GAMES = 30


def timed(player: Any, sink: list[float], kinds: list[str]) -> Any:
    act = player.act

    def wrapped(view: Any, decision: Any) -> Any:
        t = time.thread_time()
        out = act(view, decision)
        sink.append(time.thread_time() - t)
        kinds.append(decision.kind.value)
        return out

    player.act = wrapped
    return player


def main(settings: list[str]) -> None:
    champ = BotFile.read(bot_file("champion"))
    for setting in settings:
        search, _, place = setting.partition("p")
        r, k = (int(x) for x in search.split("x"))
        plan = dataclasses.replace(champ.settings, rollouts=r, top_k=k, place=int(place or 0))
        times: list[float] = []
        kinds: list[str] = []
        for g in range(GAMES):
            me = timed(dataclasses.replace(champ, plan=plan).player("champion"), times, kinds)
            others = [make_player(n) for n in ("strategist", "continent", "aggressive")]
            play_game([me, *others], seed=900 + g, rules=Rules())
        t = np.array(times[50:]) * 1000  # the first calls load kernels
        print(f"{setting}: {t.size} decisions, median {np.median(t):.2f} ms, "
              f"p99 {np.percentile(t, 99):.1f} ms, max {t.max():.1f} ms", flush=True)
        for kind in ("reinforce", "attack"):
            k = t[np.array(kinds[50:]) == kind]
            print(f"  {kind}: {k.size} decisions, median {np.median(k):.2f} ms, p99 "
                  f"{np.percentile(k, 99):.1f} ms, max {k.max():.1f} ms", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
