"""Held-out log-loss of nets on the value terms alone and on the terms with the board beside
them (board.py's arrays), against the number of training games.

usage: boardfit.py TRAIN.npz[,...] TEST.npz GAMES[,...] UNITS [STEPS]
(each training file holds 40,000 games; every fit takes at least STEPS minibatches, default
5,000, and 6 epochs)
"""
import sys
import time

import numpy as np

from evolve.plan.valuefit import COLS, log_loss

BATCH, RATE, L2 = 2048, 3e-3, 1e-5


def fit(x: np.ndarray, y: np.ndarray, h: int, steps: int, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    """fit_net's model and schedule on any inputs: a skip-linear part and h rectified units."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = ((x - mu) / sd).astype(np.float32)
    n, k = z.shape
    epochs = max(6, -(-steps * BATCH // n))
    p = [(rng.standard_normal((k, h)) / np.sqrt(k)).astype(np.float32), np.zeros(h, np.float32),
         (0.1 * rng.standard_normal(h) / np.sqrt(h)).astype(np.float32), np.zeros(k, np.float32),
         np.zeros(1, np.float32)]
    m1, m2, t = [np.zeros_like(a) for a in p], [np.zeros_like(a) for a in p], 0
    for e in range(epochs):
        rate = RATE * 0.5 ** max(0, e - epochs // 2)
        order = rng.permutation(n)
        for s in range(0, n, BATCH):
            i = order[s:s + BATCH]
            zb, yb = z[i], y[i].astype(np.float32)
            w1, c1, out, v, b = p
            pre = zb @ w1 + c1
            hh = np.maximum(pre, 0)
            dz = (1 / (1 + np.exp(-(hh @ out + zb @ v + b[0]))) - yb) / len(i)
            dh = np.outer(dz, out) * (pre > 0)
            grads = [zb.T @ dh + L2 * w1, dh.sum(0), hh.T @ dz, zb.T @ dz,
                     np.array([dz.sum()], np.float32)]
            t += 1
            for j, g in enumerate(grads):
                m1[j] = 0.9 * m1[j] + 0.1 * g
                m2[j] = 0.999 * m2[j] + 0.001 * g * g
                p[j] -= (rate * (m1[j] / (1 - 0.9 ** t)) / (np.sqrt(m2[j] / (1 - 0.999 ** t))
                                                             + 1e-8)).astype(np.float32)

    def predict(xt: np.ndarray) -> np.ndarray:
        zt = ((xt - mu) / sd).astype(np.float32)
        w1, c1, out, v, b = p
        return 1 / (1 + np.exp(-(np.maximum(zt @ w1 + c1, 0) @ out + zt @ v + b[0])))
    return predict


files, test = sys.argv[1].split(","), np.load(sys.argv[2])
sizes, units = [int(v) for v in sys.argv[3].split(",")], int(sys.argv[4])
steps = int(sys.argv[5]) if len(sys.argv) > 5 else 5_000
parts = [np.load(f) for f in files]
y = np.concatenate([d["won"] for d in parts])
g = np.concatenate([d["game"] - d["game"].min() + 40_000 * i for i, d in enumerate(parts)])
terms = np.concatenate([d["x"][:, COLS] for d in parts]).astype(np.float32)
board = np.concatenate([d["b"] for d in parts])
tt, tb, ty = test["x"][:, COLS].astype(np.float32), test["b"], test["won"]
print(f"{len(y):,} training positions, {len(ty):,} held out; constant "
      f"{log_loss(np.full(len(ty), y.mean()), ty):.4f}; {units} units", flush=True)
for n in sizes:
    k = g < n
    line = f"{n:7,} games {k.sum():9,} positions:"
    for name, xs, xt in (("terms", terms, tt), ("terms + board", None, None)):
        t = time.time()
        if xs is None:
            xs, xt = np.hstack([terms[k], board[k]]), np.hstack([tt, tb])
        else:
            xs = xs[k]
        pred = fit(xs, y[k], units, steps, np.random.default_rng(np.random.SeedSequence(3001)))
        line += f"  {name} {log_loss(pred(xt), ty):.4f} ({time.time() - t:.0f} s)"
    print(line, flush=True)
