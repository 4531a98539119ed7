"""The planning player's attacks and placements, compared by the value of the turn's end.

At each attack decision that does not continue a battle already chosen, the search takes the
k best first attacks by the linear player's own attack rank (`features.decide.attack_options`)
and, for each, plays `rollouts` determinized continuations: fight that battle
(`rollout.fight`), then let the greedy player finish the attack phase (`rollout.finish_attack`),
and value the end position for the seat (`value.position_value`). Stopping now is valued on
the position as it stands. The best mean wins, unless the greedy player's own choice is worth
less than `margin` below it (then the greedy choice stands); a chosen battle goes on without
replanning while `rollout.worth_fighting` holds (replanning after each battle's outcome).
With `place` set, the first placement of each placement phase (a turn's start, and after a trade
an elimination forces) is weighed the same way (`_place_rows`): the greedy
placement against the whole pool on each of the best territories. Every other decision is the
greedy player's (`features.decide.decide`). Design: docs/search.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from features.decide import (
    attack_options,
    attack_threshold,
    decide,
    place_action,
    place_options,
)
from features.kernels import FeatureContext, place_pool
from features.search.rollout import (
    copy_state,
    fight,
    finish_attack,
    finish_round,
    worth_fighting,
)
from features.search.value import (
    NAMES,
    NET_SIZE,
    NV,
    net_units,
    position_value,
    value_scratch,
)
from features.why import GREEDY_PLACE, PlanExplanation, PlanOption
from features.work import MAX_OPTIONS, Action4, Work, make_work
from game.rules import layout as L
from game.rules.determinize import determinize
from game.rules.jit import allocating_kernel, inline_rule_kernel, rule_kernel
from game.rules.kernel import step
from game.rules.layout import MapArrays, StateArrays

# The settings vector a compiled game takes per player (`PlanSettings.vector`).
PS_ROLLOUTS, PS_TOP_K, PS_HORIZON, PS_MARGIN, PS_PLACE, PS_VALUE = 0, 1, 2, 3, 4, 5
PS_NET = PS_VALUE + NV  # the value's net (`features.search.value.net_vector`) follows its weights
H_ATTACK, H_ROUND = 0, 1  # value the end of the attack phase, or the start of the next turn
# What a rollout does first (`_estimate`): stop attacking, fight a battle, place the whole
# pool on one territory, or nothing (the greedy player goes on from the position).
O_STOP, O_ATTACK, O_PLACE, O_GREEDY = 0, 1, 2, 3
# commit[seat, 0] when the turn's placement went to the greedy player (no replanning).
C_GREEDY_PLACE = -2
# PlanWork.last[3]: what the last plan compared (attacks, or placements with the greedy
# placement as a row of its own when P_PLACE + 1).
P_ATTACK, P_PLACE = 0, 1
N_PLAN = PS_NET + NET_SIZE
NET_TERM = "value.net"  # an explanation's term for the part of a value its net adds
MAX_ROLLOUT_STEPS = 2_000  # a rollout's bound; an attack phase takes a few hundred at most


class PlanWork(NamedTuple):
    """The search's scratch, allocated once per game (`make_plan_work`)."""

    s: StateArrays  # the position a rollout plays on
    rwork: Work  # the rollout policy's scratch (the real decision's stays in its own Work)
    ids: np.ndarray  # int32: determinizer scratch
    locs: np.ndarray  # int32
    terms: np.ndarray  # float64: value terms and their scratch (`value_scratch`)
    acc: np.ndarray  # float64[MAX_OPTIONS + 1]: summed values per option (and stopping)
    commit: np.ndarray  # int64[P, 3]: per seat the battle (from, to) it chose and the turn
    # (from = C_GREEDY_PLACE: the turn's placement was left to the greedy player)
    # The last decision's plan, for explanations: mean value terms per option (row n: stopping)
    # and (n options compared, rollouts each, the greedy player's choice, what was compared:
    # `P_*`; 0 options when no plan was made).
    tacc: np.ndarray  # float64[MAX_OPTIONS + 1, NV]
    last: np.ndarray  # int64[4]


