"""A second external opinion: do Domination's `average` AIs rank our players as `hard` does,
and as the in-house measures do?  usage: average.py  (reads $NIGHT, the night runs' folder)"""
import os
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from yard import read_yard, spearman
from heldout3 import M  # the in-house measures, one home
N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder
hard = read_yard(N / "yard/results")
for k, v in read_yard(N / "yard/sealed-results").items():
    hard[k] = v
avg = read_yard(N / "yard/avg-results")
ps = sorted((p for p in avg if avg[p][1] >= 1000), key=lambda p: -hard[p][0] / hard[p][1])
a = np.array([avg[p][0] / avg[p][1] for p in ps]); h = np.array([hard[p][0] / hard[p][1] for p in ps])
print(f"{'player':14s} {'3x hard':>8s} {'3x average':>10s} " + " ".join(f"{k:>14s}" for k in M))
for p, x, y in zip(ps, h, a):
    print(f"{p:14s} {x:8.4f} {y:10.3f} " + " ".join(f"{M[k](p):14.4f}" for k in M))
for name, idx in (("all", list(range(len(ps)))),
                  ("seed 4 and its branch", [i for i, p in enumerate(ps) if p.startswith("s4")])):
    print(f"{name} (n={len(idx)}): average vs hard {spearman(a[idx], h[idx]):+.2f}; " + "  ".join(
        f"{k}: vs average {spearman(np.array([M[k](ps[i]) for i in idx]), a[idx]):+.2f}"
        f" vs hard {spearman(np.array([M[k](ps[i]) for i in idx]), h[idx]):+.2f}" for k in M))
