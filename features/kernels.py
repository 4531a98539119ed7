"""Compiled feature kernels over the engine's state arrays (see `features.registry` for formulas).

All kernels take the map tuple `m` (`Map.kernel`), the static feature context `fx`
(`feature_context`), the state tuple `s = (owner, armies, cards, pl, sc)` and the rules vector.
The decision kernels in `features.decide` call the private `_*` helpers with scratch arrays so
that nothing is allocated per option; the public `*_features` wrappers allocate and exist for
tests and inspection.
"""

from __future__ import annotations

import numpy as np

from features.odds import conquest_table
from features.registry import (
    AF_BREAKS,
    AF_COMPLETES,
    AF_ELIM,
    AF_EXPOSURE,
    AF_FIRST,
    AF_MISSION,
    AF_RATIO,
    AF_SHARE,
    AF_WIN,
    FF_DEST_BORDER,
    FF_GAIN,
    FF_INTERIOR,
    FF_MOVABLE,
    NA,
    NF,
    NR,
    RF_ARMY_VANTAGE,
    RF_BORDER,
    RF_CONT_BONUS,
    RF_CONT_SHARE,
    RF_CONT_VALUE,
    RF_ENEMY,
    RF_MISSION,
    RF_TERR_VANTAGE,
)
from game.jit import inline_rule_kernel, rule_kernel
from game.layout import (
    M_18_TWO,
    M_24,
    M_DESTROY,
    P_ALIVE,
    P_MISSION,
    P_TARGET,
    R_MISSIONS,
    S_CONQUERED,
)

# Compiled like the rule kernels (game/jit.py): they never allocate, and reference counting of
# arrays taken from the state tuples made decisions 6-16x slower.
jit_kernel = rule_kernel
jit_inline = inline_rule_kernel


