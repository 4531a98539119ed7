"""Fit a bot's value on games against a pool of other evolved champions (greedy), not against
itself or the gauntlet's bots: 10,000 compiled games, the bot in seat g mod 4, each other seat
a pool genome drawn uniformly; the bot's positions only (`bot`) or every seat's (`all`).

    python poolfit.py BOT.json OUT.json SEED MODE POOL.json...    # MODE: bot | all
"""
import json
import sys
from pathlib import Path

import numpy as np

from evolve.plan.planfit import fit_logistic
from features.botfile import read_bot
from features.record import record_games
from features.search.value import NAMES, TERMS

bot, out, seed, mode = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pool = np.stack([read_bot(p)[0] for p in sys.argv[5:]])
weights = read_bot(bot)[0]
games, chunk = 10_000, 1_000
xs, ys = [], []
for lo in range(0, games, chunk):
    n = min(chunk, games - lo)
    w = np.zeros((n, 4, len(weights)))
    rec = np.zeros((n, 4), bool)
    for i, g in enumerate(range(lo, lo + n)):
        draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(g, 1)))
        w[i] = pool[draw.integers(len(pool), size=4)]
        w[i, g % 4] = weights
        rec[i] = True if mode == "all" else np.arange(4) == g % 4
    seeds = [np.random.SeedSequence(seed, spawn_key=(g,)) for g in range(lo, lo + n)]
    p = record_games(w, np.zeros((n, 4), np.int32), seeds, rec)
    xs.append(p.x)
    ys.append(p.won)
x, y = np.concatenate(xs), np.concatenate(ys)
keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
b = fit_logistic(x[:, keep], y)
print(f"{len(y)} positions ({y.mean():.3f} won), |b| {np.abs(b[1:]).sum():.1f}")
raw = json.loads(bot.read_text())
value = {**raw["plan"]["value"], **{NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}}
out.write_text(json.dumps({**raw, "plan": {**raw["plan"], "value": value}}))
