"""The referee's parts every game loop shares: the seeded generators of a game, the question
each phase asks, and the check of an answer's type and fields before the rule kernel judges it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

import numpy as np

from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.decision import Decision, DecisionKind, answer_named
from game.protocol import IllegalActionError, Player
from game.rules import kernel
from game.rules import layout as L
from game.rules.jit import bind
from game.state import State
from game.view import GameView

Seed = int | np.random.SeedSequence | np.random.Generator


def game_rngs(seed: Seed, n_players: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """The game's generator and one child generator per player, all derived from `seed`."""
    if isinstance(seed, np.random.Generator):
        return seed, seed.spawn(n_players)
    if isinstance(seed, bool) or not isinstance(seed, int | np.random.SeedSequence):
        raise TypeError("seed must be an int, SeedSequence or Generator, "
                        f"got {type(seed).__name__}")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rng = np.random.Generator(np.random.PCG64(ss))
    # The children SeedSequence.spawn would give, without advancing the caller's object (so
    # the same SeedSequence replays the same game).
    first = ss.n_children_spawned
    children = [np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, first + i),
                                       pool_size=ss.pool_size) for i in range(n_players)]
    return rng, [np.random.Generator(np.random.PCG64(c)) for c in children]


_INT32 = np.iinfo(np.int32)


_LO, _HI = int(_INT32.min), int(_INT32.max)


def _whole(x: object) -> bool:
    """True for an int (not a bool) that fits the kernels' int32 fields."""
    if type(x) is int:  # the common case, checked first: this runs for every action field
        return _LO <= x <= _HI
    return (isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_)
            and _LO <= int(x) <= _HI)


def checked_action(act: Action) -> tuple[int, int, int, int]:
    """The kernel form of an action whose fields are whole numbers (IllegalActionError if not)."""
    if isinstance(act, Trade) and (not isinstance(act.cards, tuple) or len(act.cards) != 3):
        raise IllegalActionError(f"Trade needs exactly 3 card ids, got {act!r}")
    enc = act.encode()
    k, a, b, c = enc
    # Plain ints in range are the common case: checked inline, as this runs at every step.
    if not (type(a) is int and type(b) is int and type(c) is int
            and _LO <= a <= _HI and _LO <= b <= _HI and _LO <= c <= _HI):
        if not all(_whole(x) for x in enc):
            raise IllegalActionError(
                f"{type(act).__name__} fields must be whole numbers, got {act!r}")
        return k, int(a), int(b), int(c)
    return enc


_PLACE_INITIAL = Decision(DecisionKind.PLACE_INITIAL)
_ATTACK = Decision(DecisionKind.ATTACK)
_FORTIFY = Decision(DecisionKind.FORTIFY)
_TRADE = {c: Decision(DecisionKind.TRADE, compulsory=c) for c in (False, True)}


# Decisions are frozen, so equal ones can be shared: building a frozen dataclass at every step
# cost more than the rest of the question.
@lru_cache(maxsize=4096)
def _move_in(lo: int, hi: int) -> Decision:
    return Decision(DecisionKind.MOVE_IN, lo=lo, hi=hi)


@lru_cache(maxsize=1024)
def _reinforce(armies: int) -> Decision:
    return Decision(DecisionKind.REINFORCE, armies=armies)


class Questions:
    """The decisions of one game, with its kernels bound once (numba's per-call typing of the
    state would otherwise be paid at every step)."""

    __slots__ = ("_bounds", "_compulsory", "_sc")

    def __init__(self, state: State, rules: np.ndarray) -> None:
        self._sc = state.sc
        self._compulsory = bind(kernel.trade_compulsory, state.kernel, rules)
        self._bounds = bind(kernel.occupy_bounds, state.kernel)

    def decision(self) -> Decision:
        """The question of the current phase."""
        ph = self._sc.item(L.S_PHASE)
        if ph == L.PH_ATTACK:
            return _ATTACK
        if ph == L.PH_OCCUPY:
            lo, hi = self._bounds()
            return _move_in(int(lo), int(hi))
        if ph == L.PH_REINFORCE:
            return _reinforce(self._sc.item(L.S_POOL))
        if ph == L.PH_FORTIFY:
            return _FORTIFY
        if ph == L.PH_SETUP:
            return _PLACE_INITIAL
        if ph == L.PH_TRADE:
            return _TRADE[bool(self._compulsory())]
        raise IllegalActionError(f"no decision in phase {ph}")


_EXPECTED: dict[DecisionKind, tuple[type, Action | None]] = {
    DecisionKind.REINFORCE: (Place, None),
    DecisionKind.TRADE: (Trade, END_TRADE),
    DecisionKind.ATTACK: (Attack, STOP),
    DecisionKind.FORTIFY: (Fortify, SKIP),
}
_EXPECTED_ATTACK = _EXPECTED[DecisionKind.ATTACK]
_PASSES = (END_TRADE, STOP, SKIP)


def as_action(d: Decision, act: object) -> Action:
    """The player's answer to `d` as an Action, after checking its type."""
    if d.kind is DecisionKind.PLACE_INITIAL:
        if not _whole(act):
            raise IllegalActionError(f"place_initial must return a territory index, got {act!r}")
        return Place(int(act), 1)  # type: ignore[call-overload]
    if d.kind is DecisionKind.MOVE_IN:
        if not _whole(act):
            raise IllegalActionError(f"move_in must return a number of armies, got {act!r}")
        return MoveIn(int(act))  # type: ignore[call-overload]
    # Enum members hash in Python: a dict lookup by kind cost more than these identity tests.
    expected, passing = (_EXPECTED_ATTACK if d.kind is DecisionKind.ATTACK
                         else _EXPECTED[d.kind])
    if act is None and passing is not None:
        return passing
    if type(act) is expected or act in _PASSES or isinstance(act, expected):
        return act  # type: ignore[return-value]
    optional = "" if passing is None else " (or None)"
    raise IllegalActionError(f"expected {expected.__name__}{optional} for {d.text()}, "
                             f"got {act!r}")


def entry_of(player: Player) -> Callable[[GameView, Decision], object]:
    """The callable answering a decision for `player` (see game.decision.ask)."""
    act = getattr(player, "act", None)
    if act is not None:
        return act
    return partial(answer_named, player)


__all__ = ["Questions", "Seed", "as_action", "checked_action", "entry_of",
           "game_rngs"]
