"""The linear player's card decision: which set to trade and whether an optional one is worth it.

Apart from `features.decide` (which dispatches to it) because it reads the hand, the set values
and the trade rank, none of which the territory decisions touch.
"""

from __future__ import annotations

import numpy as np

from features import registry as F
from features.kernels import FeatureContext
from features.players import Players, continent_term, pressure, summarize
from features.work import Work, keep_option
from game.rules import layout as L
from game.rules.cards import is_set, set_value
from game.rules.jit import inline_rule_kernel
from game.rules.kernel import trade_compulsory
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import bonus_open as open_bonus

# A set's rank: its armies less WILD_TIE per wild card, so that one score orders sets as the
# decision does (most armies, then fewest wilds): armies are whole and at most 3 wilds cost 0.75.
WILD_TIE = 0.25


@inline_rule_kernel
def trade_options(m: MapArrays, s: StateArrays, rules: np.ndarray, work: Work, k: int) -> int:
    """The k best sets in the hand of the seat to move into work.opt_a, opt_b, opt_c (its cards,
    in id order) and opt_v (armies - WILD_TIE x wilds), best first (`keep_option`: ties keep
    the lowest ids); returns how many. The armies are the set's value + the card bonus."""
    owner, cards, sc, kinds = s.owner, s.cards, s.sc, m.card_kind
    seat = sc[L.S_CURRENT]
    hand = work.stack
    n_terr = owner.shape[0]
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat and n < hand.shape[0]:
            hand[n] = c
            n += 1
    bonus_open = open_bonus(s, rules)
    kept = 0
    for i in range(n):
        ci = hand[i]
        ki = kinds[ci]
        for j in range(i + 1, n):
            cj = hand[j]
            kj = kinds[cj]
            for k3 in range(j + 1, n):
                ck = hand[k3]
                kk = kinds[ck]
                if not is_set(ki, kj, kk):
                    continue
                wilds = (ki == L.WILD) + (kj == L.WILD) + (kk == L.WILD)
                v = set_value(rules, sc[L.S_TRADES], ki, kj, kk)
                if bonus_open and ((ci < n_terr and owner[ci] == seat) or
                                   (cj < n_terr and owner[cj] == seat) or
                                   (ck < n_terr and owner[ck] == seat)):
                    v += L.CARD_BONUS
                kept = keep_option(work, kept, k, ci, cj, ck, v - WILD_TIE * wilds)
    return kept


@inline_rule_kernel
def trade_action(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                 w: np.ndarray, work: Work, n: int) -> tuple[int, int, int, int]:
    """Trade the best of the n sets `trade_options` ranked into work (most armies, then fewest
    wilds, then lowest ids); none if n is 0.

    An optional set is traded only when it is worth at least TRADE_SCALE * (cards.trade_at -
    the trade-rank terms) armies (`trade_bar`).
    """
    if n == 0:
        return (L.A_END_TRADE, 0, 0, 0)
    b1, b2, b3 = int(work.opt_a[0]), int(work.opt_b[0]), int(work.opt_c[0])
    bv = set_armies(m, work.opt_v[0], b1, b2, b3)
    if not trade_compulsory(s, rules) and bv < trade_bar(m, fx, s, rules, w, work.players,
                                                         s.sc[L.S_CURRENT], bv):
        return (L.A_END_TRADE, 0, 0, 0)
    return (L.A_TRADE, b1, b2, b3)


@inline_rule_kernel
def set_armies(m: MapArrays, rank: float, c1: int, c2: int, c3: int) -> int:
    """The armies of the set (c1, c2, c3) ranked `rank` by `trade_options`."""
    kinds = m.card_kind
    wilds = (kinds[c1] == L.WILD) + (kinds[c2] == L.WILD) + (kinds[c3] == L.WILD)
    return int(rank + WILD_TIE * wilds)


@inline_rule_kernel
def trade_bar(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
              w: np.ndarray, pl: Players, seat: int, v: int) -> float:
    """Armies an optional set must be worth: TRADE_SCALE * (cards.trade_at - rank terms).

    `cards.forced_next` counts when one more card forces a trade: a hand of rules.trade_at - 1
    (4 under the standard rules).
    """
    g = F.G_TRADE_TERMS
    rank = 0.0
    if (w[g + F.CT_INCOME] != 0.0 or w[g + F.CT_PRESSURE] != 0.0
            or w[g + F.CT_CONTINENT] != 0.0 or w[g + F.CT_FORCED] != 0.0):
        summarize(m, s, rules, seat, pl)
        rank += w[g + F.CT_INCOME] * (v / (v + pl.inc[seat]))
        if w[g + F.CT_PRESSURE] != 0.0:
            rank += w[g + F.CT_PRESSURE] * pressure(m, s, seat, pl)
        rank += w[g + F.CT_CONTINENT] * continent_term(m, fx, s, seat, pl.cnt, v)
        rank += w[g + F.CT_FORCED] * (1.0 if pl.hand[seat] >= rules[L.R_TRADE_AT] - 1 else 0.0)
    return (w[F.G_TRADE_AT] - rank) * F.TRADE_SCALE
