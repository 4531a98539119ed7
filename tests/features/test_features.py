"""Feature registry and every feature against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from features import registry as R
from features.kernels import feature_context
from features.vectors import attack_features, fortify_features, reinforce_features
from game.bots.common import Snapshot, board_of
from game.rules.dice import conquest_probability, conquest_table
from game.rules.layout import (
    M_18_TWO,
    M_24,
    M_ASIA_SAM,
    M_DESTROY,
    P_MISSION,
    P_TARGET,
)
from game.state import Rules
from game.view import GameView
from tests.helpers.positions import CLASSIC, position, tid
from tests.helpers.tiny_board import A1, A2, A3, B1, B2, FX, MISSIONS, MK, OFF, tiny


def test_registry_indices_follow_the_tuples() -> None:
    assert R.REINFORCE[R.RF_ENEMY].name == "enemy_strength"
    assert R.REINFORCE[R.RF_MISSION].name == "mission"
    assert R.ATTACK[R.AF_WIN].name == "win_prob"
    assert R.ATTACK[R.AF_EXPOSURE].name == "exposure"
    assert R.FORTIFY[R.FF_DEST_BORDER].name == "dest_border"
    assert len({f.gene for f in R.FEATURES}) == len(R.FEATURES)
    assert all(f.doc and "\n" not in f.doc for f in R.FEATURES)


def test_static_context() -> None:
    assert FX.odds is conquest_table()  # the one table of game.rules.dice
    value, bonus = FX.cont_value, FX.bonus_norm
    # A: 3 / (3 territories * 1 border territory) = 1; B: 1 / (2 * 1) = 0.5.
    assert value.tolist() == pytest.approx([1.0, 0.5])
    assert bonus.tolist() == pytest.approx([1.0, 1 / 3])


# (owner, armies, seat, territory, expected reinforce vector in registry order)
# S(q) = (terr / T + inc / sum inc + armies / opponents' armies) / 3 (features.players); with
# two seats the army share of the one opponent is 1.
def strength(terr: int, inc: int, sum_inc: int) -> float:
    return (terr / 5 + inc / sum_inc + 1) / 3


S_1A = strength(2, 4, 10)  # seat 1 of owner [0, 0, 0, 1, 1], armies [3, 1, 4, 2, 5]
S_0A = strength(3, 6, 10)  # seat 0 of the same
S_1B = strength(3, 4, 7)  # seat 1 of owner [0, 0, 1, 1, 1], armies [3, 1, 4, 2, 5]

# (owner, armies, seat, territory, expected reinforce vector in registry order); the last five
# are need, guard_need, leader_adjacent, plan_need and elim_need (0 in set-up: a pool of 1
# covers no plan).
REINFORCE_CASES = [
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 0, A3,
     [2 / 6, 1 / 3, 1, 1, 1, 1, 2 / 6, 0, 0, 0, S_1A, 0, 0]),
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 0, A1, [0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
    # b1 (2 armies) faces a3 (4): G = 4, half missing; seat 1 holds B (bonus 1/3 of 3).
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 1, B1,
     [4 / 6, 1 / 2, 1, 1 / 3, 1, .5, 4 / 6, 0, 1 / 2, 1 / 6, S_0A, 0, 0]),
    # a1 lacks only a3, which borders it: "would complete" counts the bonus.
    ([0, 0, 1, 1, 1], [3, 1, 4, 2, 5], 0, A1,
     [4 / 7, 1 / 2, 2 / 3, 1, 1, 1, 4 / 7, 0, 1 / 4, 0, S_1B, 0, 0]),
    # b2 lacks b1 too but b1 is its neighbour; a3 is not b2's continent.
    ([0, 0, 1, 1, 0], [3, 1, 4, 2, 6], 0, B2,
     [2 / 8, 1, 1 / 2, 1 / 3, 1, .5, 2 / 8, 0, 0, 0, strength(2, 3, 6), 0, 0]),
    # a2 lacks a3 (a neighbour) and a1 (also a neighbour, owned by 1): completable.
    ([1, 0, 1, 1, 1], [2, 1, 9, 2, 5], 0, A2,
     [11 / 12, 1, 1 / 3, 1, 1, 1, 9 / 10, 0, 8 / 9, 0, strength(4, 4, 7), 0, 0]),
]


@pytest.mark.parametrize("owner,armies,seat,t,want", REINFORCE_CASES)
def test_reinforce_features(owner: list[int], armies: list[int], seat: int, t: int,
                            want: list[float]) -> None:
    got = reinforce_features(MK, FX, tiny(owner, armies), OFF, seat, t)
    assert got.tolist() == pytest.approx(want)


def test_reinforce_continent_bonus_completable_from_t() -> None:
    # a2 lacks only a1, its neighbour; b2 lacks only b1, its neighbour; a1 lacks a2 and a3,
    # both its neighbours: each can complete its continent by attacking from t.
    assert reinforce_features(MK, FX, tiny([1, 0, 0, 0, 1], [1] * 5), OFF, 0, A2)[
        R.RF_CONT_BONUS] == 1.0
    assert reinforce_features(MK, FX, tiny([1, 1, 0, 1, 0], [1] * 5), OFF, 0, B2)[
        R.RF_CONT_BONUS] == pytest.approx(1 / 3)
    assert reinforce_features(MK, FX, tiny([0, 1, 1, 1, 1], [1] * 5), OFF, 0, A1)[
        R.RF_CONT_BONUS] == 1.0


def test_reinforce_bonus_zero_when_a_missing_territory_is_not_adjacent() -> None:
    m = CLASSIC.kernel
    st = position(2, owner={"Alaska": 0, "Alberta": 0}, default_owner=1)
    # North America lacks 7 territories; most do not border Alaska.
    f = reinforce_features(m, feature_context(m), st.kernel, OFF, 0, tid("Alaska"))
    assert f[R.RF_CONT_BONUS] == 0.0
    assert f[R.RF_CONT_SHARE] == pytest.approx(2 / 9)


# (owner, armies, seat, src, dst, conquered, expected attack vector)
# The last ten are target_strength, breaks_leader, target_cards, elim_cards, left_behind,
# source_guard, continent_share, continent_value, plan and elim_plan (no cards are dealt here:
# see tests/features/test_structure.py for those). In the last case b1's 3 armies cover B's plan
# K = 1 + (1 + 1) = 3, so attack.plan is B's bonus share 1/3, and b2 is all seat 1 has, so the
# same 3 cover K(1) = 3 too: elim_plan is v(1) = (1 + 0 cards) / 6.
ATTACK_CASES = [
    ([0, 0, 1, 1, 1], [3, 1, 4, 2, 5], 0, A1, A3, 0,
     [conquest_table()[3, 4], 3 / 7, 1, 0, 3 / 5, 0, 1, 1 / 3, 0, S_1B, 0, 0, 0, 0, 0,
      2 / 3, 1, 0, 0]),
    # Seat 1 (the leader of one opponent) holds B; a3 guards held A.
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 0, A3, B1, 0,
     [conquest_table()[4, 2], 4 / 6, 0, 1 / 3, 2 / 5, 0, 1, 1 / 2, 0, S_1A, 1 / 3, 0, 0, 0, 1,
      0, 1 / 2, 0, 0]),
    ([0, 0, 0, 0, 1], [1, 1, 1, 3, 1], 0, B1, B2, 1,
     [conquest_table()[3, 1], 3 / 4, 1 / 3, 0, 1 / 5, 1, 0, 0, 0, strength(1, 3, 9),
      0, 0, 0, 0, 0, 1 / 2, 1 / 2, 1 / 3, 1 / 6]),
]


@pytest.mark.parametrize("owner,armies,seat,src,dst,conq,want", ATTACK_CASES)
def test_attack_features(owner: list[int], armies: list[int], seat: int, src: int, dst: int,
                         conq: int, want: list[float]) -> None:
    got = attack_features(MK, FX, tiny(owner, armies, conquered=conq), OFF, seat, src, dst)
    assert got.tolist() == pytest.approx(want)
    assert got[R.AF_WIN] == pytest.approx(conquest_table()[armies[src], armies[dst]])


def test_attack_win_prob_rules_value() -> None:
    f = attack_features(MK, FX, tiny([0, 0, 0, 1, 1], [3, 1, 4, 2, 5]), OFF, 0, A3, B1)
    assert f[R.AF_WIN] == pytest.approx(.656, abs=5e-4)


# (owner, armies, seat, a, b, expected fortify vector)
FORTIFY_CASES = [
    # gain, interior source, movable, dest border, dest need, dest guard
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 0, A1, A3, [2 / 6, 1, 2 / 6, 1, 0, 0]),
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 0, A3, A1, [-2 / 6, 0, 3 / 6, 0, 0, 0]),
    # B1 needs 4 against a3's 4 armies and has 2; seat 1 holds B (bonus 1 of 3).
    ([0, 0, 0, 1, 1], [3, 1, 4, 2, 5], 1, B2, B1, [4 / 6, 1, 4 / 6, 1, 2 / 4, 2 / 4 / 3]),
    # a3 holds 1 against b1's 2: it lacks half its garrison, a held continent's border.
    ([0, 0, 0, 1, 1], [3, 1, 1, 2, 5], 0, A1, A3, [2 / 3, 1, 2 / 3, 1, 1 / 2, 1 / 2]),
    # Without A held (a2 is the enemy's: a3 faces 3 armies), the guard term is 0.
    ([0, 1, 0, 1, 1], [3, 1, 1, 2, 5], 0, A1, A3, [1 / 2, 0, 2 / 3, 1, 1 / 2, 0]),
]


@pytest.mark.parametrize("owner,armies,seat,a,b,want", FORTIFY_CASES)
def test_fortify_features(owner: list[int], armies: list[int], seat: int, a: int, b: int,
                          want: list[float]) -> None:
    got = fortify_features(MK, tiny(owner, armies), seat, a, b)
    assert got.tolist() == pytest.approx(want)


def test_feature_ranges_on_random_positions() -> None:
    rng = np.random.default_rng(3)
    m = CLASSIC.kernel
    fx = feature_context(m)
    for _ in range(20):
        st = position(4, default_owner=0)
        st.owner[:] = rng.integers(0, 4, st.owner.size)
        st.armies[:] = rng.integers(1, 300, st.armies.size)
        s = st.kernel
        for t in np.flatnonzero(st.owner == 0)[:5]:
            f = reinforce_features(m, fx, s, OFF, 0, int(t))
            assert ((f >= 0) & (f <= 1)).all()
            for u in CLASSIC.neighbours[t, : CLASSIC.degree[t]]:
                if st.owner[u] != 0:
                    g = attack_features(m, fx, s, OFF, 0, int(t), int(u))
                    assert ((g >= 0) & (g <= 1)).all()
                else:
                    h = fortify_features(m, s, 0, int(t), int(u))
                    assert -1 <= h[0] <= 1 and ((h[1:] >= 0) & (h[1:] <= 1)).all()


def test_mission_features() -> None:
    m = CLASSIC.kernel
    fx = feature_context(m)
    china, peru, alaska = tid("China"), tid("Peru"), tid("Alaska")
    st = position(3, owner={"China": 0, "Peru": 0, "Alaska": 0, "Kamchatka": 2,
                            "Mongolia": 2, "Japan": 2, "Irkutsk": 2, "Yakutsk": 2},
                  default_owner=1, missions={0: (M_ASIA_SAM, -1)})
    s = st.kernel
    assert reinforce_features(m, fx, s, MISSIONS, 0, china)[R.RF_MISSION] == 1.0
    assert reinforce_features(m, fx, s, MISSIONS, 0, peru)[R.RF_MISSION] == 1.0
    assert reinforce_features(m, fx, s, MISSIONS, 0, alaska)[R.RF_MISSION] == 0.0
    # Missions off: always 0.
    assert reinforce_features(m, fx, s, OFF, 0, china)[R.RF_MISSION] == 0.0
    assert attack_features(m, fx, s, OFF, 0, china, tid("Siam"))[R.AF_MISSION] == 0.0
    assert attack_features(m, fx, s, MISSIONS, 0, china, tid("Siam"))[R.AF_MISSION] == 1.0
    assert attack_features(m, fx, s, MISSIONS, 0, alaska, tid("Alberta"))[R.AF_MISSION] == 0.0
    # Destroy seat 2: Alaska borders Kamchatka (seat 2), China borders Mongolia (seat 2).
    st.pl[0, P_MISSION], st.pl[0, P_TARGET] = M_DESTROY + 2, 2
    assert reinforce_features(m, fx, s, MISSIONS, 0, alaska)[R.RF_MISSION] == 1.0
    assert reinforce_features(m, fx, s, MISSIONS, 0, peru)[R.RF_MISSION] == 0.0
    assert attack_features(m, fx, s, MISSIONS, 0, alaska, tid("Kamchatka"))[R.AF_MISSION] == 1.0
    assert attack_features(m, fx, s, MISSIONS, 0, alaska, tid("Alberta"))[R.AF_MISSION] == 0.0
    # 18 territories with 2+ armies: a one-army territory is worth an army.
    st.pl[0, P_MISSION], st.pl[0, P_TARGET] = M_18_TWO, -1
    st.armies[peru] = 2
    assert reinforce_features(m, fx, s, MISSIONS, 0, china)[R.RF_MISSION] == 1.0
    assert reinforce_features(m, fx, s, MISSIONS, 0, peru)[R.RF_MISSION] == 0.0
    st.pl[0, P_MISSION] = M_24
    assert reinforce_features(m, fx, s, MISSIONS, 0, china)[R.RF_MISSION] == 0.0
    assert attack_features(m, fx, s, MISSIONS, 0, alaska, tid("Alberta"))[R.AF_MISSION] == 1.0


def test_bots_and_features_read_one_odds_table() -> None:
    # 100 against 80 is past the exact table: both scale it the same way.
    al, ka = tid("Alaska"), tid("Kamchatka")
    st = position(2, owner={"Alaska": 0}, armies={"Alaska": 100, "Kamchatka": 80})
    p = conquest_probability(100, 80)
    snap = Snapshot(GameView(st, CLASSIC, Rules(), 0), board_of(CLASSIC))
    assert snap.odds(al, ka) == p
    m = CLASSIC.kernel
    assert attack_features(m, feature_context(m), st.kernel, OFF, 0, al, ka)[R.AF_WIN] == p
    assert 0.95 < p < 1.0
