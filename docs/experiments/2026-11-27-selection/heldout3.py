"""Score every in-house measure on all held-out players (three sets: fresh, fresh2, fresh3),
pooled and within seed 4's run, once the sealed yardstick games are in.
usage: heldout3.py  (reads $NIGHT, the night runs' folder; yard/results and yard/sealed-results)"""
import csv, json, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from yard import N, gauntlet_mean, read_yard, spearman, win_rate
yard = read_yard(N / "yard/results")
for k, v in read_yard(N / "yard/sealed-results").items():
    yard[k] = v

play = {}
for f in (N / "inhouse").glob("extra-playoff*.csv"):
    play.update({r["player"]: float(r["playoff"]) for r in csv.DictReader(f.open())})
M = {"playoff": play.get, "gauntlet_mean": gauntlet_mean,
     "strategist_win": lambda p: win_rate(N / "diag", p), "trio": lambda p: win_rate(N / "trio", p)}


def main() -> None:
    sets = {s: sorted(f.stem for f in (N / s).glob("*.json")) for s in ("fresh", "fresh2", "fresh3")}
    pre = json.load(open(Path(__file__).resolve().parent / "prereg-fresh3.json"))
    for p in sets["fresh3"]:  # the committed figures are what is scored
        for k in M:
            assert abs(pre[p][k] - M[k](p)) < 1e-9, (p, k)
    held = [p for s in sets.values() for p in s if yard[p][1] >= 2000]
    rate = {p: yard[p][0] / yard[p][1] for p in held}
    print(f"{'player':14s} {'3x hard':>8s} games " + " ".join(f"{k:>14s}" for k in M))
    for p in sorted(held, key=lambda p: -rate[p]):
        print(f"{p:14s} {rate[p]:8.4f} {yard[p][1]:5d} " + " ".join(f"{M[k](p):14.4f}" for k in M))
    groups = {"fresh3": [p for p in sets["fresh3"] if p in rate], "all held out": held,
              "held out, seed 4 (plain)": [p for p in held if p.startswith("s4-")]}
    for g, ps in groups.items():
        y = np.array([rate[p] for p in ps])
        print(f"{g} (n={len(ps)}): " + "  ".join(
            f"{k} {spearman(np.array([M[k](p) for p in ps]), y):+.2f}" for k in M))


if __name__ == "__main__":
    main()
