"""Score the pre-registered measures on the fresh players once their yardstick games are in."""
import os
import json, re, sys
from collections import defaultdict
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from yard import read_yard, spearman
N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder
pre = json.load(open(Path(__file__).resolve().parent / "prereg-fresh.json"))
dev = json.load(open(Path(__file__).resolve().parent / "dev-measures.json"))
yard = read_yard(N / "yard/results")
fresh = [p for p in pre if yard[p][1] >= 2000]
allp = fresh + [p for p in dev if yard[p][1] >= 2000 and dev[p]["playoff"] is not None]
for p in sorted(fresh, key=lambda p: -yard[p][0] / yard[p][1]):
    print(f"{p:14s} {yard[p][0]/yard[p][1]:.4f} " + " ".join(f"{k}={v:.3f}" for k, v in pre[p].items()))
for k in pre[fresh[0]]:
    y = np.array([yard[p][0] / yard[p][1] for p in fresh]); x = np.array([pre[p][k] for p in fresh])
    d = {**dev, **pre}
    ya = np.array([yard[p][0] / yard[p][1] for p in allp]); xa = np.array([d[p][k] for p in allp])
    print(f"{k:15s} held-out ({len(fresh)}) {spearman(x, y):+.2f}   all ({len(allp)}) {spearman(xa, ya):+.2f}")
