"""How well does the league's rating rank the population? For a generation's population: 64
individuals (random), each in 400 games vs random trios drawn from the same population;
Spearman of that win rate with their mu and with mu - 3 sigma.
usage: popsignal.py RUN GEN"""
from __future__ import annotations

import sys

import numpy as np

from evolve.yardstick import spearman
from features.compiled import play_linear_games

run, gen = sys.argv[1], int(sys.argv[2])
d = np.load(f"{run}/genes/gen_{gen:05d}.npz")
genes, mu, sigma = d["genes"], d["mu"], d["sigma"]
rng = np.random.default_rng(11)
n = len(genes)
pick = rng.choice(n, 64, replace=False)
GAMES = 400
rate = []
for a in pick:
    w = np.zeros((GAMES, 4, genes.shape[1]))
    for i in range(GAMES):
        others = rng.choice([k for k in range(n) if k != a], 3, replace=False)
        row = list(others)
        row.insert(i % 4, a)
        w[i] = genes[row]
    seeds = [np.random.SeedSequence(77, spawn_key=(int(a), i)) for i in range(GAMES)]
    place, _, capped = play_linear_games(w, seeds)
    seat = np.arange(GAMES) % 4
    rate.append(float(((place[np.arange(GAMES), seat] == 1) & ~np.asarray(capped, bool)).mean()))
rate_a = np.array(rate)
print(f"{run} gen {gen}: win rate vs population {rate_a.mean():.3f} sd {rate_a.std():.3f} "
      f"(binomial sd {np.sqrt(0.25 * 0.75 / GAMES):.3f}); "
      f"spearman with mu {spearman(mu[pick], rate_a):+.2f}, with mu-3sigma "
      f"{spearman(mu[pick] - 3 * sigma[pick], rate_a):+.2f}; mu sd {mu.std():.2f}, "
      f"sigma mean {sigma.mean():.2f}")
