"""In-house measures of greedy players for issue 56. usage: m56.py GAMES SEED PLAYER..."""
import os, sys, json, time, numpy as np
from features.search.player import read_bot
from features.compiled import play_mixed_games
from game.bots import GAUNTLET, COMPILED_BOTS, bot_file
n, seed0, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
champ_w, _, champ_plan = read_bot(bot_file("champion"))
s4_w, _, _ = read_bot(os.path.join(os.environ.get("NIGHT", "runs/night"), "s4-850.json"))
seeds = [np.random.SeedSequence(seed0, spawn_key=(i,)) for i in range(n)]
seat = np.arange(n) % 4
def play(w, opp):  # opp: list of 3 (weights|None, code, plan|None)
    W = np.zeros((n, 4, len(w))); pol = np.zeros((n, 4), np.int32); plans = None
    if any(p is not None for _, _, p in opp): plans = np.zeros((n, 4, len(champ_plan.vector())))
    for g in range(n):
        others = [k for k in range(4) if k != seat[g]]
        W[g, seat[g]] = w
        for k, (ow, code, pv) in zip(others, opp):
            if ow is not None: W[g, k] = ow
            pol[g, k] = code
            if pv is not None: plans[g, k] = pv
    place, _, _ = play_mixed_games(W, pol, seeds, plans=plans)
    return float((place[np.arange(n), seat] == 1).mean())
cg = (champ_w, 0, None); cp = (champ_w, 0, champ_plan.vector()); s4 = (s4_w, 0, None)
for f in files:
    w, _, _ = read_bot(f); t = time.time()
    r = {"bots": float(np.mean([play(w, [(None, COMPILED_BOTS[b], None)] * 3) for b in GAUNTLET])),
         "champ3": play(w, [cg] * 3),
         "panel": play(w, [cg, s4, (None, COMPILED_BOTS["strategist"], None)]),
         "planpanel": play(w, [cp, cg, s4])}
    print(f, json.dumps({k: round(v, 4) for k, v in r.items()}), f"{time.time()-t:.0f}s", flush=True)
