"""Win rates per label from results.txt lines (label seed=S bot=... games=N wins=W ...), with
Wilson 95% intervals and each label's difference from BASE on the seeds both played.

    python agg.py results.txt BASE
"""
import math
import sys
from collections import defaultdict


def wilson(k, n, z=1.96):
    p, d = k / n, 1 + z * z / n
    c, h = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


BASE = sys.argv[2] if len(sys.argv) > 2 else "ev"
rows = defaultdict(dict)  # label -> seed -> (wins, games)
with open(sys.argv[1] if len(sys.argv) > 1 else "results.txt") as lines:
    for line in lines:
        f = dict(x.split("=", 1) for x in line.split()[1:] if "=" in x)
        rows[line.split()[0]][int(f["seed"])] = (int(f["wins"]), int(f["games"]))
for label, by_seed in rows.items():
    w, g = (sum(v[i] for v in by_seed.values()) for i in (0, 1))
    lo, hi = wilson(w, g)
    line = f"{label:4s} {g:5d} games  {w / g:.4f} [{lo:.3f}, {hi:.3f}]"
    both = sorted(set(by_seed) & set(rows[BASE])) if label != BASE else []
    if both:
        a = sum(by_seed[s][0] for s in both) / sum(by_seed[s][1] for s in both)
        b = sum(rows[BASE][s][0] for s in both) / sum(rows[BASE][s][1] for s in both)
        n = sum(by_seed[s][1] for s in both)
        z = (a - b) / math.sqrt((a * (1 - a) + b * (1 - b)) / n)
        line += f"  vs {BASE} on {len(both)} seeds: {a - b:+.4f} (z = {z:.1f})"
    print(line)
