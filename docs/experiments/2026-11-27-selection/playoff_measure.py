"""The run's own crowning measure for bot files: outright wins in paired seeded games against
the playoff opponents (the strongest bundled bots, rotated over the seats exactly as
evolve.evolution.Evolution.versus seats them), the same seeds for every player.

usage: playoff_measure.py OUT_CSV GAMES SEED BOT.json ...
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

from evolve.config import load_config
from evolve.plugin import default_plugin
from evolve.rotation import rotated_opponents
from features.genome import load_genome

out, games, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
cfg = load_config()
plugin = default_plugin(cfg)
opp, k = plugin.strong, cfg.run.group_size
per_game = rotated_opponents(opp, games, k - 1)
seeds = [np.random.SeedSequence(seed, spawn_key=(0xE7A1, 0, i)) for i in range(games)]
rows = []
for f in sys.argv[4:]:
    w = load_genome(f)
    w = w[0] if isinstance(w, tuple) else w
    won = plugin.play_eval(np.asarray(w, dtype=np.float64), per_game, seeds, plugin.rules,
                           plugin.map) == 0
    rows.append({"player": Path(f).stem, "playoff": float(won.mean())})
    print(rows[-1], flush=True)
with out.open("w", newline="") as fh:
    wr = csv.DictWriter(fh, fieldnames=["player", "playoff"])
    wr.writeheader()
    wr.writerows(rows)