def make_plan_work(m: MapArrays, s: StateArrays) -> PlanWork:
    """Scratch for `decide_plan` on a board and a position's shape."""
    n_pl = s.pl.shape[0]
    scratch = StateArrays(*(np.zeros_like(a) for a in s))
    n_ids = max(len(m.card_kind), L.N_MISSIONS)
    commit = np.full((n_pl, 3), -1, dtype=np.int64)
    return PlanWork(scratch, make_work(m, n_pl), np.zeros(n_ids, np.int32),
                    np.zeros(n_ids, np.int32), value_scratch(m, n_pl),
                    np.zeros(MAX_OPTIONS + 1, np.float64), commit,
                    np.zeros((MAX_OPTIONS + 1, NV), np.float64), np.zeros(4, np.int64))


# A kernel of its own, called from one place: it runs once per option, so its call costs
# nothing next to its rollouts, and folding it into `decide_plan` made numba process the
# rollout code once per call site (most of the search's compile time).
@rule_kernel
def _estimate(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
              w: np.ndarray, vw: np.ndarray, pw: PlanWork, rng: np.random.Generator, seat: int,
              kind: int, a: int, t: int, horizon: int, rollouts: int, row: int) -> None:
    """pw.acc[row] and pw.tacc[row] := the mean value and terms of `rollouts` determinized
    continuations of option `kind` (`O_*`: stop now, attack t from a, place the pool on t, or
    play on greedily), played to the horizon."""
    ps, terms, acc, tacc = pw.s, pw.terms, pw.acc, pw.tacc
    acc[row] = 0.0
    z = np.int64(0)  # typed zeros: literal ones would compile `step` once more for their types
    for _r in range(rollouts):
        copy_state(ps, s)
        determinize(ps, rules, seat, rng, pw.ids, pw.locs)
        if kind == O_STOP:
            step(m, ps, rules, rng, L.A_STOP, z, z, z)
        elif kind == O_ATTACK:
            fight(m, ps, rules, rng, a, t)
        elif kind == O_PLACE:
            step(m, ps, rules, rng, L.A_PLACE, np.int64(t), np.int64(place_pool(ps)), z)
        if horizon == H_ATTACK:
            finish_attack(m, fx, ps, rules, w, rng, pw.rwork, seat, MAX_ROLLOUT_STEPS)
        else:
            finish_round(m, fx, ps, rules, w, rng, pw.rwork, seat, MAX_ROLLOUT_STEPS)
        acc[row] += position_value(m, ps, rules, seat, vw, terms)
        for j in range(NV):
            tacc[row, j] += terms[j] / rollouts
    acc[row] /= rollouts


@inline_rule_kernel
def searches(plan: np.ndarray, phase: int) -> bool:
    """True when a player with settings `plan` searches its decisions in `phase`: it has
    rollouts, and the phase is the attack phase, or a placement phase with `plan[PS_PLACE]`
    set. Every other decision is `decide`'s (the compiled loop then skips the search)."""
    return plan[PS_ROLLOUTS] > 0 and (
        phase == L.PH_ATTACK or (phase == L.PH_REINFORCE and plan[PS_PLACE] > 0))


