"""The general game loop: any Python players, the compiled rule kernels, an optional transcript."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache, partial

import numpy as np

from game import kernel
from game import layout as L
from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.decision import Decision, DecisionKind, answer_named
from game.forfeit import StandIn, forfeit_placements, reason_of
from game.jit import RngBox, bind
from game.map import Map, classic_map
from game.protocol import IllegalActionError, Player
from game.queries import standing
from game.state import Rules, State
from game.transcript import Transcript
from game.view import GameView

Seed = int | np.random.SeedSequence | np.random.Generator


class EndReason(Enum):
    """How a game ended."""

    DOMINATION = "domination"
    MISSION = "mission"
    CAP = "cap"


@dataclass(frozen=True)
class PlayerStats:
    """End-of-game figures of one player."""

    territories: int
    armies: int
    conquests: int
    eliminations: int
    received: int
    lost: int


@dataclass(frozen=True)
class Outcome:
    """Result of a game; every per-player tuple is in the order the players were given."""

    placements: tuple[int, ...]  # 1 = winner; ties share a place
    rounds: int
    capped: bool
    winner: int | None  # player index
    reason: EndReason
    seats: tuple[int, ...]  # seats[seat] = player index (seat order was drawn at random)
    stats: tuple[PlayerStats, ...]
    transcript: tuple[str, ...] | None = None
    # Per player: why it forfeited (see game.forfeit), "" if it did not; () without forfeits.
    forfeits: tuple[str, ...] = ()


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


def decision_of(state: State, rules: np.ndarray) -> Decision:
    """The question the phase asks the seat to move (rules: the rules vector)."""
    return Questions(state, rules).decision()


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


Observer = Callable[[State, int, Action], None]


def play_game(players: Sequence[Player], *, map: Map | None = None, rules: Rules | None = None,
              seed: Seed, transcript: bool = False, observer: Observer | None = None,
              full_access: Sequence[bool] | None = None, forfeits: bool = False) -> Outcome:
    """Play one game; the same (map, rules, players, seed) replays the same game move for move.

    `observer(state, seat, action)`, if given, sees the whole (read-only) state after every
    applied action: a referee's view for diagnostics, never given to a player.
    `full_access[i]` False gives player i a view whose `full_state()` door is closed (it sees
    only its seat's information); default: open for every player (compiled players need it).
    `forfeits` True: a player that raises or answers illegally forfeits (game.forfeit) instead
    of the error ending the game; `Outcome.forfeits` says who and why.
    """
    m = map if map is not None else classic_map()
    rules = rules if rules is not None else Rules()
    n = len(players)
    rules.check(m, n)
    rng, player_rngs = game_rngs(seed, n)
    state = State.empty(m, n)
    mk, sk, rv = m.kernel, state.kernel, rules.vector()
    seats = tuple(int(p) for p in kernel.setup(mk, sk, rv, rng))
    access = [True] * n if full_access is None else [bool(x) for x in full_access]
    if len(access) != n:
        raise ValueError(f"full_access needs one flag per player ({n}), got {len(access)}")
    views = [GameView(state, m, rules, seat, access[seats[seat]]) for seat in range(n)]
    forfeited: dict[int, str] = {}  # player index -> reason, in forfeit order
    for seat, p in enumerate(seats):
        try:
            players[p].start_game(views[seat], player_rngs[p])
        except Exception as e:
            if not forfeits:
                raise
            forfeited[p] = f"start_game: {reason_of(e)}"
    log = Transcript(m, rules, state, seats) if transcript else None
    step = bind(kernel.step_boxed, mk, sk, rv, RngBox(rng), rest=(0, 0, 0, 0))
    referee = state.readonly() if observer is not None else state
    questions, sc = Questions(state, rv), state.sc
    # Each seat's entry point, looked up once (a six-method bot without `act` is asked by name).
    acts = [entry_of(StandIn() if p in forfeited else players[p]) for p in seats]
    while sc.item(L.S_PHASE) != L.PH_OVER:
        seat, round_ = sc.item(L.S_CURRENT), sc.item(L.S_ROUND)
        d = questions.decision()
        try:
            action = as_action(d, acts[seat](views[seat], d))
            err = step(*checked_action(action))
            if err:
                raise IllegalActionError(
                    f"player {seats[seat]} (seat {seat}, {players[seats[seat]]!r}): "
                    f"{action.text(m)}: {L.ERROR_TEXT[err]}")
        except Exception as e:
            if not forfeits or seats[seat] in forfeited:
                raise
            # The state is unchanged: the stand-in answers the same decision.
            forfeited[seats[seat]] = f"round {round_}, {d.text()}: {reason_of(e)}"
            acts[seat] = entry_of(StandIn())
            continue
        if log is not None:
            log.record(seat, action, round_)
        if observer is not None:
            observer(referee, seat, action)
    out = outcome(m, state, seats, rules, None if log is None else log.finish())
    if not forfeited:
        return out
    gone = list(forfeited)
    winner = None if out.winner in forfeited else out.winner
    return replace(out, placements=forfeit_placements(out.placements, gone), winner=winner,
                   forfeits=tuple(forfeited.get(q, "") for q in range(n)))


def outcome(m: Map, state: State, seats: Sequence[int], rules: Rules,
            transcript: tuple[str, ...] | None = None) -> Outcome:
    """Build the Outcome of a finished game from its state."""
    end = standing(state.kernel, seats, rules.cap)
    n = state.n_players
    stats: list[PlayerStats | None] = [None] * n
    for seat in range(n):
        mine = state.owner == seat
        pl = state.pl[seat]
        stats[seats[seat]] = PlayerStats(
            territories=int(mine.sum()), armies=int(state.armies[mine].sum()),
            conquests=int(pl[L.P_CONQUESTS]), eliminations=int(pl[L.P_ELIMINATIONS]),
            received=int(pl[L.P_RECEIVED]), lost=int(pl[L.P_LOST]))
    if end.capped:
        reason = EndReason.CAP
    elif rules.missions and int((state.pl[:, L.P_ALIVE] == 1).sum()) > 1:
        reason = EndReason.MISSION
    else:
        reason = EndReason.DOMINATION
    return Outcome(placements=tuple(int(p) for p in end.placements), rounds=end.rounds,
                   capped=end.capped, winner=None if end.winner < 0 else end.winner,
                   reason=reason, seats=tuple(seats),
                   stats=tuple(s for s in stats if s is not None), transcript=transcript)


__all__ = ["EndReason", "Outcome", "PlayerStats", "Questions", "as_action", "checked_action",
           "entry_of", "game_rngs", "outcome", "play_game"]
