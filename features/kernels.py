"""Compiled feature kernels over the engine's state arrays (see `features.registry` for formulas).

All kernels take the board `m` (`Map.kernel`, a `MapArrays`), the static `FeatureContext` `fx`
(`feature_context`), the state `s` (`State.kernel`, a `StateArrays`) and the rules vector.
The decision kernels in `features.decide` call the `*_into` fillers with scratch arrays so that
nothing is allocated per option; `features.vectors` wraps them into allocating `*_features`
functions for tests and inspection.

The kernels are inlined like the rule kernels (`game.rules.jit.inline_rule_kernel`): they never
allocate, and reference counting of arrays taken from the state tuples made decisions 6-16x
slower.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from features import registry as F
from game.rules import layout as L
from game.rules.dice import conquest_table, odds_lookup
from game.rules.jit import inline_rule_kernel
from game.rules.layout import MapArrays, StateArrays


class FeatureContext(NamedTuple):
    """Static per-board arrays the features read (`feature_context`)."""

    odds: np.ndarray  # float64[ODDS_SIZE, ODDS_SIZE]: game.rules.dice.conquest_table()
    cont_value: np.ndarray  # float64[C]: continent value normalised to max 1
    bonus_norm: np.ndarray  # float64[C]: bonus / largest bonus


def feature_context(m: MapArrays) -> FeatureContext:
    """The static feature context of a board."""
    n_cont = len(m.bonus)
    borders = np.zeros(n_cont, dtype=np.float64)
    for t in range(len(m.continent_of)):
        c = m.continent_of[t]
        if any(m.continent_of[m.neighbours[t, k]] != c for k in range(m.degree[t])):
            borders[c] += 1
    # A continent with no border territory is the whole map: count it as one border.
    value = m.bonus / (m.continent_size * np.maximum(borders, 1.0))
    top = value.max()
    cont_value = value / top if top > 0 else np.zeros(n_cont)
    bmax = float(m.bonus.max())
    bonus_norm = m.bonus / bmax if bmax > 0 else np.zeros(n_cont)
    return FeatureContext(conquest_table(), np.ascontiguousarray(cont_value, dtype=np.float64),
                          np.ascontiguousarray(bonus_norm, dtype=np.float64))


@inline_rule_kernel
def dot(w: np.ndarray, off: int, f: np.ndarray, n: int) -> float:
    """Sum of w[off + i] * f[i] for i < n: a rank's weighted features."""
    v = 0.0
    for i in range(n):
        v += w[off + i] * f[i]
    return v


@inline_rule_kernel
def hand_share(n: int, rules: np.ndarray) -> float:
    """min(1, n / rules.trade_at): a hand of n cards against the hand that must trade (5 by
    default), where every card feature saturates."""
    return min(1.0, n / rules[L.R_TRADE_AT])


@inline_rule_kernel
def place_pool(s: StateArrays) -> int:
    """Armies the seat to move still places this turn (1 in set-up: one at a time)."""
    return int(s.sc[L.S_POOL]) if s.sc[L.S_PHASE] == L.PH_REINFORCE else 1


@inline_rule_kernel
def hostile(m: MapArrays, owner: np.ndarray, armies: np.ndarray, seat: int,
            t: int) -> tuple[int, int, int]:
    """(hostile neighbours, their armies, largest hostile army) around t for seat."""
    nh = 0
    h = 0
    big = 0
    for k in range(m.degree[t]):
        u = m.neighbours[t, k]
        if owner[u] != seat:
            nh += 1
            a = armies[u]
            h += a
            if a > big:
                big = a
    return nh, h, big


@inline_rule_kernel
def _in_mission_continent(m: MapArrays, mission: int, c: int) -> bool:
    mc = m.mission_continents
    if 0 <= mission < mc.shape[0]:
        return mc[mission, 0] == c or mc[mission, 1] == c
    return False


@inline_rule_kernel
def _destroy_target(s: StateArrays, seat: int) -> int:
    pl = s.pl
    tgt = pl[seat, L.P_TARGET]
    if (pl[seat, L.P_MISSION] >= L.M_DESTROY and tgt >= 0 and tgt != seat
            and pl[tgt, L.P_ALIVE] != 0):
        return tgt
    return -1


@inline_rule_kernel
def garrison(nh: int, big: int) -> int:
    """G(t): armies t needs against its largest hostile neighbour (0 without a hostile one)."""
    return max(2, big) if nh > 0 else 0


@inline_rule_kernel
def need(g: int, a: int) -> float:
    """max(0, G - a) / G: the share of the garrison G still missing with a armies (0 if G=0)."""
    return (g - a) / g if g > a else 0.0


