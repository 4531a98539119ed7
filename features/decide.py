"""The linear player's decisions as one compiled dispatch on the phase (`decide`).

`LinearPlayer` (Python engine) and `play_linear_game` (compiled loop) both call `decide`, so the
two paths make the same choice in the same position. Ties go to the lowest territory index
(lexicographic (from, to) for pairs): options are scanned in index order and only a strictly
better score replaces the incumbent.
"""

from __future__ import annotations

import numpy as np

from features.kernels import (
    census,
    fortify_into,
    hostile,
    jit_inline,
    jit_kernel,
    pair_into,
    reinforce_into,
    target_into,
)
from features.registry import (
    AF_RATIO,
    AF_WIN,
    G_ATTACK,
    G_ATTACK_THRESHOLD,
    G_FORTIFY,
    G_FORTIFY_SHARE,
    G_FORTIFY_THRESHOLD,
    G_OCCUPY_SHARE,
    G_OCCUPY_THREAT,
    G_REINFORCE,
    G_TRADE_AT,
    NA,
    NF,
    NR,
    RF_ARMY_VANTAGE,
    RF_ENEMY,
    RF_MISSION,
    TRADE_SCALE,
)
from game.cards import card_kind, set_value
from game.kernel import trade_compulsory
from game.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_FORTIFY,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
    M_18_TWO,
    P_MISSION,
    PH_ATTACK,
    PH_FORTIFY,
    PH_OCCUPY,
    PH_REINFORCE,
    PH_SETUP,
    PH_TRADE,
    R_MISSIONS,
    R_PATH_FORTIFY,
    S_BONUS_USED,
    S_CURRENT,
    S_DST,
    S_MIN_MOVE,
    S_PHASE,
    S_POOL,
    S_SRC,
    S_TRADES,
    WILD,
)

NO_ACTION = (-1, 0, 0, 0)


def make_work(m: tuple, n_players: int) -> tuple:
    """Scratch arrays for `decide` (allocated once per game, reused for every decision)."""
    n_terr = len(m[0])
    n_cont = len(m[1])
    return (
        np.zeros(n_cont, dtype=np.int32),  # 0 cnt: own territories per continent
        np.zeros(n_cont, dtype=np.int32),  # 1 holder of each continent (-1 none)
        np.zeros(n_players, dtype=np.int32),  # 2 territories per seat
        np.zeros(max(NR, NA, NF), dtype=np.float64),  # 3 feature buffer
        np.zeros(n_terr, dtype=np.float64),  # 4 per-territory partial score / vantage
        np.zeros(n_terr, dtype=np.int32),  # 5 per-territory flags
        np.zeros(n_terr, dtype=np.int32),  # 6 component labels
        np.zeros(max(n_terr, 64), dtype=np.int32),  # 7 stack / hand
    )


@jit_inline
def _dot(w: np.ndarray, off: int, f: np.ndarray, n: int) -> float:
    v = 0.0
    for i in range(n):
        v += w[off + i] * f[i]
    return v


@jit_inline
def _army_terms(w: np.ndarray, h: int, big: int, a: int, m18: bool, mval: float) -> float:
    """The reinforce score terms that depend on the armies a on the territory."""
    v = w[G_REINFORCE + RF_ARMY_VANTAGE] * (h / (h + a) if h + a > 0 else 0.0)
    v += w[G_REINFORCE + RF_ENEMY] * (big / (big + a) if big > 0 else 0.0)
    mv = (1.0 if a < 2 else 0.0) if m18 else mval
    return v + w[G_REINFORCE + RF_MISSION] * mv


