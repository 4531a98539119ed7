"""The run's value, learned all night: an online logistic regression of the win on the value
terms of the champion's positions, a batch of recorded games every `value.every` generations.

Each batch is first scored by the value as it stands (its log-loss and calibration: data the fit
has not seen, a prequential measure), then learned: a Laplace-approximated Bayesian update
(the posterior's mean and precision; Newton's method on the batch's log-likelihood plus the
prior's quadratic, then the batch's Hessian joins the precision), with the old precision
multiplied by `decay` first so positions of long-gone champions fade. The state is two arrays,
checkpointed with the run; the games' seeds derive from the run seed and the generation and
draw nothing from the run's generator, so the GA plays as without it and a resumed run learns
the same value. `evolve.plan.planfit.plan_champion` checks the run's value beside its own fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.stats import base_log_loss
from features.record import record_games
from features.search.value import NAMES, NV

VALUE_KEY = 0x56414C  # first spawn_key entry of the value games' seeds
HELD_KEY = 0x484C44  # of the held-out games' (`held_out_curve`): never a value batch's
WON = NAMES.index("value.won")
COLS = np.array([i for i in range(NV) if i != WON])  # a recorded position has not won yet
WON_WEIGHT = 10.0  # the win's weight in a planning bot's value: above any other position
BINS = 10  # calibration bins of predicted probability
NEWTON_STEPS = 8


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-likelihood of labels y under probabilities p."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())


def calibration_error(p: np.ndarray, y: np.ndarray) -> float:
    """Expected calibration error: per tenth of predicted probability, |mean p - mean y|,
    weighted by its share of the positions."""
    bins = np.minimum((p * BINS).astype(np.int64), BINS - 1)
    err = 0.0
    for b in range(BINS):
        m = bins == b
        if m.any():
            err += m.mean() * abs(float(p[m].mean() - y[m].mean()))
    return err


@dataclass
class OnlineValue:
    """Posterior mean (intercept first, then the terms of `COLS`) and precision of the fit."""

    mean: np.ndarray  # f64[1 + len(COLS)]
    precision: np.ndarray  # f64[1 + len(COLS), 1 + len(COLS)]
    positions: int = 0  # positions learned so far
    batches: int = 0

    @classmethod
    def new(cls, l2: float) -> OnlineValue:
        """No data yet: mean 0, precision l2 (a Gaussian prior on every coefficient)."""
        n = 1 + len(COLS)
        return cls(np.zeros(n), l2 * np.eye(n))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """P(win) of positions x f64[n, NV]."""
        return _sigmoid(self.mean[0] + x[:, COLS] @ self.mean[1:])

    def learn(self, x: np.ndarray, y: np.ndarray, decay: float) -> dict[str, Any]:
        """Score the batch (x f64[n, NV], y f64[n]) by the value as it stands, then learn it;
        returns the scores (log-loss, calibration error, base rate) and the totals."""
        n = len(y)
        rec: dict[str, Any] = {"positions": n}
        if n:
            p = self.predict(x)
            rec.update(log_loss=log_loss(p, y), calibration=calibration_error(p, y),
                       won=float(y.mean()))
        prior_p = decay * self.precision
        prior_m = self.mean.copy()
        if n:
            xb = np.c_[np.ones(n), x[:, COLS]]
            b = prior_m.copy()
            for _ in range(NEWTON_STEPS):
                q = _sigmoid(xb @ b)
                grad = xb.T @ (y - q) - prior_p @ (b - prior_m)
                hess = xb.T @ (xb * (q * (1 - q))[:, None]) + prior_p
                step = np.linalg.solve(hess, grad)
                b += step
                if np.abs(step).max() < 1e-9:
                    break
            q = _sigmoid(xb @ b)
            self.precision = prior_p + xb.T @ (xb * (q * (1 - q))[:, None])
            self.mean = b
        self.positions += n
        self.batches += 1
        # The weights after this batch (intercept first, then `COLS`): the log keeps the value's
        # whole history, so one held-out set can score it at every batch (`held_out_curve`).
        rec.update(total_positions=self.positions, batches=self.batches,
                   weights=[float(v) for v in self.mean])
        return rec

    def values(self) -> dict[str, float]:
        """The value weights by name (a bot file's `plan.value`): the fitted coefficients, the
        win's `WON_WEIGHT`."""
        out = {NAMES[c]: float(v) for c, v in zip(COLS, self.mean[1:], strict=True)}
        out[NAMES[WON]] = WON_WEIGHT
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        """The state as checkpoint arrays."""
        return {"value.mean": self.mean, "value.precision": self.precision,
                "value.counts": np.array([self.positions, self.batches], np.int64)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], l2: float) -> OnlineValue:
        """The state saved by `arrays`; a checkpoint without it (older riskevo) starts anew.
        ValueError when its shapes do not fit this riskevo's terms."""
        if "value.mean" not in arrays:
            return cls.new(l2)
        n = 1 + len(COLS)
        mean, prec = np.asarray(arrays["value.mean"]), np.asarray(arrays["value.precision"])
        counts = np.asarray(arrays["value.counts"])
        if mean.shape != (n,) or prec.shape != (n, n) or counts.shape != (2,):
            raise ValueError(f"value state has shapes {mean.shape}, {prec.shape}, "
                             f"{counts.shape}; this riskevo's value has {n} coefficients")
        if not (np.isfinite(mean).all() and np.isfinite(prec).all()):
            raise ValueError("value state is not finite")
        return cls(mean.astype(np.float64), prec.astype(np.float64), int(counts[0]),
                   int(counts[1]))


