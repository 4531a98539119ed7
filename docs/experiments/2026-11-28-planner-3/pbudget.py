"""A planning bot at other play-time budgets (rollouts x top_k), the same seeded games against
3x each gauntlet bot (evolve.planfit.rates). usage: pbudget.py GAMES SEED FILE R:K..."""
import sys, json, time, numpy as np
from evolve.planfit import rates
from features.search.player import PlanSettings, read_bot
n, seed, f = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
w, meta, ps = read_bot(f)
g = rates(w, None, n, seed)
print("greedy", json.dumps({k: round(v, 3) for k, v in g.items()}), f"mean {np.mean(list(g.values())):.3f}", flush=True)
for rk in sys.argv[4:]:
    r, k = map(int, rk.split(":"))
    d = ps.as_dict(); d["rollouts"] = r; d["top_k"] = k
    s = PlanSettings.from_dict(d)
    t = time.process_time()
    p = rates(w, s.vector(), n, seed)
    print(f"rollouts {r} top_k {k}", json.dumps({k2: round(v, 3) for k2, v in p.items()}), f"mean {np.mean(list(p.values())):.3f} cpu {time.process_time()-t:.0f}s", flush=True)
