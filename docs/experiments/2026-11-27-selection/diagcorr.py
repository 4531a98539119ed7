"""Spearman of each behaviour metric (player's column of diagnose.csv vs 3x strategist) with
the yardstick, pooled and within each run."""
import os
import csv, re, sys
from collections import defaultdict
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from yard import read_yard, spearman
N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder
yard = read_yard(N / "yard/results")
meas = defaultdict(dict)
for d in (N / "diag").iterdir():
    f = d / "diagnose.csv"
    if f.exists():
        for row in csv.DictReader(f.open()):
            meas[d.name][row["metric"]] = float(row[d.name])
players = sorted(p for p in yard if p in meas and yard[p][1] >= 2000)
y = np.array([yard[p][0] / yard[p][1] for p in players])
print(len(players), "players")
for k in sorted(meas[players[0]]):
    x = np.array([meas[p][k] for p in players])
    per = []
    for run in ("s3", "s4", "s5r"):
        idx = [i for i, p in enumerate(players) if p.split("-")[0] == run]
        per.append((run, len(idx), spearman(x[idx], y[idx])))
    mean = sum(n * r for _, n, r in per) / sum(n for _, n, _ in per)
    print(f"{k:25s} pooled {spearman(x, y):+.2f}  " + "  ".join(f"{r} {v:+.2f}" for r, n, v in per) + f"  within {mean:+.2f}")
