"""Planner: a continent planner that garrisons what it holds (compiled sparring bot).

It picks the continent whose conquest is cheapest for its bonus (enemy armies, territories to
take and entries to defend, against the bonus), masses its reinforcements on the strongest own
territory next to it and takes it. Every border of a continent it holds gets a garrison of at
least 2 armies and as many as the largest enemy stack next to it, placed by need: the worst gap
first, at most half of the armies left each time, re-scored after each placement, so
reinforcements split between short borders and the attack base. Attacks follow priorities:
finish off a player with at most PREY_TERRITORIES territories (>= FINISH: its cards come
too), break a continent another player holds (win chance >= BREAK), take the target continent
(>= TAKE), one card-earning conquest a turn (>= CARD), then other expansion (>= EXPAND); a
garrisoned source attacks only with what it need not keep. It moves into a conquered territory
what the source need not keep (only the dice into an interior one). Interior stacks march to
the front. It trades a set as soon as it has one (holding them until the hand was full was weaker:
docs/experiments/2026-11-24-sparring-bots.md).
"""

from __future__ import annotations

from game import layout as L
from game.bots.sparring_kernels import (
    Action4,
    BotWork,
    census,
    edge_base,
    garrison,
    garrison_gap,
    odds,
    target_continent,
)
from game.jit import rule_kernel
from game.layout import MapArrays, StateArrays

BREAK = 0.6  # least win chance to attack into a continent another player holds
TAKE = 0.5  # ... into the target continent
CARD = 0.6  # ... for the turn's first conquest (it earns a card)
EXPAND = 0.7  # ... anywhere else
FINISH = 0.35  # ... into a player with at most PREY_TERRITORIES territories
PREY_TERRITORIES = 3
ENTRY_WEIGHT = 2.0  # enemy armies an entry territory of a continent weighs in its cost


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Where the next `pool` armies go (one in the setup)."""
    owner, armies = s.owner, s.armies
    census(m, s, seat, w)
    # 1. Garrisons of held continents, the largest gap first.
    gap_t, n = garrison_gap(m, s, seat, w, pool)
    if gap_t >= 0:
        return (L.A_PLACE, int(gap_t), int(n), 0)
    # 2. The strongest own territory next to an enemy territory of the target continent.
    tc = target_continent(m, s, seat, w, ENTRY_WEIGHT)
    base, best = -1, -1
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] != seat and m.continent_of[u] == tc:
                if armies[t] > best:
                    base, best = t, armies[t]
                break
    if base < 0:
        # 3. The border stack with the biggest edge over its weakest enemy neighbour.
        base = edge_base(m, s, seat)
    return (L.A_PLACE, int(base), int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The next roll, or stop."""
    owner, armies = s.owner, s.armies
    census(m, s, seat, w)
    tc = target_continent(m, s, seat, w, ENTRY_WEIGHT)
    card_open = s.sc[L.S_CONQUERED] == 0
    bs, bd, bkey = -1, -1, -1.0
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        for k in range(m.degree[a]):
            d = m.neighbours[a, k]
            if owner[d] == seat:
                continue
            stack = armies[a] - garrison(m, s, w, a, d)
            if stack < 2:
                continue
            p = odds(w, stack, armies[d])
            c = m.continent_of[d]
            prio = -1
            if w.nown[owner[d]] <= PREY_TERRITORIES and p >= FINISH:
                prio = 4  # a player this small is finished off for its cards
            elif w.holder[c] == owner[d] and p >= BREAK:
                prio = 3  # break a continent another player holds
            elif c == tc and p >= TAKE:
                prio = 2
            elif card_open and p >= CARD:
                prio = 1
            elif p >= EXPAND:
                prio = 0
            if prio < 0:
                continue
            key = prio * 10.0 + p
            if key > bkey:
                bs, bd, bkey = a, d, key
    if bs < 0:
        return (L.A_STOP, 0, 0, 0)
    return (L.A_ATTACK, int(bs), int(bd), 0)
