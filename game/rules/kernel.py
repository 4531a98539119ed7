"""The rules as one compiled state machine shared by the Python game loop and compiled loops.

`setup` deals a game into the state arrays of game/rules/layout.py; `step` applies one decision
of the seat to move, returns an error code (leaving the state untouched when illegal), and then
advances through every point where the rules leave no choice, so that the state always waits on a
real decision or is over. Randomness comes only from the `numpy.random.Generator` passed in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from game.rules import layout as L
from game.rules.cards import is_set, set_value
from game.rules.dice import battle_losses, roll_sorted
from game.rules.jit import allocating_kernel, inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import (
    bonus_open,
    can_attack,
    can_fortify,
    connected_own,
    mission_done,
    n_owned,
    occupy_bounds,
    owns_continent,
    placements,
    reinforcements,
    trade_compulsory,
)
from game.rules.turns import (
    _advance_setup,
    _after_occupy,
    _check_end,
    _eliminate,
    _end_turn,
    _settle,
)


@inline_rule_kernel
def give_mission(pl: np.ndarray, q: int, mid: int) -> None:
    """Seat q's mission from the card drawn, mid: a destroy-colour card naming q itself or an
    absent seat stands for 24 territories (the one home of that rule: the deal and
    `game.rules.determinize` both draw through it)."""
    pl[q, L.P_TARGET] = -1
    if mid >= L.M_DESTROY:
        target = mid - L.M_DESTROY
        if target == q or target >= pl.shape[0]:
            pl[q, L.P_MISSION] = L.M_24
        else:
            pl[q, L.P_MISSION] = mid
            pl[q, L.P_TARGET] = target
    else:
        pl[q, L.P_MISSION] = mid


@allocating_kernel
def setup(m: MapArrays, s: StateArrays, rules: np.ndarray,
          rng: np.random.Generator) -> np.ndarray:
    """Deal a new game into s: random seat order, territories, one army each, missions."""
    owner, armies, pl, sc = s.owner, s.armies, s.pl, s.sc
    n_players = pl.shape[0]
    n_terr = owner.shape[0]
    perm = np.arange(n_players)
    for i in range(n_players - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        perm[i], perm[j] = perm[j], perm[i]
    order = np.arange(n_terr)
    for i in range(n_terr - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    for k in range(n_terr):
        owner[order[k]] = k % n_players
        armies[order[k]] = 1
    s.cards[:] = L.CARD_DECK
    pl[:, :] = 0
    sc[:] = 0
    s.ev[:] = 0
    start = L.STARTING_ARMIES[n_players]
    for q in range(n_players):
        held = n_owned(owner, np.int32(q))  # int32 as a conquest passes the owner: one compile
        pl[q, L.P_ALIVE] = 1
        pl[q, L.P_MISSION] = -1
        pl[q, L.P_TARGET] = -1
        pl[q, L.P_RECEIVED] = held
        pl[q, L.P_SETUP_LEFT] = max(0, start - held)
    if rules[L.R_MISSIONS] != 0:
        deck = np.arange(L.N_MISSIONS)
        for q in range(n_players):
            j = q + int(rng.random() * (L.N_MISSIONS - q))
            deck[q], deck[j] = deck[j], deck[q]
            give_mission(pl, q, deck[q])
    sc[L.S_WINNER] = -1
    sc[L.S_ELIMINATED] = -1
    sc[L.S_SRC] = -1
    sc[L.S_DST] = -1
    s.ev[L.EV_BONUS_T] = -1
    s.ev[L.EV_DRAWN] = -1
    sc[L.S_PHASE] = L.PH_SETUP
    sc[L.S_CURRENT] = n_players - 1  # _advance_setup moves to the first seat with armies left
    _advance_setup(m, s, rules, rng)
    return perm


@inline_rule_kernel
def _attack(m: MapArrays, s: StateArrays, rng: np.random.Generator, src: int, dst: int,
            dice: int) -> int:
    owner, armies, pl, sc, ev = s.owner, s.armies, s.pl, s.sc, s.ev
    n_terr = owner.shape[0]
    cur = sc[L.S_CURRENT]
    if src < 0 or src >= n_terr or dst < 0 or dst >= n_terr:
        return L.E_TERRITORY
    if owner[src] != cur:
        return L.E_NOT_OWNER
    if owner[dst] == cur:
        return L.E_OWN_TARGET
    if not m.adjacency[src, dst]:
        return L.E_NOT_ADJACENT
    if armies[src] < 2:
        return L.E_TOO_FEW
    most = min(L.ATTACK_DICE, armies[src] - 1)
    if dice == 0:
        dice = most
    if dice < 1 or dice > most:
        return L.E_DICE
    n_def = min(L.DEFEND_DICE, armies[dst])
    att, dfn = L.EV_ROLL, L.EV_ROLL + L.ATTACK_DICE
    for i in range(L.ATTACK_DICE + L.DEFEND_DICE):
        ev[att + i] = 0
    roll_sorted(rng, dice, ev, att)
    roll_sorted(rng, n_def, ev, dfn)
    la, ld = battle_losses(ev[att:dfn], dice, ev[dfn:dfn + L.DEFEND_DICE], n_def)
    ev[L.EV_LOSS_A] = la
    ev[L.EV_LOSS_D] = ld
    defender = owner[dst]
    armies[src] -= la
    armies[dst] -= ld
    pl[cur, L.P_LOST] += la
    pl[defender, L.P_LOST] += ld
    if armies[dst] == 0:
        owner[dst] = cur
        sc[L.S_CONQUERED] = 1
        pl[cur, L.P_CONQUESTS] += 1
        sc[L.S_SRC] = src
        sc[L.S_DST] = dst
        sc[L.S_MIN_MOVE] = dice
        sc[L.S_PHASE] = L.PH_OCCUPY
        if n_owned(owner, defender) == 0:
            _eliminate(s, defender, cur)
    return L.E_OK


@rule_kernel
def _trade(m: MapArrays, s: StateArrays, rules: np.ndarray, c1: int, c2: int, c3: int) -> int:
    owner, cards, sc = s.owner, s.cards, s.sc
    n_terr = owner.shape[0]
    n_cards = cards.shape[0]
    cur = sc[L.S_CURRENT]
    if c1 == c2 or c2 == c3 or c1 == c3:
        return L.E_CARD
    for c in (c1, c2, c3):
        if c < 0 or c >= n_cards or cards[c] != cur:
            return L.E_CARD
    k1, k2, k3 = m.card_kind[c1], m.card_kind[c2], m.card_kind[c3]
    if not is_set(k1, k2, k3):
        return L.E_NOT_SET
    value = set_value(rules, sc[L.S_TRADES], k1, k2, k3)
    sc[L.S_TRADES] += 1
    sc[L.S_POOL] += value
    s.ev[L.EV_TRADE_ARMIES] = value
    s.ev[L.EV_BONUS_T] = -1
    for c in (c1, c2, c3):
        cards[c] = L.CARD_DISCARD
    if bonus_open(s, rules):
        for c in (c1, c2, c3):
            if c < n_terr and owner[c] == cur:
                s.armies[c] += L.CARD_BONUS
                s.pl[cur, L.P_RECEIVED] += L.CARD_BONUS
                sc[L.S_BONUS_USED] = 1
                s.ev[L.EV_BONUS_T] = c
                break
    return L.E_OK


@inline_rule_kernel
def _apply(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator, kind: int,
           a: int, b: int, c: int) -> int:
    owner, armies, sc = s.owner, s.armies, s.sc
    n_terr = owner.shape[0]
    ph = sc[L.S_PHASE]
    cur = sc[L.S_CURRENT]
    if ph == L.PH_OVER:
        return L.E_OVER
    if ph == L.PH_SETUP or ph == L.PH_REINFORCE:
        if kind != L.A_PLACE:
            return L.E_PHASE
        if a < 0 or a >= n_terr:
            return L.E_TERRITORY
        if owner[a] != cur:
            return L.E_NOT_OWNER
        most = 1 if ph == L.PH_SETUP else sc[L.S_POOL]
        if b < 1 or b > most:
            return L.E_COUNT
        armies[a] += b
        s.pl[cur, L.P_RECEIVED] += b
        if ph == L.PH_SETUP:
            s.pl[cur, L.P_SETUP_LEFT] -= 1
            # An initial army can complete a mission (18 territories with 2+ armies).
            if rules[L.R_MISSIONS] != 0 and _check_end(m, s, rules):
                return L.E_OK
            _advance_setup(m, s, rules, rng)
        else:
            sc[L.S_POOL] -= b
        return L.E_OK
    if ph == L.PH_TRADE:
        if kind == L.A_END_TRADE:
            if trade_compulsory(s, rules):
                return L.E_COMPULSORY
            sc[L.S_PHASE] = L.PH_REINFORCE
            return L.E_OK
        if kind != L.A_TRADE:
            return L.E_PHASE
        return _trade(m, s, rules, a, b, c)
    if ph == L.PH_ATTACK:
        if kind == L.A_STOP:
            sc[L.S_PHASE] = L.PH_FORTIFY
            return L.E_OK
        if kind != L.A_ATTACK:
            return L.E_PHASE
        return _attack(m, s, rng, a, b, c)
    if ph == L.PH_OCCUPY:
        if kind != L.A_MOVE:
            return L.E_PHASE
        lo, hi = occupy_bounds(s)
        if a < lo or a > hi:
            return L.E_MOVE_BOUNDS
        armies[sc[L.S_SRC]] -= a
        armies[sc[L.S_DST]] += a
        _after_occupy(s, rules)
        return L.E_OK
    if ph == L.PH_FORTIFY:
        if kind == L.A_SKIP:
            _end_turn(m, s, rules, rng)
            return L.E_OK
        if kind != L.A_FORTIFY:
            return L.E_PHASE
        if a < 0 or a >= n_terr or b < 0 or b >= n_terr or a == b:
            return L.E_TERRITORY
        if owner[a] != cur or owner[b] != cur:
            return L.E_NOT_OWNER
        if rules[L.R_PATH_FORTIFY] != 0:
            if not connected_own(m, owner, armies, cur, a, b):
                return L.E_NOT_CONNECTED
        elif not m.adjacency[a, b]:
            return L.E_NOT_CONNECTED
        if c < 1 or c > armies[a] - 1:
            return L.E_COUNT
        armies[a] -= c
        armies[b] += c
        _end_turn(m, s, rules, rng)
        return L.E_OK
    return L.E_PHASE


@rule_kernel
def step(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator, kind: int,
         a: int, b: int, c: int) -> int:
    """Apply one decision of the seat to move; on an error code the state is unchanged."""
    err = _apply(m, s, rules, rng, kind, a, b, c)
    if err == L.E_OK and s.sc[L.S_PHASE] != L.PH_SETUP:
        _settle(m, s, rules, rng)
    return err


@allocating_kernel  # opening the box needs numba's runtime; step itself runs without it
def step_boxed(m: MapArrays, s: StateArrays, rules: np.ndarray, box: Any, kind: int, a: int,
               b: int, c: int) -> int:
    """`step` with the generator in a `game.rules.jit.RngBox` (what the Python game loop calls)."""
    return step(m, s, rules, box.rng, kind, a, b, c)


__all__ = [
    "bonus_open",
    "can_attack",
    "can_fortify",
    "connected_own",
    "mission_done",
    "n_owned",
    "occupy_bounds",
    "owns_continent",
    "placements",
    "reinforcements",
    "setup",
    "step",
    "step_boxed",
    "trade_compulsory",
]
