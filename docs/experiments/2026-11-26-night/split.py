"""Split-half reliability of the yardstick: Spearman between the first and second 1,000-game
batches of each player with two (what the best in-house measure could reach at most)."""
import os, re
from collections import defaultdict
import numpy as np
from evolve.yardstick import spearman
N = os.environ.get("NIGHT", "runs/night")  # the night runs' working folder
b = defaultdict(list)
for line in open(f"{N}/yard/results"):  # per batch, not summed: not evolve.yardstick.read_yard
    m = re.match(r"(\S+) .*games=(\d+) wins=(\d+)", line)
    if m and not m[1].startswith("pol"):
        b[m[1]].append(int(m[3]) / int(m[2]))
two = sorted(p for p in b if len(b[p]) >= 2)
x = np.array([b[p][0] for p in two]); y = np.array([b[p][1] for p in two])
print(f"{len(two)} players, split-half Spearman {spearman(x, y):+.2f}")
for fam in ("s3", "s4", "s5r"):
    ps = [i for i, p in enumerate(two) if p.startswith(fam + "-")]
    if len(ps) >= 3:
        print(f"  {fam} n={len(ps)} {spearman(x[ps], y[ps]):+.2f}  spread of 2,000-game means "
              f"{min((x[ps]+y[ps])/2):.3f}..{max((x[ps]+y[ps])/2):.3f}")
