"""Win rate against a fixed trio of line champions (s4 gen 850, s5r gen 3100, s3 gen 1050) vs the yardstick."""
import os
import csv, re, sys
from collections import defaultdict
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from yard import read_yard, spearman
N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder
yard = read_yard(N / "yard/results")
opp = {"s4-crown850", "s5r-crown3100", "s3-crown1050"}
x = {}
for d in (N / "trio").iterdir():
    f = d / "diagnose.csv"
    if f.exists() and d.name not in opp:
        for r in csv.DictReader(f.open()):
            if r["metric"] == "win_rate":
                x[d.name] = float(r[d.name])
ps = sorted(p for p in x if yard[p][1] >= 2000)
y = np.array([yard[p][0] / yard[p][1] for p in ps]); v = np.array([x[p] for p in ps])
print(len(ps), "players, pooled", f"{spearman(v, y):+.2f}")
parts = []
for fam in ("s3", "s4", "s4r", "s5r"):
    idx = [i for i, p in enumerate(ps) if p.split("-")[0] == fam]
    if len(idx) >= 4:
        parts.append((fam, len(idx), spearman(v[idx], y[idx])))
print("  ".join(f"{f} {r:+.2f} (n={n})" for f, n, r in parts), f"within mean {sum(n*r for _,n,r in parts)/sum(n for _,n,_ in parts):+.2f}")
for p in sorted(ps, key=lambda p: -yard[p][0]/yard[p][1]):
    print(f"{p:14s} {yard[p][0]/yard[p][1]:.3f} trio {x[p]:.3f}")
