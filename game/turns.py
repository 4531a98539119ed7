"""Turn transitions: setup order, turn start and end, cards drawn, eliminations, game end."""

from __future__ import annotations

import numpy as np

from game.cards import hand_size, has_set
from game.jit import rule_kernel
from game.layout import (
    CARD_DECK,
    CARD_DISCARD,
    M_24,
    M_DESTROY,
    P_ALIVE,
    P_ELIM_ORDER,
    P_ELIMINATIONS,
    P_MISSION,
    P_SETUP_LEFT,
    P_TARGET,
    PH_ATTACK,
    PH_FORTIFY,
    PH_OCCUPY,
    PH_OVER,
    PH_REINFORCE,
    PH_TRADE,
    R_CAP,
    R_MISSIONS,
    S_BONUS_USED,
    S_CAPPED,
    S_CONQUERED,
    S_CURRENT,
    S_DRAWN,
    S_DST,
    S_ELIMINATED,
    S_IN_ATTACK,
    S_MIN_MOVE,
    S_N_ELIM,
    S_PHASE,
    S_POOL,
    S_ROUND,
    S_SRC,
    S_TURNS,
    S_WINNER,
)
from game.queries import (
    can_attack,
    can_fortify,
    mission_done,
    occupy_bounds,
    reinforcements,
)


@rule_kernel
def _finish(s, winner: int) -> None:  # type: ignore[no-untyped-def]
    sc = s[4]
    if sc[S_PHASE] == PH_OCCUPY:
        # Won on a conquest: move the minimum in so the final board is a legal position.
        s[1][sc[S_SRC]] -= sc[S_MIN_MOVE]
        s[1][sc[S_DST]] += sc[S_MIN_MOVE]
    sc[S_WINNER] = winner
    sc[S_PHASE] = PH_OVER


@rule_kernel
def _check_end(m, s, rules: np.ndarray) -> bool:  # type: ignore[no-untyped-def]
    """End the game if one seat is left or, with missions, a mission is complete."""
    pl, sc = s[3], s[4]
    n_players = pl.shape[0]
    if n_players - sc[S_N_ELIM] == 1:
        for q in range(n_players):
            if pl[q, P_ALIVE] == 1:
                _finish(s, q)
                return True
    if rules[R_MISSIONS] != 0:
        # The seat to move is checked first: its action changed the position.
        cur = sc[S_CURRENT]
        for i in range(n_players):
            q = (cur + i) % n_players
            if pl[q, P_ALIVE] == 1 and mission_done(m, s, q):
                _finish(s, q)
                return True
    return False


@rule_kernel
def _begin_turn(m, s, seat: int) -> None:  # type: ignore[no-untyped-def]
    cards, sc = s[2], s[4]
    sc[S_CURRENT] = seat
    sc[S_CONQUERED] = 0
    sc[S_BONUS_USED] = 0
    sc[S_IN_ATTACK] = 0
    sc[S_TURNS] += 1
    sc[S_POOL] = reinforcements(m, s, seat)
    sc[S_PHASE] = PH_TRADE if has_set(cards, seat, s[0].shape[0]) else PH_REINFORCE


