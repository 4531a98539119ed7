"""Extra in-house measures per player: (a) vs 3x strategist/hunter/planner on Domination's board
(81 borders) with bonus_every_set; (b) vs random trios of the other players of the pool.
usage: extra.py OUT.csv PLAYER.json ..."""
from __future__ import annotations

import copy
import csv
import json
import sys
from pathlib import Path

import numpy as np

from features.compiled import play_mixed_games
from features.genome import load_genome
from game.bots.sparring import COMPILED_BOTS
from game.map import build_map
from game.state import Rules

out = Path(sys.argv[1])
files = sys.argv[2:]
label = [Path(f).stem for f in files]
g = np.stack([load_genome(f)[0] for f in files])
data = json.load(open(Path(__file__).resolve().parents[3] / "game/maps/classic.json"))
dom = copy.deepcopy(data)
cut = [{"Iceland", "Scandinavia"}, {"Great Britain", "Scandinavia"}]
dom["borders"] = [b for b in dom["borders"] if set(b) not in cut]
assert len(dom["borders"]) == len(data["borders"]) - 2, len(dom["borders"])
dmap = build_map(dom, "dom")
rules = Rules(bonus_every_set=True)
G = g.shape[1]


def one_vs(a: int, others: np.ndarray, pol_others: list[int], games: int, seed: int,
           mp=None, rl=None) -> float:
    """a in seat game%4; others rows (3,G) with policies."""
    w = np.zeros((games, 4, G))
    pol = np.zeros((games, 4), dtype=np.int32)
    for i in range(games):
        s = i % 4
        rest = [k for k in range(4) if k != s]
        w[i, s] = g[a]
        for j, k in enumerate(rest):
            w[i, k] = others[(j + i // 4) % 3]
            pol[i, k] = pol_others[(j + i // 4) % 3]
    seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(games)]
    place, _, capped = play_mixed_games(w, pol, seeds, rl, mp)
    seat = np.arange(games) % 4
    return float(((place[np.arange(games), seat] == 1) & ~np.asarray(capped, bool)).mean())


rng = np.random.default_rng(5)
rows = []
for a in range(len(files)):
    row = {"player": label[a]}
    zero = np.zeros((3, G))
    for bot in ("strategist", "hunter", "planner"):
        row[f"dom_{bot}"] = one_vs(a, zero, [COMPILED_BOTS[bot]] * 3, 1000, 31, dmap, rules)
    # pool: 1000 games, each vs 3 distinct others drawn at random
    wins = 0
    others_all = [k for k in range(len(files)) if k != a]
    for chunk in range(10):
        trio = rng.choice(others_all, 3, replace=False)
        wins += one_vs(a, g[trio], [0, 0, 0], 100, 1000 + chunk) * 100
    row["pool"] = wins / 1000
    rows.append(row)
    print(row, flush=True)
with out.open("w", newline="") as fh:
    wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
    wr.writeheader()
    wr.writerows(rows)
