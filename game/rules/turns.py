"""Turn transitions: setup order, turn start and end, cards drawn, eliminations, game end."""

from __future__ import annotations

import numpy as np

from game.rules import layout as L
from game.rules.cards import hand_size, has_set
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import can_attack, can_fortify, mission_done, occupy_bounds, reinforcements


@inline_rule_kernel
def _finish(s: StateArrays, winner: int) -> None:
    sc = s.sc
    if sc[L.S_PHASE] == L.PH_OCCUPY:
        # Won on a conquest: move the minimum in so the final board is a legal position.
        s.armies[sc[L.S_SRC]] -= sc[L.S_MIN_MOVE]
        s.armies[sc[L.S_DST]] += sc[L.S_MIN_MOVE]
    sc[L.S_WINNER] = winner
    sc[L.S_PHASE] = L.PH_OVER


@inline_rule_kernel
def _check_end(m: MapArrays, s: StateArrays, rules: np.ndarray) -> bool:
    """End the game if one seat is left or, with missions, a mission is complete."""
    pl, sc = s.pl, s.sc
    n_players = pl.shape[0]
    if n_players - sc[L.S_N_ELIM] == 1:
        for q in range(n_players):
            if pl[q, L.P_ALIVE] == 1:
                _finish(s, q)
                return True
    if rules[L.R_MISSIONS] != 0:
        # The seat to move is checked first: its action changed the position.
        cur = sc[L.S_CURRENT]
        for i in range(n_players):
            q = (cur + i) % n_players
            if pl[q, L.P_ALIVE] == 1 and mission_done(m, s, q):
                _finish(s, q)
                return True
    return False


@rule_kernel
def _begin_turn(m: MapArrays, s: StateArrays, seat: int) -> None:
    sc = s.sc
    sc[L.S_CURRENT] = seat
    sc[L.S_CONQUERED] = 0
    sc[L.S_BONUS_USED] = 0
    sc[L.S_IN_ATTACK] = 0
    sc[L.S_TURNS] += 1
    sc[L.S_POOL] = reinforcements(m, s, seat)
    # The seat as int32, as `_settle` passes it from the state: `hand_kind_counts` compiles once.
    can_trade = has_set(m.card_kind, s.cards, np.int32(seat))
    sc[L.S_PHASE] = L.PH_TRADE if can_trade else L.PH_REINFORCE


@rule_kernel
def _draw_card(s: StateArrays, seat: int, rng: np.random.Generator) -> None:
    cards = s.cards
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == L.CARD_DECK:
            n += 1
    if n == 0:
        # The deck ran out: traded cards are reshuffled into it.
        for c in range(cards.shape[0]):
            if cards[c] == L.CARD_DISCARD:
                cards[c] = L.CARD_DECK
                n += 1
    s.ev[L.EV_DRAWN] = -1
    if n == 0:
        return
    # A uniform draw among the cards in the deck is the top card of a shuffled deck.
    k = int(rng.random() * n)
    for c in range(cards.shape[0]):
        if cards[c] == L.CARD_DECK:
            if k == 0:
                cards[c] = seat
                s.ev[L.EV_DRAWN] = c
                return
            k -= 1


@rule_kernel
def _end_turn(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator) -> None:
    pl, sc = s.pl, s.sc
    cur = sc[L.S_CURRENT]
    if sc[L.S_CONQUERED] != 0:
        _draw_card(s, cur, rng)
    else:
        s.ev[L.EV_DRAWN] = -1
    n_players = pl.shape[0]
    nxt = cur
    for i in range(1, n_players + 1):
        q = (cur + i) % n_players
        if pl[q, L.P_ALIVE] == 1:
            nxt = q
            break
    if nxt <= cur:
        sc[L.S_ROUND] += 1
        if sc[L.S_ROUND] > rules[L.R_CAP]:
            sc[L.S_CAPPED] = 1
            sc[L.S_PHASE] = L.PH_OVER
            return
    _begin_turn(m, s, nxt)


