"""The in-house measure of planning players: the gauntlet mean (3x each gauntlet bot, the bot
in seat i mod 4, evolve.planfit.rates) of each planning bot file, at GAMES games per bot on
seed SEED; greedy too. usage: prate.py GAMES SEED FILE..."""
import sys, json, numpy as np
from evolve.planfit import rates
from features.search.player import read_bot
n, seed = int(sys.argv[1]), int(sys.argv[2])
for f in [a for a in sys.argv[3:] if a != "--greedy"]:
    w, meta, ps = read_bot(f)
    plan = rates(w, ps.vector(), n, seed)
    greedy = rates(w, None, n, seed) if "--greedy" in sys.argv else {"x": float("nan")}
    chk = meta.get("plan_fit", {}).get("check", {}).get("plan")
    r = {"plan": float(np.mean(list(plan.values()))), "greedy": float(np.mean(list(greedy.values())))}
    if chk:
        r["check"] = float(np.mean(list(chk.values())))
    print(f, json.dumps(r), flush=True)