@inline_rule_kernel
def _place_rows(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                w: np.ndarray, plan: np.ndarray, work: Work,
                pw: PlanWork) -> tuple[int, int, int, int, int, int]:
    """The options of a turn's placement: (the greedy placement's action, the row of the
    incumbent (-1: nothing to weigh), what is compared (`P_*`)). Rows before it hold the
    whole pool on one of the `plan[PS_PLACE]` best territories (work.opt_a); the incumbent,
    the greedy placement, is its own row, unless it puts the whole pool on the best territory,
    which then moves to the incumbent's row. Once the greedy placement was kept, the phase's
    later placements are the greedy player's (a placement phase later in the turn, after a
    trade an elimination forced, is weighed again: an attack since has taken the marker)."""
    sc = s.sc
    seat = sc[L.S_CURRENT]
    cm = pw.commit
    k = min(max(int(plan[PS_PLACE]), 1), MAX_OPTIONS)
    # The greedy placement as `decide` makes it, from the best two of these.
    n = place_options(m, fx, s, rules, w, work, max(k, 2))
    kind, ga, gb, gc = place_action(s, rules, w, work, n)
    if kind != L.A_PLACE or (cm[seat, 2] == sc[L.S_TURNS] and cm[seat, 0] == C_GREEDY_PLACE):
        return kind, ga, gb, gc, -1, P_PLACE
    n = min(n, k)
    if gb != place_pool(s):
        return kind, ga, gb, gc, n, P_PLACE + 1
    if n == 1:
        return kind, ga, gb, gc, -1, P_PLACE
    t0 = work.opt_a[0]
    for i in range(n - 1):
        work.opt_a[i] = work.opt_a[i + 1]
    work.opt_a[n - 1] = t0
    return kind, ga, gb, gc, n - 1, P_PLACE


@rule_kernel
def decide_plan(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                w: np.ndarray, plan: np.ndarray, work: Work, pw: PlanWork,
                rng: np.random.Generator) -> Action4:
    """The planning player's action (kind, a, b, c) in s for the seat to move (settings
    `plan`, f64[N_PLAN]; 0 rollouts plays exactly as `decide`)."""
    sc = s.sc
    seat = sc[L.S_CURRENT]
    pw.last[0] = 0
    if not searches(plan, sc[L.S_PHASE]):
        return decide(m, fx, s, rules, w, work)
    rollouts = int(plan[PS_ROLLOUTS])
    placing = sc[L.S_PHASE] == L.PH_REINFORCE
    cm = pw.commit
    vw = plan[PS_VALUE:]
    terms, acc, tacc = pw.terms, pw.acc, pw.tacc
    horizon = int(plan[PS_HORIZON])
    gk, ga, gb, gc = L.A_STOP, 0, 0, 0
    if placing:
        gk, ga, gb, gc, n, what = _place_rows(m, fx, s, rules, w, plan, work, pw)
        if n < 0:
            return (gk, ga, gb, gc)
        greedy, first = n, -1  # the greedy placement, valued first
    else:
        ca, ct = cm[seat, 0], cm[seat, 1]
        if cm[seat, 2] == sc[L.S_TURNS] and ca >= 0 and worth_fighting(s, seat, ca, ct):
            return (L.A_ATTACK, int(ca), int(ct), 0)
        k = min(max(int(plan[PS_TOP_K]), 1), MAX_OPTIONS)
        n = attack_options(m, fx, s, rules, w, work, k)
        if n == 0:
            return (L.A_STOP, 0, 0, 0)
        # The greedy player's own choice (its best attack if it clears the threshold, else
        # stop): another plan replaces it only when it is worth `margin` more.
        thr = attack_threshold(m, s, w, work, int(work.opt_a[0]), work.opt_v[0])
        greedy = 0 if work.opt_v[0] > thr else n
        what = P_ATTACK
        # Row n is stopping: valued as it stands at the attack horizon (nothing hidden changes
        # what it is worth), else played on first, like the greedy placement.
        first = 0 if horizon == H_ATTACK else -1
    pw.last[0], pw.last[1], pw.last[2], pw.last[3] = n, rollouts, greedy, what
    for i in range(n + 1):
        for j in range(NV):
            tacc[i, j] = 0.0
    if first == 0:
        acc[n] = position_value(m, s, rules, seat, vw, terms)
        for j in range(NV):
            tacc[n, j] = terms[j]
    # The incumbent (row n) first, then each option: one call site of `_estimate`.
    best = n
    for r in range(first, n):
        row = n if r < 0 else r
        o, a, t = O_ATTACK, -1, -1
        if placing:
            o = O_GREEDY if r < 0 and what == P_PLACE + 1 else O_PLACE
            t = -1 if o == O_GREEDY else int(work.opt_a[row])
        elif r < 0:
            o = O_STOP
        else:
            a, t = int(work.opt_a[r]), int(work.opt_b[r])
        _estimate(m, fx, s, rules, w, vw, pw, rng, seat, o, a, t, horizon, rollouts, row)
        if r >= 0 and acc[r] > acc[best]:
            best = r
    if best != greedy and acc[best] < acc[greedy] + plan[PS_MARGIN]:
        best = greedy
    if placing:
        cm[seat, 2] = sc[L.S_TURNS]
        if best == n:
            cm[seat, 0] = C_GREEDY_PLACE
            return (gk, ga, gb, gc)
        cm[seat, 0] = -1
        return (L.A_PLACE, int(work.opt_a[best]), place_pool(s), 0)
    if best == n:
        return (L.A_STOP, 0, 0, 0)
    a, t = int(work.opt_a[best]), int(work.opt_b[best])
    cm[seat, 0], cm[seat, 1], cm[seat, 2] = a, t, sc[L.S_TURNS]
    if not worth_fighting(s, seat, a, t):
        # One roll at weaker odds was the best plan: the next decision chooses again.
        cm[seat, 0] = -1
    return (L.A_ATTACK, a, t, 0)


