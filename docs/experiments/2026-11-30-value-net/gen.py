"""Record positions of the bundled champion's games (greedy, compiled) for fitting the value.

usage: gen.py MODE GAMES SEED OUT.npz   (MODE: self = 4 copies; mix = each other seat a copy
with p 0.25, else a gauntlet bot drawn uniformly; the champion's copies are recorded)
"""
import sys
import time

import numpy as np

from features.botfile import BotFile
from features.record import record_games
from game.bots import COMPILED_BOTS, GAUNTLET

mode, n, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
w = BotFile.read("game/bots/files/champion.json").weights
draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
pol = np.zeros((n, 4), np.int32)
if mode == "mix":
    for g in range(n):
        for s in range(1, 4):
            if draw.random() >= 0.25:
                pol[g, s] = COMPILED_BOTS[GAUNTLET[int(draw.integers(len(GAUNTLET)))]]
for g in range(n):
    pol[g] = pol[g, draw.permutation(4)]
W = np.repeat(np.stack([w] * 4)[None], n, 0)
seeds = [np.random.SeedSequence(seed, spawn_key=(g,)) for g in range(n)]
t = time.time()
P = record_games(W, pol, seeds, pol == 0)
np.savez_compressed(out, x=P.x, won=P.won, game=P.game, player=P.player)
print(f"{mode} {n} games seed {seed}: {len(P.won)} positions, {time.time() - t:.0f} s")
