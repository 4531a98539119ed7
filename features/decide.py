"""The linear player's decisions as one compiled dispatch on the phase (`decide`).

`LinearPlayer` (Python engine) and `play_linear_game` (compiled loop) both call `decide`, so the
two paths make the same choice in the same position. Ties go to the lowest territory index
(lexicographic (from, to) for pairs): options are scanned in index order and ranked into the
option buffers by `features.work.keep_option`, where only a strictly better score goes ahead of
an earlier one. The explanation (`features.explain`) ranks every option with the same kernels.
"""

from __future__ import annotations

import numpy as np

from features import registry as F
from features.kernels import (
    FeatureContext,
    attack_elim,
    attack_plan,
    dot,
    garrison,
    hostile,
    need,
    pair_into,
    place_pool,
    plan_need,
    plan_of,
    reinforce_into,
    source_guard,
    target_into,
    thin_share,
)
from features.moves import decide_occupy, fortify_action, fortify_options
from features.players import (
    M_FRESH,
    M_PLACE,
    PT_BIG,
    PT_ELIM_B,
    PT_ELIM_K,
    PT_FIXED,
    PT_GARRISON,
    PT_GUARD,
    PT_H,
    PT_MISSION,
    PT_PLAN_B,
    PT_PLAN_K,
    SC_HAND,
    SC_LEADER,
    pressure,
    stagers,
    summarize,
)
from features.trade import trade_action, trade_options
from features.work import NO_ACTION, Action4, Work, keep_option
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays


@inline_rule_kernel
def _army_terms(w: np.ndarray, h: int, big: int, a: int, m18: bool, mval: float, g: int,
                guard: float, plan_b: float, plan_k: float, elim_b: float,
                elim_k: float) -> float:
    """The reinforce score terms that depend on the armies a on the territory.

    g is the garrison G(t), guard the bonus share of t's continent if p holds it (else 0),
    (plan_b, plan_k) t's continent plan and (elim_b, elim_k) its elimination plan
    (`features.kernels.plan_of`).
    """
    v = w[F.G_REINFORCE + F.RF_ARMY_VANTAGE] * (h / (h + a) if h + a > 0 else 0.0)
    v += w[F.G_REINFORCE + F.RF_ENEMY] * (big / (big + a) if big > 0 else 0.0)
    mv = (1.0 if a < L.MISSION_ARMIES else 0.0) if m18 else mval
    v += w[F.G_REINFORCE + F.RF_MISSION] * mv
    nd = need(g, a)
    v += w[F.G_REINFORCE + F.RF_PLAN_NEED] * plan_need(plan_b, plan_k, a)
    v += w[F.G_REINFORCE + F.RF_ELIM_NEED] * plan_need(elim_b, elim_k, a)
    return v + (w[F.G_REINFORCE + F.RF_NEED] + w[F.G_REINFORCE + F.RF_GUARD_NEED] * guard) * nd


@inline_rule_kernel
def _varies(i: int) -> bool:
    """True for the reinforce features that depend on the armies placed (`_army_terms`)."""
    return (i == F.RF_ARMY_VANTAGE or i == F.RF_ENEMY or i == F.RF_MISSION or i == F.RF_NEED
            or i == F.RF_GUARD_NEED or i == F.RF_PLAN_NEED or i == F.RF_ELIM_NEED)


@inline_rule_kernel
def place_options(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                  w: np.ndarray, work: Work, k: int) -> int:
    """The k best own territories by reinforce rank into work.opt_a (territory) and opt_v
    (score), best first (`keep_option`); returns how many.

    score(t, a) = fixed(t) + army terms(t, a) (`place_score`): the features that do not depend
    on the armies on t are summed once, and every territory's parts are left in pl.place, so
    rescoring t for more armies is exact and cheap.
    """
    owner, armies, sc = s.owner, s.armies, s.sc
    seat = sc[L.S_CURRENT]
    pl = work.players
    summarize(m, s, rules, seat, pl)
    # A plan term whose weight is 0 adds exactly 0 to every score: its stagers and K are skipped.
    plans = w[F.G_REINFORCE + F.RF_PLAN_NEED] != 0.0
    elims = w[F.G_REINFORCE + F.RF_ELIM_NEED] != 0.0
    if plans or elims:
        stagers(m, s, seat, pl)
    cnt, f = pl.cnt, work.feat
    leader = int(pl.scalars[SC_LEADER])
    m18 = mission_18(s, rules)
    pool = place_pool(s)
    # Within a run of placements (summaries carried) only armies and plans change: the other
    # parts of each score are kept in pl.place from the run's first decision.
    kept = pl.memo[M_FRESH] != 0 and pl.memo[M_PLACE] != 0
    pt = pl.place
    n = 0
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        pb, pk, eb, ek = 0.0, 0.0, 0.0, 0.0
        if plans:
            pb, pk = plan_of(fx.bonus_norm, t, armies[t], pool, pl.cost, pl.stager)
        if elims:
            eb, ek = plan_of(pl.evalue, t, armies[t], pool, pl.ecost, pl.estager)
        pt[t, PT_PLAN_B], pt[t, PT_PLAN_K], pt[t, PT_ELIM_B], pt[t, PT_ELIM_K] = pb, pk, eb, ek
        if not kept:
            reinforce_into(m, fx, s, rules, seat, t, armies[t], cnt, pl.strength, leader, pb,
                           pk, eb, ek, f)
            fixed = 0.0
            for i in range(F.NR):
                if not _varies(i):
                    fixed += w[F.G_REINFORCE + i] * f[i]
            nh, h, big = hostile(m, owner, armies, seat, t)
            c = m.continent_of[t]
            pt[t, PT_FIXED], pt[t, PT_H], pt[t, PT_BIG] = fixed, h, big
            pt[t, PT_MISSION], pt[t, PT_GARRISON] = f[F.RF_MISSION], garrison(nh, big)
            pt[t, PT_GUARD] = fx.bonus_norm[c] if cnt[c] == m.continent_size[c] else 0.0
        n = keep_option(work, n, k, t, 0, 0, place_score(w, pt, t, armies[t], m18))
    pl.memo[M_PLACE] = 1
    return n


