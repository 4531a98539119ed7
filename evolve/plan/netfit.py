"""The value's net fitted on recorded positions: a logistic regression with rectified units.

A linear value of the terms stops learning after about 10,000 games of a champion (its held-out
log-loss is the same on 10,000 and 160,000); a few dozen rectified units on the same terms go on
learning from more (docs/experiments/2026-11-30-value-net.md). The model is
P(win) = sigmoid(b + V.z + sum_j out_j * max(0, c_j + W_j.z)) on the standardized terms z, fitted
by Adam on minibatches drawn from an explicit Generator; the standardization is then folded into
the weights, so a bot file holds a linear part (`plan.value`) and units on the raw terms
(`plan.net`, `features.search.value.weighted_value`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evolve.plan.valuefit import COLS, WON, WON_WEIGHT, log_loss
from features.search.value import MAX_HIDDEN, NV

BATCH = 2048
EPOCHS = 6  # at least; a small sample gets as many as MIN_STEPS minibatches take
MIN_STEPS = 5_000  # 10,000 games fitted in 6 epochs were 0.002 worse held out than in 24
RATE = 3e-3  # Adam's step; halved each sixth of the fit past its first half
L2 = 1e-5  # on the units' input weights
BETA1, BETA2, EPS = 0.9, 0.999, 1e-8


@dataclass(frozen=True)
class NetFit:
    """A fitted value: the term weights by position in `features.search.value.TERMS` (the
    win's `WON_WEIGHT`), the units as `PlanSettings.net` rows, and the intercept (which drops
    out of every comparison the search makes, so a bot file does not keep it)."""

    value: tuple[float, ...]
    net: tuple[tuple[float, ...], ...]
    intercept: float

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The value of positions x f64[n, NV] without the intercept (a bot's value)."""
        v = x @ np.asarray(self.value)
        for row in self.net:
            r = np.asarray(row)
            v += r[-1] * np.maximum(0.0, r[0] + x @ r[1:-1])
        return v

    def log_loss(self, x: np.ndarray, y: np.ndarray) -> float:
        """Log-loss of the win probabilities it gives positions x f64[n, NV] labelled y."""
        return log_loss(_sigmoid(self.intercept + self.logits(x)), y)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def epochs_for(n: int) -> int:
    """Epochs of a fit on n positions: `EPOCHS`, or enough for `MIN_STEPS` minibatches (a
    sample under `BATCH` is one minibatch an epoch)."""
    return max(EPOCHS, -(-MIN_STEPS // -(-n // BATCH)))


def fit_net(x: np.ndarray, y: np.ndarray, hidden: int, rng: np.random.Generator,
            epochs: int | None = None) -> NetFit:
    """Fit the value with `hidden` units on positions x f64[n, NV] labelled y f64[n] (1: the
    seat went on to win); minibatch order and initial weights from rng. Epochs: `EPOCHS`, or
    more when fewer would take less than `MIN_STEPS` minibatches. The same rng fits the same
    net on one machine; its float32 sums may round otherwise under another BLAS."""
    if not 1 <= hidden <= MAX_HIDDEN:
        raise ValueError(f"hidden must be 1..{MAX_HIDDEN}, got {hidden}")
    if len(x) != len(y) or len(y) == 0 or x.shape[1:] != (NV,):
        raise ValueError(f"need positions f64[n, {NV}] and as many labels, got {x.shape}, "
                         f"{y.shape}")
    raw = x[:, COLS]
    mu, sd = raw.mean(0), raw.std(0) + 1e-6
    z = ((raw - mu) / sd).astype(np.float32)
    t = y.astype(np.float32)
    n, k = z.shape
    if epochs is None:
        epochs = epochs_for(n)
    w1 = (rng.standard_normal((k, hidden)) / np.sqrt(k)).astype(np.float32)
    params = [w1, np.zeros(hidden, np.float32),
              (0.1 * rng.standard_normal(hidden) / np.sqrt(hidden)).astype(np.float32),
              np.zeros(k, np.float32), np.zeros(1, np.float32)]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        # Halved at each sixth of the fit past its first half, however many epochs it takes.
        rate = RATE * 0.5 ** max(0, EPOCHS * epoch // epochs - EPOCHS // 2)
        order = rng.permutation(n)
        for s in range(0, n, BATCH):
            i = order[s:s + BATCH]
            zb, tb = z[i], t[i]
            w1, c1, out, v, b = params
            pre = zb @ w1 + c1
            h = np.maximum(pre, 0)
            dz = (_sigmoid(h @ out + zb @ v + b[0]) - tb) / len(i)
            dh = np.outer(dz, out) * (pre > 0)
            grads = [zb.T @ dh + L2 * w1, dh.sum(0), h.T @ dz, zb.T @ dz,
                     np.array([dz.sum()], np.float32)]
            step += 1
            for j, g in enumerate(grads):
                m1[j] = BETA1 * m1[j] + (1 - BETA1) * g
                m2[j] = BETA2 * m2[j] + (1 - BETA2) * g * g
                params[j] -= (rate * (m1[j] / (1 - BETA1 ** step))
                              / (np.sqrt(m2[j] / (1 - BETA2 ** step)) + EPS)).astype(np.float32)
    w1, c1, out, v, b = (p.astype(np.float64) for p in params)
    # Fold the standardization in: W.z = (W / sd).x - W.(mu / sd).
    value = np.zeros(NV)
    value[COLS] = v / sd
    value[WON] = WON_WEIGHT
    rows = np.zeros((hidden, NV + 2))
    rows[:, 0] = c1 - (w1 * (mu / sd)[:, None]).sum(0)
    rows[:, 1 + COLS] = (w1 / sd[:, None]).T
    rows[:, -1] = out
    return NetFit(tuple(float(a) for a in value), tuple(tuple(float(a) for a in r) for r in rows),
                  float(b[0] - (v * mu / sd).sum()))


__all__ = ["NetFit", "epochs_for", "fit_net"]
