"""Rule tests on hand-built positions: setup, reinforcements, attack, move-in, fortify, turns."""

from __future__ import annotations

import numpy as np
import pytest

from game.rules import kernel
from game.rules.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_FORTIFY,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
    CARD_DECK,
    E_COUNT,
    E_DICE,
    E_MOVE_BOUNDS,
    E_NOT_ADJACENT,
    E_NOT_CONNECTED,
    E_NOT_OWNER,
    E_OK,
    E_OVER,
    E_OWN_TARGET,
    E_PHASE,
    E_TERRITORY,
    E_TOO_FEW,
    EV_LOSS_A,
    EV_LOSS_D,
    P_ALIVE,
    P_ELIM_ORDER,
    P_RECEIVED,
    P_SETUP_LEFT,
    PH_ATTACK,
    PH_FORTIFY,
    PH_OCCUPY,
    PH_OVER,
    PH_REINFORCE,
    PH_SETUP,
    S_CAPPED,
    S_N_ELIM,
    S_ROUND,
    S_WINNER,
)
from game.state import Rules, State
from tests.helpers.positions import CLASSIC, conquer, continent, own, position, step, tid

# --- setup -----------------------------------------------------------------------------------

@pytest.mark.parametrize("n,start", [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_setup_deal_and_starting_armies(n: int, start: int) -> None:
    for seed in range(5):
        s = State.empty(CLASSIC, n)
        perm = kernel.setup(CLASSIC.kernel, s.kernel, Rules().vector(),
                            np.random.default_rng(seed))
        assert sorted(perm.tolist()) == list(range(n))
        counts = np.bincount(s.owner, minlength=n)
        assert counts.max() - counts.min() <= 1 and counts.sum() == 42
        assert (s.armies == 1).all()
        assert (counts + s.pl[:, P_SETUP_LEFT] == start).all()
        assert (s.pl[:, P_RECEIVED] == counts).all()
        assert (s.cards == CARD_DECK).all()
        assert s.phase == PH_SETUP and s.current == 0 and s.round == 0


@pytest.mark.parametrize("n,start", [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_setup_placement_one_at_a_time_in_seat_order(n: int, start: int) -> None:
    s = State.empty(CLASSIC, n)
    rng = np.random.default_rng(3)
    kernel.setup(CLASSIC.kernel, s.kernel, Rules().vector(), rng)
    held = [int((s.owner == q).sum()) for q in range(n)]
    order = []
    while s.phase == PH_SETUP:
        seat = s.current
        order.append(seat)
        t = int(np.flatnonzero(s.owner == seat)[0])
        assert step(s, A_PLACE, t, 2) == E_COUNT  # initial armies go one at a time
        assert step(s, A_PLACE, t, 1) == E_OK
    # Seats take turns in order, each placing start - held armies (a seat that is done drops
    # out of the rotation).
    for q in range(n):
        assert order.count(q) == start - held[q]
    first = min(start - h for h in held)
    assert order[: n * first] == list(range(n)) * first
    assert s.round == 1 and s.current == 0 and s.phase == PH_REINFORCE
    assert int(s.armies.sum()) == n * start


# --- reinforcements --------------------------------------------------------------------------

def _partial(n: int) -> list[int]:
    """n territories that complete no continent (each continent's last one is left out)."""
    last = {c: max(continent(c)) for c in CLASSIC.continents}
    return [t for t in range(42) if t not in last.values()][:n]


REINFORCE_TABLE = [
    ("one territory", [0], 3),
    ("eleven", _partial(11), 3),
    ("twelve", _partial(12), 4),
    ("fifteen", _partial(15), 5),
    ("thirty-six", _partial(36), 12),
    ("Australia", continent("Australia"), 3 + 2),
    ("South America", continent("South America"), 3 + 2),
    ("Africa", continent("Africa"), 3 + 3),
    ("Europe", continent("Europe"), 3 + 5),
    ("North America", continent("North America"), 3 + 5),
    ("Asia", continent("Asia"), 4 + 7),
    ("Asia minus Japan", [t for t in continent("Asia") if t != tid("Japan")], 3),
    ("NA + SA", continent("North America") + continent("South America"), 4 + 7),
    ("all but one", [t for t in range(42) if t != tid("Eastern Australia")], 13 + 22),
]


@pytest.mark.parametrize("label,mine,expected", REINFORCE_TABLE,
                         ids=[r[0] for r in REINFORCE_TABLE])
def test_reinforcement_count(label: str, mine: list[int], expected: int) -> None:
    s = position(2, owner=own(mine), phase=PH_FORTIFY, current=1)
    assert kernel.reinforcements(CLASSIC.kernel, s.kernel, 0) == expected
    assert step(s, A_SKIP) == E_OK  # seat 1 ends its turn: seat 0's begins
    assert s.current == 0 and s.phase == PH_REINFORCE and s.pool == expected


def test_whole_board_reinforcement() -> None:
    s = position(2, default_owner=0)
    assert kernel.reinforcements(CLASSIC.kernel, s.kernel, 0) == 14 + 24


@pytest.mark.parametrize("kind,t,count,err", [
    (A_PLACE, "Alaska", 1, E_OK), (A_PLACE, "Alaska", 5, E_OK),
    (A_PLACE, "Alaska", 0, E_COUNT), (A_PLACE, "Alaska", 6, E_COUNT),
    (A_PLACE, "Alaska", -1, E_COUNT), (A_PLACE, "Kamchatka", 1, E_NOT_OWNER),
    (A_PLACE, 42, 1, E_TERRITORY), (A_PLACE, -1, 1, E_TERRITORY),
    (A_ATTACK, "Alaska", 1, E_PHASE), (A_END_TRADE, 0, 0, E_PHASE),
])
def test_reinforce_legality(kind: int, t: str | int, count: int, err: int) -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_REINFORCE, pool=5, armies={"Alaska": 1})
    before = s.copy()
    a = tid(t) if isinstance(t, str) else t
    assert step(s, kind, a, count) == err
    if err:
        assert s == before
    else:
        assert s.armies[tid("Alaska")] == 1 + count
        assert s.pl[0, P_RECEIVED] == count
        assert s.pool == 5 - count if count < 5 else s.phase == PH_ATTACK


# --- attack, move-in -------------------------------------------------------------------------

@pytest.mark.parametrize("src,dst,dice,err", [
    ("Alaska", "Kamchatka", 0, E_OK), ("Alaska", "Kamchatka", 3, E_OK),
    ("Alaska", "Kamchatka", 4, E_DICE), ("Alaska", "Kamchatka", -1, E_DICE),
    ("Alberta", "Ontario", 1, E_TOO_FEW), ("Kamchatka", "Alaska", 1, E_NOT_OWNER),
    ("Alaska", "Alberta", 1, E_OWN_TARGET), ("Alaska", "Japan", 1, E_NOT_ADJACENT),
    ("Alaska", 42, 1, E_TERRITORY), (-1, "Alaska", 1, E_TERRITORY),
])
def test_attack_legality(src: str | int, dst: str | int, dice: int, err: int) -> None:
    # Kamchatka's 3 armies cannot fall in one roll: the accounting below sees no conquest.
    s = position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 4, "Kamchatka": 3})
    before = s.copy()
    a = tid(src) if isinstance(src, str) else src
    b = tid(dst) if isinstance(dst, str) else dst
    assert step(s, A_ATTACK, a, b, dice) == err
    if err:
        assert s == before
        return
    # One roll: the attacker rolled `dice` (0: as many as allowed), the defender as many as
    # allowed; the losses are the compared pairs, taken from exactly these two territories.
    la, ld = int(s.ev[EV_LOSS_A]), int(s.ev[EV_LOSS_D])
    n_att = dice or min(3, int(before.armies[a]) - 1)
    n_def = min(2, int(before.armies[b]))
    assert la + ld == min(n_att, n_def)
    assert int(s.armies[a]) == int(before.armies[a]) - la
    assert int(s.armies[b]) == int(before.armies[b]) - ld
    rest = np.setdiff1d(np.arange(42), [a, b])
    assert (s.armies[rest] == before.armies[rest]).all() and (s.owner == before.owner).all()


def test_attacker_dice_capped_by_armies() -> None:
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": 3, "Kamchatka": 5})
    assert step(s.copy(), A_ATTACK, tid("Alaska"), tid("Kamchatka"), 3) == E_DICE
    assert step(s.copy(), A_ATTACK, tid("Alaska"), tid("Kamchatka"), 2) == E_OK


def test_wrong_action_for_phase_and_stop() -> None:
    s = position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 4})
    for kind in (A_PLACE, A_TRADE, A_MOVE, A_FORTIFY, A_SKIP, A_END_TRADE):
        assert step(s, kind, 0, 1, 1) == E_PHASE
    assert step(s, A_STOP) == E_OK and s.phase == PH_FORTIFY