# Python's entry: a Generator passed straight to a kernel without numba's runtime leaks a
# reference on every call (the runtime frees the unboxed record); opening the box needs the runtime.
@allocating_kernel
def decide_plan_boxed(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                      w: np.ndarray, plan: np.ndarray, work: Work, pw: PlanWork,
                      box: object) -> Action4:
    """`decide_plan` with the generator in a `game.rules.jit.RngBox` (the Python game loop)."""
    return decide_plan(m, fx, s, rules, w, plan, work, pw, box.rng)  # type: ignore[attr-defined]


def searched(pw: PlanWork, phase: int) -> bool:
    """True when the `decide_plan` call that just returned, in `phase`, was the search's: an
    attack decision (a plan, or a chosen battle gone on with), or a placement it weighed."""
    return phase == L.PH_ATTACK or (phase == L.PH_REINFORCE and int(pw.last[0]) > 0)


def plan_record(work: Work, pw: PlanWork, horizon: str, margin: float, vw: np.ndarray,
                action: Action4) -> PlanExplanation:
    """What the `decide_plan` call that just returned `action` compared, from its scratch
    (no options when it went on with a battle it had chosen, or had nothing to weigh)."""
    n, what = int(pw.last[0]), int(pw.last[3])
    options = []
    for i in range(n + 1):
        if what == P_ATTACK:
            src, dst = (-1, -1) if i == n else (int(work.opt_a[i]), int(work.opt_b[i]))
        elif i == n and what == P_PLACE + 1:
            src, dst = GREEDY_PLACE, GREEDY_PLACE
        else:
            src = dst = int(work.opt_a[i])
        terms = tuple((NAMES[j], float(vw[j]), float(pw.tacc[i, j])) for j in range(NV))
        if net_units(vw):
            # The net's part is what the weighted terms leave of the option's mean value.
            rest = float(pw.acc[i]) - sum(w * x for _, w, x in terms)
            terms += ((NET_TERM, 1.0, rest),)
        options.append(PlanOption(src, dst, float(pw.acc[i]), terms))
    act = (int(action[0]), int(action[1]), int(action[2]), int(action[3]))
    return PlanExplanation(act, tuple(options) if n else (), int(pw.last[1]), horizon,
                           int(pw.last[2]) if n else -1, margin)


__all__ = ["H_ATTACK", "H_ROUND", "NET_TERM", "N_PLAN", "PS_HORIZON", "PS_MARGIN", "PS_NET",
           "PS_PLACE", "PS_ROLLOUTS", "PS_TOP_K", "PS_VALUE", "PlanWork", "decide_plan",
           "decide_plan_boxed", "make_plan_work", "plan_record", "searched", "searches"]
