"""The run's value as it learned (`log.jsonl`'s `value` records, evolve.plan.valuefit): each
batch's log-loss under the value as it stood before learning it (data it had not seen), the
log-loss of always predicting the batch's win rate, and the calibration error."""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: runs write PNGs on servers without a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from evolve.stats import base_log_loss  # noqa: E402


def value_rows(log: list[dict[str, Any]]) -> np.ndarray:
    """f64[n, 4]: generation, log-loss, calibration error, won share of each scored batch."""
    rows = [(r["generation"], v["log_loss"], v["calibration"], v["won"]) for r in log
            if (v := r.get("value")) and v.get("positions")]
    return np.array(rows, dtype=float).reshape(-1, 4)


def plot_value(log: list[dict[str, Any]]) -> Figure:
    """Log-loss (and the constant predictor's) and calibration error per batch."""
    rows = value_rows(log)
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True, layout="constrained")
    g, loss, cal, won = rows.T
    base = [base_log_loss(float(x)) for x in won]
    axes[0].plot(g, base, color="grey", ls=":", label="always the batch's win rate")
    axes[0].plot(g, loss, ".-" if g.size < 60 else "-", color="crimson",
                 label="the value as it stood (before learning the batch)")
    axes[0].set_ylabel("log-loss")
    axes[0].set_title("the run's value on positions it had not seen")
    axes[0].legend(fontsize=8)
    axes[1].plot(g, cal, ".-" if g.size < 60 else "-", color="black")
    axes[1].set_ylabel("calibration error")
    axes[1].set_xlabel("generation")
    return fig


__all__ = ["plot_value", "value_rows"]