def feature_context(m: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Static per-map arrays: (odds table, normalised continent value, normalised bonus)."""
    continent_of, bonus, _adj, neighbours, degree, csize = m[:6]
    n_cont = len(bonus)
    borders = np.zeros(n_cont, dtype=np.float64)
    for t in range(len(continent_of)):
        c = continent_of[t]
        if any(continent_of[neighbours[t, k]] != c for k in range(degree[t])):
            borders[c] += 1
    # A continent with no border territory is the whole map: count it as one border.
    value = bonus / (csize * np.maximum(borders, 1.0))
    top = value.max()
    cont_value = value / top if top > 0 else np.zeros(n_cont)
    bmax = float(bonus.max())
    bonus_norm = bonus / bmax if bmax > 0 else np.zeros(n_cont)
    return (conquest_table(), np.ascontiguousarray(cont_value, dtype=np.float64),
            np.ascontiguousarray(bonus_norm, dtype=np.float64))


@jit_inline
def odds_lookup(table: np.ndarray, attackers: int, defenders: int) -> float:
    """P(conquest); beyond the table both sides are scaled down by the same factor.

    Scaling keeps the army ratio; it understates how sure big even battles are (P(n, n) grows
    with n), which is the safe side for a feature that only needs to rank options.
    """
    if defenders <= 0:
        return 1.0
    if attackers <= 1:
        return 0.0
    n = table.shape[0] - 1
    big = max(attackers, defenders)
    if big > n:
        attackers = max(1, (attackers * n + big // 2) // big)
        defenders = max(1, (defenders * n + big // 2) // big)
    return table[attackers, defenders]


@jit_inline
def census(m: tuple, owner: np.ndarray, seat: int, cnt: np.ndarray, holder: np.ndarray,
           nown: np.ndarray) -> None:
    """Fill p's territories per continent, each continent's sole holder (-1) and per-seat counts."""
    continent_of = m[0]
    cnt[:] = 0
    holder[:] = -2  # -2: unseen yet
    nown[:] = 0
    for t in range(owner.shape[0]):
        o = owner[t]
        c = continent_of[t]
        nown[o] += 1
        if o == seat:
            cnt[c] += 1
        h = holder[c]
        if h == -2:
            holder[c] = o
        elif h != o:
            holder[c] = -1


@jit_inline
def hostile(m: tuple, owner: np.ndarray, armies: np.ndarray, seat: int, t: int) -> tuple:
    """(hostile neighbours, their armies, largest hostile army) around t for seat."""
    neighbours, degree = m[3], m[4]
    nh = 0
    h = 0
    big = 0
    for k in range(degree[t]):
        u = neighbours[t, k]
        if owner[u] != seat:
            nh += 1
            a = armies[u]
            h += a
            if a > big:
                big = a
    return nh, h, big


@jit_inline
def _in_mission_continent(m: tuple, mission: int, c: int) -> bool:
    mc = m[6]
    if 0 <= mission < mc.shape[0]:
        return mc[mission, 0] == c or mc[mission, 1] == c
    return False


@jit_inline
def _destroy_target(s: tuple, seat: int) -> int:
    pl = s[3]
    tgt = pl[seat, P_TARGET]
    if pl[seat, P_MISSION] >= M_DESTROY and tgt >= 0 and tgt != seat and pl[tgt, P_ALIVE] != 0:
        return tgt
    return -1


@jit_inline
def reinforce_into(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, seat: int, t: int,
                   a_t: int, cnt: np.ndarray, out: np.ndarray) -> None:
    """Reinforce features of own territory t as if it held a_t armies (cnt from `census`)."""
    continent_of, neighbours, degree, csize = m[0], m[3], m[4], m[5]
    owner, armies = s[0], s[1]
    nh, h, big = hostile(m, owner, armies, seat, t)
    c = continent_of[t]
    out[RF_ARMY_VANTAGE] = h / (h + a_t) if h + a_t > 0 else 0.0
    out[RF_TERR_VANTAGE] = nh / degree[t]
    out[RF_CONT_SHARE] = cnt[c] / csize[c]
    missing = csize[c] - cnt[c]
    if missing > 0:
        for k in range(degree[t]):
            u = neighbours[t, k]
            if continent_of[u] == c and owner[u] != seat:
                missing -= 1
    out[RF_CONT_BONUS] = fx[2][c] if missing == 0 else 0.0
    out[RF_BORDER] = 1.0 if nh > 0 else 0.0
    out[RF_CONT_VALUE] = fx[1][c]
    out[RF_ENEMY] = big / (big + a_t) if big > 0 else 0.0
    mv = 0.0
    if rules[R_MISSIONS] != 0:
        mission = s[3][seat, P_MISSION]
        if mission == M_18_TWO:
            mv = 1.0 if a_t < 2 else 0.0
        elif _in_mission_continent(m, mission, c):
            mv = 1.0
        else:
            tgt = _destroy_target(s, seat)
            if tgt >= 0:
                for k in range(degree[t]):
                    if owner[neighbours[t, k]] == tgt:
                        mv = 1.0
                        break
    out[RF_MISSION] = mv


@jit_inline
def target_into(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, seat: int, t: int,
                cnt: np.ndarray, holder: np.ndarray, nown: np.ndarray, out: np.ndarray) -> None:
    """Attack features that depend on the target t only (all but win_prob and armies_ratio)."""
    continent_of, neighbours, degree, csize = m[0], m[3], m[4], m[5]
    owner, sc = s[0], s[4]
    q = owner[t]
    c = continent_of[t]
    out[AF_COMPLETES] = fx[2][c] if cnt[c] == csize[c] - 1 else 0.0
    out[AF_BREAKS] = fx[2][c] if holder[c] == q else 0.0
    out[AF_SHARE] = nown[q] / owner.shape[0]
    out[AF_ELIM] = 1.0 if nown[q] == 1 else 0.0
    out[AF_FIRST] = 0.0 if sc[S_CONQUERED] != 0 else 1.0
    nh = 0
    for k in range(degree[t]):
        if owner[neighbours[t, k]] != seat:
            nh += 1
    out[AF_EXPOSURE] = nh / degree[t]
    mv = 0.0
    if rules[R_MISSIONS] != 0:
        mission = s[3][seat, P_MISSION]
        if mission == M_18_TWO or mission == M_24:
            mv = 1.0
        elif _in_mission_continent(m, mission, c):
            mv = 1.0
        elif _destroy_target(s, seat) == q:
            mv = 1.0
    out[AF_MISSION] = mv


@jit_inline
def pair_into(fx: tuple, a_s: int, a_t: int, out: np.ndarray) -> None:
    """Attack features that depend on both armies: win_prob and armies_ratio."""
    out[AF_WIN] = odds_lookup(fx[0], a_s, a_t)
    out[AF_RATIO] = a_s / (a_s + a_t)


@jit_inline
def vantage(m: tuple, s: tuple, seat: int, t: int) -> float:
    """Army vantage H(t) / (H(t) + a(t)) of t for seat (0 when nothing is around)."""
    a_t = s[1][t]
    _nh, h, _big = hostile(m, s[0], s[1], seat, t)
    return h / (h + a_t) if h + a_t > 0 else 0.0


@jit_inline
def fortify_into(a_a: int, a_b: int, thr_a: float, thr_b: float, border_a: bool,
                 border_b: bool, out: np.ndarray) -> None:
    """Fortify features of moving from a to b, from per-territory vantage and border flags."""
    out[FF_GAIN] = thr_b - thr_a
    out[FF_INTERIOR] = 0.0 if border_a else 1.0
    out[FF_MOVABLE] = (a_a - 1) / (a_a - 1 + a_b) if a_a - 1 + a_b > 0 else 0.0
    out[FF_DEST_BORDER] = 1.0 if border_b else 0.0


def _scratch(m: tuple, s: tuple, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_cont = len(m[1])
    cnt = np.zeros(n_cont, dtype=np.int32)
    holder = np.zeros(n_cont, dtype=np.int32)
    nown = np.zeros(s[3].shape[0], dtype=np.int32)
    census(m, s[0], seat, cnt, holder, nown)
    return cnt, holder, nown


def reinforce_features(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, seat: int,
                       t: int) -> np.ndarray:
    """Reinforce feature vector of own territory t (registry order)."""
    cnt, _h, _n = _scratch(m, s, seat)
    out = np.zeros(NR)
    reinforce_into(m, fx, s, rules, seat, t, int(s[1][t]), cnt, out)
    return out


def attack_features(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, seat: int, src: int,
                    dst: int) -> np.ndarray:
    """Attack feature vector of src -> dst (registry order)."""
    cnt, holder, nown = _scratch(m, s, seat)
    out = np.zeros(NA)
    target_into(m, fx, s, rules, seat, dst, cnt, holder, nown, out)
    pair_into(fx, int(s[1][src]), int(s[1][dst]), out)
    return out


def fortify_features(m: tuple, s: tuple, seat: int, a: int, b: int) -> np.ndarray:
    """Fortify feature vector of moving armies from a to b (registry order)."""
    out = np.zeros(NF)
    ba = hostile(m, s[0], s[1], seat, a)[0] > 0
    bb = hostile(m, s[0], s[1], seat, b)[0] > 0
    fortify_into(int(s[1][a]), int(s[1][b]), vantage(m, s, seat, a), vantage(m, s, seat, b),
                 ba, bb, out)
    return out
