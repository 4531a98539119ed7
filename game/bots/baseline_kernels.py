"""Compiled decisions the baseline bots share: trading, the default move-in, fortifying.

These are the baselines' own rules (`game.bots.common` keeps the Python ones for the bots that
are not compiled); they differ from the sparring bots' in `sparring_kernels` in small ways that
change moves (which border is "most threatened", which set is "best"), so they are kept apart.
Ties go where the Python versions send them: tests/reference_bots.py is the oracle.
"""

from __future__ import annotations

import numpy as np

from game import layout as L
from game.bots.common import FAR
from game.bots.sparring_kernels import (
    Action4,
    BotWork,
    enemy_count,
    front_distance,
    odds,
    rank_sets,
)
from game.jit import inline_rule_kernel, rule_kernel
from game.layout import MapArrays, StateArrays


@inline_rule_kernel
def threat(m: MapArrays, s: StateArrays, t: int) -> int:
    """Armies next to t owned by someone else than t's owner."""
    o, total = s.owner[t], 0
    for k in range(m.degree[t]):
        u = m.neighbours[t, k]
        if s.owner[u] != o:
            total += s.armies[u]
    return total


@inline_rule_kernel
def first_own(s: StateArrays, seat: int) -> int:
    """The seat's lowest-numbered territory."""
    for t in range(s.owner.shape[0]):
        if s.owner[t] == seat:
            return t
    return 0


@rule_kernel
def trade_best(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int) -> Action4:
    """The set worth most now; ties prefer a card of an own territory, then fewer wilds."""
    return rank_sets(m, s, rules, seat, True)


@rule_kernel
def likeliest_attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork, threshold: float,
                     weakest_first: bool) -> Action4:
    """The attack with the best conquest odds if they reach `threshold`, else stop. Ties: the
    weaker defender (with `weakest_first`), then the lower target, then the higher source."""
    owner, armies = s.owner, s.armies
    bs, bd, bp = -1, -1, 0.0
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        for k in range(m.degree[a]):
            d = m.neighbours[a, k]
            if owner[d] == seat:
                continue
            p = odds(w, armies[a], armies[d])
            if bs >= 0 and p == bp and weakest_first and armies[d] != armies[bd]:
                better = armies[d] < armies[bd]
            else:
                better = bs < 0 or p > bp or (p == bp and (d < bd or (d == bd and a > bs)))
            if better:
                bs, bd, bp = a, d, p
    if bs < 0 or bp < threshold:
        return (L.A_STOP, 0, 0, 0)
    return (L.A_ATTACK, int(bs), int(bd), 0)


@rule_kernel
def move_in_split(m: MapArrays, s: StateArrays) -> Action4:
    """Everything when the source is safe, else half each (the bigger half moves)."""
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[s.sc[L.S_SRC]] - 1
    if enemy_count(m, s, s.sc[L.S_SRC]) == 0:
        return (L.A_MOVE, int(hi), 0, 0)
    return (L.A_MOVE, int(max(lo, min(hi, (hi + 1) - (hi + 1) // 2))), 0, 0)


@rule_kernel
def fortify_front(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int,
                  w: BotWork) -> Action4:
    """The biggest interior stack (ties: lowest index) moves toward the front: straight to the
    connected border with the fewest own armies against the enemy armies next to it (path
    rule), else one step closer to the nearest border. (A_SKIP, ...) when nothing moves."""
    owner, armies = s.owner, s.armies
    front_distance(m, s, seat, w, FAR)
    src, big = -1, 1
    for t in range(owner.shape[0]):
        if owner[t] == seat and w.dist[t] > 0 and armies[t] > big:
            src, big = t, armies[t]
    if src < 0:
        return (L.A_SKIP, 0, 0, 0)
    if rules[L.R_PATH_FORTIFY] != 0:
        # src's own component, by a search that marks with -1 (no distance is negative).
        dst, key = -1, 0
        head, tail = 0, 1
        w.queue[0] = src
        w.dist[src] = -1
        while head < tail:
            u = w.queue[head]
            head += 1
            if enemy_count(m, s, u) > 0:
                v = armies[u] - threat(m, s, u)
                if dst < 0 or v < key or (v == key and u < dst):
                    dst, key = u, v
            for k in range(m.degree[u]):
                x = m.neighbours[u, k]
                if owner[x] == seat and w.dist[x] != -1:
                    w.dist[x] = -1
                    w.queue[tail] = x
                    tail += 1
        if dst >= 0:
            return (L.A_FORTIFY, int(src), int(dst), int(armies[src] - 1))
        # No border in src's component: no step gets closer to one either.
        return (L.A_SKIP, 0, 0, 0)
    dst, dd, dt = -1, 0, 0
    for k in range(m.degree[src]):
        v = m.neighbours[src, k]
        if owner[v] != seat or w.dist[v] >= w.dist[src]:
            continue
        tv = threat(m, s, v)
        if dst < 0 or w.dist[v] < dd or (w.dist[v] == dd and (tv > dt or (tv == dt and v < dst))):
            dst, dd, dt = v, w.dist[v], tv
    if dst < 0:
        return (L.A_SKIP, 0, 0, 0)
    return (L.A_FORTIFY, int(src), int(dst), int(armies[src] - 1))


__all__ = ["first_own", "fortify_front", "likeliest_attack",
           "move_in_split", "threat", "trade_best"]
