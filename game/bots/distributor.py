"""Distributor: spreads its armies evenly over the front and attacks where it is clearly ahead.

Reinforcements raise the thinnest border to the level of the next thinnest; it attacks the
likeliest conquest when its exact probability is at least THRESHOLD, splits conquests half and
half while the source still faces enemies, marches interior stacks to the front and otherwise
evens out the most unequal pair of adjacent own territories. Compiled (the player is
`game.bots.table.DistributorBot`); tests/helpers/reference_bots.py holds the Python it was
written as.
"""

from __future__ import annotations

import numpy as np

from game.bots.baseline_kernels import likeliest_attack
from game.bots.front import march_to_front
from game.bots.kernels import BotWork, enemy_count
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays

THRESHOLD = 0.6  # exact P(conquest) needed to attack


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, pool: int) -> Action4:
    """Raise the thinnest border to the level of the next thinnest."""
    owner, armies = s.owner, s.armies
    front = False
    for t in range(owner.shape[0]):
        if owner[t] == seat and enemy_count(m, s, t) > 0:
            front = True
            break
    # The thinnest of the front (all own territories without one), ties to the lowest index,
    # and the next level above it.
    low_t, low, nxt = -1, 0, -1
    for t in range(owner.shape[0]):
        if owner[t] != seat or (front and enemy_count(m, s, t) == 0):
            continue
        a = armies[t]
        if low_t < 0:
            low_t, low = t, a
        elif a < low:
            low_t, low, nxt = t, a, low
        elif a > low and (nxt < 0 or a < nxt):
            nxt = a
    if nxt < 0:
        nxt = low + pool
    return (L.A_PLACE, int(low_t), int(max(1, min(pool, nxt - low))), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The likeliest conquest at odds >= THRESHOLD."""
    return likeliest_attack(m, s, seat, w, THRESHOLD, False)


@rule_kernel
def fortify(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, w: BotWork) -> Action4:
    """Interior stacks to the front, else even out the most unequal adjacent pair."""
    act = march_to_front(m, s, rules, seat, w, True)
    if act[0] != L.A_SKIP:
        return act
    owner, armies = s.owner, s.armies
    bt, bn, gap = -1, -1, 2
    for t in range(owner.shape[0]):
        if owner[t] != seat or enemy_count(m, s, t) == 0:
            continue
        for k in range(m.degree[t]):
            n = m.neighbours[t, k]
            if owner[n] == seat and armies[t] - armies[n] >= gap:  # >=: the last such pair
                bt, bn, gap = t, n, armies[t] - armies[n]
    if bt < 0:
        return (L.A_SKIP, 0, 0, 0)
    return (L.A_FORTIFY, int(bt), int(bn), int(gap // 2))


__all__ = ["THRESHOLD", "attack", "fortify", "place"]
