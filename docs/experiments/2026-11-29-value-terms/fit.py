"""Fit the value on recorded positions, 12 terms against all, held-out log-loss by game.

usage: fit.py DATA.npz [HOLD_FROM_GAME]  -> prints log-loss and writes DATA-v1.json, DATA-v2.json
(value weights by name; `value.won` keeps 10)
"""
import json
import sys

import numpy as np

from evolve.plan.planfit import fit_logistic
from features.search.value import NAMES, NV

d = np.load(sys.argv[1])
x, y, g = d["x"], d["won"], d["game"]
hold = int(sys.argv[2]) if len(sys.argv) > 2 else int(g.max() * 0.8)
tr, te = g < hold, g >= hold
won = NAMES.index("value.won")


def loss(b, cols, m):
    z = b[0] + x[m][:, cols] @ b[1:]
    p = np.clip(1 / (1 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return float(-(y[m] * np.log(p) + (1 - y[m]) * np.log(1 - p)).mean())


base = y[tr].mean()
print(f"train {tr.sum()} test {te.sum()} positions; base rate {base:.3f}, "
      f"constant log-loss {-(base*np.log(base)+(1-base)*np.log(1-base)):.4f}")
for tag, cols in (("v1", [i for i in range(12) if i != won]),
                  ("v2", [i for i in range(NV) if i != won])):
    b = fit_logistic(x[tr][:, cols], y[tr])
    print(f"{tag}: {len(cols)} terms, train {loss(b, cols, tr):.4f}, held-out {loss(b, cols, te):.4f}")
    vals = {NAMES[i]: 0.0 for i in range(NV)}
    vals.update({NAMES[c]: float(v) for c, v in zip(cols, b[1:])})
    vals["value.won"] = 10.0
    json.dump(vals, open(sys.argv[1].replace(".npz", f"-{tag}.json"), "w"), indent=1)
