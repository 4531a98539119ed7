"""In-house rate of planning bot files on one playoff's seeds: the plan league's own crowning
measure (3 of the strongest bundled bots, rotated over the seats), so a bot made elsewhere can
be set beside the league's candidates.

usage: inhouse.py RUN_SEED GENERATION GAMES BOT...
"""
from __future__ import annotations

import sys

import numpy as np
from planleague import PLAY_ROLLOUTS, G, play_eval

from evolve.champion import playoff_seeds
from evolve.rotation import rotated_opponents
from evolve.stats import wilson_interval
from features.registry import N_GENES
from features.search.player import read_bot
from game.bots import GAUNTLET

seed, gen, games = (int(x) for x in sys.argv[1:4])
seeds = playoff_seeds(seed, gen, games)
opp = rotated_opponents(GAUNTLET, games, 3)
for path in sys.argv[4:]:
    w, _meta, plan = read_bot(path)
    genome = np.zeros(G)
    genome[:N_GENES], genome[N_GENES:-1], genome[-1] = w, plan.value, plan.margin
    assert plan.rollouts == PLAY_ROLLOUTS
    wins = int((play_eval(genome, opp, seeds, None, None) == 0).sum())
    lo, hi = wilson_interval(wins, games)
    print(f"{path}: {wins}/{games} = {wins / games:.3f} [{lo:.3f}, {hi:.3f}]", flush=True)