@pytest.mark.parametrize("armies,dice,lo,hi", [
    (10, 1, 1, 9), (10, 2, 2, 9), (10, 3, 3, 9), (5, 3, 3, 4), (3, 2, 2, 2), (4, 3, 3, 3),
    (2, 1, 1, 1),
])
def test_move_in_bounds(armies: int, dice: int, lo: int, hi: int) -> None:
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": armies})
    s = conquer(s, "Alaska", "Kamchatka", dice)
    al, ka = tid("Alaska"), tid("Kamchatka")
    if lo == hi:  # a single legal count is applied without asking
        assert s.phase != PH_OCCUPY
        assert s.armies[ka] == lo and s.armies[al] == armies - lo
        return
    assert s.phase == PH_OCCUPY and s.armies[ka] == 0
    assert tuple(kernel.occupy_bounds(s.kernel)) == (lo, hi)
    for n, err in ((lo - 1, E_MOVE_BOUNDS), (hi + 1, E_MOVE_BOUNDS), (0, E_MOVE_BOUNDS)):
        before = s.copy()
        assert step(s, A_MOVE, n) == err and s == before
    for n in (lo, hi):
        c = s.copy()
        assert step(c, A_MOVE, n) == E_OK
        assert c.armies[ka] == n and c.armies[al] == armies - n


