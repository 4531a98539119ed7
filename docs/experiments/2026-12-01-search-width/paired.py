"""Two labels' yardstick batches on the same bridge seeds: pooled rates, their difference with z,
and the per-seed differences with a paired z (their mean over its standard error).

    python paired.py results.txt A B
"""
import math
import re
import sys

rows: dict[tuple[str, int], tuple[int, int]] = {}
for line in open(sys.argv[1]):
    label, seed = line.split()[0], int(re.search(r"seed=(\d+)", line)[1])
    w, g = (int(re.search(rf" {k}=(\d+)", line)[1]) for k in ("wins", "games"))
    rows[(label, seed)] = (w, g)
a, b = sys.argv[2], sys.argv[3]
seeds = sorted(s for (label, s) in rows if label == a and (b, s) in rows)
rate = {(x, s): rows[(x, s)][0] / rows[(x, s)][1] for x in (a, b) for s in seeds}
d = [rate[(a, s)] - rate[(b, s)] for s in seeds]
games = sum(rows[(a, s)][1] for s in seeds)
pa, pb = (sum(rows[(x, s)][0] for s in seeds) / games for x in (a, b))
z = (pa - pb) / math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / games)


def wilson(p: float, n: int) -> str:
    c = 1.96 ** 2
    mid, half = (p + c / (2 * n)) / (1 + c / n), 1.96 * math.sqrt(p * (1 - p) / n + c / (4 * n * n)) / (1 + c / n)
    return f"[{mid - half:.3f}, {mid + half:.3f}]"


m = sum(d) / len(d)
se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else math.nan
print(f"{a} vs {b}: {len(seeds)} seeds, {games} games each: {pa:.4f} {wilson(pa, games)} vs "
      f"{pb:.4f} {wilson(pb, games)}, difference {pa - pb:+.4f} (z = {z:.1f}), "
      f"paired z = {m / se:.1f}, per seed {[round(x, 3) for x in d]}")
