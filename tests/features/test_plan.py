"""Feature sets 4 and 5 by hand: the continent plan (K(c), stager, reinforce.plan_need,
attack.plan) and the elimination plan (K(q), v(q), reinforce.elim_need, attack.elim_plan)."""

from __future__ import annotations

import pytest

from features import registry as R
from features.kernels import feature_context
from features.players import make_players, stagers, summarize
from features.vectors import attack_features, reinforce_features
from game.rules.layout import (
    A_ATTACK,
    A_PLACE,
    A_STOP,
    PH_ATTACK,
    PH_REINFORCE,
    S_PHASE,
    S_POOL,
    StateArrays,
)
from tests.helpers.linear import genes
from tests.helpers.positions import CLASSIC, position, tid
from tests.helpers.tiny_board import A1, A2, A3, B1, B2, FX, MK, OFF, act_tiny, tiny


def _tiny_at(owner: list[int], armies: list[int], phase: int, pool: int = 0) -> StateArrays:
    s = tiny(owner, armies)
    s.sc[S_PHASE] = phase
    s.sc[S_POOL] = pool
    return s


def test_cost_and_stager_by_hand() -> None:
    s = tiny([0, 0, 1, 1, 0], [3, 1, 4, 2, 6])
    pl = make_players(MK, 2)
    summarize(MK, s, OFF, 0, pl)
    stagers(MK, s, 0, pl)
    # A lacks a3 (4): K = 1 + 5, and a1 (3) and a2 (1) both border it. B lacks b1 (2):
    # K = 1 + 3, staged by b2 (6); a3, seat 1's, does not count.
    assert pl.cost.tolist() == [6.0, 4.0]
    assert pl.stager.tolist() == [A1, 4]
    s = tiny([0, 0, 0, 0, 0], [1] * 5)
    summarize(MK, s, OFF, 0, pl)
    stagers(MK, s, 0, pl)
    assert pl.cost.tolist() == [0.0, 0.0] and pl.stager.tolist() == [-1, -1]


@pytest.mark.parametrize("pool,t,want", [
    (5, A1, 3 / 6),  # K(A) = 6, a1 holds 3 and the pool covers the other 3
    (2, A1, 0.0),  # the pool cannot cover the plan
    (5, A2, 0.0),  # a2 is not A's stager
])
def test_reinforce_plan_need(pool: int, t: int, want: float) -> None:
    s = _tiny_at([0, 0, 1, 1, 1], [3, 1, 4, 2, 5], PH_REINFORCE, pool)
    assert reinforce_features(MK, FX, s, OFF, 0, t)[R.RF_PLAN_NEED] == pytest.approx(want)


@pytest.mark.parametrize("owner,armies,gene,t", [
    # plan_need falls 3/6, 2/6, 1/6, 0 with each army on a1 (K(A) = 6); a2's small enemy term
    # (4/5 * 0.01) takes over once the plan is covered.
    ([0, 0, 1, 1, 1], [3, 1, 4, 2, 5], "reinforce__plan_need", A1),
    # elim_need falls 3/24, 2/24, 1/24, 0 with each army on a3 (K(1) = 4, v(1) = 1/6); b2's
    # enemy term (2/3 * 0.01) takes over once the elimination is covered.
    ([0, 0, 0, 1, 0], [1, 1, 1, 2, 1], "reinforce__elim_need", A3),
])
def test_a_need_places_what_its_plan_needs(owner: list[int], armies: list[int], gene: str,
                                           t: int) -> None:
    s = _tiny_at(owner, armies, PH_REINFORCE, 5)
    w = genes(reinforce__army_vantage=0.0, reinforce__enemy_strength=0.01, **{gene: 1.0})
    assert act_tiny(s, w) == (A_PLACE, t, 3, 0)  # 3 armies, not the whole pool


