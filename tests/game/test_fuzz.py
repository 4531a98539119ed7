"""Property-based fuzzing of the player protocol with legal and illegal decisions (hypothesis).

A fuzzing player answers legally (a RandomBot) except at a few decisions hypothesis picks, where
it answers garbage: out-of-range or other seats' territories, bad counts, other players' cards,
actions of the wrong kind. Garbage that happens to be legal is played; garbage that is not must
raise IllegalActionError and leave the state and the game's generator bit-identical.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from game import Attack, Fortify, GameView, IllegalActionError, MoveIn, Place, Rules, State, Trade
from game.bots import RandomBot
from tests.helpers.invariants import check

_SETTINGS = settings(max_examples=100, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _int_garbage(view: GameView) -> st.SearchStrategy[Any]:
    """Well-typed but mostly illegal answers for the current position."""
    s = view.full_state()
    mine = [int(t) for t in view.mine()] or [0]
    theirs = [int(t) for t in np.flatnonzero(s.owner != view.seat)] or [0]
    terr = st.one_of(st.integers(-3, 45), st.sampled_from(mine), st.sampled_from(theirs))
    count = st.one_of(st.integers(-3, 8), st.integers(-(2**31), 2**31 - 1))
    card = st.one_of(st.integers(-3, 46), st.sampled_from(range(44)))
    own_cards = list(view.hand)
    if len(own_cards) >= 3:
        card = st.one_of(card, st.sampled_from(own_cards))
    return st.one_of(
        st.none(), count, terr,
        st.builds(Place, terr, count),
        st.builds(Trade, st.tuples(card, card, card)),
        st.builds(Attack, terr, terr, st.integers(-2, 5)),
        st.builds(MoveIn, count),
        st.builds(Fortify, terr, terr, count),
    )


def _any_garbage(view: GameView) -> st.SearchStrategy[Any]:
    """Also wrong types inside and outside the action objects."""
    junk = st.one_of(st.text(max_size=3), st.floats(), st.booleans(), st.none(),
                     st.integers(2**40, 2**70), st.lists(st.integers(0, 5), max_size=4))
    return st.one_of(
        _int_garbage(view), junk,
        st.builds(Place, junk, junk), st.builds(Place, st.sampled_from(list(view.mine())), junk),
        st.builds(Trade, junk), st.builds(Attack, junk, junk, junk),
        st.builds(Fortify, junk, junk, junk), st.builds(MoveIn, junk),
    )


METHODS = ("place_initial", "reinforce", "trade", "attack", "move_in", "fortify")


class Fuzzer(RandomBot):
    """A RandomBot that answers garbage at the decisions numbered in `at`."""

    def __init__(self, data: Any, at: set[tuple[str, int]], garbage: Any,
                 game_rng: np.random.Generator, rules: Rules) -> None:
        super().__init__()
        self.data, self.at, self.garbage, self.game_rng, self.rules = data, at, garbage, \
            game_rng, rules
        self.calls: dict[str, int] = {}
        self.snapshot: tuple[State, Any] | None = None
        self.view: GameView | None = None
        self.accepted = 0

    def _answer(self, method: str, view: GameView, *args: Any) -> Any:
        self.view = view
        k = self.calls[method] = self.calls.get(method, 0) + 1
        if self.snapshot is not None:
            self.accepted += 1  # the previous garbage was legal and played
            self.snapshot = None
            check(view.full_state(), self.rules)
        if (method, k) in self.at:
            self.snapshot = (view.full_state().copy(), self.game_rng.bit_generator.state)
            event(f"garbage in {method}")
            return self.data.draw(self.garbage(view), label=f"{method} #{k}")
        return getattr(super(), method)(view, *args)

    def place_initial(self, view: GameView) -> int:
        return self._answer("place_initial", view)  # type: ignore[no-any-return]

    def reinforce(self, view: GameView, armies: int) -> Place:
        return self._answer("reinforce", view, armies)  # type: ignore[no-any-return]

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        return self._answer("trade", view, compulsory)  # type: ignore[no-any-return]

    def attack(self, view: GameView) -> Attack | None:
        return self._answer("attack", view)  # type: ignore[no-any-return]

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        return self._answer("move_in", view, lo, hi)  # type: ignore[no-any-return]

    def fortify(self, view: GameView) -> Fortify | None:
        return self._answer("fortify", view)  # type: ignore[no-any-return]


def _fuzz(data: Any, garbage: Any) -> None:
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    n = data.draw(st.integers(2, 4), label="players")
    rules = data.draw(st.sampled_from([Rules(cap=12), Rules(cap=12, missions=True),
                                       Rules(cap=12, path_fortify=True, fixed_cards=True)]))
    # Garbage at the k-th call of a method: every kind of decision gets its share.
    method = data.draw(st.sampled_from(METHODS), label="method")
    at = {(method, k) for k in data.draw(st.sets(st.integers(1, 6), min_size=1, max_size=3))}
    rng = np.random.Generator(np.random.PCG64(seed))
    fuzzer = Fuzzer(data, at, garbage, rng, rules)
    players: list[Any] = [fuzzer] + [RandomBot() for _ in range(n - 1)]
    try:
        from game import play_game

        play_game(players, seed=rng, rules=rules)
    except IllegalActionError as e:
        assert fuzzer.snapshot is not None, f"a legal decision was refused: {e}"
        assert fuzzer.view is not None
        before, rng_state = fuzzer.snapshot
        assert fuzzer.view.full_state() == before, "an illegal decision changed the state"
        assert rng.bit_generator.state == rng_state, "an illegal decision drew randomness"
        assert "\n" not in str(e)


@_SETTINGS
@given(st.data())
def test_protocol_fuzz_well_typed(data: Any) -> None:
    _fuzz(data, _int_garbage)


@settings(_SETTINGS, max_examples=30, phases=[Phase.generate])
@given(st.data())
def test_protocol_fuzz_any_type(data: Any) -> None:
    _fuzz(data, _any_garbage)