def test_last_elimination_wins_and_moves_in() -> None:
    s = position(2, owner={"Kamchatka": 1}, default_owner=0, armies={"Alaska": 10})
    s = conquer(s, "Alaska", "Kamchatka", 3)
    assert s.phase == PH_OVER and s.winner == 0 and s.pl[1, P_ALIVE] == 0
    assert s.armies[tid("Kamchatka")] == 3 and s.armies[tid("Alaska")] == 7
    assert step(s, A_STOP) == E_OVER
    assert kernel.placements(s.kernel).tolist() == [1, 2]


# --- fortify ---------------------------------------------------------------------------------

FORTIFY = [  # seat 0: Alaska 5 - Alberta - Ontario - Quebec chain, and Peru cut off
    ("adjacent", "Alaska", "Alberta", 4, E_OK, E_OK),
    ("adjacent, one", "Alaska", "Alberta", 1, E_OK, E_OK),
    ("two steps", "Alaska", "Ontario", 1, E_NOT_CONNECTED, E_OK),
    ("three steps", "Alaska", "Quebec", 2, E_NOT_CONNECTED, E_OK),
    ("no own path", "Alaska", "Peru", 1, E_NOT_CONNECTED, E_NOT_CONNECTED),
    ("to enemy", "Alaska", "Kamchatka", 1, E_NOT_OWNER, E_NOT_OWNER),
    ("from enemy", "Kamchatka", "Alaska", 1, E_NOT_OWNER, E_NOT_OWNER),
    ("all armies", "Alaska", "Alberta", 5, E_COUNT, E_COUNT),
    ("zero", "Alaska", "Alberta", 0, E_COUNT, E_COUNT),
    ("from a single army", "Alberta", "Alaska", 1, E_COUNT, E_COUNT),
    ("same territory", "Alaska", "Alaska", 1, E_TERRITORY, E_TERRITORY),
    ("off the board", "Alaska", 42, 1, E_TERRITORY, E_TERRITORY),
]


@pytest.mark.parametrize("label,src,dst,count,err,err_path", FORTIFY,
                         ids=[f[0] for f in FORTIFY])