@inline_rule_kernel
def mission_18(s: StateArrays, rules: np.ndarray) -> bool:
    """The seat to move holds the mission of 18 territories with 2 armies each."""
    return rules[L.R_MISSIONS] != 0 and s.pl[s.sc[L.S_CURRENT], L.P_MISSION] == L.M_18_TWO


@inline_rule_kernel
def place_score(w: np.ndarray, pt: np.ndarray, t: int, a: int, m18: bool) -> float:
    """The reinforce score of own territory t holding a armies, from its parts in pt (the
    `Players.place` rows `place_options` left); m18 from `mission_18`."""
    return pt[t, PT_FIXED] + _army_terms(
        w, int(pt[t, PT_H]), int(pt[t, PT_BIG]), a, m18, pt[t, PT_MISSION],
        int(pt[t, PT_GARRISON]), pt[t, PT_GUARD], pt[t, PT_PLAN_B], pt[t, PT_PLAN_K],
        pt[t, PT_ELIM_B], pt[t, PT_ELIM_K])


@inline_rule_kernel
def place_action(s: StateArrays, rules: np.ndarray, w: np.ndarray, work: Work,
                 n: int) -> Action4:
    """The placement on the best of the n territories `place_options` ranked into work: 1 army
    in the set-up; in the reinforce phase the run `place_run` keeps (NO_ACTION if n is 0).

    The run stops when the runner-up scores better; the engine then asks again with every
    territory rescored, so the need terms, which fall with every army, split the armies where
    the position asks.
    """
    if n == 0:
        return NO_ACTION
    best = int(work.opt_a[0])
    count = 1
    if s.sc[L.S_PHASE] == L.PH_REINFORCE:
        # Placing on `best` changes no other territory's score, so one-at-a-time placement
        # keeps choosing it while its rescored value still beats the runner-up. (Its plan is
        # kept for the run even if the run makes it the largest stack next to another plan's
        # continent; the next decision rescores every territory with the new stagers.)
        second = int(work.opt_a[1]) if n > 1 else -1
        ss = work.opt_v[1] if n > 1 else -np.inf
        count = place_run(w, work.players.place, best, s.armies[best], place_pool(s), second,
                          ss, mission_18(s, rules))
    return (L.A_PLACE, best, int(count), 0)


@inline_rule_kernel
def place_run(w: np.ndarray, pt: np.ndarray, best: int, a0: int, pool: int, second: int,
              ss: float, m18: bool) -> int:
    """Armies of the pool placed on `best` (a0 armies, scored by `place_score` from pt): one
    more while its rescored value beats the runner-up `second` (score ss; -1 if none), ties to
    the lower index."""
    count = 1
    while count < pool:
        v = place_score(w, pt, best, a0 + count, m18)
        if second < 0 or v > ss or (v == ss and best < second):
            count += 1
        else:
            break
    return count


