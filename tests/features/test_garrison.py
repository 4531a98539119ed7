"""Feature set 6 by hand: the garrison terms (fortify.dest_need, fortify.dest_guard,
occupy.guard, occupy.continent_guard, attack.threshold_thin), each 0 = the old player."""

from __future__ import annotations

import numpy as np
import pytest

from features.kernels import thin_share
from game.rules.layout import (
    A_ATTACK,
    A_FORTIFY,
    A_MOVE,
    A_STOP,
    PH_ATTACK,
    PH_FORTIFY,
    PH_OCCUPY,
    S_DST,
    S_MIN_MOVE,
    S_PHASE,
    S_SRC,
    StateArrays,
)
from game.state import State
from tests.helpers.linear import act, genes
from tests.helpers.positions import continent, position, tid
from tests.helpers.tiny_board import A1, A2, A3, MK, act_tiny, tiny


def _occupy(owner: dict[str | int, int], armies: dict[str | int, int], src: str, dst: str,
            rolled: int = 3) -> State:
    st = position(2, owner=owner, armies=armies, phase=PH_OCCUPY)
    st.sc[S_SRC], st.sc[S_DST], st.sc[S_MIN_MOVE] = tid(src), tid(dst), rolled
    return st


# Seat 0 holds Africa and has just taken Middle East from Egypt (10 armies); Southern Europe
# (5 armies) stays hostile.
AFRICA: dict[str | int, int] = {**dict.fromkeys(continent("Africa"), 0), tid("Middle East"): 0}


@pytest.mark.parametrize("extra,gene,value,want", [
    ({}, "occupy__guard", 0.0, 9),  # share 1 moves every movable army
    # E(Egypt) = 5 against a(Egypt) = 10: f = 1 - 0.6 / 3 = 0.8, 3 + round(0.8 * 6) = 8.
    ({}, "occupy__guard", -0.6, 8),
    # Seat 0 holds Africa (bonus 3 of 7): f = 1 - 0.7 * 3 / 7 = 0.7, 3 + round(4.2) = 7.
    ({}, "occupy__continent_guard", -0.7, 7),
    # Without Africa held (Congo is the enemy's) the continent term is 0.
    ({"Congo": 1}, "occupy__continent_guard", -0.7, 9),
])
def test_the_source_keeps_its_garrison(extra: dict[str | int, int], gene: str, value: float,
                                       want: int) -> None:
    owner: dict[str | int, int] = {**AFRICA, **extra}
    st = _occupy(owner, {"Egypt": 10, "Southern Europe": 5, "Middle East": 0}, "Egypt",
                 "Middle East")
    w = genes(occupy__share=1.0, **{gene: value})
    assert act(st, w) == (A_MOVE, want, 0, 0)


def _at(phase: int, owner: list[int], armies: list[int]) -> StateArrays:
    s = tiny(owner, armies)
    s.sc[S_PHASE] = phase
    return s


@pytest.mark.parametrize("owner,gene,want", [
    # a2 (interior) may feed a1 or a3; only a3 borders b1 (3 armies) and it holds 1.
    ([0, 0, 0, 1, 1], "fortify__dest_need", (A_FORTIFY, A2, A3, 4)),
    ([0, 0, 0, 1, 1], "fortify__dest_guard", (A_FORTIFY, A2, A3, 4)),
])
def test_fortify_fills_the_short_border(owner: list[int], gene: str,
                                        want: tuple[int, ...]) -> None:
    s = _at(PH_FORTIFY, owner, [1, 5, 1, 3, 1])
    # fortify.threat_gain = -1 moves away from the threat (to a1); a3's need (2/3, and A is
    # held: guard 1) at weight 2 outweighs its vantage (0.75).
    base = {"fortify__threat_gain": -1.0, "fortify__threshold": -5.0}
    assert act_tiny(s, genes(**base)) == (A_FORTIFY, A2, A1, 4)
    assert act_tiny(s, genes(**base, **{gene: 2.0})) == want


def test_thin_share_by_hand() -> None:
    # a1 (1 army) and a3 (1 army) are seat 0's; only a3 borders the enemy.
    assert thin_share(MK, np.array([0, 0, 0, 1, 1]), np.array([1, 4, 1, 2, 2]), 0) == 1 / 3
    assert thin_share(MK, np.array([0, 0, 0, 1, 1]), np.array([1, 4, 2, 2, 2]), 0) == 0.0
    assert thin_share(MK, np.array([1, 1, 1, 1, 1]), np.array([1, 1, 1, 1, 1]), 0) == 0.0


@pytest.mark.parametrize("thin_gene,want", [(0.0, A_ATTACK), (3.0, A_STOP)])
def test_a_thin_empire_raises_the_threshold(thin_gene: float, want: int) -> None:
    w = genes(attack__threshold=0.5, attack__threshold_thin=thin_gene)
    # a3 (6) attacks b1 (1) at about 0.98 odds. a1 and a2 hold 1 army but face no enemy: the
    # share is 0 and the threshold stays 0.5.
    assert act_tiny(_at(PH_ATTACK, [0, 0, 0, 1, 1], [1, 1, 6, 1, 1]), w)[0] == A_ATTACK
    # b2 is seat 0's too, with 1 army next to b1: a quarter of the empire is thin.
    assert act_tiny(_at(PH_ATTACK, [0, 0, 0, 1, 0], [1, 1, 6, 1, 1]), w)[0] == want
