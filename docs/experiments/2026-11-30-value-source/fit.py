"""Fit a bot's value on its own games as a run's end step does (10,000 games, self share 0.25,
horizon attack), under several L2 penalties, and write a bot file per penalty.

    python fit.py BOT.json OUT_DIR TAG SEED [L2 ...]    # SHARE=1.0 for self-play games

Prints, per penalty, the held-out log-loss (another 5,000 games, seed SEED + 1) and the
coefficients' size; writes OUT_DIR/TAG-l<L2>.json (BOT's genes and plan, the new value).
"""
import json
import os
import sys
from pathlib import Path

import numpy as np

from evolve.plan.planfit import fit_logistic, positions
from features.botfile import read_bot
from features.search.value import NAMES, TERMS

bot, out, tag, seed = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
penalties = [float(a) for a in sys.argv[5:]] or [1e-3]
weights, _meta, _plan = read_bot(bot)
share = float(os.environ.get("SHARE", "0.25"))
x, y = positions(weights, 10_000, seed, "attack", share)
hx, hy = positions(weights, 5_000, seed + 1, "attack", share)
keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
print(f"{len(y)} positions ({y.mean():.3f} won), held out {len(hy)}")
raw = json.loads(bot.read_text())
for l2 in penalties:
    b = fit_logistic(x[:, keep], y, l2=l2)
    z = np.clip(b[0] + hx[:, keep] @ b[1:], -30, 30)
    p = 1 / (1 + np.exp(-z))
    loss = -np.mean(hy * np.log(p + 1e-12) + (1 - hy) * np.log(1 - p + 1e-12))
    print(f"l2 {l2:g}: held-out log-loss {loss:.4f}, |b| {np.abs(b[1:]).sum():.1f}, "
          f"max {np.abs(b[1:]).max():.2f}")
    value = {**raw["plan"]["value"], **{NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}}
    (out / f"{tag}-l{l2:g}.json").write_text(json.dumps({**raw, "plan": {**raw["plan"],
                                                                          "value": value}}))