@pytest.mark.parametrize("a3,hand,feature,want", [
    # B lacks b1 (2) and b2 (5): K = 1 + 3 + 6 = 10 against a3's stack.
    (9, 0, R.AF_PLAN, 0.0), (10, 0, R.AF_PLAN, 1 / 3),
    # B is all seat 1 has: K(1) = 10 too, and with 3 cards v(1) = 4/6.
    (9, 3, R.AF_ELIM_PLAN, 0.0), (10, 3, R.AF_ELIM_PLAN, 4 / 6),
])
def test_an_attack_plan_needs_the_whole_cost(a3: int, hand: int, feature: int,
                                             want: float) -> None:
    s = _tiny_at([0, 0, 0, 1, 1], [1, 1, a3, 2, 5], PH_ATTACK)
    s.cards[:hand] = 1
    assert attack_features(MK, FX, s, OFF, 0, A3, B1)[feature] == pytest.approx(want)
    gene = "attack__plan" if feature == R.AF_PLAN else "attack__elim_plan"
    w = genes(attack__win_prob=0.0, attack__threshold=0.1 if hand == 0 else 0.5, **{gene: 1.0})
    assert act_tiny(s, w)[0] == (A_ATTACK if want else A_STOP)


def test_plan_on_the_classic_board() -> None:
    m = CLASSIC.kernel
    fx = feature_context(m)
    australia = ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]
    st = position(2, owner={"Siam": 0}, default_owner=1, phase=PH_REINFORCE, pool=9,
                  armies={"Siam": 2, **dict.fromkeys(australia, 1)})
    # Australia: K = 1 + 4 * 2 = 9; Siam stages it and the pool covers the 7 it lacks.
    f = reinforce_features(m, fx, st.kernel, OFF, 0, tid("Siam"))
    aus = int(m.continent_of[tid("Indonesia")])
    assert f[R.RF_PLAN_NEED] == pytest.approx(fx.bonus_norm[aus] * 7 / 9)


# Feature set 5: the elimination plan (K(q), v(q), stager(q), reinforce.elim_need,
# attack.elim_plan).


def test_elimination_cost_value_and_stager_by_hand() -> None:
    s = tiny([0, 0, 1, 2, 2], [3, 1, 4, 2, 5], n_players=3)
    s.cards[:] = [1, 1, 2, 2, 2, 2, -1]  # seat 1 holds 2 cards, seat 2 holds 4
    pl = make_players(MK, 3)
    summarize(MK, s, OFF, 0, pl)
    stagers(MK, s, 0, pl)
    # K(1) = 1 + (4 + 1); K(2) = 1 + (2 + 1) + (5 + 1); p itself costs nothing.
    assert pl.ecost.tolist() == [0.0, 6.0, 10.0]
    assert pl.evalue.tolist() == pytest.approx([1 / 6, 3 / 6, 5 / 6])
    # a1 (3) and a2 (1) border seat 1's a3; nothing of p's borders seat 2's B.
    assert pl.estager.tolist() == [-1, A1, -1]
    # A dead seat costs nothing; a full hand is worth as much as more cards.
    s = tiny([0, 0, 0, 1, 1], [1] * 5, n_players=3)
    s.cards[:] = [1, 1, 1, 1, 1, 1, -1]
    summarize(MK, s, OFF, 0, pl)
    assert pl.ecost.tolist() == [0.0, 5.0, 0.0] and pl.evalue[1] == 1.0


@pytest.mark.parametrize("pool,t,want", [
    (3, A3, 1 / 6 * 3 / 4),  # K(1) = 4; a3 (1) ties b2 (1) as stager and has the lower index
    (2, A3, 0.0),  # the pool cannot cover the elimination
    (3, B2, 0.0),  # b2 is not seat 1's stager
])
def test_reinforce_elim_need(pool: int, t: int, want: float) -> None:
    s = _tiny_at([0, 0, 0, 1, 0], [1, 1, 1, 2, 1], PH_REINFORCE, pool)
    assert reinforce_features(MK, FX, s, OFF, 0, t)[R.RF_ELIM_NEED] == pytest.approx(want)
