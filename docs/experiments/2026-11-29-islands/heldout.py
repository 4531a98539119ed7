"""The value's held-out log-loss after each logged batch (evolve.report.valueplot.held_out),
means per stretch of generations."""
import sys
from pathlib import Path

import numpy as np

from evolve.report.valueplot import held_out
from evolve.runfolder import RunFolder

run = Path(sys.argv[1])
step = int(sys.argv[2]) if len(sys.argv) > 2 else 500
curve = held_out(run, RunFolder(run).read_log())
assert curve is not None and len(curve), "no logged value weights"
print(f"{run}: {len(curve)} batches, base rate log-loss {curve[0, 2]:.4f}")
print("| generations | batches | held-out log-loss | gain over the base rate |")
print("|---|---|---|---|")
for lo in range(0, int(curve[:, 0].max()) + 1, step):
    sel = (curve[:, 0] >= lo) & (curve[:, 0] < lo + step)
    if sel.any():
        ll = float(curve[sel, 1].mean())
        print(f"| {lo:,}-{min(lo + step, int(curve[:, 0].max()) + 1) - 1:,} | {int(sel.sum())} "
              f"| {ll:.4f} | {float(curve[sel, 2].mean()) - ll:.4f} |")
print("first", np.round(curve[:3, 1], 4), "last", np.round(curve[-3:, 1], 4))
