"""How far a night's population moves from the champion its first hour crowned.

For each rank (reinforce, attack, fortify) the weight vectors are scaled to unit length, so the
figures ignore the weights' common growth: the best cosine between the hour's champion and any
member, and the members' median cosine to their own mean direction.
    NIGHTS=runs python drift.py 91 92
"""

import json
import os
import sys
from pathlib import Path

import numpy as np

from features.genome import LAYOUT

NIGHTS = os.environ.get("NIGHTS", "runs")
RANKS = np.array([LAYOUT.rank(i) for i in range(LAYOUT.size)])

for seed in sys.argv[1:]:
    champ = json.loads(Path(f"{NIGHTS}/n{seed}-1h/champion.json").read_text())
    c = np.array([champ["genes"][n] for n in LAYOUT.names])
    for gen in (2090, 4180, 8360):
        genes = np.load(f"{NIGHTS}/n{seed}/genes/gen_{gen:05d}.npz")["genes"]
        cells = []
        for rank in ("reinforce", "attack", "fortify"):
            k = np.equal(RANKS, rank)
            a = c[k] / np.linalg.norm(c[k])
            b = genes[:, k] / np.linalg.norm(genes[:, k], axis=1, keepdims=True)
            mean = b.mean(0) / np.linalg.norm(b.mean(0))
            cells.append(f"{rank} {(b @ a).max():.3f} ({np.median(b @ mean):.3f})")
        print(f"seed {seed} generation {gen}: " + "; ".join(cells))
