"""Compile time and rounds/s of the compiled loop with random genomes (CPU time, 5 batches).

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python docs/experiments/2026-11-29-cold-start/speed.py 200
"""
import sys
import time

import numpy as np

from features.compiled import play_linear_games
from features.genome import LAYOUT, random_genomes

t0=time.process_time()
w = random_genomes(LAYOUT, 4, np.random.default_rng(0)).reshape(1, 4, -1)
play_linear_games(w, [np.random.SeedSequence(0)])
print("compile+first cpu", round(time.process_time()-t0,1))
rng=np.random.default_rng(1)
n=int(sys.argv[1]) if len(sys.argv)>1 else 300
res=[]
for rep in range(5):
    w = random_genomes(LAYOUT, 4*n, np.random.default_rng(rep)).reshape(n, 4, -1)
    seeds=[np.random.SeedSequence([rep,i]) for i in range(n)]
    t=time.process_time(); pl, rounds, capped = play_linear_games(w, seeds); d=time.process_time()-t
    res.append(rounds.sum()/d)
print("rounds/s median", round(float(np.median(res))), [round(x) for x in res], "checksum", int(rounds.sum()))
