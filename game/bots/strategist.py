"""Strategist: small continents first, one stack, garrisons, and kills for cards (compiled bot).

It targets the continent with the best bonus for its cost, where every entry territory (one with
a neighbour outside) weighs as much as ENTRY_WEIGHT enemy armies, so it goes for the continents
that are cheap to hold (Australia, South America) before big ones; every border of a continent it
holds is garrisoned with at least 2 armies and the largest adjacent enemy stack (the worst gap
first, at most half of what is left each time), and the rest of its reinforcements go on one
stack: next to a player it can wipe out (its armies and territories times KILL_MARGIN within
reach of that stack; most cards first), else next to the target. Attacks follow priorities: the
prey at a win chance >= PREY_ODDS, a player with at most SMALL territories (>= FINISH), a
continent the leader holds (>= BREAK; the leader: the strongest other player by
`player_strength` when LEAD times our strength), the target (>= TAKE), a continent another
player holds (>= BREAK), the turn's first conquest for its card (>= CARD), then other expansion
(>= EXPAND, not in the first EARLY_ROUNDS rounds, and only when about half the largest enemy
stack next to the conquest would be left there); within a priority the leader's territories
come first, so it gangs up on whoever is running away with the game. A garrisoned source
attacks only with what it need not keep. It moves in all but what the source must keep (a
garrison; else the largest adjacent enemy stack, half of it when the conquest is in the target;
only the dice into a conquered interior), trades a set when it is worth HOLD turns of income,
is forced, or lets it wipe a player out, and marches interior stacks to the front; with none to
march, a border's surplus over its own threat goes to the adjacent border most short of its
threat. It reads only the board, its own cards and the public hand sizes.

The constants below were tuned one at a time against 3x continent, planner and hunter and kept
when they won more games: docs/experiments/2026-11-25-strategist.md.
"""

from __future__ import annotations

import numpy as np

from game.bots import attacks as A
from game.bots.front import march_to_front
from game.bots.kernels import (
    BotWork,
    best_set,
    census,
    enemy_max,
    garrison,
    mass_base,
    place_garrison,
    player_strength,
    set_worth,
    target_continent,
)
from game.protocol import Action4
from game.rules import layout as L
from game.rules.cards import hand_size
from game.rules.jit import rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import reinforcements, trade_compulsory

ENTRY_WEIGHT = 10.0  # enemy armies an entry territory of a continent weighs in its cost
KILL_MARGIN = 1.2  # a player is prey when a stack next to it has this times its armies + lands
PREY_ODDS = 0.3  # least win chance to attack the prey
SMALL, FINISH = 3, 0.35  # ... a player with at most SMALL territories
TAKE = 0.5  # ... into the target continent
BREAK = 0.6  # ... into a continent another player holds
CARD = 0.4  # ... for the turn's first conquest (it earns a card)
EXPAND = 0.7  # ... anywhere else, after the first EARLY_ROUNDS rounds
EARLY_ROUNDS = 4
HOLD = 2  # an optional set is traded when worth this many turns of income
LEAD = 1.25  # a player this many times our strength is the leader whose continents come first
LEAD_TIE = 1.0  # added to an attack's key on the leader: its territories first within a priority


@rule_kernel
def _prey(m: MapArrays, s: StateArrays, seat: int, w: BotWork, extra: int) -> int:
    """A player whose armies and territories (times KILL_MARGIN) our biggest stack next to it
    can pay for with `extra` more armies; most cards first, then the cheapest; -1 if none."""
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
        if stack == 0 or stack - 1 + extra < KILL_MARGIN * need:
            continue
        key = hand_size(s.cards, q) * 100.0 - need
        if key > bkey:
            best, bkey = q, key
    return best


