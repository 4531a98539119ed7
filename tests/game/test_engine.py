"""The general game loop: determinism, protocol errors, and the outcome of a game."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from game import (
    Attack,
    EndReason,
    Fortify,
    GameView,
    IllegalActionError,
    Place,
    Rules,
    RulesError,
    Trade,
    play_game,
)
from game.bots import RandomBot
from game.map import Map, build_map
from game.rules.layout import EV_LOSS_D, EV_ROLL, PH_FORTIFY, S_POOL
from game.state import RULE_FLAGS, RULE_NUMBERS, State
from tests.helpers.positions import CLASSIC, Aggressive, position

# --- determinism -----------------------------------------------------------------------------


def _game(seed: Any, n: int = 4, **kw: Any) -> Any:
    return play_game([RandomBot() for _ in range(n)], seed=seed, transcript=True,
                     rules=Rules(cap=kw.pop("cap", 15)), **kw)


def test_same_seed_same_game() -> None:
    a, b = _game(11), _game(11)
    assert a == b and a.transcript == b.transcript
    assert _game(12).transcript != a.transcript


def test_seed_forms_agree() -> None:
    a = _game(5)
    assert _game(np.random.SeedSequence(5)) == a
    g1 = np.random.Generator(np.random.PCG64(99))
    g2 = np.random.Generator(np.random.PCG64(99))
    assert _game(g1) == _game(g2)


def test_seed_sequence_reused_replays() -> None:
    """A SeedSequence object passed twice gives the same game: play_game must not spawn from it."""
    ss = np.random.SeedSequence(5)
    a = _game(ss)
    assert ss.n_children_spawned == 0
    assert _game(ss) == a and _game(ss).transcript == a.transcript
    assert a == _game(5)


def test_players_reused_replay_identically() -> None:
    players = [RandomBot() for _ in range(3)]
    a = play_game(players, seed=3, rules=Rules(cap=10), transcript=True)
    b = play_game(players, seed=3, rules=Rules(cap=10), transcript=True)
    assert a == b


def test_seat_order_is_drawn() -> None:
    orders = {_game(s, cap=1).seats for s in range(30)}
    assert len(orders) > 5 and all(sorted(o) == [0, 1, 2, 3] for o in orders)


@pytest.mark.parametrize("seed", ["7", 1.5, True, None])
def test_bad_seed_type(seed: Any) -> None:
    with pytest.raises(TypeError, match="seed must be"):
        _game(seed)


# --- rules and player counts -----------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 7])
def test_player_count(n: int) -> None:
    with pytest.raises(RulesError, match="players must be 2..6"):
        play_game([RandomBot() for _ in range(n)], seed=0)


def _tiny_map() -> Map:
    """Three territories in a row: at most 3 players fit."""
    return build_map({"name": "tiny",
                      "continents": [{"name": "X", "bonus": 1, "territories": ["A", "B", "C"]}],
                      "borders": [["A", "B"], ["B", "C"]]}, "tiny")


@pytest.mark.parametrize("n", [4, 5, 6])
def test_more_players_than_territories(n: int) -> None:
    m = _tiny_map()
    Rules().check(m, 3)  # one territory each is playable
    with pytest.raises(RulesError, match=rf"players.*{n}|{n}.*players") as e:
        Rules().check(m, n)
    msg = str(e.value)
    assert "\n" not in msg and "3" in msg and "territor" in msg
    with pytest.raises(RulesError, match="territor"):
        play_game([RandomBot() for _ in range(n)], map=m, seed=0)


@pytest.mark.parametrize("kw,pattern", [
    ({"cap": 0}, "rules.cap"), ({"cap": True}, "rules.cap"), ({"cap": 2.5}, "rules.cap"),
    ({"missions": 1}, "rules.missions"), ({"path_fortify": "yes"}, "rules.path_fortify"),
])
def test_bad_rules(kw: dict[str, Any], pattern: str) -> None:
    with pytest.raises(RulesError, match=pattern):
        Rules(**kw)


def test_rules_parse() -> None:
    assert Rules.parse("missions, cap=50") == Rules(missions=True, cap=50)
    assert Rules.parse("") == Rules()
    with pytest.raises(RulesError,
                       match=r"unknown rules option 'bogus' \(allowed: bonus_every_set, cap, "):
        Rules.parse("bogus")
    with pytest.raises(RulesError, match="rules.cap must be a whole number"):
        Rules.parse("cap=x")


@pytest.mark.parametrize("text,rules", [
    ("missions=true,cap=50", Rules(missions=True, cap=50)),
    ("missions=false", Rules()),
    ("missions=false,fixed_cards=true", Rules(fixed_cards=True)),
    ("path_fortify=True", Rules(path_fortify=True)),
])
def test_rules_parse_true_false(text: str, rules: Rules) -> None:
    assert Rules.parse(text) == rules


@pytest.mark.parametrize("text,name", [("missions=maybe", "missions"),
                                       ("fixed_cards=2", "fixed_cards")])
def test_rules_parse_bad_flag_value(text: str, name: str) -> None:
    with pytest.raises(RulesError, match=rf"rules\.{name} must be true or false") as e:
        Rules.parse(text)
    assert "\n" not in str(e.value)


# --- outcome ---------------------------------------------------------------------------------

def test_capped_outcome() -> None:
    o = _game(2, cap=4)
    assert o.capped and o.rounds == 4 and o.winner is None and o.reason == EndReason.CAP
    assert o.transcript is not None and o.transcript[-1].startswith("end rounds=4 winner=-1")
    # Survivors by territories then armies; ties share the better place.
    keys = [(-s.territories, -s.armies) for s in o.stats]
    for i in range(4):
        assert o.placements[i] == 1 + sum(k < keys[i] for k in keys)
    assert sum(s.territories for s in o.stats) == 42


@pytest.mark.parametrize("n,seed", [(2, 0), (3, 0), (4, 1), (6, 4)])
def test_domination_outcome(n: int, seed: int) -> None:
    o = play_game([Aggressive() for _ in range(n)], seed=seed)
    assert not o.capped and o.reason == EndReason.DOMINATION and o.winner is not None
    assert o.placements[o.winner] == 1 and sorted(o.placements) == list(range(1, n + 1))
    w = o.stats[o.winner]
    assert w.territories == 42 and w.eliminations >= 1 and w.conquests >= 1
    assert all(s.territories == 0 for i, s in enumerate(o.stats) if i != o.winner)
    assert sum(s.eliminations for s in o.stats) == n - 1
    assert 1 <= o.rounds < 100
    for s in o.stats:
        assert s.received - s.lost == s.armies


def test_outcome_in_player_order() -> None:
    """Player i keeps its index whatever seat it drew: a strong bot wins from any seat."""
    wins = 0
    for seed in range(6):
        players: list[Any] = [RandomBot(), Aggressive()]
        o = play_game(players, seed=seed)
        wins += o.winner == 1
        assert o.placements[o.seats[0]] in (1, 2)
    assert wins >= 5


# --- protocol errors -------------------------------------------------------------------------

class Faulty(RandomBot):
    """RandomBot that answers `bad(view, *args)` at the first decision of method `where`.

    It snapshots the state and the game generator just before answering, so that the test can
    check that the illegal answer left both untouched.
    """

    def __init__(self, where: str, bad: Any, game_rng: np.random.Generator | None = None,
                 when: Any = None) -> None:
        super().__init__()
        self.where, self.bad, self.game_rng, self.when = where, bad, game_rng, when
        self.before: State | None = None
        self.rng_before: Any = None
        self.view: GameView | None = None

    def _maybe(self, method: str, view: GameView, *args: Any) -> Any:
        if method == self.where and self.before is None and (self.when is None
                                                             or self.when(view, *args)):
            self.before, self.view = view.full_state().copy(), view
            if self.game_rng is not None:
                self.rng_before = self.game_rng.bit_generator.state
            return self.bad(view, *args)
        return getattr(super(), method)(view, *args)

    def place_initial(self, view: GameView) -> int:
        return self._maybe("place_initial", view)  # type: ignore[no-any-return]

    def reinforce(self, view: GameView, armies: int) -> Place:
        return self._maybe("reinforce", view, armies)  # type: ignore[no-any-return]

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        return self._maybe("trade", view, compulsory)  # type: ignore[no-any-return]

    def attack(self, view: GameView) -> Attack | None:
        return self._maybe("attack", view)  # type: ignore[no-any-return]

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        return self._maybe("move_in", view, lo, hi)  # type: ignore[no-any-return]

    def fortify(self, view: GameView) -> Fortify | None:
        return self._maybe("fortify", view)  # type: ignore[no-any-return]


def _enemy(view: GameView) -> int:
    return int(np.flatnonzero(view.owner != view.seat)[0])


def _own(view: GameView) -> int:
    return int(view.mine()[0])


def _first_attack(view: GameView) -> tuple[int, int]:
    return view.attack_options()[0]


def _far_own_pair(view: GameView) -> Fortify | None:
    mine = view.mine()
    for a in mine:
        for b in mine:
            if view.armies[a] >= 2 and a != b and not view.map.adjacency[a, b]:
                return Fortify(int(a), int(b), 1)
    return Fortify(_own(view), _own(view), 1)


PROTOCOL_ERRORS: list[tuple[str, str, Any, Any, str]] = [
    ("enemy initial", "place_initial", lambda v: _enemy(v), None, "not yours"),
    ("off-board initial", "place_initial", lambda v: 42, None, "no such territory"),
    ("string initial", "place_initial", lambda v: "Alaska", None, "territory index"),
    ("bool initial", "place_initial", lambda v: True, None, "territory index"),
    ("too many", "reinforce", lambda v, n: Place(_own(v), n + 1), None, "count out of range"),
    ("zero", "reinforce", lambda v, n: Place(_own(v), 0), None, "count out of range"),
    ("enemy reinforce", "reinforce", lambda v, n: Place(_enemy(v), 1), None, "not yours"),
    ("no reinforce", "reinforce", lambda v, n: None, None, "expected Place"),
    ("attack as reinforce", "reinforce", lambda v, n: Attack(0, 1), None, "expected Place"),
    ("refuse compulsory", "trade", lambda v, c: None, lambda v, c: c, "compulsory"),
    ("not a set", "trade", lambda v, c: Trade((*tuple(v.hand[:2]), v.hand[0])), None,
     "three different cards"),
    ("other's card", "trade", lambda v, c: Trade((*v.hand[:2], int(
        np.flatnonzero(v.state.cards == (v.seat + 1) % v.n_players)[0]) if (
        v.state.cards == (v.seat + 1) % v.n_players).any() else 44)), None, "own hand"),
    ("own target", "attack", lambda v: Attack(v.attack_options()[0][0],
                                               v.attack_options()[0][0]), None, "your own"),
    ("not adjacent", "attack", lambda v: Attack(v.attack_options()[0][0], next(
        t for t in range(42) if v.owner[t] != v.seat
        and not v.map.adjacency[v.attack_options()[0][0], t])), None, "share a border"),
    ("too many dice", "attack", lambda v: Attack(*_first_attack(v), 4), None, "dice"),
    ("place in attack", "attack", lambda v: Place(_own(v), 1), None, "expected Attack"),
    ("move too few", "move_in", lambda v, lo, hi: lo - 1, None, "move-in must be"),
    ("move too many", "move_in", lambda v, lo, hi: hi + 1, None, "move-in must be"),
    ("move float", "move_in", lambda v, lo, hi: float(lo), None, "number of armies"),
    ("fortify far", "fortify", _far_own_pair, None, "border|territory"),
    ("fortify all", "fortify", lambda v: Fortify(v.fortify_options()[0][0], v.fortify_options(
    )[0][1], int(v.armies[v.fortify_options()[0][0]])), lambda v: bool(v.fortify_options()),
     "count out of range"),
    ("fortify enemy", "fortify", lambda v: Fortify(_own(v), _enemy(v), 1), None, "not yours"),
]


@pytest.mark.parametrize("label,where,bad,when,pattern", PROTOCOL_ERRORS,
                         ids=[p[0] for p in PROTOCOL_ERRORS])
def test_illegal_decision_raises_and_keeps_state(label: str, where: str, bad: Any, when: Any,
                                                 pattern: str) -> None:
    for seed in range(40):  # some decisions (a compulsory trade) need a seed that reaches them
        rng = np.random.Generator(np.random.PCG64(seed))
        f = Faulty(where, bad, rng, when)
        players: list[Any] = [f, Aggressive(), RandomBot()]
        try:
            play_game(players, seed=rng, rules=Rules(cap=30))
        except IllegalActionError as e:
            assert f.before is not None and f.view is not None, e
            assert len(str(e).splitlines()) == 1
            assert re.search(pattern, str(e)), str(e)
            assert f.view.full_state() == f.before
            assert rng.bit_generator.state == f.rng_before
            return
        assert f.before is None, "an illegal answer was accepted"
    pytest.fail(f"no seed reached the decision {where}")


TYPE_GARBAGE: list[tuple[str, str, Any]] = [
    ("string territory", "reinforce", lambda v, n: Place("Alaska", 1)),  # type: ignore[arg-type]
    ("float territory", "reinforce", lambda v, n: Place(float(_own(v)), 1)),  # type: ignore[arg-type]
    ("float count", "reinforce", lambda v, n: Place(_own(v), 1.0)),  # type: ignore[arg-type]
    ("bool count", "reinforce", lambda v, n: Place(_own(v), True)),
    ("huge territory", "reinforce", lambda v, n: Place(2**70, 1)),
    ("None dice", "attack", lambda v: Attack(_own(v), _enemy(v), None)),  # type: ignore[arg-type]
    ("short trade", "trade", lambda v, c: Trade(tuple(v.hand[:2]))),  # type: ignore[arg-type]
    ("string fortify", "fortify", lambda v: Fortify(_own(v), _own(v), "1")),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("label,where,bad", TYPE_GARBAGE, ids=[g[0] for g in TYPE_GARBAGE])
def test_ill_typed_fields_are_illegal_actions(label: str, where: str, bad: Any) -> None:
    """Wrong types inside an action must be an IllegalActionError, not a numba/Python crash."""
    for seed in range(40):
        rng = np.random.Generator(np.random.PCG64(seed))
        f = Faulty(where, bad, rng)
        try:
            play_game([f, Aggressive(), RandomBot()], seed=rng, rules=Rules(cap=30))
        except IllegalActionError:
            assert f.view is not None and f.view.full_state() == f.before
            return
        assert f.before is None
    pytest.fail(f"no seed reached the decision {where}")


def test_fortify_phase_constant() -> None:
    # The view reports the phase the player is asked in.
    seen: list[int] = []

    class Spy(RandomBot):
        def fortify(self, view: GameView) -> Fortify | None:
            seen.append(view.phase)
            return super().fortify(view)

    play_game([Spy(), RandomBot()], seed=1, rules=Rules(cap=3))
    assert seen and set(seen) == {PH_FORTIFY}


def test_state_equality_is_the_position_not_the_last_roll() -> None:
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": 9})
    other = s.copy()
    assert other.kernel.ev is not s.kernel.ev and other == s
    # Other dice and losses of the last roll are not another position; another pool is.
    other.ev[EV_ROLL:EV_ROLL + 3] = (6, 5, 4)
    other.ev[EV_LOSS_D] = 2
    assert other == s and not np.array_equal(other.ev, s.ev)
    other.sc[S_POOL] += 1
    assert other != s
    view = s.readonly()
    assert view == s and not view.ev.flags.writeable and np.shares_memory(view.kernel.ev, s.ev)


@pytest.mark.parametrize("rules", [
    Rules(), Rules(missions=True, cap=50), Rules(fixed_cards=True, path_fortify=True),
    Rules(bonus_every_set=True, trade_at=4, cap=7)])
def test_rules_text_reads_back_and_names_each_flag_on(rules: Rules) -> None:
    assert Rules.parse(rules.text()) == rules
    assert rules.flags_on() == [f for f in RULE_FLAGS if getattr(rules, f)]
    assert set(RULE_FLAGS) | set(RULE_NUMBERS) == {f.name for f in fields(Rules)}


def test_a_state_copies_into_another_in_place_one_buffer_or_six_arrays() -> None:
    s = position(3, owner={"Alaska": 2}, armies={"Alaska": 9})
    s.ev[EV_LOSS_D] = 2
    fresh = State.empty(CLASSIC, 3)
    assert fresh.flat is not None and all(np.shares_memory(a, fresh.flat) for a in fresh.kernel)
    six = State(*(a.copy() for a in s.kernel))  # six arrays of their own: no flat buffer
    assert six.flat is None
    for dst, src in [(fresh, s), (State.empty(CLASSIC, 3), fresh.readonly()),
                     (State(*(np.zeros_like(a) for a in s.kernel)), s),
                     (State.empty(CLASSIC, 3), six)]:
        dst.copy_from(src)
        assert dst == src and np.array_equal(dst.ev, src.ev)
    copy = fresh.copy()
    assert copy.flat is not None and not np.shares_memory(copy.flat, fresh.flat) and copy == s
