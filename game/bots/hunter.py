"""Hunter: gangs up on the leader and harvests weak players' cards (compiled bot).

It rates every player (territories, twice its income, a third of its armies, twice its cards)
and hunts: first a weak player it can finish (at most PREY_TERRITORIES territories) that holds
cards, whose cards it would take and trade again; then the leader, when the leader is clearly
ahead of it, breaking the leader's continents first; otherwise anyone within reach.
Reinforcements all go on its biggest stack next to the prey (else next to any enemy): one
stack that keeps conquering, except that a held continent's border facing a stack twice its size
is topped up first. Attacks: the prey at a win chance >= PREY, a held continent of the leader
at >= BREAK, the turn's first (card-earning) conquest at >= OTHER, anything else at >= EXPAND;
it moves everything into the conquered territory but a held continent's garrison (only the dice
into a conquered interior: the stack stays at the front). An optional
set is traded only when worth HOLD turns of its income: escalating values make waiting cheap,
and an elimination may bring more cards. Interior stacks march to the front.
"""

from __future__ import annotations

import numpy as np

from game.bots import attacks as A
from game.bots.kernels import (
    BotWork,
    best_set,
    census,
    enemy_count,
    enemy_max,
    garrison,
    player_strength,
    set_worth,
    stack_base,
)
from game.protocol import Action4
from game.rules import layout as L
from game.rules.cards import hand_size
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import reinforcements, trade_compulsory

HOLD = 3  # an optional set is traded only when worth this many turns of income
PREY_TERRITORIES = 6  # a player this small is worth finishing for its cards
PREY, BREAK, OTHER = 0.35, 0.45, 0.5  # least win chances to attack the prey, a held
# continent of the leader, the turn's first conquest (it earns a card)
EXPAND = 0.75  # ... anything else


@rule_kernel
def _prey(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> tuple[int, int]:
    """(prey seat, leader seat or -1): a weak card holder, else the clear leader, else -1."""
    census(m, s, seat, w)
    player_strength(m, s, w)
    n = s.pl.shape[0]
    prey, fewest = -1, 1 << 30
    for q in range(n):
        if q == seat or s.pl[q, L.P_ALIVE] == 0 or w.nown[q] > PREY_TERRITORIES:
            continue
        if hand_size(s.cards, q) > 0 and w.nown[q] < fewest:
            prey, fewest = q, w.nown[q]
    leader, top = -1, 0.0
    for q in range(n):
        if q != seat and s.pl[q, L.P_ALIVE] != 0 and w.strength[q] > top:
            leader, top = q, w.strength[q]
    if leader >= 0 and top < 1.25 * w.strength[seat]:
        leader = -1  # nobody is clearly ahead: no need to gang up
    return (prey if prey >= 0 else leader), leader


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Where the next `pool` armies go (one in the setup)."""
    owner, armies = s.owner, s.armies
    prey, _leader = _prey(m, s, seat, w)
    # A held continent's border facing a stack twice its size is topped up first.
    gap_t, gap = -1, 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            g = garrison(m, s, w, t, -1)
            need = g - armies[t]
            if g > 0 and enemy_max(m, s, t, -1) >= 2 * armies[t] and need > gap:
                gap_t, gap = t, need
    if gap_t >= 0:
        return (L.A_PLACE, int(gap_t), int(min(gap, pool)), 0)
    # Else all on the biggest stack next to the prey (or, without prey, next to any enemy):
    # one stack that keeps conquering earns the card and reaches the prey.
    base, _key = stack_base(m, s, seat, prey, -1)
    if base < 0:
        for t in range(owner.shape[0]):
            if owner[t] == seat:
                base = t
                break
    return (L.A_PLACE, int(base), int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The next roll, or stop: the prey, a held continent of the leader (of anyone without
    one), the turn's first conquest, anything else; a garrisoned source keeps its garrison."""
    prey, leader = _prey(m, s, seat, w)
    ladder = ((A.PREY, PREY, 3.0), (A.LEADER_HELD if leader >= 0 else A.HELD, BREAK, 2.0),
              (A.CARD, OTHER, 1.0), (A.ANY, EXPAND, 0.0))
    return A.best_attack(m, s, seat, w, ladder, A.Aims(prey, leader, -1, -1, 0.0),
                         A.KEEP_GARRISON, A.BY_KEY)


@rule_kernel
def move_in(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """How many armies move into the territory just conquered."""
    src = s.sc[L.S_SRC]
    lo, hi = s.sc[L.S_MIN_MOVE], s.armies[src] - 1
    census(m, s, seat, w)
    if enemy_count(m, s, s.sc[L.S_DST]) == 0:
        return (L.A_MOVE, int(lo), 0, 0)  # a conquered interior: the stack stays at the front
    keep = garrison(m, s, w, src, -1)
    return (L.A_MOVE, int(min(hi, max(lo, hi - keep))), 0, 0)


@rule_kernel
def trade(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int) -> Action4:
    """The set to trade, or stop trading."""
    act = best_set(m, s, rules, seat)
    if act[0] != L.A_TRADE or trade_compulsory(s, rules):
        return act
    income = reinforcements(m, s, np.int64(seat))  # int64 as the rule kernels pass it
    if set_worth(m, s, rules, act[1], act[2], act[3]) >= HOLD * income:
        return act
    return (L.A_END_TRADE, 0, 0, 0)
