"""Bully: attacks only with a high exact conquest probability, picking on the weakest stacks.

All reinforcements go to the border whose odds against its weakest enemy neighbour become
best; it attacks the likeliest conquest (ties: the weakest defender) when its exact probability
is at least THRESHOLD, splits conquests half and half while the source still faces enemies,
trades the best set at once and marches interior stacks to the front. Compiled (the player is
`game.bots.sparring.BullyBot`); tests/reference_bots.py holds the Python it was written as.
"""

from __future__ import annotations

import numpy as np

from game import layout as L
from game.bots.baseline_kernels import first_own, fortify_front, move_in_split, trade_best
from game.bots.sparring_kernels import Action4, BotWork, enemy_count, odds
from game.jit import rule_kernel
from game.layout import MapArrays, StateArrays

THRESHOLD = 0.7  # exact P(conquest) needed to start or continue an attack


@rule_kernel
def _reinforce(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    owner, armies = s.owner, s.armies
    bt, bp = -1, 0.0
    for t in range(owner.shape[0]):
        if owner[t] != seat or enemy_count(m, s, t) == 0:
            continue
        weakest = 1 << 30
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] != seat and armies[u] < weakest:
                weakest = armies[u]
        p = odds(w, armies[t] + pool, weakest)
        # Python's max over (p, armies, -t): the best odds, then the bigger stack, then the
        # lowest index.
        if bt < 0 or p > bp or (p == bp and armies[t] > armies[bt]):
            bt, bp = t, p
    if bt < 0:
        return (L.A_PLACE, first_own(s, seat), int(pool), 0)
    return (L.A_PLACE, int(bt), int(pool), 0)


@rule_kernel
def _attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
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
            # Python's max over (p, -armies[dst], -dst, src).
            if bs < 0 or p > bp or (p == bp and (
                    armies[d] < armies[bd] or (armies[d] == armies[bd] and (
                        d < bd or (d == bd and a > bs))))):
                bs, bd, bp = a, d, p
    if bs < 0 or bp < THRESHOLD:
        return (L.A_STOP, 0, 0, 0)
    return (L.A_ATTACK, int(bs), int(bd), 0)


@rule_kernel
def bully_decide(m: MapArrays, s: StateArrays, rules: np.ndarray, w: BotWork) -> Action4:
    """Bully's action (kind, a, b, c) for the seat to move."""
    ph = s.sc[L.S_PHASE]
    seat = s.sc[L.S_CURRENT]
    if ph == L.PH_SETUP:
        return _reinforce(m, s, seat, w, 1)
    if ph == L.PH_REINFORCE:
        return _reinforce(m, s, seat, w, s.sc[L.S_POOL])
    if ph == L.PH_TRADE:
        return trade_best(m, s, rules, seat)
    if ph == L.PH_ATTACK:
        return _attack(m, s, seat, w)
    if ph == L.PH_OCCUPY:
        return move_in_split(m, s)
    if ph == L.PH_FORTIFY:
        return fortify_front(m, s, rules, seat, w)
    return (-1, 0, 0, 0)


__all__ = ["THRESHOLD", "bully_decide"]