@rule_kernel
def _eliminate(s: StateArrays, victim: int, by: int) -> None:
    cards, pl, sc = s.cards, s.pl, s.sc
    pl[victim, L.P_ALIVE] = 0
    sc[L.S_N_ELIM] += 1
    pl[victim, L.P_ELIM_ORDER] = sc[L.S_N_ELIM]
    pl[by, L.P_ELIMINATIONS] += 1
    sc[L.S_ELIMINATED] = victim
    for c in range(cards.shape[0]):
        if cards[c] == victim:
            cards[c] = by
    # A destroy-colour mission whose target fell to someone else becomes 24 territories.
    for q in range(pl.shape[0]):
        if q != by and pl[q, L.P_MISSION] >= L.M_DESTROY and pl[q, L.P_TARGET] == victim:
            pl[q, L.P_MISSION] = L.M_24
            pl[q, L.P_TARGET] = -1


@rule_kernel
def _after_occupy(s: StateArrays, rules: np.ndarray) -> None:
    sc = s.sc
    if (sc[L.S_ELIMINATED] >= 0
            and hand_size(s.cards, sc[L.S_CURRENT]) >= rules[L.R_TRADE_AT] + 1):
        # Cards taken on elimination: trade down to R_TRADE_AT - 1 (4) and place those armies
        # before attacking on.
        sc[L.S_IN_ATTACK] = 1
        sc[L.S_POOL] = 0
        sc[L.S_PHASE] = L.PH_TRADE
    else:
        sc[L.S_PHASE] = L.PH_ATTACK
    sc[L.S_ELIMINATED] = -1


@inline_rule_kernel
def _settle(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator) -> None:
    """Advance through every point where the rules leave no choice."""
    armies, cards, sc = s.armies, s.cards, s.sc
    while True:
        if _check_end(m, s, rules):
            return
        ph = sc[L.S_PHASE]
        cur = sc[L.S_CURRENT]
        if ph == L.PH_TRADE:
            down_to = rules[L.R_TRADE_AT] - 1
            done_forced = sc[L.S_IN_ATTACK] != 0 and hand_size(cards, cur) <= down_to
            if done_forced or not has_set(m.card_kind, cards, cur):
                sc[L.S_PHASE] = L.PH_REINFORCE
                continue
            return
        if ph == L.PH_REINFORCE:
            if sc[L.S_POOL] == 0:
                sc[L.S_IN_ATTACK] = 0
                sc[L.S_PHASE] = L.PH_ATTACK
                continue
            return
        if ph == L.PH_ATTACK:
            if not can_attack(m, s, cur):
                sc[L.S_PHASE] = L.PH_FORTIFY
                continue
            return
        if ph == L.PH_OCCUPY:
            lo, hi = occupy_bounds(s)
            if lo >= hi:
                src, dst = sc[L.S_SRC], sc[L.S_DST]
                armies[src] -= lo
                armies[dst] += lo
                _after_occupy(s, rules)
                continue
            return
        if ph == L.PH_FORTIFY:
            if not can_fortify(m, s, cur):
                _end_turn(m, s, rules, rng)
                continue
            return
        return


@rule_kernel
def _advance_setup(m: MapArrays, s: StateArrays, rules: np.ndarray,
                   rng: np.random.Generator) -> None:
    pl, sc = s.pl, s.sc
    n_players = pl.shape[0]
    cur = sc[L.S_CURRENT]
    for i in range(1, n_players + 1):
        q = (cur + i) % n_players
        if pl[q, L.P_SETUP_LEFT] > 0:
            sc[L.S_CURRENT] = q
            return
    sc[L.S_ROUND] = 1
    _begin_turn(m, s, np.int64(0))  # the seat as `_end_turn` passes it: one compile
    _settle(m, s, rules, rng)
