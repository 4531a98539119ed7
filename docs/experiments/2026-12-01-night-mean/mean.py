"""A bot file whose weights are the mean of other planning files' weights (an ensemble of linear
players: the mean weights score every option by the members' mean score), played with the last
file's plan (value, search, margin). A scale gene (-1 or +1) takes the last file's sign.

    python mean.py OUT FILE... (from the checkout, with PYTHONPATH=.)
"""
import sys

import numpy as np

from features.botfile import BotFile
from features.genome import LAYOUT

out, *paths = sys.argv[1:]
bots = [BotFile.read(p) for p in paths]
weights = np.array([b.weights for b in bots])
mean = weights.mean(axis=0)
scale = np.asarray(LAYOUT.scale, dtype=bool)
mean[scale] = weights[-1][scale]
last = bots[-1]
names = [p.split("/")[-1] for p in paths]
meta = dict(last.meta, run=f"{last.meta.get('run')}-mean", mean_of=names)
BotFile(mean, meta, last.plan).write(out)
