"""Rule variants other engines use: the +2 bonus on every set, other compulsory-trade sizes."""

from __future__ import annotations

import pytest

from game.rules.layout import (
    A_END_TRADE,
    A_SKIP,
    A_TRADE,
    E_COMPULSORY,
    E_OK,
    EV_BONUS_T,
    P_RECEIVED,
    PH_FORTIFY,
    PH_REINFORCE,
    PH_TRADE,
)
from game.state import Rules, RulesError
from tests.helpers.positions import ART, CAV, INF, own, position, step, tid

AL, ALB, ONT = tid("Alaska"), tid("Alberta"), tid("Ontario")  # own cards: inf, inf, cav


@pytest.mark.parametrize("every_set, bonus_armies", [(False, (2, 0)), (True, (2, 2))])
def test_territory_bonus_per_set_or_per_turn(every_set: bool,
                                             bonus_armies: tuple[int, int]) -> None:
    rules = Rules(bonus_every_set=every_set)
    s = position(2, owner=own([AL, ALB, ONT]), phase=PH_TRADE, pool=3,
                 hands={0: [AL, INF[0], INF[1], ALB, ONT, CAV[0], ART[0]]})
    start = s.armies.copy()
    assert step(s, A_TRADE, AL, INF[0], INF[1], rules=rules) == E_OK
    assert s.armies[AL] - start[AL] == bonus_armies[0] and s.ev[EV_BONUS_T] == AL
    # Alberta (infantry), Ontario (cavalry), an artillery card: one of each, two own cards.
    assert step(s, A_TRADE, ALB, ONT, ART[0], rules=rules) == E_OK
    assert s.armies[ALB] - start[ALB] == bonus_armies[1]
    assert s.ev[EV_BONUS_T] == (ALB if every_set else -1)
    assert s.pl[0, P_RECEIVED] == sum(bonus_armies)
    assert s.armies[ONT] == start[ONT]  # still only the first own card of a set


@pytest.mark.parametrize("trade_at, hand_size, compulsory", [
    (5, 4, False), (5, 5, True),  # the default
    (4, 3, False), (4, 4, True),
    (6, 5, False), (6, 6, True),
])
def test_compulsory_trade_threshold(trade_at: int, hand_size: int, compulsory: bool) -> None:
    rules = Rules(trade_at=trade_at)
    hand = (*INF[:3], *CAV[:3])[:hand_size]
    s = position(2, owner={"Alaska": 0}, phase=PH_FORTIFY, current=1, hands={0: hand})
    assert step(s, A_SKIP, rules=rules) == E_OK
    assert s.current == 0 and s.phase == PH_TRADE
    assert step(s, A_END_TRADE, rules=rules) == (E_COMPULSORY if compulsory else E_OK)
    assert s.phase == (PH_TRADE if compulsory else PH_REINFORCE)


@pytest.mark.parametrize("text, expect", [
    ("trade_at=2", "rules.trade_at must be a hand size 3..10, got 2"),
    ("trade_at=11", "rules.trade_at must be a hand size 3..10, got 11"),
    ("trade_at=x", "rules.trade_at must be a whole number"),
    ("bonus_every_set=maybe", "rules.bonus_every_set must be true or false"),
])
def test_variant_options_validated(text: str, expect: str) -> None:
    with pytest.raises(RulesError, match=expect):
        Rules.parse(text)


def test_variant_vector_defaults_are_the_standard_rules() -> None:
    v = Rules().vector()
    assert Rules.parse("bonus_every_set,trade_at=4").vector().tolist() != v.tolist()
    assert Rules.parse("bonus_every_set=false,trade_at=5").vector().tolist() == v.tolist()
