"""Win rates per label of a yardstick results file (every label on the same seeds), with
Wilson 95% intervals and each label's difference from BASE (default `ev`).

    python docs/experiments/2026-11-30-search-levers/agg.py RESULTS [BASE]
"""
import math
import sys

from evolve.bench.yardstick import read_yard
from evolve.stats import wilson_interval

yard = read_yard(sys.argv[1])
base = sys.argv[2] if len(sys.argv) > 2 else "ev"
b = yard[base][0] / yard[base][1]
for label, (w, g) in yard.items():
    lo, hi = wilson_interval(w, g)
    line = f"{label:6s} {g:5d} games  {w / g:.4f} [{lo:.3f}, {hi:.3f}]"
    if label != base:
        a = w / g
        z = (a - b) / math.sqrt((a * (1 - a) + b * (1 - b)) / g)
        line += f"  vs {base}: {a - b:+.4f} (z = {z:.1f})"
    print(line)
