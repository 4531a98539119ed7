"""Replay a run's playoffs offline under another crowning rule.

usage: replay.py RUN RULE   RULE: more (the run's rule: strictly more wins) | mcnemar (the
candidate's paired wins must beat the incumbent's by more than 2 sqrt(discordant games)).
Prints every playoff and the final champion's generation. Each playoff is the run's own: the
candidate of generation g (runs/RUN/genes/gen_g.npz), the same seeds and opponents.
"""
from __future__ import annotations

import json
import math
import sys

import numpy as np
from versus import genome

from evolve.champion import playoff_seeds
from evolve.config import load_config
from evolve.plugin import default_plugin, eval_games
from evolve.rotation import rotated_opponents
from game.bots import GAUNTLET

run, rule = sys.argv[1], sys.argv[2]
cfg = load_config([f"runs/{run}/config.toml"])
plugin = default_plugin(cfg)
opp = tuple(cfg.champion.opponents) or GAUNTLET
k = cfg.run.group_size
logged = {}
for line in open(f"runs/{run}/log.jsonl"):
    r = json.loads(line)
    if r.get("playoff"):
        logged[r["generation"]] = r["playoff"]


def wins(weights: np.ndarray, g: int) -> np.ndarray:
    seeds = playoff_seeds(cfg.run.seed, g, cfg.champion.games)
    per = rotated_opponents(opp, len(seeds), k - 1)
    return eval_games(weights, per, seeds, plugin.rules, plugin.map) == 0


inc, inc_gen = None, -1
for g in sorted(logged):
    cand = genome(f"{run}:{g}")
    if inc is not None and np.array_equal(cand, inc):
        continue
    c = wins(cand, g)
    if inc is None:
        inc, inc_gen = cand, g
        print(g, int(c.sum()), "first: crowned", flush=True)
        continue
    i = wins(inc, g)
    d = int((c != i).sum())
    margin = int(c.sum()) - int(i.sum())
    crowned = margin > 0 if rule == "more" else margin > 2 * math.sqrt(max(d, 1))
    note = f"logged {logged[g]['candidate_wins']} vs {logged[g]['incumbent_wins']}"
    print(g, int(c.sum()), "vs", int(i.sum()), f"(incumbent gen {inc_gen}, {d} discordant)",
          "CROWNED" if crowned else "", note, flush=True)
    if crowned:
        inc, inc_gen = cand, g
print("final champion: generation", inc_gen)
