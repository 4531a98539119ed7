"""The compiled bots' one march to the front: the biggest interior stack moves toward a border.

The planning bots and the baselines march alike and differ only in which border or step is
"most threatened" and in how ties go (`baseline` chooses; each keeps the moves it always made,
the baselines those of their Python originals in tests/helpers/reference_bots.py).
"""

from __future__ import annotations

import numpy as np

from game.bots.common import FAR
from game.bots.kernels import BotWork, enemy_count, enemy_max
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays


@inline_rule_kernel
def threat(m: MapArrays, s: StateArrays, t: int) -> int:
    """Armies next to t owned by someone else than t's owner."""
    o, total = s.owner[t], 0
    for k in range(m.degree[t]):
        u = m.neighbours[t, k]
        if s.owner[u] != o:
            total += s.armies[u]
    return total


@rule_kernel
def front_distance(m: MapArrays, s: StateArrays, seat: int, w: BotWork,
                   unreached: int) -> None:
    """w.dist[t]: steps from own t to the nearest own border through own territories
    (`unreached` for others and for own territories that cannot reach one)."""
    owner = s.owner
    head, tail = 0, 0
    for t in range(owner.shape[0]):
        w.dist[t] = unreached
        if owner[t] == seat and enemy_count(m, s, t) > 0:
            w.dist[t] = 0
            w.queue[tail] = t
            tail += 1
    while head < tail:
        u = w.queue[head]
        head += 1
        for k in range(m.degree[u]):
            v = m.neighbours[u, k]
            if owner[v] == seat and w.dist[v] == unreached:
                w.dist[v] = w.dist[u] + 1
                w.queue[tail] = v
                tail += 1


@inline_rule_kernel
def _weakest_border(m: MapArrays, s: StateArrays, seat: int, w: BotWork, src: int,
                    baseline: bool) -> int:
    """The border of src's own component whose enemy neighbours most outweigh it (their sum
    with `baseline`, ties to the lower index; else their biggest stack, ties to the first
    found); -1 if the component has none. Marks the component in w.dist."""
    head, tail = 0, 1
    w.queue[0] = src
    mark = -2 - src  # a value no distance takes, nor the unreached mark
    w.dist[src] = mark
    dst, key = -1, 0
    while head < tail:
        u = w.queue[head]
        head += 1
        if enemy_count(m, s, u) > 0:
            v = (threat(m, s, u) if baseline else enemy_max(m, s, u, -1)) - s.armies[u]
            if dst < 0 or v > key or (baseline and v == key and u < dst):
                dst, key = u, v
        for k in range(m.degree[u]):
            x = m.neighbours[u, k]
            if s.owner[x] == seat and w.dist[x] != mark:
                w.dist[x] = mark
                w.queue[tail] = x
                tail += 1
    return dst


@inline_rule_kernel
def _closer_step(m: MapArrays, s: StateArrays, seat: int, w: BotWork, src: int,
                 baseline: bool) -> int:
    """The own neighbour of src nearer a border: with `baseline` the nearest, then the most
    threatened (enemy armies next to it), then the lowest; else the one whose biggest enemy
    stack most outweighs it, 1000 per step nearer first, ties to the first; -1 if none."""
    dst, dd, dt, key = -1, 0, 0, -1e18
    for k in range(m.degree[src]):
        v = m.neighbours[src, k]
        dv = w.dist[v]
        if s.owner[v] != seat or dv < 0 or dv >= w.dist[src]:
            continue
        if baseline:
            tv = threat(m, s, v)
            if dst < 0 or dv < dd or (dv == dd and (tv > dt or (tv == dt and v < dst))):
                dst, dd, dt = v, dv, tv
        else:
            kv = float(enemy_max(m, s, v, -1) - s.armies[v]) - 1000.0 * dv
            if kv > key:
                dst, key = v, kv
    return dst


@inline_rule_kernel  # inlined: `baseline` is a constant at every call
def march_to_front(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, w: BotWork,
                   baseline: bool) -> Action4:
    """The biggest interior stack (ties: the lowest index) moves toward the front: straight to
    the most threatened border it connects to (path rule), else one step closer to the
    nearest border; (A_SKIP, ...) when nothing moves. The baselines' stack may be one that
    reaches no border (it then stays); the planning bots' reaches one."""
    front_distance(m, s, seat, w, FAR if baseline else -1)
    src, big = -1, 1
    for t in range(s.owner.shape[0]):
        if s.owner[t] == seat and w.dist[t] > 0 and s.armies[t] > big:
            src, big = t, s.armies[t]
    if src < 0:
        return (L.A_SKIP, 0, 0, 0)
    if rules[L.R_PATH_FORTIFY] != 0:
        dst = _weakest_border(m, s, seat, w, src, baseline)
    else:
        dst = _closer_step(m, s, seat, w, src, baseline)
    if dst < 0:
        return (L.A_SKIP, 0, 0, 0)
    return (L.A_FORTIFY, int(src), int(dst), int(s.armies[src] - 1))


__all__ = ["front_distance", "march_to_front", "threat"]
