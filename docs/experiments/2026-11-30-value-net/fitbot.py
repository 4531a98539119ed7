"""Fit the value's net on recorded positions and write the bundled champion with it (only
`plan.value` and `plan.net` change).

usage: fitbot.py TRAIN.npz[,TRAIN2.npz...] TEST.npz UNITS OUT.json [SEED]
"""
import dataclasses
import sys
import time

import numpy as np

from evolve.plan.netfit import fit_net
from features.botfile import BotFile

files, test = sys.argv[1].split(","), np.load(sys.argv[2])
units, out = int(sys.argv[3]), sys.argv[4]
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 3001
x = np.concatenate([np.load(f)["x"] for f in files])
y = np.concatenate([np.load(f)["won"] for f in files])
t = time.time()
fit = fit_net(x, y, units, np.random.default_rng(np.random.SeedSequence(seed)))
held = test["game"] >= 32_000
print(f"{units} units on {len(y):,} positions in {time.time() - t:.0f} s: training log-loss "
      f"{fit.log_loss(x, y):.4f}, held out {fit.log_loss(test['x'][held], test['won'][held]):.4f}")
bot = BotFile.read("game/bots/files/champion.json")
meta = dict(bot.meta, value_net={"positions": len(y), "units": units, "seed": seed})
plan = dataclasses.replace(bot.settings, value=fit.value, net=fit.net)
BotFile(bot.weights, meta, plan).write(out)
