"""Every measure against the yardstick over all candidates and crowned champions measured with
2,000+ games (development and held-out players), pooled and within each run.
usage: allplayers.py  (reads $NIGHT, the night runs' folder)"""
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout3 import M, play, yard
from yard import spearman

players = [p for p in yard if yard[p][1] >= 2000 and p in play and ("-cand" in p or "crown" in p)]
fams = ("s3", "s4", "s4r", "s5r")
print(f"{len(players)} players; " + ", ".join(f"{f} {sum(p.split('-')[0] == f for p in players)}" for f in fams))
TRIO = {"s4-crown850", "s5r-crown3100", "s3-crown1050"}  # the trio's own members sit out its row
for k, f in M.items():
    ps = [p for p in players if k != "trio" or p not in TRIO]
    x = {p: f(p) for p in ps}
    row = [spearman(np.array([x[p] for p in ps]), np.array([yard[p][0] / yard[p][1] for p in ps]))]
    within = []
    for fam in fams:
        q = [p for p in ps if p.split("-")[0] == fam]
        within.append((len(q), spearman(np.array([x[p] for p in q]),
                                        np.array([yard[p][0] / yard[p][1] for p in q]))))
    mean = sum(n * r for n, r in within) / sum(n for n, _ in within)
    print(f"| {k} | {row[0]:+.2f} | " + " | ".join(f"{r:+.2f}" for _, r in within) + f" | {mean:+.2f} |")
