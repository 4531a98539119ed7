"""In-house win rates of planning bot files, to ask whether any in-house opponent orders values
as the yardstick does: each file plays GAMES compiled games (seat g mod 4, game g by
SeedSequence(SEED, (g,))) against 3 copies of OPP: `self` (the file's own greedy weights) or a
compiled bot's name; two processes.

    python inhouse.py OPP GAMES SEED FILE...
"""
import sys
import time

import numpy as np
from joblib import Parallel, delayed

from features.botfile import read_bot
from features.compiled import play_mixed_games
from game.bots import COMPILED_BOTS
from evolve.stats import wilson_interval


def part(path, opp, lo, hi, seed):
    weights, _meta, plan = read_bot(path)
    n = hi - lo
    w = np.repeat(np.stack([weights] * 4)[None], n, 0)
    seat = np.arange(lo, hi) % 4
    pol = np.zeros((n, 4), np.int32) if opp == "self" else np.full((n, 4), COMPILED_BOTS[opp],
                                                                     np.int32)
    pol[np.arange(n), seat] = 0
    plans = np.zeros((n, 4, len(plan.vector())))
    plans[np.arange(n), seat] = plan.vector()
    seeds = [np.random.SeedSequence(seed, spawn_key=(g,)) for g in range(lo, hi)]
    place, _r, _c = play_mixed_games(w, pol, seeds, plans=plans)
    return int((place[np.arange(n), seat] == 1).sum())


opp, games, seed, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
step = 50
for f in files:
    t0 = time.time()
    won = sum(Parallel(n_jobs=2)(delayed(part)(f, opp, lo, min(lo + step, games), seed)
                                 for lo in range(0, games, step)))
    lo_, hi_ = wilson_interval(won, games)
    print(f"{f.rsplit('/', 1)[-1]} vs 3x {opp}: {won}/{games} = {won / games:.4f} "
          f"[{lo_:.3f}, {hi_:.3f}] ({time.time() - t0:.0f} s)", flush=True)
