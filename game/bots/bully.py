"""Bully: attacks only with a high exact conquest probability, picking on the weakest stacks.

All reinforcements go to the border whose odds against its weakest enemy neighbour become
best; it attacks the likeliest conquest (ties: the weakest defender) when its exact probability
is at least THRESHOLD, splits conquests half and half while the source still faces enemies,
trades the best set at once and marches interior stacks to the front. Compiled (the player is
`game.bots.table.BullyBot`); tests/helpers/reference_bots.py holds the Python it was written as.
"""

from __future__ import annotations

from game.bots.baseline_kernels import first_own, likeliest_attack
from game.bots.kernels import BotWork, enemy_count, enemy_min, odds
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays

THRESHOLD = 0.7  # exact P(conquest) needed to start or continue an attack


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Everything where the odds against the weakest neighbour become best."""
    owner, armies = s.owner, s.armies
    bt, bp = -1, 0.0
    for t in range(owner.shape[0]):
        if owner[t] != seat or enemy_count(m, s, t) == 0:
            continue
        weakest = enemy_min(m, s, t)
        p = odds(w, armies[t] + pool, weakest)
        # Python's max over (p, armies, -t): the best odds, then the bigger stack, then the
        # lowest index.
        if bt < 0 or p > bp or (p == bp and armies[t] > armies[bt]):
            bt, bp = t, p
    if bt < 0:
        return (L.A_PLACE, first_own(s, seat), int(pool), 0)
    return (L.A_PLACE, int(bt), int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The likeliest conquest (ties: the weakest defender) at odds >= THRESHOLD."""
    return likeliest_attack(m, s, seat, w, THRESHOLD, True)


__all__ = ["THRESHOLD", "attack", "place"]
