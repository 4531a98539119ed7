"""The general game loop: any Python players, the compiled rule kernels, an optional transcript."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from game import kernel
from game import layout as L
from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.decision import Decision, DecisionKind, ask
from game.jit import bind
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


def _checked(act: Action) -> Action:
    """Reject actions whose fields are not whole numbers before they reach the kernels."""
    if isinstance(act, Trade) and (not isinstance(act.cards, tuple) or len(act.cards) != 3):
        raise IllegalActionError(f"Trade needs exactly 3 card ids, got {act!r}")
    if not all(_whole(x) for x in act.encode()):
        raise IllegalActionError(f"{type(act).__name__} fields must be whole numbers, got {act!r}")
    return act


def decision_of(state: State, rules: np.ndarray) -> Decision:
    """The question the phase asks the seat to move (rules: the rules vector)."""
    ph = state.phase
    if ph == L.PH_SETUP:
        return Decision(DecisionKind.PLACE_INITIAL)
    if ph == L.PH_REINFORCE:
        return Decision(DecisionKind.REINFORCE, armies=state.pool)
    if ph == L.PH_TRADE:
        return Decision(DecisionKind.TRADE,
                        compulsory=bool(kernel.trade_compulsory(state.kernel, rules)))
    if ph == L.PH_ATTACK:
        return Decision(DecisionKind.ATTACK)
    if ph == L.PH_OCCUPY:
        lo, hi = kernel.occupy_bounds(state.kernel)
        return Decision(DecisionKind.MOVE_IN, lo=int(lo), hi=int(hi))
    if ph == L.PH_FORTIFY:
        return Decision(DecisionKind.FORTIFY)
    raise IllegalActionError(f"no decision in phase {ph}")


_EXPECTED: dict[DecisionKind, tuple[type, Action | None]] = {
    DecisionKind.REINFORCE: (Place, None),
    DecisionKind.TRADE: (Trade, END_TRADE),
    DecisionKind.ATTACK: (Attack, STOP),
    DecisionKind.FORTIFY: (Fortify, SKIP),
}


def _ask(player: Player, view: GameView, state: State) -> Action:
    """Ask the player the decision the phase calls for and check the answer's type."""
    d = decision_of(state, view.rules_vector)
    act: object = ask(player, view, d)
    if d.kind is DecisionKind.PLACE_INITIAL:
        if not _whole(act):
            raise IllegalActionError(f"place_initial must return a territory index, got {act!r}")
        return Place(int(act), 1)  # type: ignore[call-overload]
    if d.kind is DecisionKind.MOVE_IN:
        if not _whole(act):
            raise IllegalActionError(f"move_in must return a number of armies, got {act!r}")
        return MoveIn(int(act))  # type: ignore[call-overload]
    expected, passing = _EXPECTED[d.kind]
    if act is None and passing is not None:
        act = passing
    if act in (END_TRADE, STOP, SKIP) or isinstance(act, expected):
        return _checked(act)  # type: ignore[arg-type]
    optional = "" if passing is None else " (or None)"
    raise IllegalActionError(f"expected {expected.__name__}{optional} for {d.text()}, "
                             f"got {act!r}")


Observer = Callable[[State, int, Action], None]


def play_game(players: Sequence[Player], *, map: Map | None = None, rules: Rules | None = None,
              seed: Seed, transcript: bool = False, observer: Observer | None = None,
              full_access: Sequence[bool] | None = None) -> Outcome:
    """Play one game; the same (map, rules, players, seed) replays the same game move for move.

    `observer(state, seat, action)`, if given, sees the whole (read-only) state after every
    applied action: a referee's view for diagnostics, never given to a player.
    `full_access[i]` False gives player i a view whose `full_state()` door is closed (it sees
    only its seat's information); default: open for every player (compiled players need it).
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
    for seat, p in enumerate(seats):
        players[p].start_game(views[seat], player_rngs[p])
    log = Transcript(m, rules, state, seats) if transcript else None
    step = bind(kernel.step, mk, sk, rv, rng, rest=(0, 0, 0, 0))
    referee = state.readonly() if observer is not None else state
    while state.phase != L.PH_OVER:
        seat, round_ = state.current, state.round
        action = _ask(players[seats[seat]], views[seat], state)
        err = step(*action.encode())
        if err:
            raise IllegalActionError(
                f"player {seats[seat]} (seat {seat}, {players[seats[seat]]!r}): "
                f"{action.text(m)}: {L.ERROR_TEXT[err]}")
        if log is not None:
            log.record(seat, action, round_)
        if observer is not None:
            observer(referee, seat, action)
    return outcome(m, state, seats, rules, None if log is None else log.finish())


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


__all__ = ["EndReason", "Outcome", "PlayerStats", "game_rngs", "outcome", "play_game"]
