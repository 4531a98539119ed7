"""Held-out log-loss of the linear value and of nets (`evolve.plan.netfit.fit_net`) against
the number of games they are fitted on.

usage: curve.py TRAIN.npz[,TRAIN2.npz...] TEST.npz GAMES[,GAMES...] UNITS[,UNITS...] [EPOCHS]
(EPOCHS: fit_net's own choice when not given)
(positions from gen.py; each training file holds 40,000 games; TEST's games 32,000 and later
are the held-out set)
"""
import sys
import time

import numpy as np

from evolve.plan.netfit import fit_net
from evolve.plan.planfit import fit_logistic
from evolve.plan.valuefit import COLS, log_loss

files, test = sys.argv[1].split(","), np.load(sys.argv[2])
sizes = [int(v) for v in sys.argv[3].split(",")]
units = [int(v) for v in sys.argv[4].split(",")]
epochs = int(sys.argv[5]) if len(sys.argv) > 5 else None
xs, ys, gs = [], [], []
for i, f in enumerate(files):
    d = np.load(f)
    xs.append(d["x"])
    ys.append(d["won"])
    gs.append(d["game"] + 40_000 * i)
x, y, g = np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)
held = test["game"] >= 32_000
xt, yt = test["x"][held], test["won"][held]
print(f"{len(y):,} training positions, {len(yt):,} held out; constant "
      f"{log_loss(np.full(len(yt), y.mean()), yt):.4f}; epochs {epochs or 'fit_net default'}",
      flush=True)
for n in sizes:
    k = g < n
    b = fit_logistic(x[k][:, COLS], y[k])
    line = (f"{n:7,} games {k.sum():9,} positions: linear "
            f"{log_loss(1 / (1 + np.exp(-(b[0] + xt[:, COLS] @ b[1:]))), yt):.4f}")
    for h in units:
        t = time.time()
        fit = fit_net(x[k], y[k], h, np.random.default_rng(np.random.SeedSequence(3001)), epochs)
        line += f"  net {h}: {fit.log_loss(xt, yt):.4f} ({time.time() - t:.0f} s)"
    print(line, flush=True)
