"""In-house measures of players, for comparing with the yardstick.

usage: inhouse.py OUT.csv PLAYER.json ...   (label = file stem with its run prefix, e.g. s3-cand1100)
Per player: 1 seat vs 3 copies of each other-run player (cross-family), pooled; and vs the
three other players of a random cross-run trio. Gauntlet figures come from arena gauntlet.
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-11-26-gating"))
from versus import versus  # noqa: E402

from features.genome import load_genome  # noqa: E402

out = Path(sys.argv[1])
files = sys.argv[2:]
label = {f: Path(f).stem for f in files}
run = {f: label[f].split("-")[0] for f in files}
g = {f: load_genome(f)[0] for f in files}
rows = []
for f in files:
    others = [o for o in files if run[o] != run[f]]
    wins = games = 0
    for o in others:
        w = versus(g[f], np.stack([g[o]] * 3), 400, 777)
        wins += w
        games += 400
    rows.append({"player": label[f], "cross_family": wins / games, "games": games})
    print(rows[-1], flush=True)
with out.open("w", newline="") as fh:
    wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
    wr.writeheader()
    wr.writerows(rows)
