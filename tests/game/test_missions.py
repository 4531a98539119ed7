"""Secret missions: each of the 14 cards, the deal, and the destroy-colour fallback to 24."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine import EndReason, outcome
from game.rules import kernel
from game.rules.layout import (
    A_ATTACK,
    A_PLACE,
    E_OK,
    M_18_TWO,
    M_24,
    M_ASIA_AFR,
    M_ASIA_SAM,
    M_DESTROY,
    M_EUR_AUS_ANY,
    M_EUR_SAM_ANY,
    M_NAM_AFR,
    M_NAM_AUS,
    N_MISSIONS,
    P_ALIVE,
    P_MISSION,
    P_TARGET,
    PH_OVER,
    PH_REINFORCE,
    S_CURRENT,
)
from game.state import Rules, State
from tests.helpers.positions import CLASSIC, continent, position, step, tid

MISSIONS = Rules(missions=True)


def _conts(*names: str) -> list[int]:
    return [t for n in names for t in continent(n)]


def _first(n: int, skip: set[int] | None = None) -> list[int]:
    return [t for t in range(42) if t not in (skip or set())][:n]


# (label, mission, target, territories of seat 0, armies override, done)
CASES: list[tuple[str, int, int, list[int], dict[int, int], bool]] = [
    ("Asia+SA", M_ASIA_SAM, -1, _conts("Asia", "South America"), {}, True),
    ("Asia+SA missing one", M_ASIA_SAM, -1, _conts("Asia", "South America")[1:], {}, False),
    ("Asia+Africa", M_ASIA_AFR, -1, _conts("Asia", "Africa"), {}, True),
    ("Asia alone", M_ASIA_AFR, -1, _conts("Asia"), {}, False),
    ("NA+Africa", M_NAM_AFR, -1, _conts("North America", "Africa"), {}, True),
    ("NA+Australia", M_NAM_AUS, -1, _conts("North America", "Australia"), {}, True),
    ("NA+Australia wrong pair", M_NAM_AUS, -1, _conts("North America", "Africa"), {}, False),
    ("Eur+SA+third", M_EUR_SAM_ANY, -1, _conts("Europe", "South America", "Australia"), {},
     True),
    ("Eur+SA only", M_EUR_SAM_ANY, -1, _conts("Europe", "South America"), {}, False),
    ("Eur+SA+partial third", M_EUR_SAM_ANY, -1,
     _conts("Europe", "South America", "Asia")[:-1], {}, False),
    ("Eur+Aus+third", M_EUR_AUS_ANY, -1, _conts("Europe", "Australia", "Africa"), {}, True),
    ("Eur+Aus only", M_EUR_AUS_ANY, -1, _conts("Europe", "Australia"), {}, False),
    ("18 with two", M_18_TWO, -1, _first(18), dict.fromkeys(_first(18), 2), True),
    ("18, one with one", M_18_TWO, -1, _first(18), dict.fromkeys(_first(17), 2), False),
    ("30, 17 with two", M_18_TWO, -1, _first(30), dict.fromkeys(_first(17), 3), False),
    ("24", M_24, -1, _first(24), {}, True),
    ("23", M_24, -1, _first(23), {}, False),
]
for _k in range(6):  # destroy colour k, held by seat (k + 1) % 6
    CASES.append((f"destroy {_k} done", M_DESTROY + _k, _k, [], {}, True))
    CASES.append((f"destroy {_k} alive", M_DESTROY + _k, _k, [], {}, False))


def test_every_card_covered() -> None:
    assert {c[1] for c in CASES} == set(range(N_MISSIONS))


@pytest.mark.parametrize("label,mid,target,mine,armies,done", CASES, ids=[c[0] for c in CASES])
def test_mission_done(label: str, mid: int, target: int, mine: list[int],
                      armies: dict[int, int], done: bool) -> None:
    if mid >= M_DESTROY:
        holder = (target + 1) % 6
        owner: dict[str | int, int] = {t: t % 6 for t in range(42)}
        if done:  # the target's territories went to the holder
            owner = {t: holder if q == target else q for t, q in owner.items()}
        s = position(6, owner=owner, missions={holder: (mid, target)})
        assert bool(kernel.mission_done(CLASSIC.kernel, s.kernel, holder)) == done
        return
    s = position(2, owner=dict.fromkeys(mine, 0), armies=dict(armies.items()),
                 missions={0: (mid, target)})
    assert bool(kernel.mission_done(CLASSIC.kernel, s.kernel, 0)) == done
    assert not kernel.mission_done(CLASSIC.kernel, s.kernel, 1)  # seat 1 has no mission


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_mission_deal(n: int) -> None:
    """Distinct cards; a destroy card naming the holder or an absent colour becomes 24."""
    draws, n24 = 600, 0
    rng = np.random.default_rng(n)
    for _ in range(draws):
        s = State.empty(CLASSIC, n)
        kernel.setup(CLASSIC.kernel, s.kernel, MISSIONS.vector(), rng)
        mids = s.pl[:, P_MISSION].tolist()
        for q in range(n):
            mid, target = s.mission(q)
            assert 0 <= mid < N_MISSIONS
            if mid >= M_DESTROY:
                assert target == mid - M_DESTROY and target != q and target < n
            else:
                assert target == -1
        others = [x for x in mids if x != M_24]
        assert len(set(others)) == len(others)
        n24 += mids.count(M_24)
    # Per seat: the 24 card itself, its own colour, and the 6 - n colours not in play.
    p = (2 + 6 - n) / 14
    se = (p * (1 - p) / (draws * n)) ** 0.5
    assert abs(n24 / (draws * n) - p) < 4 * se


def test_no_missions_without_the_option() -> None:
    s = State.empty(CLASSIC, 4)
    kernel.setup(CLASSIC.kernel, s.kernel, Rules().vector(), np.random.default_rng(0))
    assert (s.pl[:, P_MISSION] == -1).all() and (s.pl[:, P_TARGET] == -1).all()


def _destroy_position(holder_terr: int) -> State:
    """3 seats: seat 2 holds only Kamchatka (1 army); seat 0's mission is to destroy seat 2."""
    owner: dict[str | int, int] = dict.fromkeys(_first(holder_terr, {tid("Alaska")}), 0)
    owner["Kamchatka"] = 2
    owner["Alaska"] = 1
    return position(3, owner=owner, armies={"Alaska": 10}, missions={0: (M_DESTROY + 2, 2)},
                    current=1)


