"""The linear player's decisions as one compiled dispatch on the phase (`decide`).

`LinearPlayer` (Python engine) and `play_linear_game` (compiled loop) both call `decide`, so the
two paths make the same choice in the same position. Ties go to the lowest territory index
(lexicographic (from, to) for pairs): options are scanned in index order and only a strictly
better score replaces the incumbent.
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
    jit_inline,
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
from features.moves import decide_fortify, decide_occupy
from features.players import (
    M_FRESH,
    M_PLACE,
    PT_BIG,
    PT_FIXED,
    PT_GARRISON,
    PT_GUARD,
    PT_H,
    PT_MISSION,
    SC_HAND,
    SC_LEADER,
    pressure,
    stagers,
    summarize,
)
from features.trade import decide_trade
from features.work import NO_ACTION, Action4, Work, keep_option
from game.rules import layout as L
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays


@jit_inline
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


@jit_inline
def _varies(i: int) -> bool:
    """True for the reinforce features that depend on the armies placed (`_army_terms`)."""
    return (i == F.RF_ARMY_VANTAGE or i == F.RF_ENEMY or i == F.RF_MISSION or i == F.RF_NEED
            or i == F.RF_GUARD_NEED or i == F.RF_PLAN_NEED or i == F.RF_ELIM_NEED)


@jit_inline
def decide_place(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                 w: np.ndarray, work: Work) -> Action4:
    """Place on the best reinforce rank; in the reinforce phase, the run of armies it keeps.

    score(t, a) = fixed(t) + army terms(t, a): the features that do not depend on the armies on
    t are summed once, so rescoring t for one more army is exact and cheap. The run stops when
    the runner-up scores better; the engine then asks again with every territory rescored, so
    the need terms, which fall with every army, split the armies where the position asks.
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
    m18 = rules[L.R_MISSIONS] != 0 and s.pl[seat, L.P_MISSION] == L.M_18_TWO
    pool = place_pool(s)
    best, second = -1, -1
    bs, ss = -np.inf, -np.inf
    b_fixed, b_h, b_big, b_mval, b_g, b_guard = 0.0, 0, 0, 0.0, 0, 0.0
    b_pb, b_pk, b_eb, b_ek = 0.0, 0.0, 0.0, 0.0
    # Within a run of placements (summaries carried) only armies and plans change: the other
    # parts of each score are kept in pl.place from the run's first decision.
    kept = pl.memo[M_FRESH] != 0 and pl.memo[M_PLACE] != 0
    pt = pl.place
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        pb, pk, eb, ek = 0.0, 0.0, 0.0, 0.0
        if plans:
            pb, pk = plan_of(fx.bonus_norm, t, armies[t], pool, pl.cost, pl.stager)
        if elims:
            eb, ek = plan_of(pl.evalue, t, armies[t], pool, pl.ecost, pl.estager)
        if kept:
            fixed, h, big = pt[t, PT_FIXED], int(pt[t, PT_H]), int(pt[t, PT_BIG])
            mval, g, guard = pt[t, PT_MISSION], int(pt[t, PT_GARRISON]), pt[t, PT_GUARD]
        else:
            reinforce_into(m, fx, s, rules, seat, t, armies[t], cnt, pl.strength, leader, pb,
                           pk, eb, ek, f)
            fixed = 0.0
            for i in range(F.NR):
                if not _varies(i):
                    fixed += w[F.G_REINFORCE + i] * f[i]
            nh, h, big = hostile(m, owner, armies, seat, t)
            mval = f[F.RF_MISSION]
            g = garrison(nh, big)
            c = m.continent_of[t]
            guard = fx.bonus_norm[c] if cnt[c] == m.continent_size[c] else 0.0
            pt[t, PT_FIXED], pt[t, PT_H], pt[t, PT_BIG] = fixed, h, big
            pt[t, PT_MISSION], pt[t, PT_GARRISON], pt[t, PT_GUARD] = mval, g, guard
        v = fixed + _army_terms(w, h, big, armies[t], m18, mval, g, guard, pb, pk, eb, ek)
        if v > bs:
            second, ss = best, bs
            best, bs = t, v
            b_fixed, b_h, b_big, b_mval, b_g, b_guard = fixed, h, big, mval, g, guard
            b_pb, b_pk, b_eb, b_ek = pb, pk, eb, ek
        elif v > ss:
            second, ss = t, v
    pl.memo[M_PLACE] = 1
    if best < 0:
        return NO_ACTION
    count = 1
    if sc[L.S_PHASE] == L.PH_REINFORCE:
        # Placing on `best` changes no other territory's score, so one-at-a-time placement
        # keeps choosing it while its rescored value still beats the runner-up. (Its plan is
        # kept for the run even if the run makes it the largest stack next to another plan's
        # continent; the next decision rescores every territory with the new stagers.)
        count = place_run(w, best, armies[best], pool, second, ss, b_fixed, b_h, b_big, m18,
                          b_mval, b_g, b_guard, b_pb, b_pk, b_eb, b_ek)
    return (L.A_PLACE, int(best), int(count), 0)


@jit_inline
def place_run(w: np.ndarray, best: int, a0: int, pool: int, second: int, ss: float,
              fixed: float, h: int, big: int, m18: bool, mval: float, g: int, guard: float,
              plan_b: float, plan_k: float, elim_b: float, elim_k: float) -> int:
    """Armies of the pool placed on `best` (a0 armies, fixed score part and army terms'
    arguments as in `decide_place`): one more while its rescored value beats the runner-up
    `second` (score ss; -1 if none), ties to the lower index."""
    count = 1
    while count < pool:
        v = fixed + _army_terms(w, h, big, a0 + count, m18, mval, g, guard, plan_b, plan_k,
                                elim_b, elim_k)
        if second < 0 or v > ss or (v == ss and best < second):
            count += 1
        else:
            break
    return count


@jit_inline
def attack_options(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                   w: np.ndarray, work: Work, k: int) -> int:
    """The k best (from, to) pairs by attack rank into work.opt_a, opt_b, opt_v, best first
    (`keep_option`); returns how many (0 when no attack is possible). Equal scores keep the
    scan order, so the first option is the pair `decide_attack` weighs against its
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


@jit_inline
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


@jit_inline
def decide_attack(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                  w: np.ndarray, work: Work) -> Action4:
    """Best (from, to) by attack rank if it clears the threshold (`attack_threshold`), else
    stop."""
    n = attack_options(m, fx, s, rules, w, work, 1)
    best_s = int(work.opt_a[0]) if n > 0 else -1
    bs = work.opt_v[0] if n > 0 else -np.inf
    thr = attack_threshold(m, s, w, work, best_s, bs)
    if best_s >= 0 and bs > thr:
        return (L.A_ATTACK, best_s, int(work.opt_b[0]), 0)
    return (L.A_STOP, 0, 0, 0)


@rule_kernel
def decide(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           work: Work) -> Action4:
    """The seat to move's action (kind, a, b, c) for the current phase; kind -1 if none."""
    ph = s.sc[L.S_PHASE]
    if ph == L.PH_SETUP or ph == L.PH_REINFORCE:
        return decide_place(m, fx, s, rules, w, work)
    if ph == L.PH_ATTACK:
        return decide_attack(m, fx, s, rules, w, work)
    if ph == L.PH_OCCUPY:
        return decide_occupy(m, fx, s, w)
    if ph == L.PH_FORTIFY:
        return decide_fortify(m, fx, s, rules, w, work)
    if ph == L.PH_TRADE:
        return decide_trade(m, fx, s, rules, w, work.players, work.stack)
    return NO_ACTION