@pytest.mark.parametrize("path", [False, True])
def test_fortify_legality(label: str, src: str, dst: str | int, count: int, err: int,
                          err_path: int, path: bool) -> None:
    s = position(2, owner=own([tid(n) for n in ("Alaska", "Alberta", "Ontario", "Quebec",
                                                  "Peru")]),
                 armies={"Alaska": 5}, phase=PH_FORTIFY)
    before = s.copy()
    b = tid(dst) if isinstance(dst, str) else dst
    expected = err_path if path else err
    assert step(s, A_FORTIFY, tid(src), b, count, rules=Rules(path_fortify=path)) == expected
    if expected:
        assert s == before
    else:
        assert s.armies[tid(src)] == 5 - count and s.armies[b] == 1 + count
        assert s.current == 1  # fortifying ends the turn


# --- rounds, cap, placements -----------------------------------------------------------------

@pytest.mark.parametrize("current,dead,nxt,round_up", [
    (0, (), 1, False), (2, (), 0, True), (0, (1,), 2, False), (1, (2,), 0, True),
    (2, (0,), 1, True),
])
def test_turn_order_and_round_counting(current: int, dead: tuple[int, ...], nxt: int,
                                       round_up: bool) -> None:
    owner: dict[str | int, int] = {"Alaska": 0, "Kamchatka": 1, "Japan": 2}
    for q in dead:
        owner = {k: (v if v != q else (q + 1) % 3) for k, v in owner.items()}
    s = position(3, owner=owner, default_owner=(set(range(3)) - set(dead)).pop(),
                 phase=PH_FORTIFY, current=current, round_=7)
    s.sc[S_N_ELIM] = len(dead)
    assert step(s, A_SKIP) == E_OK
    assert s.current == nxt and s.round == 7 + round_up


@pytest.mark.parametrize("cap,round_,over", [(7, 7, True), (8, 7, False), (1, 1, True)])
def test_cap_ends_after_the_last_round(cap: int, round_: int, over: bool) -> None:
    s = position(2, owner={"Alaska": 0}, phase=PH_FORTIFY, current=1, round_=round_)
    assert step(s, A_SKIP, rules=Rules(cap=cap)) == E_OK
    assert (s.phase == PH_OVER) == over and bool(s.sc[S_CAPPED]) == over
    if over:
        assert s.winner == -1 and s.sc[S_ROUND] == cap + 1
        assert step(s, A_PLACE, tid("Alaska"), 1) == E_OVER


PLACES = [
    # (territories, armies, elimination order) per seat; winner seat or -1; expected places
    ("clear order", [(20, 40, 0), (12, 30, 0), (10, 10, 0)], -1, [1, 2, 3]),
    ("territories first", [(10, 99, 0), (12, 12, 0), (20, 20, 0)], -1, [3, 2, 1]),
    ("armies break ties", [(14, 20, 0), (14, 30, 0), (14, 25, 0)], -1, [3, 1, 2]),
    ("tie kept", [(14, 20, 0), (14, 20, 0), (14, 30, 0)], -1, [2, 2, 1]),
    ("all tied", [(14, 20, 0), (14, 20, 0), (14, 20, 0)], -1, [1, 1, 1]),
    ("eliminated last", [(0, 0, 1), (21, 30, 0), (21, 30, 0)], -1, [3, 1, 1]),
    ("later elim is better", [(0, 0, 2), (42, 50, 0), (0, 0, 1)], 1, [2, 1, 3]),
    ("winner over bigger", [(30, 60, 0), (12, 12, 0), (0, 0, 1)], 1, [2, 1, 3]),
]


@pytest.mark.parametrize("label,seats,winner,expected", PLACES, ids=[p[0] for p in PLACES])
def test_placements(label: str, seats: list[tuple[int, int, int]], winner: int,
                    expected: list[int]) -> None:
    s = position(3, phase=PH_OVER)
    t = 0
    for q, (terr, arm, elim) in enumerate(seats):
        s.owner[t:t + terr] = q
        s.armies[t:t + terr] = 1
        if terr:
            s.armies[t] += arm - terr
        t += terr
        s.pl[q, P_ALIVE] = int(elim == 0)
        s.pl[q, P_ELIM_ORDER] = elim
    assert t == 42  # each row covers the board
    s.sc[S_WINNER] = winner
    assert kernel.placements(s.kernel).tolist() == expected
