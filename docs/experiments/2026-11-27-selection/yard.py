"""Shared by the scripts here: the yardstick results per player, and Spearman's rho."""
from __future__ import annotations

import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "2026-11-26-night"))
from corr import spearman  # noqa: E402  (the night runs' helper)

__all__ = ["N", "gauntlet_mean", "read_yard", "spearman", "win_rate"]

N = Path("/work/night")  # the night runs' working folder


def read_yard(results: Path) -> dict[str, list[int]]:
    """{label: [wins, games]} summed over the yardstick queue's result lines."""
    yard: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for line in results.read_text().splitlines():
        m = re.match(r"(\S+) .*games=(\d+) wins=(\d+)", line)
        if m:
            yard[m[1]][0] += int(m[3])
            yard[m[1]][1] += int(m[2])
    return yard


def win_rate(d: Path, p: str) -> float:
    """Player p's win rate in its diagnose table under folder d (diag/, trio/)."""
    return next(float(r[p]) for r in csv.DictReader((d / p / "diagnose.csv").open())
                if r["metric"] == "win_rate")


def gauntlet_mean(p: str) -> float:
    """Player p's mean win rate over the gauntlet's opponents (seed 13, 1,000 games each)."""
    r = [float(x["win_rate"]) for x in csv.DictReader((N / "inhouse" / f"g-{p}" / "gauntlet.csv").open())]
    return sum(r) / len(r)
