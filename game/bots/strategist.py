"""Strategist (compiled sparring bot). DEV VERSION: knobs in w.knobs."""

from __future__ import annotations

import numpy as np

from game import layout as L
from game.bots.sparring_kernels import (
    Action4,
    BotWork,
    best_set,
    census,
    enemy_count,
    enemy_max,
    fortify_to_front,
    garrison,
    odds,
    set_worth,
)
from game.jit import rule_kernel
from game.layout import MapArrays, StateArrays
from game.queries import reinforcements, trade_compulsory


@rule_kernel
def _hand(s: StateArrays, q: int) -> int:
    n = 0
    for c in range(s.cards.shape[0]):
        if s.cards[c] == q:
            n += 1
    return n


@rule_kernel
def _prey(m: MapArrays, s: StateArrays, seat: int, w: BotWork, extra: int) -> int:
    """A player our biggest stack next to it (plus `extra`) can wipe out, most cards first."""
    kn = w.knobs
    if kn[11] == 0:
        return -1
    owner, armies = s.owner, s.armies
    best, bkey = -1, -1e18
    for q in range(s.pl.shape[0]):
        if q == seat or s.pl[q, L.P_ALIVE] == 0:
            continue
        need = 0
        stack = 0
        for t in range(owner.shape[0]):
            if owner[t] != q:
                continue
            need += armies[t] + 1
            for k in range(m.degree[t]):
                u = m.neighbours[t, k]
                if owner[u] == seat and armies[u] > stack:
                    stack = armies[u]
        if stack == 0 or stack - 1 + extra < kn[11] * need:
            continue
        h = _hand(s, q)
        if h < kn[12]:
            continue
        key = h * 100.0 - need
        if key > bkey:
            best, bkey = q, key
    return best


@rule_kernel
def _target(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> int:
    """target_continent with the entry weight kn[15]."""
    owner, armies = s.owner, s.armies
    best, bv = -1, -1.0
    for c in range(m.bonus.shape[0]):
        if w.cnt[c] == m.continent_size[c]:
            continue
        reach = False
        cost = 0
        entries = 0
        for t in range(owner.shape[0]):
            if m.continent_of[t] != c:
                continue
            if owner[t] == seat:
                reach = True
            else:
                cost += armies[t] + 1
            entry = False
            for k in range(m.degree[t]):
                u = m.neighbours[t, k]
                if owner[u] == seat:
                    reach = True
                if m.continent_of[u] != c:
                    entry = True
            entries += entry
        if not reach:
            continue
        v = (m.bonus[c] + 1.0) / (cost + w.knobs[15] * entries + 1.0)
        if v > bv:
            best, bv = c, v
    return best


@rule_kernel
def _keep(m: MapArrays, s: StateArrays, w: BotWork, t: int, skip: int) -> int:
    g = garrison(m, s, w, t, skip)
    if g == 0:
        return 0
    return int(g * w.knobs[7] + 0.5)


@rule_kernel
def _place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    owner, armies = s.owner, s.armies
    census(m, s, seat, w)
    gap_t, gap = -1, 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            need = _keep(m, s, w, t, -1) - armies[t]
            if need > gap:
                gap_t, gap = t, need
    if gap_t >= 0 and (pool > 1 or s.sc[L.S_PHASE] == L.PH_SETUP):
        return (L.A_PLACE, int(gap_t), int(min(gap, max(1, int(pool * w.knobs[8])))), 0)
    tc = _target(m, s, seat, w)
    prey = _prey(m, s, seat, w, pool)
    base, best = -1, -1
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        key = -1
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] == seat:
                continue
            if owner[u] == prey:
                key = max(key, armies[t] + (3 << 20))
            elif w.knobs[14] != 0 and w.holder[m.continent_of[u]] == owner[u]:
                key = max(key, armies[t] + (2 << 20))
            elif m.continent_of[u] == tc:
                key = max(key, armies[t] + (1 << 20))
        if key > best:
            base, best = t, key
    if best < (1 << 20):
        base = -1
    if base < 0:
        edge = -1 << 30
        for t in range(owner.shape[0]):
            if owner[t] != seat or enemy_count(m, s, t) == 0:
                continue
            weakest = 1 << 30
            for k in range(m.degree[t]):
                u = m.neighbours[t, k]
                if owner[u] != seat and armies[u] < weakest:
                    weakest = armies[u]
            if armies[t] - weakest > edge:
                base, edge = t, armies[t] - weakest
    if base < 0:
        for t in range(owner.shape[0]):
            if owner[t] == seat:
                base = t
                break
    return (L.A_PLACE, int(base), int(pool), 0)