@rule_kernel
def _leader(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> int:
    """The strongest other player when it is LEAD times our strength, else -1. Needs census."""
    player_strength(m, s, w)
    leader, top = -1, 0.0
    for q in range(s.pl.shape[0]):
        if q != seat and s.pl[q, L.P_ALIVE] != 0 and w.strength[q] > top:
            leader, top = q, w.strength[q]
    if top < LEAD * w.strength[seat]:
        return -1
    return leader


@rule_kernel
def place(m: MapArrays, s: StateArrays, seat: int, w: BotWork, pool: int) -> Action4:
    """Where the next `pool` armies go (one in the setup): garrisons of held continents, the
    largest gap first, then the biggest stack next to the prey, else next to the target."""
    action = place_garrison(m, s, seat, w, pool)
    if action[0] >= 0:
        return action
    return (L.A_PLACE, mass_base(m, s, seat, w, _prey(m, s, seat, w, pool), ENTRY_WEIGHT),
            int(pool), 0)


@rule_kernel
def attack(m: MapArrays, s: StateArrays, seat: int, w: BotWork) -> Action4:
    """The next roll, or stop: the prey, a small player, the leader's held continent (ganging
    up on the leader comes before our own target), the target, another held continent, the
    turn's first conquest, then (after the early rounds) expansion that leaves about half the
    largest stack next to the conquest there; the leader's territories first within a rung."""
    census(m, s, seat, w)
    tc = target_continent(m, s, seat, w, ENTRY_WEIGHT)
    prey = _prey(m, s, seat, w, 0)
    expand = A.NEVER if s.sc[L.S_ROUND] <= EARLY_ROUNDS else EXPAND
    leader = _leader(m, s, seat, w)
    ladder = ((A.PREY, PREY_ODDS, 5.0), (A.SMALL, FINISH, 4.0), (A.LEADER_HELD, BREAK, 3.5),
              (A.TARGET, TAKE, 3.0), (A.HELD, BREAK, 2.0), (A.CARD, CARD, 1.0),
              (A.SAFE, expand, 0.0))
    return A.best_attack(m, s, seat, w, ladder, A.Aims(prey, leader, tc, SMALL, LEAD_TIE),
                         A.KEEP_GARRISON, A.BY_KEY)


@rule_kernel
def trade(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, w: BotWork) -> Action4:
    """The set to trade, or stop trading."""
    act = best_set(m, s, rules, seat)
    if act[0] != L.A_TRADE or trade_compulsory(s, rules):
        return act
    worth = set_worth(m, s, rules, act[1], act[2], act[3])
    income = reinforcements(m, s, np.int64(seat))  # int64 as the rule kernels pass it
    if worth >= HOLD * income or _prey(m, s, seat, w, worth + income) >= 0:
        return act
    return (L.A_END_TRADE, 0, 0, 0)


@rule_kernel
def _need(m: MapArrays, s: StateArrays, w: BotWork, t: int) -> int:
    """Armies own t should hold: a held continent's garrison, else the largest enemy stack next
    to it (0 for an interior)."""
    g = garrison(m, s, w, t, -1)
    return g if g > 0 else enemy_max(m, s, t, -1)


@rule_kernel
def fortify(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int, w: BotWork) -> Action4:
    """March the biggest interior stack to the front; with none, shift a border's surplus
    (beyond what its own threat needs) to the adjacent own border most short of its threat."""
    act = march_to_front(m, s, rules, seat, w, False)
    if act[0] != L.A_SKIP:
        return act
    owner, armies = s.owner, s.armies
    census(m, s, seat, w)
    bs, bd, bn, bkey = -1, -1, 0, 0
    for t in range(owner.shape[0]):
        if owner[t] != seat or armies[t] < 2:
            continue
        spare = armies[t] - 1 - _need(m, s, w, t)
        if spare <= 0:
            continue
        for k in range(m.degree[t]):
            u = m.neighbours[t, k]
            if owner[u] != seat:
                continue
            short = _need(m, s, w, np.int64(u)) - armies[u]  # int64 as t above: one compile
            if short <= 0:
                continue
            n = min(spare, short)
            if n > bkey:
                bs, bd, bn, bkey = t, u, n, n
    if bs < 0:
        return (L.A_SKIP, 0, 0, 0)
    return (L.A_FORTIFY, int(bs), int(bd), int(bn))
