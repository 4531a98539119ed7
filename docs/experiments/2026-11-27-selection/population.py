"""Seed 4's playoff candidates on the yardstick by generation: pooled per stretch of the run and
the trend.  usage: population.py  (reads $NIGHT, the night runs' folder)"""
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout3 import play, yard
from yard import spearman
from evolve.stats import wilson_interval

c = sorted((int(p.split("cand")[1]), p) for p in yard if p.startswith("s4-cand") and yard[p][1] >= 2000)
g = np.array([x for x, _ in c]); y = np.array([yard[p][0] / yard[p][1] for _, p in c])
for x, p in c:
    print(f"gen {x:5d}  3x hard {yard[p][0] / yard[p][1]:.4f} of {yard[p][1]}  playoff {play.get(p)}")
print(f"Spearman generation vs hard {spearman(g, y):+.2f}; slope per 1,000 generations "
      f"{np.polyfit(g / 1000, y, 1)[0]:+.4f}")
for lo, hi, name in ((0, 2000, "first half hour"), (2001, 4060, "second half hour"), (4061, 8181, "second hour")):
    w = sum(yard[p][0] for x, p in c if lo <= x <= hi); n = sum(yard[p][1] for x, p in c if lo <= x <= hi)
    lo_, hi_ = wilson_interval(w, n)
    print(f"{name:17s} {w / n:.3f} [{lo_:.3f}, {hi_:.3f}] of {n}")
