"""Pre-registered held-out test (written 2026-11-27 before the fresh players' yardstick games):
rank the 6 fresh players by each measure; the composite's z-scores use the 29 development
players' means and sds."""
import os
import csv, json, sys
from pathlib import Path
import numpy as np
N = Path(os.environ.get("NIGHT", "runs/night"))  # the night runs' working folder
dev = [d.name for d in (N / "diag").iterdir() if not (N / "fresh" / f"{d.name}.json").exists() and (N / "inhouse" / f"g-{d.name}" / "gauntlet.csv").exists()]
fresh = sorted(p.stem for p in (N / "fresh").glob("*.json"))
def diag(p):
    return {r["metric"]: float(r[p]) for r in csv.DictReader((N / "diag" / p / "diagnose.csv").open())}
def gmean(p):
    r = [float(x["win_rate"]) for x in csv.DictReader((N / "inhouse" / f"g-{p}" / "gauntlet.csv").open())]
    return sum(r) / len(r)
play = {}
for f in ("extra-playoff.csv", "extra-playoff-fresh.csv"):
    for r in csv.DictReader((N / "inhouse" / f).open()):
        play[r["player"]] = float(r["playoff"])
keys = ("win_rate", "one_army_share", "battle_win_rate")
D = {k: np.array([diag(p)[k] for p in dev]) for k in keys}
mu = {k: D[k].mean() for k in keys}; sd = {k: D[k].std() for k in keys}
def composite(p):
    d = diag(p)
    return (d["win_rate"] - mu["win_rate"]) / sd["win_rate"] - sum(
        (d[k] - mu[k]) / sd[k] for k in ("one_army_share", "battle_win_rate"))
out = {}
for p in fresh + dev:
    d = diag(p)
    out[p] = {"playoff": play.get(p), "gauntlet_mean": gmean(p), "strategist_win": d["win_rate"],
              "neg_one_army": -d["one_army_share"], "neg_battle_win": -d["battle_win_rate"],
              "composite": composite(p)}
json.dump(out, open(N / "prereg.json", "w"), indent=1)
for p in fresh:
    print(p, " ".join(f"{k}={v:.3f}" for k, v in out[p].items()))
