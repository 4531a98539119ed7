"""Seed 4's players against 3x hard beside two in-house measures: the run's playoff measure
(playoff_measure.py, seed 1, 4,000 games) and a round robin of random 4-player tables among the
players themselves (arena tournament). Spearman over all players and over those from
generation 4,000 on.

usage: hour3.py TABLE_CSV
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "2026-11-27-selection"))
from yard import N, read_yard, spearman  # noqa: E402

yard = read_yard(N / "yard" / "results")
for k, (wins, games) in read_yard(N / "yard" / "sealed-results").items():
    before = yard.get(k, (0, 0))
    yard[k] = (before[0] + wins, before[1] + games)
po: dict[str, float] = {}
for f in (N / "inhouse").glob("extra-playoff*.csv"):
    po.update({r["player"]: float(r["playoff"]) for r in csv.DictReader(f.open())})
table = {r["bot"]: float(r["win_rate"]) for r in csv.DictReader(open(sys.argv[1]))}


def gen(b: str) -> int:
    return int(b.replace("s4-", "").replace("cand", "").replace("crown", ""))


def rho(players: list[str], measure: dict[str, float]) -> str:
    both = [b for b in players if b in measure]
    return (f"{spearman([measure[b] for b in both], [yard[b][0] / yard[b][1] for b in both]):+.2f}"
            f" (n={len(both)})")


players = sorted((b for b in table if yard.get(b, [0, 0])[1]), key=gen)
for b in players:
    print(f"{b:14s} playoff {po.get(b, float('nan')):.3f}  table {table[b]:.3f}  "
          f"hard {yard[b][0] / yard[b][1]:.3f} ({yard[b][1]})")
late = [b for b in players if gen(b) >= 4000]
gens = {b: float(gen(b)) for b in players}
for name, group in (("all", players), ("generation >= 4000", late)):
    print(f"{name}: Spearman against hard: playoff {rho(group, po)}, table {rho(group, table)}, "
          f"generation {rho(group, gens)}")
