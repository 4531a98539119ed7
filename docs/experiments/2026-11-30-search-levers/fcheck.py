"""Does `plan.fortify` change the games? The bundled champion at 8 x 3 in seat 0 against three
copies of compiled bot 1, in the same 60 seeded games with fortify 0 and 4; prints in how many
games the finishing order and the length differ. From a checkout with levers.patch applied:

    PYTHONPATH=. .venv/bin/python docs/experiments/2026-11-30-search-levers/fcheck.py
"""
import dataclasses

import numpy as np

from features.botfile import read_bot
from features.compiled import play_mixed_games

w, _, ps = read_bot("game/bots/files/champion.json")
n = 60
out = {}
for f in (0, 4):
    p = dataclasses.replace(ps, rollouts=8, top_k=3, fortify=f)
    pol = np.zeros((n, 4), np.int32)
    pol[:, 1:] = 1
    pl = np.zeros((n, 4, len(p.vector())))
    pl[:, 0] = p.vector()
    out[f] = play_mixed_games(np.tile(w, (n, 4, 1)), pol, list(range(n)), plans=pl)
place = (out[0][0] != out[4][0]).any(axis=1).sum()
rounds = (out[0][1] != out[4][1]).sum()
print(f"of {n} games: finishing order differs in {place}, length in {rounds}")
