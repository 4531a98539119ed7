"""Shared by the scripts here: the night folder and the in-house measures per player (the
yardstick reader and Spearman's rho live in evolve.yardstick)."""
from __future__ import annotations

import csv
import os
from pathlib import Path

from evolve.yardstick import read_yard, spearman

__all__ = ["N", "gauntlet_mean", "read_yard", "spearman", "win_rate"]

N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder


def win_rate(d: Path, p: str) -> float:
    """Player p's win rate in its diagnose table under folder d (diag/, trio/)."""
    return next(float(r[p]) for r in csv.DictReader((d / p / "diagnose.csv").open())
                if r["metric"] == "win_rate")


def gauntlet_mean(p: str) -> float:
    """Player p's mean win rate over the gauntlet's opponents (seed 13, 1,000 games each)."""
    r = [float(x["win_rate"]) for x in csv.DictReader((N / "inhouse" / f"g-{p}" / "gauntlet.csv").open())]
    return sum(r) / len(r)
