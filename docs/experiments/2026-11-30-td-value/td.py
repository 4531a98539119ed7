"""Fit the value's 48 terms by TD(lambda) instead of the final result (Monte Carlo), on the
value-terms page's self-play positions, and write the bundled champion with it.

usage: td.py POSITIONS.npz LAMBDAS [OUT_PREFIX]
(POSITIONS: the value-terms page's gen.py output; games < 32,000 train, the rest held out;
LAMBDAS: comma-separated, 1 = the Monte Carlo fit the bundled champion ships; with
OUT_PREFIX, OUT_PREFIX-l<lambda>.json is the bundled champion with only `plan.value` replaced)

The fit is fitted TD: targets G_t = (1 - lambda) v(x_{t+1}) + lambda G_{t+1} along each
seat's positions in its game (G after its last position: 1 if it won, else 0), v the current
fit; logistic regression (Newton, L2 1e-3) on the soft targets; repeated until the weights stop
moving, starting from the Monte Carlo fit.
"""
import sys

import numpy as np

from evolve.plan.planfit import fit_logistic
from evolve.plan.valuefit import COLS, calibration_error, log_loss
from features.botfile import BotFile
from features.search.player import PlanSettings
from features.search.value import NAMES

ITERS = 30


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def next_of(game: np.ndarray, player: np.ndarray) -> np.ndarray:
    """Index of the same seat's next position in its game, -1 after its last one."""
    key = game.astype(np.int64) * 8 + player
    order = np.argsort(key, kind="stable")  # rows of one seat stay in time order
    nxt = np.full(len(key), -1, np.int64)
    same = key[order[1:]] == key[order[:-1]]
    nxt[order[:-1][same]] = order[1:][same]
    return nxt


def targets(v: np.ndarray, won: np.ndarray, nxt: np.ndarray, lam: float) -> np.ndarray:
    """lambda-returns, computed backwards along each seat's chain."""
    g = np.empty(len(v))
    last = nxt < 0
    g[last] = won[last]
    prev = np.full(len(v), -1, np.int64)  # the same seat's position before, -1 at its first
    prev[nxt[~last]] = np.flatnonzero(~last)
    frontier = np.flatnonzero(last)  # walk every chain back from its end at once
    while frontier.size:
        p = prev[frontier]
        p = p[p >= 0]
        n = nxt[p]
        g[p] = (1 - lam) * v[n] + lam * g[n]
        frontier = p
    return g


def fit_td(x: np.ndarray, won: np.ndarray, nxt: np.ndarray, lam: float) -> tuple[np.ndarray, int]:
    b = fit_logistic(x, won)
    if lam == 1:
        return b, 0
    for i in range(ITERS):
        v = sigmoid(b[0] + x @ b[1:])
        nb = fit_logistic(x, targets(v, won, nxt, lam))
        moved = np.abs(nb - b).max()
        b = nb
        if moved < 1e-6:
            return b, i + 1
    return b, ITERS


def main() -> None:
    d = np.load(sys.argv[1])
    lams = [float(v) for v in sys.argv[2].split(",")]
    prefix = sys.argv[3] if len(sys.argv) > 3 else None
    train = d["game"] < 32_000
    x, won = d["x"][:, COLS], d["won"]
    nxt_all = next_of(d["game"], d["player"])
    # Chains within the training games only: re-index.
    idx = np.flatnonzero(train)
    where = np.full(len(won), -1, np.int64)
    where[idx] = np.arange(len(idx))
    nxt = where[nxt_all[idx].clip(0)]
    nxt[nxt_all[idx] < 0] = -1
    xt, yt = x[~train], won[~train]
    print(f"{train.sum():,} training positions, {len(yt):,} held out; constant "
          f"{log_loss(np.full(len(yt), won[train].mean()), yt):.4f}", flush=True)
    for lam in lams:
        b, iters = fit_td(x[train], won[train], nxt, lam)
        p = sigmoid(b[0] + xt @ b[1:])
        cal = calibration_error(p, yt)
        print(f"lambda {lam:4.2f} ({iters:2d} refits): held-out log-loss {log_loss(p, yt):.4f}, "
              f"calibration error {cal:.4f}, |b| {np.abs(b[1:]).sum():.2f}", flush=True)
        if prefix:
            bot = BotFile.read("game/bots/files/champion.json")
            plan = bot.plan.as_dict()
            plan["value"] = {NAMES[c]: float(v) for c, v in zip(COLS, b[1:], strict=True)}
            plan["value"]["value.won"] = 10.0  # as the bundled file: a won position is won
            shipped = np.array([bot.settings.value[c] for c in COLS])
            print(f"  largest difference from the shipped value: "
                  f"{np.abs(shipped - b[1:]).max():.2e}")
            meta = dict(bot.meta, value_fit={"method": "td", "lambda": lam,
                                             "positions": int(train.sum())})
            BotFile(bot.weights, meta, PlanSettings.from_dict(plan)).write(
                f"{prefix}-l{lam:g}.json")


if __name__ == "__main__":
    main()
