"""Reinforcement planning on and off (branch reinforce-plan: PlanSettings.reinforce): a
planning bot with reinforce k for each K, the same seeded games against 3x each gauntlet bot
(evolve.planfit.rates).
usage: prf.py GAMES SEED FILE K..."""
import sys, json, time, numpy as np
from evolve.planfit import rates
from features.search.player import PlanSettings, read_bot
n, seed, f = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
w, meta, ps = read_bot(f)
for k in sys.argv[4:]:
    d = ps.as_dict(); d["reinforce"] = int(k)
    s = PlanSettings.from_dict(d)
    t = time.process_time()
    p = rates(w, s.vector(), n, seed)
    print(f"{f.split('/')[-1]} reinforce {k}", json.dumps({k2: round(v, 3) for k2, v in p.items()}), f"mean {np.mean(list(p.values())):.3f} cpu {time.process_time()-t:.0f}s", flush=True)
