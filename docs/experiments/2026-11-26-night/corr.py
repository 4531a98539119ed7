"""Spearman rank correlation between the yardstick and in-house measures, per player."""
from __future__ import annotations

import csv
import os
from collections import defaultdict
from pathlib import Path

import numpy as np

from evolve.yardstick import read_yard, spearman

N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder


if __name__ == '__main__':
    yard = read_yard(N / "yard/results")
    meas: dict[str, dict[str, float]] = defaultdict(dict)
    for row in csv.DictReader((N / "inhouse/cross.csv").open()):
        meas[row["player"]]["cross_family"] = float(row["cross_family"])
    for d in (N / "inhouse").glob("g-*"):
        f = d / "gauntlet.csv"
        if f.exists():
            rates = {r["opponent"].split()[-1]: float(r["win_rate"]) for r in csv.DictReader(f.open())}
            for k, v in rates.items():
                meas[d.name[2:]][k] = v
            meas[d.name[2:]]["gauntlet_mean"] = float(np.mean(list(rates.values())))
    for ex in (N / "inhouse").glob("extra-*.csv"):
        for row in csv.DictReader(ex.open()):
            for k, v in row.items():
                if k != "player":
                    meas[row["player"]][k] = float(v)
    players = sorted(p for p in yard if p in meas)
    y = np.array([yard[p][0] / yard[p][1] for p in players])
    print(f"{len(players)} players")
    for p, v in sorted(zip(players, y), key=lambda t: -t[1]):
        print(f"  {p:14s} {v:.3f} of {yard[p][1]}  " + " ".join(
            f"{k}={meas[p][k]:.3f}" for k in sorted(meas[p])))
    keys = sorted({k for p in players for k in meas[p]})
    for k in keys:
        ps = [i for i, p in enumerate(players) if k in meas[p]]
        if len(ps) >= 4:
            x = np.array([meas[players[i]][k] for i in ps])
            print(f"spearman {k:14s} {spearman(x, y[ps]):+.2f} (n={len(ps)})")

    print("within each run (Spearman per run, then n-weighted mean):")
    fams = sorted({p.split("-")[0] for p in players})
    for k in keys:
        parts = []
        for fam in fams:
            ps = [i for i, p in enumerate(players) if p.startswith(fam + "-") and k in meas[p]]
            if len(ps) >= 4:
                x = np.array([meas[players[i]][k] for i in ps])
                parts.append((len(ps), spearman(x, y[ps]), fam))
        if parts:
            mean = sum(n * r for n, r, _ in parts) / sum(n for n, _, _ in parts)
            print(f"  {k:14s} " + "  ".join(f"{f} {r:+.2f} (n={n})" for n, r, f in parts)
                  + f"  mean {mean:+.2f}")
