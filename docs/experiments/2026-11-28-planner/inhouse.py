"""In-house measures of players: old 'vs bots' (6 gauntlet bots rotated, 1000 games) and
'vs 3x PANEL' for each panel bot file given; seeds 77 (never used on the yardstick)."""
import sys, json, numpy as np
from features.genome import load_genome
from features.compiled import play_mixed_games
from game.bots import COMPILED_BOTS, GAUNTLET
from evolve.rotation import rotated_opponents
n = 1000
panels = sys.argv[1].split(",")
out = {}
for p in sys.argv[2:]:
    w, _ = load_genome(p)
    seeds = [np.random.SeedSequence(77, spawn_key=(i,)) for i in range(n)]
    rot = rotated_opponents(list(GAUNTLET), n, 3)
    W = np.repeat(np.stack([w] * 4)[None], n, 0)
    pol = np.array([[0, *(COMPILED_BOTS[x] for x in r)] for r in rot], np.int32)
    place, _, _ = play_mixed_games(W, pol, seeds)
    rec = {"vs_bots": float((place[:, 0] == 1).mean())}
    for panel in panels:
        wo, _ = load_genome(panel)
        W2 = np.repeat(np.stack([w, wo, wo, wo])[None], n, 0)
        place, _, _ = play_mixed_games(W2, np.zeros((n, 4), np.int32), seeds)
        rec["vs_" + panel.rsplit("/", 1)[-1]] = float((place[:, 0] == 1).mean())
    out[p.rsplit("/", 1)[-1]] = rec
    print(p, json.dumps(rec), flush=True)
