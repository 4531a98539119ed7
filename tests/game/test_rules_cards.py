"""Card rules on hand-built positions: set values, trades, the card per turn, hand-overs."""

from __future__ import annotations

import pytest

from game.rules.layout import (
    A_END_TRADE,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
    CARD_DISCARD,
    E_CARD,
    E_COMPULSORY,
    E_NOT_SET,
    E_OK,
    EV_BONUS_T,
    EV_DRAWN,
    P_ALIVE,
    P_ELIM_ORDER,
    P_ELIMINATIONS,
    P_RECEIVED,
    PH_ATTACK,
    PH_FORTIFY,
    PH_REINFORCE,
    PH_TRADE,
    S_BONUS_USED,
    S_IN_ATTACK,
    S_N_ELIM,
    S_TRADES,
)
from game.state import Rules
from tests.helpers.positions import (
    ART,
    CAV,
    INF,
    WILDS,
    conquer,
    hand_size,
    own,
    position,
    step,
    tid,
)

# --- cards -----------------------------------------------------------------------------------

ESCALATING = [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


@pytest.mark.parametrize("trades,value", list(enumerate(ESCALATING)))
def test_escalating_set_values(trades: int, value: int) -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: INF[:3]})
    s.sc[S_TRADES] = trades
    assert step(s, A_TRADE, *INF[:3]) == E_OK
    assert s.trades == trades + 1
    assert s.phase == PH_REINFORCE and s.pool == 3 + value
    assert all(s.cards[c] == CARD_DISCARD for c in INF[:3])


FIXED = [
    ("3 infantry", INF[:3], 4), ("3 cavalry", CAV[:3], 6), ("3 artillery", ART[:3], 8),
    ("one of each", (INF[0], CAV[0], ART[0]), 10),
    ("wild + 2 infantry", (WILDS[0], INF[0], INF[1]), 4),
    ("wild + 2 cavalry", (WILDS[0], CAV[0], CAV[1]), 6),
    ("wild + 2 artillery", (WILDS[1], ART[0], ART[1]), 8),
    ("wild + 2 different", (WILDS[0], INF[0], ART[0]), 10),
    ("two wilds", (WILDS[0], WILDS[1], CAV[0]), 10),
]


@pytest.mark.parametrize("label,cards,value", FIXED, ids=[f[0] for f in FIXED])
@pytest.mark.parametrize("trades", [0, 7])
def test_fixed_set_values(label: str, cards: tuple[int, int, int], value: int,
                          trades: int) -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: cards})
    s.sc[S_TRADES] = trades
    assert step(s, A_TRADE, *cards, rules=Rules(fixed_cards=True)) == E_OK
    assert s.pool == 3 + value


@pytest.mark.parametrize("label,cards,err", [
    ("three of a kind", INF[:3], E_OK),
    ("one of each", (INF[0], CAV[0], ART[0]), E_OK),
    ("wild + pair", (WILDS[0], INF[0], INF[1]), E_OK),
    ("wild + two different", (INF[0], WILDS[1], ART[0]), E_OK),
    ("two and one", (INF[0], INF[1], CAV[0]), E_NOT_SET),
    ("repeated card", (INF[0], INF[0], INF[1]), E_CARD),
    ("card in another hand", (INF[0], INF[1], INF[3]), E_CARD),
    ("card in the deck", (INF[0], INF[1], INF[4]), E_CARD),
    ("card id out of range", (INF[0], INF[1], 44), E_CARD),
    ("negative card id", (-1, INF[0], INF[1]), E_CARD),
])
def test_trade_legality(label: str, cards: tuple[int, int, int], err: int) -> None:
    hand = [*INF[:3], CAV[0], ART[0], *WILDS]
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3,
                 hands={0: hand, 1: [INF[3]]})
    before = s.copy()
    assert step(s, A_TRADE, *cards) == err
    if err:
        assert s == before
    else:
        assert hand_size(s, 0) == 4 and s.trades == 1


def test_territory_bonus_once_per_turn() -> None:
    al, alb, ont = tid("Alaska"), tid("Alberta"), tid("Ontario")  # own cards: inf, inf, cav
    s = position(2, owner=own([al, alb, ont]), phase=PH_TRADE, pool=3,
                 hands={0: [al, INF[0], INF[1], alb, ont, CAV[0], ART[0]]})
    assert step(s, A_TRADE, al, INF[0], INF[1]) == E_OK
    assert s.armies[al] == 3 and s.ev[EV_BONUS_T] == al and s.sc[S_BONUS_USED] == 1
    assert s.pl[0, P_RECEIVED] == 2 and s.pool == 3 + 4
    assert step(s, A_TRADE, alb, ont, CAV[0]) == E_NOT_SET
    assert step(s, A_TRADE, alb, ont, ART[0]) == E_OK  # own cards again: no second bonus
    assert s.armies[alb] == 1 and s.armies[ont] == 1 and s.ev[EV_BONUS_T] == -1
    assert s.pool == 3 + 4 + 6


def test_no_bonus_for_enemy_territory_cards() -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: INF[:3]})
    assert step(s, A_TRADE, *INF[:3]) == E_OK
    assert s.sc[S_BONUS_USED] == 0 and int(s.armies.sum()) == 42