@jit_kernel
def decide_place(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, w: np.ndarray,
                 work: tuple) -> tuple:
    """Place on the best reinforce rank; in the reinforce phase, the run of armies it keeps.

    score(t, a) = fixed(t) + army terms(t, a): the features that do not depend on the armies on
    t are summed once, so rescoring t for one more army is exact and cheap.
    """
    owner, armies, sc = s[0], s[1], s[4]
    seat = sc[S_CURRENT]
    cnt, f = work[0], work[3]
    census(m, owner, seat, cnt, work[1], work[2])
    m18 = rules[R_MISSIONS] != 0 and s[3][seat, P_MISSION] == M_18_TWO
    best, second = -1, -1
    bs, ss = -np.inf, -np.inf
    b_fixed, b_h, b_big, b_mval = 0.0, 0, 0, 0.0
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        reinforce_into(m, fx, s, rules, seat, t, armies[t], cnt, f)
        fixed = 0.0
        for i in range(NR):
            if i != RF_ARMY_VANTAGE and i != RF_ENEMY and i != RF_MISSION:
                fixed += w[G_REINFORCE + i] * f[i]
        _nh, h, big = hostile(m, owner, armies, seat, t)
        mval = f[RF_MISSION]
        v = fixed + _army_terms(w, h, big, armies[t], m18, mval)
        if v > bs:
            second, ss = best, bs
            best, bs = t, v
            b_fixed, b_h, b_big, b_mval = fixed, h, big, mval
        elif v > ss:
            second, ss = t, v
    if best < 0:
        return NO_ACTION
    count = 1
    if sc[S_PHASE] == PH_REINFORCE:
        # Placing on `best` changes no other territory's score, so one-at-a-time placement
        # keeps choosing it while its rescored value still beats the runner-up.
        pool = sc[S_POOL]
        a0 = armies[best]
        while count < pool:
            v = b_fixed + _army_terms(w, b_h, b_big, a0 + count, m18, b_mval)
            if second < 0 or v > ss or (v == ss and best < second):
                count += 1
            else:
                break
    return (A_PLACE, int(best), int(count), 0)


@jit_kernel
def decide_attack(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, w: np.ndarray,
                  work: tuple) -> tuple:
    """Best (from, to) by attack rank if it clears attack.threshold, else stop."""
    neighbours, degree = m[3], m[4]
    owner, armies, sc = s[0], s[1], s[4]
    seat = sc[S_CURRENT]
    cnt, holder, nown, f, tscore, done = work[0], work[1], work[2], work[3], work[4], work[5]
    census(m, owner, seat, cnt, holder, nown)
    done[:] = 0
    w_win = w[G_ATTACK + AF_WIN]
    w_ratio = w[G_ATTACK + AF_RATIO]
    best_s, best_t = -1, -1
    bs = -np.inf
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        for k in range(degree[a]):
            t = neighbours[a, k]
            if owner[t] == seat:
                continue
            if done[t] == 0:
                f[:] = 0.0
                target_into(m, fx, s, rules, seat, t, cnt, holder, nown, f)
                tscore[t] = _dot(w, G_ATTACK, f, NA)  # win/ratio slots are 0 here
                done[t] = 1
            pair_into(fx, armies[a], armies[t], f)
            v = tscore[t] + w_win * f[AF_WIN] + w_ratio * f[AF_RATIO]
            if v > bs:
                bs, best_s, best_t = v, a, t
    if best_s >= 0 and bs > w[G_ATTACK_THRESHOLD]:
        return (A_ATTACK, int(best_s), int(best_t), 0)
    return (A_STOP, 0, 0, 0)


@jit_inline
def _components(m: tuple, owner: np.ndarray, seat: int, comp: np.ndarray,
                stack: np.ndarray) -> None:
    """Label the connected groups of seat's territories (comp = -1 elsewhere)."""
    neighbours, degree = m[3], m[4]
    comp[:] = -1
    label = 0
    for r in range(owner.shape[0]):
        if owner[r] != seat or comp[r] >= 0:
            continue
        comp[r] = label
        stack[0] = r
        top = 1
        while top > 0:
            top -= 1
            u = stack[top]
            for k in range(degree[u]):
                v = neighbours[u, k]
                if owner[v] == seat and comp[v] < 0:
                    comp[v] = label
                    stack[top] = v
                    top += 1
        label += 1


@jit_kernel
def decide_fortify(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, w: np.ndarray,
                   work: tuple) -> tuple:
    """Best (a, b) move by fortify rank if it clears fortify.threshold, else skip."""
    adjacency = m[2]
    owner, armies, sc = s[0], s[1], s[4]
    seat = sc[S_CURRENT]
    f, thr, border, comp = work[3], work[4], work[5], work[6]
    n_terr = owner.shape[0]
    for t in range(n_terr):
        if owner[t] == seat:
            _nh, h, _big = hostile(m, owner, armies, seat, t)
            thr[t] = h / (h + armies[t]) if h + armies[t] > 0 else 0.0
            border[t] = 1 if _nh > 0 else 0
    path = rules[R_PATH_FORTIFY] != 0
    if path:
        _components(m, owner, seat, comp, work[7])
    best_a, best_b = -1, -1
    bs = -np.inf
    for a in range(n_terr):
        if owner[a] != seat or armies[a] < 2:
            continue
        for b in range(n_terr):
            if b == a or owner[b] != seat:
                continue
            if path:
                if comp[b] != comp[a]:
                    continue
            elif not adjacency[a, b]:
                continue
            fortify_into(armies[a], armies[b], thr[a], thr[b], border[a] != 0, border[b] != 0, f)
            v = _dot(w, G_FORTIFY, f, NF)
            if v > bs:
                bs, best_a, best_b = v, a, b
    if best_a < 0 or not bs > w[G_FORTIFY_THRESHOLD]:
        return (A_SKIP, 0, 0, 0)
    n = armies[best_a] - 1
    count = n
    if border[best_a] != 0:
        # A source facing enemies keeps part of its armies: fortify.share of the movable ones.
        count = int(w[G_FORTIFY_SHARE] * n + 0.5)
        count = min(n, max(1, count))
    return (A_FORTIFY, int(best_a), int(best_b), int(count))


