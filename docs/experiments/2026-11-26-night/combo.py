"""Exploratory: does a sum of the gauntlet mean and cross-family (z-scores over all players)
rank players as the yardstick does, within each run? (Shopped on these 19 players: a lead only.)"""
import csv, os
import numpy as np
from evolve.yardstick import read_yard, spearman
N = os.environ.get("NIGHT", "runs/night")  # the night runs' working folder
yard = read_yard(f"{N}/yard/results")
cross = {r["player"]: float(r["cross_family"]) for r in csv.DictReader(open(f"{N}/inhouse/cross.csv"))}
gm = {}
for p in cross:
    f = f"{N}/inhouse/g-{p}/gauntlet.csv"
    gm[p] = np.mean([float(r["win_rate"]) for r in csv.DictReader(open(f))])
ps = sorted(p for p in cross if p in yard and yard[p][1] >= 2000)
y = np.array([yard[p][0] / yard[p][1] for p in ps])
c = np.array([cross[p] for p in ps]); g = np.array([gm[p] for p in ps])
z = (c - c.mean()) / c.std() + (g - g.mean()) / g.std()
for name, x in (("gauntlet", g), ("cross", c), ("sum of z", z)):
    parts = []
    for fam in ("s3", "s4", "s5r"):
        i = [k for k, p in enumerate(ps) if p.startswith(fam + "-")]
        if len(i) >= 3: parts.append(f"{fam} {spearman(x[i], y[i]):+.2f} (n={len(i)})")
    print(f"{name:9s} all {spearman(x, y):+.2f} (n={len(ps)})  " + "  ".join(parts))
