"""Policy iteration of the value: refit it on games of the planning bot itself (against the
same mix), then check both in the same seeded games (evolve.planfit.rates).
usage: piter.py PLANFILE FITGAMES CHECKGAMES SEED OUT"""
import sys, time, json, numpy as np
from evolve.planfit import positions, fit_logistic, rates
from features.search.player import PlanSettings, read_bot
from features.search.value import NAMES, TERMS
from features.genome import save_genome
f, n, m, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
w, meta, ps = read_bot(f)
t = time.time()
x, y = positions(w, n, seed, ps.horizon, plan=ps)
keep = [i for i, tt in enumerate(TERMS) if tt.name != "won"]
b = fit_logistic(x[:, keep], y)
d = ps.as_dict(); d["value"].update({NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)})
ps1 = PlanSettings.from_dict(d)
print(f"refit on {len(y)} positions of {n} planning games in {time.time()-t:.0f}s", flush=True)
meta = dict(meta); meta["plan_iter"] = {"from": f, "games": n, "seed": seed}
save_genome(out, w, meta, plan=ps1.as_dict())
r0 = rates(w, ps.vector(), m, seed + 1); r1 = rates(w, ps1.vector(), m, seed + 1)
print("before", f"{np.mean(list(r0.values())):.3f}", json.dumps({k: round(v, 3) for k, v in r0.items()}))
print("after ", f"{np.mean(list(r1.values())):.3f}", json.dumps({k: round(v, 3) for k, v in r1.items()}))
