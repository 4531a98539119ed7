"""The rules as one compiled state machine shared by the Python game loop and compiled loops.

`setup` deals a game into the five state arrays of game/layout.py; `step` applies one decision of
the seat to move, returns an error code (leaving the state untouched when illegal), and then
advances through every point where the rules leave no choice, so that the state always waits on a
real decision or is over. Randomness comes only from the `numpy.random.Generator` passed in.
"""

from __future__ import annotations

import numpy as np

from game.cards import card_kind, is_set, set_value
from game.dice import battle_losses, roll_sorted
from game.jit import allocating_kernel, rule_kernel
from game.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_FORTIFY,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
    CARD_DECK,
    CARD_DISCARD,
    E_CARD,
    E_COMPULSORY,
    E_COUNT,
    E_DICE,
    E_MOVE_BOUNDS,
    E_NOT_ADJACENT,
    E_NOT_CONNECTED,
    E_NOT_OWNER,
    E_NOT_SET,
    E_OK,
    E_OVER,
    E_OWN_TARGET,
    E_PHASE,
    E_TERRITORY,
    E_TOO_FEW,
    M_24,
    M_DESTROY,
    N_MISSIONS,
    P_ALIVE,
    P_CONQUESTS,
    P_LOST,
    P_MISSION,
    P_RECEIVED,
    P_SETUP_LEFT,
    P_TARGET,
    PH_ATTACK,
    PH_FORTIFY,
    PH_OCCUPY,
    PH_OVER,
    PH_REINFORCE,
    PH_SETUP,
    PH_TRADE,
    R_MISSIONS,
    R_PATH_FORTIFY,
    S_BONUS_T,
    S_BONUS_USED,
    S_CONQUERED,
    S_CURRENT,
    S_DRAWN,
    S_DST,
    S_ELIMINATED,
    S_LOSS_A,
    S_LOSS_D,
    S_MIN_MOVE,
    S_PHASE,
    S_POOL,
    S_ROLL,
    S_SRC,
    S_TRADE_ARMIES,
    S_TRADES,
    S_WINNER,
    STARTING_ARMIES,
)
from game.queries import (
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
from game.turns import _advance_setup, _after_occupy, _check_end, _eliminate, _end_turn, _settle


@allocating_kernel
def setup(m, s, rules: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Deal a new game into s: random seat order, territories, one army each, missions."""
    owner, armies, cards, pl, sc = s
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
    cards[:] = CARD_DECK
    pl[:, :] = 0
    sc[:] = 0
    start = STARTING_ARMIES[n_players]
    for q in range(n_players):
        held = n_owned(owner, q)
        pl[q, P_ALIVE] = 1
        pl[q, P_MISSION] = -1
        pl[q, P_TARGET] = -1
        pl[q, P_RECEIVED] = held
        pl[q, P_SETUP_LEFT] = max(0, start - held)
    if rules[R_MISSIONS] != 0:
        deck = np.arange(N_MISSIONS)
        for q in range(n_players):
            j = q + int(rng.random() * (N_MISSIONS - q))
            deck[q], deck[j] = deck[j], deck[q]
            mid = deck[q]
            if mid >= M_DESTROY:
                target = mid - M_DESTROY
                if target == q or target >= n_players:
                    pl[q, P_MISSION] = M_24
                else:
                    pl[q, P_MISSION] = mid
                    pl[q, P_TARGET] = target
            else:
                pl[q, P_MISSION] = mid
    sc[S_WINNER] = -1
    sc[S_ELIMINATED] = -1
    sc[S_BONUS_T] = -1
    sc[S_DRAWN] = -1
    sc[S_SRC] = -1
    sc[S_DST] = -1
    sc[S_PHASE] = PH_SETUP
    sc[S_CURRENT] = n_players - 1  # _advance_setup moves to the first seat with armies left
    _advance_setup(m, s, rules, rng)
    return perm


@rule_kernel
def _attack(m, s, rng: np.random.Generator, src: int, dst: int, dice: int) -> int:  # type: ignore[no-untyped-def]
    adj = m[2]
    owner, armies, pl, sc = s[0], s[1], s[3], s[4]
    n_terr = owner.shape[0]
    cur = sc[S_CURRENT]
    if src < 0 or src >= n_terr or dst < 0 or dst >= n_terr:
        return E_TERRITORY
    if owner[src] != cur:
        return E_NOT_OWNER
    if owner[dst] == cur:
        return E_OWN_TARGET
    if not adj[src, dst]:
        return E_NOT_ADJACENT
    if armies[src] < 2:
        return E_TOO_FEW
    most = min(3, armies[src] - 1)
    if dice == 0:
        dice = most
    if dice < 1 or dice > most:
        return E_DICE
    n_def = min(2, armies[dst])
    for i in range(5):
        sc[S_ROLL + i] = 0
    roll_sorted(rng, dice, sc, S_ROLL)
    roll_sorted(rng, n_def, sc, S_ROLL + 3)
    la, ld = battle_losses(sc[S_ROLL:S_ROLL + 3], dice, sc[S_ROLL + 3:S_ROLL + 5], n_def)
    sc[S_LOSS_A] = la
    sc[S_LOSS_D] = ld
    defender = owner[dst]
    armies[src] -= la
    armies[dst] -= ld
    pl[cur, P_LOST] += la
    pl[defender, P_LOST] += ld
    if armies[dst] == 0:
        owner[dst] = cur
        sc[S_CONQUERED] = 1
        pl[cur, P_CONQUESTS] += 1
        sc[S_SRC] = src
        sc[S_DST] = dst
        sc[S_MIN_MOVE] = dice
        sc[S_PHASE] = PH_OCCUPY
        if n_owned(owner, defender) == 0:
            _eliminate(s, defender, cur)
    return E_OK


@rule_kernel
def _trade(m, s, rules: np.ndarray, c1: int, c2: int, c3: int) -> int:  # type: ignore[no-untyped-def]
    owner, armies, cards, pl, sc = s
    n_terr = owner.shape[0]
    n_cards = cards.shape[0]
    cur = sc[S_CURRENT]
    if c1 == c2 or c2 == c3 or c1 == c3:
        return E_CARD
    for c in (c1, c2, c3):
        if c < 0 or c >= n_cards or cards[c] != cur:
            return E_CARD
    k1, k2, k3 = card_kind(c1, n_terr), card_kind(c2, n_terr), card_kind(c3, n_terr)
    if not is_set(k1, k2, k3):
        return E_NOT_SET
    value = set_value(rules, sc[S_TRADES], k1, k2, k3)
    sc[S_TRADES] += 1
    sc[S_POOL] += value
    sc[S_TRADE_ARMIES] = value
    sc[S_BONUS_T] = -1
    for c in (c1, c2, c3):
        cards[c] = CARD_DISCARD
    if sc[S_BONUS_USED] == 0:
        for c in (c1, c2, c3):
            if c < n_terr and owner[c] == cur:
                armies[c] += 2
                pl[cur, P_RECEIVED] += 2
                sc[S_BONUS_USED] = 1
                sc[S_BONUS_T] = c
                break
    return E_OK


@rule_kernel
def _apply(m, s, rules: np.ndarray, rng: np.random.Generator, kind: int, a: int, b: int,  # type: ignore[no-untyped-def]
           c: int) -> int:
    owner, armies, cards, pl, sc = s
    n_terr = owner.shape[0]
    ph = sc[S_PHASE]
    cur = sc[S_CURRENT]
    if ph == PH_OVER:
        return E_OVER
    if ph == PH_SETUP or ph == PH_REINFORCE:
        if kind != A_PLACE:
            return E_PHASE
        if a < 0 or a >= n_terr:
            return E_TERRITORY
        if owner[a] != cur:
            return E_NOT_OWNER
        most = 1 if ph == PH_SETUP else sc[S_POOL]
        if b < 1 or b > most:
            return E_COUNT
        armies[a] += b
        pl[cur, P_RECEIVED] += b
        if ph == PH_SETUP:
            pl[cur, P_SETUP_LEFT] -= 1
            # An initial army can complete a mission (18 territories with 2+ armies).
            if rules[R_MISSIONS] != 0 and _check_end(m, s, rules):
                return E_OK
            _advance_setup(m, s, rules, rng)
        else:
            sc[S_POOL] -= b
        return E_OK
    if ph == PH_TRADE:
        if kind == A_END_TRADE:
            if trade_compulsory(s):
                return E_COMPULSORY
            sc[S_PHASE] = PH_REINFORCE
            return E_OK
        if kind != A_TRADE:
            return E_PHASE
        return _trade(m, s, rules, a, b, c)
    if ph == PH_ATTACK:
        if kind == A_STOP:
            sc[S_PHASE] = PH_FORTIFY
            return E_OK
        if kind != A_ATTACK:
            return E_PHASE
        return _attack(m, s, rng, a, b, c)
    if ph == PH_OCCUPY:
        if kind != A_MOVE:
            return E_PHASE
        lo, hi = occupy_bounds(s)
        if a < lo or a > hi:
            return E_MOVE_BOUNDS
        armies[sc[S_SRC]] -= a
        armies[sc[S_DST]] += a
        _after_occupy(s)
        return E_OK
    if ph == PH_FORTIFY:
        if kind == A_SKIP:
            _end_turn(m, s, rules, rng)
            return E_OK
        if kind != A_FORTIFY:
            return E_PHASE
        if a < 0 or a >= n_terr or b < 0 or b >= n_terr or a == b:
            return E_TERRITORY
        if owner[a] != cur or owner[b] != cur:
            return E_NOT_OWNER
        if rules[R_PATH_FORTIFY] != 0:
            if not connected_own(m, owner, armies, cur, a, b):
                return E_NOT_CONNECTED
        elif not m[2][a, b]:
            return E_NOT_CONNECTED
        if c < 1 or c > armies[a] - 1:
            return E_COUNT
        armies[a] -= c
        armies[b] += c
        _end_turn(m, s, rules, rng)
        return E_OK
    return E_PHASE


@rule_kernel
def step(m, s, rules: np.ndarray, rng: np.random.Generator, kind: int, a: int, b: int,  # type: ignore[no-untyped-def]
         c: int) -> int:
    """Apply one decision of the seat to move; on an error code the state is unchanged."""
    err = _apply(m, s, rules, rng, kind, a, b, c)
    if err == E_OK and s[4][S_PHASE] != PH_SETUP:
        _settle(m, s, rules, rng)
    return err


__all__ = [
    "can_attack", "can_fortify", "connected_own", "mission_done", "n_owned", "occupy_bounds",
    "owns_continent", "placements", "reinforcements", "setup", "step", "trade_compulsory",
]