@inline_rule_kernel
def plan_of(value: np.ndarray, t: int, a_t: int, pool: int, cost: np.ndarray,
            stager: np.ndarray) -> tuple[float, float]:
    """(value, K) of t's best plan (0, 0 if none): t stages it and the pool can cover K.

    One kernel for both plans: continents (value B(c)/Bmax, `FeatureContext.bonus_norm`) and
    eliminations (value v(q), `features.players.Players.evalue`); best value / K wins.
    """
    best_b, best_k, best_r = 0.0, 0.0, 0.0
    for c in range(cost.shape[0]):
        k = cost[c]
        if stager[c] != t or k <= 0 or k - a_t > pool:
            continue
        r = value[c] / k
        if r > best_r:
            best_b, best_k, best_r = value[c], k, r
    return best_b, best_k


@inline_rule_kernel
def plan_need(plan_b: float, plan_k: float, a: int) -> float:
    """reinforce.plan_need with a armies on the stager: the plan's share still missing."""
    return plan_b * (plan_k - a) / plan_k if plan_k > a else 0.0


@inline_rule_kernel
def attack_plan(m: MapArrays, fx: FeatureContext, cost: np.ndarray, a_s: int, t: int) -> float:
    """attack.plan of attacking t with a_s armies: its continent's bonus share if they cover K."""
    c = m.continent_of[t]
    return fx.bonus_norm[c] if a_s >= cost[c] else 0.0


@inline_rule_kernel
def attack_elim(ecost: np.ndarray, evalue: np.ndarray, a_s: int, q: int) -> float:
    """attack.elim_plan of attacking one of q's territories with a_s armies: v(q) if they
    cover K(q)."""
    return evalue[q] if a_s >= ecost[q] else 0.0


@inline_rule_kernel
def reinforce_into(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                   seat: int, t: int, a_t: int, cnt: np.ndarray, strength: np.ndarray,
                   leader: int, plan_b: float, plan_k: float, elim_b: float, elim_k: float,
                   out: np.ndarray) -> None:
    """Reinforce features of own territory t as if it held a_t armies (cnt from `census_into`,
    strength and leader from `features.players.summarize`, t's two plans from `plan_of`)."""
    continent_of, neighbours, degree = m.continent_of, m.neighbours, m.degree
    csize = m.continent_size
    owner = s.owner
    nh, h, big = hostile(m, owner, s.armies, seat, t)
    c = continent_of[t]
    out[F.RF_ARMY_VANTAGE] = h / (h + a_t) if h + a_t > 0 else 0.0
    out[F.RF_TERR_VANTAGE] = nh / degree[t]
    out[F.RF_CONT_SHARE] = cnt[c] / csize[c]
    missing = csize[c] - cnt[c]
    if missing > 0:
        for k in range(degree[t]):
            u = neighbours[t, k]
            if continent_of[u] == c and owner[u] != seat:
                missing -= 1
    out[F.RF_CONT_BONUS] = fx.bonus_norm[c] if missing == 0 else 0.0
    out[F.RF_BORDER] = 1.0 if nh > 0 else 0.0
    out[F.RF_CONT_VALUE] = fx.cont_value[c]
    out[F.RF_ENEMY] = big / (big + a_t) if big > 0 else 0.0
    mv = 0.0
    if rules[L.R_MISSIONS] != 0:
        mission = s.pl[seat, L.P_MISSION]
        if mission == L.M_18_TWO:
            mv = 1.0 if a_t < L.MISSION_ARMIES else 0.0
        elif _in_mission_continent(m, mission, c):
            mv = 1.0
        else:
            tgt = _destroy_target(s, seat)
            if tgt >= 0:
                for k in range(degree[t]):
                    if owner[neighbours[t, k]] == tgt:
                        mv = 1.0
                        break
    out[F.RF_MISSION] = mv
    nd = need(garrison(nh, big), a_t)
    out[F.RF_NEED] = nd
    out[F.RF_GUARD_NEED] = nd * fx.bonus_norm[c] if cnt[c] == csize[c] else 0.0
    lead = 0.0
    if leader >= 0:
        for k in range(degree[t]):
            if owner[neighbours[t, k]] == leader:
                lead = strength[leader]
                break
    out[F.RF_LEADER] = lead
    out[F.RF_PLAN_NEED] = plan_need(plan_b, plan_k, a_t)
    out[F.RF_ELIM_NEED] = plan_need(elim_b, elim_k, a_t)


