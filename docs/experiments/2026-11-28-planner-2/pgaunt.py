"""Planning BOT files vs the gauntlet (3x each bot) and vs 3x their own greedy self, paired
seeds, compiled loop; greedy baseline = the first file's weights without plan.
usage: pgaunt.py N SEED FILE..."""
import sys, json, numpy as np
from features.search.player import read_bot
from features.compiled import play_mixed_games
from evolve.stats import wilson_interval
from game.bots import GAUNTLET, COMPILED_BOTS
n, seed0, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
seeds = [np.random.SeedSequence(seed0, spawn_key=(i,)) for i in range(n)]
def run(w, plan, opp_code, opp_w):
    W = np.stack([w, opp_w, opp_w, opp_w]); Ws = np.repeat(W[None], n, 0)
    pol = np.zeros((n, 4), np.int32); pol[:, 1:] = opp_code
    plans = None
    if plan is not None:
        plans = np.zeros((n, 4, len(plan))); plans[:, 0] = plan
    place, r, c = play_mixed_games(Ws, pol, seeds, plans=plans)
    return int((place[:, 0] == 1).sum())
for f in files:
    w, meta, ps = read_bot(f)
    rows = []
    for label, plan in (("greedy", None), ("plan", ps.vector() if ps.kind == "plan" else None)):
        if label == "plan" and plan is None: continue
        res = {b: run(w, plan, COMPILED_BOTS[b], w) / n for b in GAUNTLET}
        res["self"] = run(w, plan, 0, w) / n
        mean = np.mean([res[b] for b in GAUNTLET])
        print(f"{f} {label}: gauntlet mean {mean:.3f} self {res['self']:.3f} " + " ".join(f"{b} {res[b]:.3f}" for b in GAUNTLET), flush=True)
