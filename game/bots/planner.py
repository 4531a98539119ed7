"""Planner: a continent planner that garrisons what it holds (compiled bot).

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

from game.bots import attacks as A
from game.bots.kernels import BotWork, census, mass_base, place_garrison, target_continent
from game.protocol import Action4
from game.rules import layout as L
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays

BREAK = 0.6  # least win chance to attack into a continent another player holds
TAKE = 0.5  # ... into the target continent
CARD = 0.6  # ... for the turn's first conquest (it earns a card)
EXPAND = 0.7  # ... anywhere else
FINISH = 0.35  # ... into a player with at most PREY_TERRITORIES territories
PREY_TERRITORIES = 3
ENTRY_WEIGHT = 2.0  # enemy armies an entry territory of a continent weighs in its cost
# The attack rungs (game.bots.attacks): finish a small player (its cards come too), break a
# continent another player holds, take the target, the turn's first conquest, anything else.
_LADDER = ((A.SMALL, FINISH, 4.0), (A.HELD, BREAK, 3.0), (A.TARGET, TAKE, 2.0),
           (A.CARD, CARD, 1.0), (A.ANY, EXPAND, 0.0))


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Where the next `pool` armies go (one in the setup): garrisons of held continents, the
    largest gap first, then the strongest own territory next to an enemy territory of the
    target continent."""
    action = place_garrison(m, s, seat, w, pool)
    if action[0] >= 0:
        return action
    return (L.A_PLACE, mass_base(m, s, seat, w, -1, ENTRY_WEIGHT), int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The next roll by the rungs of _LADDER, or stop; a garrisoned source keeps its garrison."""
    census(m, s, seat, w)
    tc = target_continent(m, s, seat, w, ENTRY_WEIGHT)
    return A.best_attack(m, s, seat, w, _LADDER, A.Aims(-1, -1, tc, PREY_TERRITORIES, 0.0),
                         A.KEEP_GARRISON, A.BY_KEY)