@jit_kernel
def decide_occupy(m: tuple, s: tuple, w: np.ndarray) -> tuple:
    """Move in lo + round(frac * (hi - lo)), frac = clip(share + threat * (hd - hs), 0, 1).

    hd and hs are the shares of hostile neighbours of the conquered and the source territory.
    """
    degree = m[4]
    owner, armies, sc = s[0], s[1], s[4]
    seat = sc[S_CURRENT]
    src, dst = sc[S_SRC], sc[S_DST]
    lo, hi = sc[S_MIN_MOVE], armies[src] - 1
    hs = hostile(m, owner, armies, seat, src)[0] / degree[src]
    hd = hostile(m, owner, armies, seat, dst)[0] / degree[dst]
    frac = w[G_OCCUPY_SHARE] + w[G_OCCUPY_THREAT] * (hd - hs)
    frac = min(1.0, max(0.0, frac))
    n = lo + int(frac * (hi - lo) + 0.5)
    return (A_MOVE, int(min(hi, max(lo, n))), 0, 0)


@jit_kernel
def decide_trade(m: tuple, s: tuple, rules: np.ndarray, w: np.ndarray, work: tuple) -> tuple:
    """Trade the set worth most (value + card bonus, then fewest wilds, then lowest ids).

    An optional set is traded only when it is worth at least cards.trade_at * TRADE_SCALE armies.
    """
    owner, cards, sc = s[0], s[2], s[4]
    seat = sc[S_CURRENT]
    n_terr = owner.shape[0]
    hand = work[7]
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat and n < hand.shape[0]:
            hand[n] = c
            n += 1
    bonus_open = sc[S_BONUS_USED] == 0
    b1, b2, b3 = -1, -1, -1
    bv, bw = -1, 0
    for i in range(n):
        ci = hand[i]
        ki = card_kind(ci, n_terr)
        for j in range(i + 1, n):
            cj = hand[j]
            kj = card_kind(cj, n_terr)
            for k in range(j + 1, n):
                ck = hand[k]
                kk = card_kind(ck, n_terr)
                wilds = (ki == WILD) + (kj == WILD) + (kk == WILD)
                if wilds == 0 and not ((ki == kj and kj == kk) or
                                       (ki != kj and kj != kk and ki != kk)):
                    continue
                v = set_value(rules, sc[S_TRADES], ki, kj, kk)
                if bonus_open and ((ci < n_terr and owner[ci] == seat) or
                                   (cj < n_terr and owner[cj] == seat) or
                                   (ck < n_terr and owner[ck] == seat)):
                    v += 2
                if v > bv or (v == bv and wilds < bw):
                    bv, bw = v, wilds
                    b1, b2, b3 = int(ci), int(cj), int(ck)
    if b1 < 0:
        return (A_END_TRADE, 0, 0, 0)
    if not trade_compulsory(s) and bv < w[G_TRADE_AT] * TRADE_SCALE:
        return (A_END_TRADE, 0, 0, 0)
    return (A_TRADE, b1, b2, b3)


@jit_kernel
def decide(m: tuple, fx: tuple, s: tuple, rules: np.ndarray, w: np.ndarray,
           work: tuple) -> tuple:
    """The seat to move's action (kind, a, b, c) for the current phase; kind -1 if none."""
    ph = s[4][S_PHASE]
    if ph == PH_SETUP or ph == PH_REINFORCE:
        return decide_place(m, fx, s, rules, w, work)
    if ph == PH_ATTACK:
        return decide_attack(m, fx, s, rules, w, work)
    if ph == PH_OCCUPY:
        return decide_occupy(m, s, w)
    if ph == PH_FORTIFY:
        return decide_fortify(m, fx, s, rules, w, work)
    if ph == PH_TRADE:
        return decide_trade(m, s, rules, w, work)
    return NO_ACTION
