"""The run's value as it learned (`log.jsonl`'s `value` records, evolve.plan.valuefit): each
batch's log-loss under the value as it stood before learning it (data it had not seen), the
log-loss of always predicting the batch's win rate, the calibration error, and the value after
each batch on one fixed held-out set (the run's last champion's games), which the batches'
own scores cannot show: each batch comes from another champion."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: runs write PNGs on servers without a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from evolve.runfolder import RunFolder  # noqa: E402
from evolve.stats import base_log_loss  # noqa: E402

HELD_GAMES = 256  # the value's held-out set: self-play games of the run's last champion


def held_out(run_path: Path, log: list[dict[str, Any]]) -> np.ndarray | None:
    """The value's held-out curve (`held_out_curve`) on the games of the run's champion, or
    None when the run has no champion file yet."""
    from evolve.config import ConfigError, load_config
    from evolve.plan.valuefit import held_out_curve
    from evolve.plugin import load_plugin
    from features.botfile import BotFile
    from features.genome import GenomeError

    folder = RunFolder(run_path)
    if not folder.champion.is_file():
        return None
    try:
        cfg = load_config([folder.config])
        plugin = load_plugin(cfg)
        weights = BotFile.read(folder.champion).weights
    except (ConfigError, GenomeError) as e:
        print(f"warning: no held-out value curve: {e}", file=sys.stderr)
        return None
    return held_out_curve(log, weights, HELD_GAMES, cfg.run.group_size, plugin.rules,
                          plugin.map)


def value_rows(log: list[dict[str, Any]]) -> np.ndarray:
    """f64[n, 4]: generation, log-loss, calibration error, won share of each scored batch."""
    rows = [(r["generation"], v["log_loss"], v["calibration"], v["won"]) for r in log
            if (v := r.get("value")) and v.get("positions")]
    return np.array(rows, dtype=float).reshape(-1, 4)


def plot_value(log: list[dict[str, Any]], held: np.ndarray | None = None,
               held_games: int = 0) -> Figure:
    """Log-loss (and the constant predictor's) and calibration error per batch; with `held`
    (`evolve.plan.valuefit.held_out_curve`), the value after each batch on one fixed set."""
    rows = value_rows(log)
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True, layout="constrained")
    g, loss, cal, won = rows.T
    base = [base_log_loss(float(x)) for x in won]
    axes[0].plot(g, base, color="grey", ls=":", label="always the batch's win rate")
    axes[0].plot(g, loss, ".-" if g.size < 60 else "-", color="crimson",
                 label="the value as it stood (before learning the batch)")
    if held is not None and len(held):
        axes[0].plot(held[:, 0], held[:, 1], color="navy",
                     label=f"the value after each batch, on {held_games} held-out games of the "
                           "last champion")
        axes[0].plot(held[:, 0], held[:, 2], color="navy", ls=":", lw=0.8,
                     label="always their win rate")
    axes[0].set_ylabel("log-loss")
    axes[0].set_title("the run's value on positions it had not seen")
    axes[0].legend(fontsize=8)
    axes[1].plot(g, cal, ".-" if g.size < 60 else "-", color="black")
    axes[1].set_ylabel("calibration error")
    axes[1].set_xlabel("generation")
    return fig


__all__ = ["HELD_GAMES", "held_out", "plot_value", "value_rows"]