def _take_kamchatka(s: State, attacker: str) -> State:
    for seed in range(200):
        c = s.copy()
        assert step(c, A_ATTACK, tid(attacker), tid("Kamchatka"), 3, rules=MISSIONS,
                    seed=seed) == E_OK
        if c.pl[2, P_ALIVE] == 0:
            return c
    raise AssertionError("no conquering seed")


def test_destroy_target_taken_by_someone_else_becomes_24() -> None:
    s = _take_kamchatka(_destroy_position(10), "Alaska")
    assert s.mission(0) == (M_24, -1)
    assert s.phase != PH_OVER and s.winner == -1


def test_destroy_fallback_wins_at_once_with_24() -> None:
    s = _take_kamchatka(_destroy_position(24), "Alaska")
    assert s.mission(0) == (M_24, -1)
    assert s.phase == PH_OVER and s.winner == 0
    assert outcome(CLASSIC, s, (0, 1, 2), MISSIONS).reason == EndReason.MISSION


def test_destroy_by_the_holder_wins() -> None:
    s = _destroy_position(10)
    s.owner[tid("Alaska")] = 0
    s.sc[S_CURRENT] = 0  # seat 0 to move
    s = _take_kamchatka(s, "Alaska")
    assert s.phase == PH_OVER and s.winner == 0
    o = outcome(CLASSIC, s, (2, 0, 1), MISSIONS)
    assert o.winner == 2 and o.placements == (2, 3, 1) and o.reason == EndReason.MISSION


def test_continent_mission_completes_on_conquest() -> None:
    mine = [t for t in _conts("Asia", "South America") if t != tid("Argentina")]
    for rules, over in ((MISSIONS, True), (Rules(), False)):
        s = position(2, owner=dict.fromkeys(mine, 0), armies={"Peru": 10},
                     missions={0: (M_ASIA_SAM, -1)})
        for seed in range(200):
            c = s.copy()
            step(c, A_ATTACK, tid("Peru"), tid("Argentina"), 3, rules=rules, seed=seed)
            if c.owner[tid("Argentina")] == 0:
                break
        assert (c.phase == PH_OVER) == over and (c.winner == 0) == over


def test_eighteen_mission_completes_on_a_placement() -> None:
    mine = _first(18)
    s = position(2, owner=dict.fromkeys(mine, 0), armies=dict.fromkeys(mine[1:], 2),
                 missions={0: (M_18_TWO, -1)}, phase=PH_REINFORCE, pool=3)
    assert step(s, A_PLACE, mine[1], 1, rules=MISSIONS) == E_OK
    assert s.phase == PH_REINFORCE  # still one territory with a single army
    assert step(s, A_PLACE, mine[0], 1, rules=MISSIONS) == E_OK
    assert s.phase == PH_OVER and s.winner == 0


def test_missions_need_the_classic_continents() -> None:
    from game.map import build_map
    from game.state import RulesError

    tiny = build_map({"continents": [{"name": "X", "bonus": 1, "territories": ["A", "B"]}],
                      "borders": [["A", "B"]]})
    with pytest.raises(RulesError, match="missions"):
        MISSIONS.check(tiny, 2)