@rule_kernel
def _draw_card(s, seat: int, rng: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    cards, sc = s[2], s[4]
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == CARD_DECK:
            n += 1
    if n == 0:
        # The deck ran out: traded cards are reshuffled into it.
        for c in range(cards.shape[0]):
            if cards[c] == CARD_DISCARD:
                cards[c] = CARD_DECK
                n += 1
    sc[S_DRAWN] = -1
    if n == 0:
        return
    # A uniform draw among the cards in the deck is the top card of a shuffled deck.
    k = int(rng.random() * n)
    for c in range(cards.shape[0]):
        if cards[c] == CARD_DECK:
            if k == 0:
                cards[c] = seat
                sc[S_DRAWN] = c
                return
            k -= 1


@rule_kernel
def _end_turn(m, s, rules: np.ndarray, rng: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    pl, sc = s[3], s[4]
    cur = sc[S_CURRENT]
    if sc[S_CONQUERED] != 0:
        _draw_card(s, cur, rng)
    else:
        sc[S_DRAWN] = -1
    n_players = pl.shape[0]
    nxt = cur
    for i in range(1, n_players + 1):
        q = (cur + i) % n_players
        if pl[q, P_ALIVE] == 1:
            nxt = q
            break
    if nxt <= cur:
        sc[S_ROUND] += 1
        if sc[S_ROUND] > rules[R_CAP]:
            sc[S_CAPPED] = 1
            sc[S_PHASE] = PH_OVER
            return
    _begin_turn(m, s, nxt)


@rule_kernel
def _eliminate(s, victim: int, by: int) -> None:  # type: ignore[no-untyped-def]
    cards, pl, sc = s[2], s[3], s[4]
    pl[victim, P_ALIVE] = 0
    sc[S_N_ELIM] += 1
    pl[victim, P_ELIM_ORDER] = sc[S_N_ELIM]
    pl[by, P_ELIMINATIONS] += 1
    sc[S_ELIMINATED] = victim
    for c in range(cards.shape[0]):
        if cards[c] == victim:
            cards[c] = by
    # A destroy-colour mission whose target fell to someone else becomes 24 territories.
    for q in range(pl.shape[0]):
        if q != by and pl[q, P_MISSION] >= M_DESTROY and pl[q, P_TARGET] == victim:
            pl[q, P_MISSION] = M_24
            pl[q, P_TARGET] = -1


@rule_kernel
def _after_occupy(s) -> None:  # type: ignore[no-untyped-def]
    sc = s[4]
    if sc[S_ELIMINATED] >= 0 and hand_size(s[2], sc[S_CURRENT]) >= 6:
        # Cards taken on elimination: trade down to 4 and place those armies before attacking on.
        sc[S_IN_ATTACK] = 1
        sc[S_POOL] = 0
        sc[S_PHASE] = PH_TRADE
    else:
        sc[S_PHASE] = PH_ATTACK
    sc[S_ELIMINATED] = -1


@rule_kernel
def _settle(m, s, rules: np.ndarray, rng: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    """Advance through every point where the rules leave no choice."""
    owner, armies, cards, sc = s[0], s[1], s[2], s[4]
    n_terr = owner.shape[0]
    while True:
        if _check_end(m, s, rules):
            return
        ph = sc[S_PHASE]
        cur = sc[S_CURRENT]
        if ph == PH_TRADE:
            done_forced = sc[S_IN_ATTACK] != 0 and hand_size(cards, cur) <= 4
            if done_forced or not has_set(cards, cur, n_terr):
                sc[S_PHASE] = PH_REINFORCE
                continue
            return
        if ph == PH_REINFORCE:
            if sc[S_POOL] == 0:
                sc[S_IN_ATTACK] = 0
                sc[S_PHASE] = PH_ATTACK
                continue
            return
        if ph == PH_ATTACK:
            if not can_attack(m, s, cur):
                sc[S_PHASE] = PH_FORTIFY
                continue
            return
        if ph == PH_OCCUPY:
            lo, hi = occupy_bounds(s)
            if lo >= hi:
                src, dst = sc[S_SRC], sc[S_DST]
                armies[src] -= lo
                armies[dst] += lo
                _after_occupy(s)
                continue
            return
        if ph == PH_FORTIFY:
            if not can_fortify(m, s, cur):
                _end_turn(m, s, rules, rng)
                continue
            return
        return


@rule_kernel
def _advance_setup(m, s, rules: np.ndarray, rng: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    pl, sc = s[3], s[4]
    n_players = pl.shape[0]
    cur = sc[S_CURRENT]
    for i in range(1, n_players + 1):
        q = (cur + i) % n_players
        if pl[q, P_SETUP_LEFT] > 0:
            sc[S_CURRENT] = q
            return
    sc[S_ROUND] = 1
    _begin_turn(m, s, 0)
    _settle(m, s, rules, rng)