@rule_kernel
def _attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    owner, armies = s.owner, s.armies
    kn = w.knobs
    census(m, s, seat, w)
    tc = _target(m, s, seat, w)
    prey = _prey(m, s, seat, w, 0)
    card_open = s.sc[L.S_CONQUERED] == 0
    bs, bd, bkey = -1, -1, -1.0
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        for k in range(m.degree[a]):
            d = m.neighbours[a, k]
            if owner[d] == seat:
                continue
            stack = armies[a] - _keep(m, s, w, a, d)
            if stack < 2:
                continue
            p = odds(w, stack, armies[d])
            c = m.continent_of[d]
            q = owner[d]
            prio = -1
            if q == prey and p >= kn[9]:
                prio = 5
            elif w.nown[q] <= kn[5] and p >= kn[4] and (kn[12] == 0 or _hand(s, q) > 0):
                prio = 4
            elif w.holder[c] == q and p >= kn[0]:
                prio = 3
            elif c == tc and p >= kn[1]:
                prio = 2
            elif card_open and p >= kn[2]:
                prio = 1
            elif p >= kn[3]:
                prio = 0
            if prio < 0 or (kn[13] != 0 and not card_open and prio < 2):
                continue
            key = prio * 10.0 + p
            if key > bkey:
                bs, bd, bkey = a, d, key
    if bs < 0:
        return (L.A_STOP, 0, 0, 0)
    return (L.A_ATTACK, int(bs), int(bd), 0)


@rule_kernel
def _move_in(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    src, dst = s.sc[L.S_SRC], s.sc[L.S_DST]
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[src] - 1
    census(m, s, seat, w)
    if enemy_count(m, s, dst) == 0:
        return (L.A_MOVE, int(lo), 0, 0)
    keep = _keep(m, s, w, src, -1)
    if keep == 0 and enemy_count(m, s, src) > 0:
        keep = int(enemy_max(m, s, src, -1) * w.knobs[10])
    return (L.A_MOVE, int(min(hi, max(lo, hi - keep))), 0, 0)


@rule_kernel
def _trade(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, w: BotWork) -> Action4:
    act = best_set(m, s, rules, seat)
    if w.knobs[6] == 0 or act[0] != L.A_TRADE or trade_compulsory(s, rules):
        return act
    worth = set_worth(m, s, rules, act[1], act[2], act[3])
    income = reinforcements(m, s, seat)
    if worth >= w.knobs[6] * income or _prey(m, s, seat, w, worth + income) >= 0:
        return act
    return (L.A_END_TRADE, 0, 0, 0)


@rule_kernel
def strategist_decide(m: MapArrays, s: StateArrays, rules: np.ndarray, w: BotWork) -> Action4:
    """The strategist's action (kind, a, b, c) for the seat to move."""
    ph = s.sc[L.S_PHASE]
    seat = s.sc[L.S_CURRENT]
    if ph == L.PH_SETUP:
        return _place(m, s, seat, w, 1)
    if ph == L.PH_REINFORCE:
        return _place(m, s, seat, w, s.sc[L.S_POOL])
    if ph == L.PH_TRADE:
        return _trade(m, s, rules, seat, w)
    if ph == L.PH_ATTACK:
        return _attack(m, s, seat, w)
    if ph == L.PH_OCCUPY:
        return _move_in(m, s, seat, w)
    if ph == L.PH_FORTIFY:
        return fortify_to_front(m, s, rules, seat, w)
    return (-1, 0, 0, 0)