@inline_rule_kernel
def attack_options(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                   w: np.ndarray, work: Work, k: int) -> int:
    """The k best (from, to) pairs by attack rank into work.opt_a, opt_b, opt_v, best first
    (`keep_option`); returns how many (0 when no attack is possible). Equal scores keep the
    scan order, so the first option is the pair `attack_action` weighs against its
    threshold."""
    neighbours, degree = m.neighbours, m.degree
    owner, armies = s.owner, s.armies
    seat = s.sc[L.S_CURRENT]
    pl = work.players
    summarize(m, s, rules, seat, pl)
    cnt, holder, nown, f = pl.cnt, pl.holder, pl.nown, work.feat
    leader = int(pl.scalars[SC_LEADER])
    tscore, done = work.score, work.flags
    done[:] = 0
    w_win = w[F.G_ATTACK + F.AF_WIN]
    w_ratio = w[F.G_ATTACK + F.AF_RATIO]
    w_left = w[F.G_ATTACK + F.AF_LEFT_BEHIND]
    w_guard = w[F.G_ATTACK + F.AF_SOURCE_GUARD]
    w_plan = w[F.G_ATTACK + F.AF_PLAN]
    w_elim = w[F.G_ATTACK + F.AF_ELIM_PLAN]
    n = 0
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        _nh, h_a, _big = hostile(m, owner, armies, seat, a)
        src = w_guard * source_guard(m, fx, cnt, a) if _nh > 0 else 0.0
        for j in range(degree[a]):
            t = neighbours[a, j]
            if owner[t] == seat:
                continue
            if done[t] == 0:
                f[:] = 0.0
                target_into(m, fx, s, rules, seat, t, cnt, holder, nown, pl.hand, pl.strength,
                            leader, f)
                tscore[t] = dot(w, F.G_ATTACK, f, F.NA)  # pair and source slots are 0 here
                done[t] = 1
            pair_into(fx, armies[a], armies[t], h_a, f)
            v = (tscore[t] + src + w_win * f[F.AF_WIN] + w_ratio * f[F.AF_RATIO]
                 + w_left * f[F.AF_LEFT_BEHIND])
            if w_plan != 0.0:
                v += w_plan * attack_plan(m, fx, pl.cost, armies[a], t)
            if w_elim != 0.0:
                v += w_elim * attack_elim(pl.ecost, pl.evalue, armies[a], owner[t])
            n = keep_option(work, n, k, a, t, 0, v)
    return n


@inline_rule_kernel
def attack_threshold(m: MapArrays, s: StateArrays, w: np.ndarray, work: Work, best_s: int,
                     bs: float) -> float:
    """What the best pair (best_s, score bs; -1 if none) must beat: attack.threshold + the
    threshold terms (pressure, own hand, conquered, thin), known once per decision."""
    seat = s.sc[L.S_CURRENT]
    pl = work.players
    thr = w[F.G_ATTACK_THRESHOLD]
    w_press = w[F.G_THRESHOLD_TERMS + F.TH_PRESSURE]
    if w_press != 0.0 and best_s >= 0:
        thr += w_press * pressure(m, s, seat, pl)
    thr += w[F.G_THRESHOLD_TERMS + F.TH_CARDS] * pl.scalars[SC_HAND]
    if s.sc[L.S_CONQUERED] != 0:
        thr += w[F.G_THRESHOLD_TERMS + F.TH_CONQUERED]
    w_thin = w[F.G_THRESHOLD_TERMS + F.TH_THIN]
    # The thin share lies in [0, 1], so its term lies between 0 and w_thin (rounding is
    # monotone): it is counted only when it can change the answer.
    if (w_thin != 0.0 and best_s >= 0 and thr + min(0.0, w_thin) < bs
            and not bs > thr + max(0.0, w_thin)):
        thr += w_thin * thin_share(m, s.owner, s.armies, seat)
    return thr


@inline_rule_kernel
def attack_action(m: MapArrays, s: StateArrays, w: np.ndarray, work: Work, n: int) -> Action4:
    """The best of the n pairs `attack_options` ranked into work if it clears the threshold
    (`attack_threshold`), else stop."""
    best_s = int(work.opt_a[0]) if n > 0 else -1
    bs = work.opt_v[0] if n > 0 else -np.inf
    thr = attack_threshold(m, s, w, work, best_s, bs)
    if best_s >= 0 and bs > thr:
        return (L.A_ATTACK, best_s, int(work.opt_b[0]), 0)
    return (L.A_STOP, 0, 0, 0)


@rule_kernel
def decide(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           work: Work) -> Action4:
    """The seat to move's action (kind, a, b, c) for the current phase; kind -1 if none.

    A decision among options ranks the best one (two for placements) into work with its
    `*_options` kernel, then plays what its `*_action` kernel makes of them.
    """
    # Both are called from here, with no decide_* kernel between: numba copies an inlined
    # kernel's whole body once more per level of inlining (decide compiled in 30 s, not 20).
    ph = s.sc[L.S_PHASE]
    if ph == L.PH_SETUP or ph == L.PH_REINFORCE:
        return place_action(s, rules, w, work, place_options(m, fx, s, rules, w, work, 2))
    if ph == L.PH_ATTACK:
        return attack_action(m, s, w, work, attack_options(m, fx, s, rules, w, work, 1))
    if ph == L.PH_OCCUPY:
        return decide_occupy(m, fx, s, w)
    if ph == L.PH_FORTIFY:
        return fortify_action(s, w, work, fortify_options(m, fx, s, rules, w, work, 1))
    if ph == L.PH_TRADE:
        return trade_action(m, fx, s, rules, w, work, trade_options(m, s, rules, work, 1))
    return NO_ACTION
