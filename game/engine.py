"""A whole game in one call: any Python players, the compiled rule kernels, an optional
transcript; `play_game` drives a `game.session.Session` from the deal to the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from game.forfeit import forfeit_placements
from game.map import Map, classic_map
from game.protocol import Player
from game.referee import Seed
from game.rules import layout as L
from game.rules.queries import standing
from game.session import Observer, Session
from game.state import Rules, State


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


def play_game(players: Sequence[Player], *, map: Map | None = None, rules: Rules | None = None,
              seed: Seed, transcript: bool = False, observer: Observer | None = None,
              full_access: Sequence[bool] | None = None, forfeits: bool = False,
              labels: Sequence[str] | None = None) -> Outcome:
    """Play one game; the same (map, rules, players, seed) replays the same game move for move.

    `observer(state, seat, action)`, if given, sees the whole (read-only) state after every
    applied action: a referee's view for diagnostics, never given to a player.
    `full_access[i]` False gives player i a view whose `full_state()` door is closed (it sees
    only its seat's information); default: open for every player (compiled players need it).
    `forfeits` True: a player that raises or answers illegally forfeits (game.forfeit) instead
    of the error ending the game; `Outcome.forfeits` says who and why.
    `labels[i]` names player i in the transcript (default: its bot's name).
    """
    m = map if map is not None else classic_map()
    rules = rules if rules is not None else Rules()
    n = len(players)
    game = Session(m, rules, n, transcript=transcript, full_access=full_access)
    game.reset(seed)
    game.seat(players, forfeits=forfeits, labels=labels)
    game.run(observer=observer)
    out = outcome(m, game.state, game.seats, rules, game.transcript() if transcript else None)
    forfeited = game.forfeited
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


__all__ = ["EndReason", "Outcome", "PlayerStats", "outcome", "play_game"]
