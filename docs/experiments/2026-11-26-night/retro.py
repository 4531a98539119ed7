"""Replay a run's crownings with another playoff opponent: every 50 generations the candidate
(best mu - 3 sigma, sigma <= 1.2, from genes/gen_G.npz) plays 1000 seeded games against 3 copies
of BOT, the incumbent the same games; crowned on more wins. Prints each crowning.
usage: retro.py RUN BOT LAST_GEN"""
from __future__ import annotations

import sys

import numpy as np

from evolve.champion import candidate_index
from features.compiled import play_mixed_games
from game.bots.sparring import COMPILED_BOTS

run, bot, last = sys.argv[1], sys.argv[2], int(sys.argv[3])
GAMES = 1000


def wins(genes: np.ndarray, gen: int) -> np.ndarray:
    w = np.zeros((GAMES, 4, len(genes)))
    pol = np.full((GAMES, 4), COMPILED_BOTS[bot], dtype=np.int32)
    seat = np.arange(GAMES) % 4
    w[np.arange(GAMES), seat] = genes
    pol[np.arange(GAMES), seat] = 0
    seeds = [np.random.SeedSequence(4242, spawn_key=(gen, i)) for i in range(GAMES)]
    place, _, capped = play_mixed_games(w, pol, seeds)
    return (place[np.arange(GAMES), seat] == 1) & ~np.asarray(capped, bool)


champ, born = None, -1
for gen in range(50, last + 1, 50):
    d = np.load(f"{run}/genes/gen_{gen:05d}.npz")
    i = candidate_index(d["mu"], d["sigma"], 1.2)
    if i < 0:
        continue
    cand = d["genes"][i]
    cw = wins(cand, gen)
    if champ is None:
        champ, born = cand, gen
        print(f"gen {gen}: first champion, {cw.sum()} of {GAMES}", flush=True)
        continue
    iw = wins(champ, gen)
    if cw.sum() > iw.sum():
        d_ = int((cw != iw).sum())
        print(f"gen {gen}: crowned {cw.sum()} vs {iw.sum()} (noise ±{1.96 * d_ ** 0.5:.0f})",
              flush=True)
        champ, born = cand, gen
np.save(f"{run}-retro-{bot}-{last}.npy", champ)
print(f"final champion: generation {born}")
