"""Margins of planning bot files in-house (evolve.planfit.check, the same seeds).
usage: pmargin.py N SEED MARGINS FILE..."""
import sys, numpy as np
from features.search.player import read_bot, PlanSettings
from evolve.planfit import check
n, seed, margins = int(sys.argv[1]), int(sys.argv[2]), [float(x) for x in sys.argv[3].split(",")]
for f in sys.argv[4:]:
    w, meta, ps = read_bot(f)
    out = []
    for mg in margins:
        d = ps.as_dict(); d["margin"] = mg
        c = check(w, PlanSettings.from_dict(d).vector(), n, seed)
        out.append(f"m{mg:g} {c.plan_mean:.3f}")
    print(f, f"greedy {c.greedy_mean:.3f}", " ".join(out), flush=True)
