"""How the fitted value varies with the fit's seed and size: fit BOT's value on GAMES games for
each SEED, print the weights and the planning bot's gauntlet mean (margins 0.2, 0.4) in the
same CHECK games per bot. usage: fitvar.py BOT GAMES CHECK SEED..."""
import sys, numpy as np
from evolve.planfit import fitted_values, rates
from features.search.player import PlanSettings, read_bot
f, n, cg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w, meta, _ = read_bot(f)
print(f"greedy {np.mean(list(rates(w, None, cg, 777).values())):.3f}", flush=True)
for seed in map(int, sys.argv[4:]):
    v, npos = fitted_values(w, n, seed, "attack")
    out = []
    for m in (0.2, 0.4):
        d = PlanSettings(margin=m).as_dict(); d["value"].update(v)
        out.append(f"m{m}: {np.mean(list(rates(w, PlanSettings.from_dict(d).vector(), cg, 777).values())):.3f}")
    print(f"seed {seed} games {n}:", " ".join(f"{k[6:]}={x:.2f}" for k, x in v.items()), "|", " ".join(out), flush=True)
