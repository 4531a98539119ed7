"""Microseconds per call of the planning player's bound kernel at a fortify decision (its greedy
path: the call's own cost), median of 7 x 5,000; run from a checkout's root.

    .venv/bin/python docs/experiments/2026-11-29-compile-once/callcost.py label
"""
import time, sys, numpy as np
import os; sys.path.insert(0, os.getcwd())
from tests.features.test_search import _positions, W, MAP, map_context
from features.search.player import PlanSettings
from features.search.plan import make_plan_work
import features.search.plan as P
from features.work import make_work
from game.rules.jit import bind, RngBox
from game.state import Rules
rules = Rules(); s = _positions(rules, 3, kind=__import__("game.protocol", fromlist=["DecisionKind"]).DecisionKind.FORTIFY)[0]
k = s.kernel; fx = map_context(MAP); wk = make_work(MAP.kernel, 4); pw = make_plan_work(MAP.kernel, k)
plan = PlanSettings(rollouts=64, top_k=8)
g = np.random.default_rng(1)
if hasattr(P, "decide_plan_boxed"):
    f = bind(P.decide_plan_boxed, MAP.kernel, fx, k, rules.vector(), W, plan.vector(), wk, pw, RngBox(g))
else:
    f = bind(P.decide_plan, MAP.kernel, fx, k, rules.vector(), W, plan.vector(), wk, pw, g)
f()
ts = []
for rep in range(7):
    t = time.perf_counter()
    for i in range(5000): f()
    ts.append((time.perf_counter() - t) / 5000 * 1e6)
print(sys.argv[1], "us per greedy-phase call, median of 7:", round(sorted(ts)[3], 2))