@pytest.mark.parametrize("hand,phase,can_end", [
    (INF[:3], PH_TRADE, True),  # a set, 3 cards: optional
    ((*INF[:3], CAV[0]), PH_TRADE, True),  # 4 cards
    ((*INF[:3], CAV[0], CAV[1]), PH_TRADE, False),  # 5 cards: compulsory
    ((*INF[:3], *CAV[:3]), PH_TRADE, False),  # 6 cards
    ((INF[0], INF[1], CAV[0], CAV[1]), PH_REINFORCE, True),  # no set: no trade phase
])
def test_compulsory_trade_at_turn_start(hand: tuple[int, ...], phase: int,
                                        can_end: bool) -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_FORTIFY, current=1, hands={0: hand})
    assert step(s, A_SKIP) == E_OK
    assert s.current == 0 and s.phase == phase
    if phase == PH_TRADE:
        assert step(s, A_END_TRADE) == (E_OK if can_end else E_COMPULSORY)
        assert s.phase == (PH_REINFORCE if can_end else PH_TRADE)


def test_compulsory_ends_when_below_five() -> None:
    hand = (*INF[:3], CAV[0], CAV[1], CAV[2])
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: hand})
    assert step(s, A_END_TRADE) == E_COMPULSORY
    assert step(s, A_TRADE, *INF[:3]) == E_OK
    assert s.phase == PH_TRADE  # 3 cavalry left: a set, now optional
    assert step(s, A_END_TRADE) == E_OK and s.phase == PH_REINFORCE and s.pool == 7


# --- the card per turn ---------------------------------------------------------------------------

def test_one_card_per_turn_with_a_conquest() -> None:
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": 20})
    s = conquer(s, "Alaska", "Kamchatka", 3)
    assert step(s, A_MOVE, 10) == E_OK
    s = conquer(s, "Kamchatka", "Japan", 3)
    assert step(s, A_MOVE, 5) == E_OK
    assert step(s, A_STOP) == E_OK
    assert hand_size(s, 0) == 0  # the card comes at the end of the turn
    assert step(s, A_SKIP) == E_OK
    assert hand_size(s, 0) == 1 and s.cards[s.ev[EV_DRAWN]] == 0
    assert s.current == 1


def test_no_card_without_conquest() -> None:
    s = position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 5}, phase=PH_FORTIFY)
    assert step(s, A_SKIP) == E_OK
    assert hand_size(s, 0) == 0 and s.ev[EV_DRAWN] == -1 and s.current == 1


def test_deck_reshuffles_discards_when_empty() -> None:
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": 20})
    s.cards[:] = 1
    s.cards[INF[0]] = CARD_DISCARD
    s = conquer(s, "Alaska", "Kamchatka", 3)
    assert step(s, A_MOVE, 3) == E_OK and step(s, A_STOP) == E_OK
    assert s.phase == PH_FORTIFY and step(s, A_SKIP) == E_OK
    assert s.cards[INF[0]] == 0


# --- elimination -----------------------------------------------------------------------------

@pytest.mark.parametrize("mine,theirs,trades_needed", [
    ((INF[0], CAV[0]), (INF[1], CAV[1], ART[1]), 0),  # 5 after: no forced trade
    ((INF[0], CAV[0], ART[0]), (INF[1], CAV[1], ART[1]), 1),  # 6 -> 3
    ((INF[0], CAV[0], ART[0], INF[2]), (INF[1], CAV[1], ART[1], CAV[2], ART[2]), 2),  # 9->6->3
])
def test_elimination_hands_over_cards(mine: tuple[int, ...], theirs: tuple[int, ...],
                                      trades_needed: int) -> None:
    s = position(3, owner={"Alaska": 0, "Kamchatka": 2}, armies={"Alaska": 20},
                 hands={0: mine, 2: theirs})
    s = conquer(s, "Alaska", "Kamchatka", 3)
    assert s.pl[2, P_ALIVE] == 0 and s.pl[2, P_ELIM_ORDER] == 1 and s.sc[S_N_ELIM] == 1
    assert s.pl[0, P_ELIMINATIONS] == 1
    assert hand_size(s, 2) == 0 and hand_size(s, 0) == len(mine) + len(theirs)
    assert step(s, A_MOVE, 3) == E_OK
    if trades_needed == 0:
        assert s.phase == PH_ATTACK
        return
    assert s.phase == PH_TRADE and s.sc[S_IN_ATTACK] == 1 and s.pool == 0
    pool = 0
    for k in range(trades_needed):
        assert step(s, A_END_TRADE) == E_COMPULSORY
        hand = s.hand(0)
        sets = [(a, b, c) for a in hand for b in hand for c in hand
                if a < b < c and step(s.copy(), A_TRADE, a, b, c) == E_OK]
        assert step(s, A_TRADE, *sets[0]) == E_OK
        pool += ESCALATING[k]
    assert hand_size(s, 0) <= 4 and s.phase == PH_REINFORCE and s.pool == pool
    assert step(s, A_PLACE, tid("Alaska"), pool) == E_OK
    assert s.phase == PH_ATTACK and s.sc[S_IN_ATTACK] == 0



def test_pool_and_received_consistent_after_trade() -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: INF[:3]})
    assert step(s, A_TRADE, *INF[:3]) == E_OK
    assert step(s, A_PLACE, tid("Alaska"), 7) == E_OK
    assert s.pl[0, P_RECEIVED] == 7 and s.armies[tid("Alaska")] == 8
    assert s.pool == 0 and s.phase == PH_ATTACK