@inline_rule_kernel
def target_into(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, seat: int,
                t: int, cnt: np.ndarray, holder: np.ndarray, nown: np.ndarray,
                hand: np.ndarray, strength: np.ndarray, leader: int, out: np.ndarray) -> None:
    """Attack features that depend on the target t only (not the `pair_into` and
    `source_into` ones); hand, strength and leader from `features.players.summarize`."""
    owner = s.owner
    q = owner[t]
    c = m.continent_of[t]
    out[F.AF_COMPLETES] = fx.bonus_norm[c] if cnt[c] == m.continent_size[c] - 1 else 0.0
    out[F.AF_BREAKS] = fx.bonus_norm[c] if holder[c] == q else 0.0
    out[F.AF_SHARE] = nown[q] / owner.shape[0]
    out[F.AF_ELIM] = 1.0 if nown[q] == 1 else 0.0
    out[F.AF_FIRST] = 0.0 if s.sc[L.S_CONQUERED] != 0 else 1.0
    nh = 0
    for k in range(m.degree[t]):
        if owner[m.neighbours[t, k]] != seat:
            nh += 1
    out[F.AF_EXPOSURE] = nh / m.degree[t]
    mv = 0.0
    if rules[L.R_MISSIONS] != 0:
        mission = s.pl[seat, L.P_MISSION]
        if mission == L.M_18_TWO or mission == L.M_24:
            mv = 1.0
        elif _in_mission_continent(m, mission, c):
            mv = 1.0
        elif _destroy_target(s, seat) == q:
            mv = 1.0
    out[F.AF_MISSION] = mv
    out[F.AF_STRENGTH] = strength[q]
    out[F.AF_BREAKS_LEADER] = out[F.AF_BREAKS] if q == leader else 0.0
    cards = hand_share(hand[q], rules)
    out[F.AF_TARGET_CARDS] = cards
    out[F.AF_ELIM_CARDS] = cards if nown[q] == 1 else 0.0
    out[F.AF_CONT_SHARE] = cnt[c] / m.continent_size[c]
    out[F.AF_CONT_VALUE] = fx.cont_value[c]


@inline_rule_kernel
def source_guard(m: MapArrays, fx: FeatureContext, cnt: np.ndarray, src: int) -> float:
    """attack.source_guard of a source (it borders the enemy it attacks)."""
    c = m.continent_of[src]
    return fx.bonus_norm[c] if cnt[c] == m.continent_size[c] else 0.0


@inline_rule_kernel
def pair_into(fx: FeatureContext, a_s: int, a_t: int, h_s: int, out: np.ndarray) -> None:
    """Attack features that depend on both armies (h_s: hostile armies next to the source)."""
    out[F.AF_WIN] = odds_lookup(fx.odds, a_s, a_t)
    out[F.AF_RATIO] = a_s / (a_s + a_t)
    rest = h_s - a_t
    out[F.AF_LEFT_BEHIND] = rest / (rest + a_s) if rest > 0 else 0.0


@inline_rule_kernel
def vantage(m: MapArrays, s: StateArrays, seat: int, t: int) -> float:
    """Army vantage H(t) / (H(t) + a(t)) of t for seat (0 when nothing is around)."""
    a_t = s.armies[t]
    _nh, h, _big = hostile(m, s.owner, s.armies, seat, t)
    return h / (h + a_t) if h + a_t > 0 else 0.0


@inline_rule_kernel
def fortify_into(a_a: int, a_b: int, thr_a: float, thr_b: float, border_a: bool,
                 border_b: bool, need_b: float, guard_b: float, out: np.ndarray) -> None:
    """Fortify features of moving from a to b, from per-territory vantage, border flags and
    b's need and guarded-continent share (B(c(b))/Bmax if p holds c(b), else 0)."""
    out[F.FF_GAIN] = thr_b - thr_a
    out[F.FF_INTERIOR] = 0.0 if border_a else 1.0
    out[F.FF_MOVABLE] = (a_a - 1) / (a_a - 1 + a_b) if a_a - 1 + a_b > 0 else 0.0
    out[F.FF_DEST_BORDER] = 1.0 if border_b else 0.0
    out[F.FF_DEST_NEED] = need_b
    out[F.FF_DEST_GUARD] = need_b * guard_b


@inline_rule_kernel
def holds(m: MapArrays, owner: np.ndarray, seat: int, c: int) -> bool:
    """True if seat owns every territory of continent c."""
    for t in range(owner.shape[0]):
        if m.continent_of[t] == c and owner[t] != seat:
            return False
    return True


@inline_rule_kernel
def thin_share(m: MapArrays, owner: np.ndarray, armies: np.ndarray, seat: int) -> float:
    """attack.threshold_thin: p's territories with 1 army and a hostile neighbour / p's."""
    n = 0
    thin = 0
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        n += 1
        if armies[t] == 1:
            for k in range(m.degree[t]):
                if owner[m.neighbours[t, k]] != seat:
                    thin += 1
                    break
    return thin / n if n > 0 else 0.0