def run_value(checkpoints: Path, generation: int) -> dict[str, float] | None:
    """The run's value weights as the checkpoint of `generation` holds them (None: no such
    checkpoint, or no position learned by then)."""
    for g, path in list_checkpoints(checkpoints):
        if g == generation:
            value = OnlineValue.from_arrays(load_checkpoint(path).arrays, 1.0)
            return value.values() if value.positions else None
    return None


def value_games(seed: int, generation: int, games: int, players: int, self_share: float,
                bots: Sequence[int]) -> tuple[np.ndarray, list[np.random.SeedSequence]]:
    """(policies int32[games, players], seeds) of a value batch: one seat the champion, every
    other seat a copy of it with probability self_share, else one of the compiled `bots`
    (policy codes) drawn uniformly; seats shuffled."""
    draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(VALUE_KEY, generation)))
    pol = np.zeros((games, players), np.int32)
    for g in range(games):
        for s in range(1, players):
            if draw.random() >= self_share:
                pol[g, s] = bots[int(draw.integers(len(bots)))]
        pol[g] = pol[g, draw.permutation(players)]
    seeds = [np.random.SeedSequence(seed, spawn_key=(VALUE_KEY, generation, i))
             for i in range(games)]
    return pol, seeds


def record_task(weights: np.ndarray, policies: np.ndarray, seeds: list[np.random.SeedSequence],
                rules: Any, board: Any) -> tuple[np.ndarray, np.ndarray]:
    """(x, won) of the champion's positions in these games (a worker's task)."""
    w = np.repeat(np.stack([weights] * policies.shape[1])[None], len(seeds), 0)
    p = record_games(w, policies, seeds, policies == 0, rules, board)
    return p.x, p.won


def held_out_curve(log: Sequence[dict[str, Any]], weights: np.ndarray, games: int,
                   players: int = 4, rules: Any = None, board: Any = None) -> np.ndarray:
    """f64[n, 3]: generation, log-loss and the base rate's log-loss of the value as each logged
    batch left it, on one fixed set: the self-play positions of `games` games of `weights`
    (typically the run's last champion), seeded apart from every value batch."""
    rows = [(int(r["generation"]), b) for r in log if (b := _logged_weights(r)) is not None]
    if not rows or games < 1:
        return np.zeros((0, 3))
    seeds = [np.random.SeedSequence(HELD_KEY, spawn_key=(i,)) for i in range(games)]
    x, y = record_task(weights, np.zeros((games, players), np.int32), seeds, rules, board)
    base = base_log_loss(float(y.mean())) if len(y) else float("nan")
    return np.array([(g, log_loss(_sigmoid(b[0] + x[:, COLS] @ b[1:]), y), base)
                     for g, b in rows])


def _logged_weights(rec: dict[str, Any]) -> np.ndarray | None:
    """The value's weights a log record kept (`learn`), or None: none, or not the intercept
    and one finite number per term of `COLS` (an older riskevo's, or a damaged line)."""
    v = rec.get("value")
    b = v.get("weights") if isinstance(v, dict) else None
    if (not isinstance(b, list) or len(b) != 1 + len(COLS) or not isinstance(
            rec.get("generation"), int) or not all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in b)):
        return None
    out = np.asarray(b, np.float64)
    return out if np.isfinite(out).all() else None


__all__ = ["HELD_KEY", "VALUE_KEY", "OnlineValue", "calibration_error", "held_out_curve",
           "log_loss", "record_task", "run_value", "value_games"]
