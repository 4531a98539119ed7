"""Third held-out set (written 2026-11-27, session 16, before reading the ten fresh players'
yardstick results, which the sealed queue writes to yard/sealed-results): record each in-house
measure of the players in $NIGHT/fresh3 to prereg-fresh3.json for commit."""
import csv, json, sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from yard import N, gauntlet_mean, win_rate

play = {r["player"]: float(r["playoff"])
        for r in csv.DictReader((N / "inhouse" / "extra-playoff-fresh3.csv").open())}
out = {p: {"playoff": play[p], "gauntlet_mean": gauntlet_mean(p),
           "strategist_win": win_rate(N / "diag", p), "trio": win_rate(N / "trio", p)}
       for p in sorted(f.stem for f in (N / "fresh3").glob("*.json"))}
(HERE / "prereg-fresh3.json").write_text(json.dumps(out, indent=1) + "\n")
for p, v in out.items():
    print(f"{p:14s} " + " ".join(f"{k}={x:.4f}" for k, x in v.items()))
