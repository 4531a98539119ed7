"""Greedy vs planning, 1,000 games per gauntlet bot (evolve.planfit.check, seed 13).
usage: gaunt1000.py FILE..."""
import sys
from features.search.player import read_bot
from evolve.planfit import check
for f in sys.argv[1:]:
    w, meta, ps = read_bot(f)
    c = check(w, ps.vector(), 1000, 13)
    print(f, "greedy", {k: round(v, 3) for k, v in c.greedy.items()}, round(c.greedy_mean, 3))
    print(f, "plan  ", {k: round(v, 3) for k, v in c.plan.items()}, round(c.plan_mean, 3), flush=True)
