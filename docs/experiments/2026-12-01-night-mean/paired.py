"""Two labels' yardstick batches on the same bridge seeds: pooled rates with 95% Wilson
intervals, their difference with z, and the per-seed differences with a paired z (their mean
over its standard error).

    python paired.py A B [RESULTS...]   (default: ../2026-11-30-nights/results.txt and
                                         results.txt here)
"""
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
rows: dict[tuple[str, int], tuple[int, int]] = {}
files = sys.argv[3:] or (HERE.parent / "2026-11-30-nights" / "results.txt", HERE / "results.txt")
for f in files:
    for line in open(f):
        label, seed = line.split()[0], int(re.search(r"seed=(\d+)", line)[1])
        w, g = (int(re.search(rf" {k}=(\d+)", line)[1]) for k in ("wins", "games"))
        rows[(label, seed)] = (w, g)
a, b = sys.argv[1], sys.argv[2]
seeds = sorted(s for (label, s) in rows if label == a and (b, s) in rows)
rate = {(x, s): rows[(x, s)][0] / rows[(x, s)][1] for x in (a, b) for s in seeds}
d = [rate[(a, s)] - rate[(b, s)] for s in seeds]
games = sum(rows[(a, s)][1] for s in seeds)
pa, pb = (sum(rows[(x, s)][0] for s in seeds) / games for x in (a, b))
z = (pa - pb) / math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / games)
m = sum(d) / len(d)
se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else math.nan
paired = m / se


def wilson(p: float, n: int) -> str:
    c = 1.96 ** 2
    mid = (p + c / (2 * n)) / (1 + c / n)
    half = 1.96 * math.sqrt(p * (1 - p) / n + c / (4 * n * n)) / (1 + c / n)
    return f"[{mid - half:.3f}, {mid + half:.3f}]"


print(f"{a} vs {b}: {len(seeds)} seeds, {games} games: {pa:.4f} {wilson(pa, games)} vs "
      f"{pb:.4f} {wilson(pb, games)}, "
      f"difference {pa - pb:+.4f} (z = {z:.1f}), paired z = {paired:.1f}, "
      f"per seed {[round(x, 3) for x in d]}")
