"""Why the planning player chose an attack or a placement: the options it compared, each one's
mean value at the planning horizon and the terms that made it, read from the decision's own
scratch.

`plan_record` reads what a `decide_plan` call just compared from its scratch (`PlanWork.tacc`,
`last`); `PlanPlayer` keeps it as it plays (`Why`), so an explanation of a move it made is that
decision's own arithmetic, never a second estimate. `decide_now` runs the player once on a copy
of a position (the hint, and a transcript line without a record: then a second estimate).
"""

from __future__ import annotations

import numpy as np

from features.linear import map_context
from features.search.plan import decide_plan_boxed, make_plan_work, plan_record, searched
from features.search.player import GREEDY, PlanSettings
from features.why import PlanExplanation, PlanOption, Why
from features.work import make_work
from game.map import Map
from game.rules import layout as L
from game.rules.jit import RngBox
from game.state import Rules, State


def decide_now(state: State, m: Map, rules: Rules, weights: np.ndarray,
               plan: PlanSettings = GREEDY, rng: np.random.Generator | None = None) -> Why:
    """The player's own decision in `state` (its search included, drawing from `rng`), made
    once on a copy and recorded as it plays (`Why`)."""
    from features.decide import decide

    s = state.copy()
    k = s.kernel
    work = make_work(m.kernel, k.pl.shape[0])
    w = np.ascontiguousarray(weights, dtype=np.float64)
    phase = int(s.sc[L.S_PHASE])
    if plan.kind != "plan" or phase not in (L.PH_ATTACK, L.PH_REINFORCE):
        kind, a, b, c = decide(m.kernel, map_context(m), k, rules.vector(), w, work)
        return Why(s, (int(kind), int(a), int(b), int(c)))
    pw = make_plan_work(m.kernel, k)
    box = RngBox(rng if rng is not None else np.random.default_rng(0))
    kind, a, b, c = decide_plan_boxed(m.kernel, map_context(m), k,
                                      rules.vector(), w, plan.vector(), work, pw, box)
    action = (int(kind), int(a), int(b), int(c))
    if not searched(pw, phase):
        return Why(s, action)
    return Why(s, action, plan_record(work, pw, plan.horizon, plan.margin,
                                      plan.value_vector(), action))


def explain_plan(state: State, m: Map, rules: Rules, weights: np.ndarray, plan: PlanSettings,
                 rng: np.random.Generator) -> PlanExplanation:
    """The planning decision of the seat to move in `state`, with what it compared."""
    why = decide_now(state, m, rules, weights, plan, rng)
    return why.plan or PlanExplanation(why.action, (), 0, plan.horizon)


__all__ = ["PlanExplanation", "PlanOption", "Why", "decide_now", "explain_plan"]
