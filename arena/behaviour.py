"""How a player plays, measured from the referee's view of seeded games (for `diagnose`).

A win rate says that a bot loses, not how. `Watcher` is a `play_game` observer: after every
action it sees the whole state and keeps, per seat, the figures below; `Tally` adds them up
per player label over many games. Every figure is a plain count or sum so that games and seats
pool exactly; `METRICS` turns them into the table's rates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from game.actions import Action, Attack, Fortify, Place, Trade
from game.map import Map
from game.rules import layout as L
from game.state import State

__all__ = ["METRICS", "Counts", "Tally", "Watcher", "continents_held", "forced_trade"]


@dataclass
class Counts:
    """Sums over a player's own turns (and rounds alive) of one or more games."""

    games: int = 0
    turns: int = 0  # own turns started
    rounds_alive: int = 0  # rounds in which the player was alive at the start of its turn
    reinforce_turns: int = 0  # own turns with reinforcements placed
    concentration: float = 0.0  # sum over those turns of max share on one territory
    owned: int = 0  # own territories at own turn starts (sum)
    ones: int = 0  # ... of which with a single army
    held: int = 0  # continents held at own turn starts (sum)
    held_kept: int = 0  # ... still held at the player's next turn start
    held_checked: int = 0  # continents held at a turn start whose next turn start was seen
    defend_losses: int = 0  # armies lost during other players' turns
    conquests: int = 0
    card_turns: int = 0  # own turns with at least one conquest (they earn a card)
    cards_held: int = 0  # cards in hand at own turn starts (sum)
    trades: int = 0
    forced_trades: int = 0  # trades made with a hand at the compulsory size
    battles: int = 0  # attacks started on a (from, to) pair
    battles_won: int = 0  # ... that ended in a conquest
    fortifies: int = 0
    eliminated: int = 0
    elim_turn: int = 0  # sum of own turns played before elimination
    wins: int = 0

    def add(self, other: Counts) -> None:
        """Pool another player's counts into these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    # The turn figures' one definition, shared by the referee's `Watcher` and the records of one
    # seat's view (`arena.serve.records`).
    def start_turn(self, owner: np.ndarray, armies: np.ndarray, seat: int, cards: int,
                   held: frozenset[int], held_before: frozenset[int] | None) -> None:
        """An own turn starts on this board (`held_before`: continents at the last turn start)."""
        mine = owner == seat
        if held_before is not None:  # continents held at the previous turn start: still held?
            self.held_checked += len(held_before)
            self.held_kept += len(held_before & held)
        self.turns += 1
        self.rounds_alive += 1
        self.owned += int(mine.sum())
        self.ones += int((mine & (armies == 1)).sum())
        self.held += len(held)
        self.cards_held += cards

    def end_turn(self, placed: dict[int, int], conquered: bool) -> None:
        """An own turn ends: its placements (territory -> armies) and whether it conquered."""
        total = sum(placed.values())
        if total:
            self.reinforce_turns += 1
            self.concentration += max(placed.values()) / total
        self.card_turns += conquered


def continents_held(members: Sequence[np.ndarray], owner: np.ndarray, seat: int) -> frozenset[int]:
    """The continents (by index; `members[c]` its territories) that `seat` owns whole."""
    return frozenset(c for c, ts in enumerate(members) if (owner[ts] == seat).all())


def forced_trade(hand_before: int, trade_at: int) -> bool:
    """A trade made with a hand at the compulsory size (forced_trade_share)."""
    return hand_before >= trade_at


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


# Table rows: (name, description, value from Counts).
METRICS: tuple[tuple[str, str, Callable[[Counts], float]], ...] = (
    ("reinforce_concentration", "share of a turn's reinforcements on one territory",
     lambda c: _ratio(c.concentration, c.reinforce_turns)),
    ("one_army_share", "share of own territories with 1 army at own turn start",
     lambda c: _ratio(c.ones, c.owned)),
    ("continents_held", "continents held at own turn start (mean)",
     lambda c: _ratio(c.held, c.turns)),
    ("continent_kept", "a continent held at a turn start is still held at the next",
     lambda c: _ratio(c.held_kept, c.held_checked)),
    ("defend_losses_per_round", "armies lost during other players' turns, per round",
     lambda c: _ratio(c.defend_losses, c.rounds_alive)),
    ("conquests_per_turn", "territories conquered per own turn",
     lambda c: _ratio(c.conquests, c.turns)),
    ("card_turn_share", "own turns with a conquest (earning a card)",
     lambda c: _ratio(c.card_turns, c.turns)),
    ("cards_held", "cards in hand at own turn start (mean)",
     lambda c: _ratio(c.cards_held, c.turns)),
    ("forced_trade_share", "trades made at the compulsory hand size",
     lambda c: _ratio(c.forced_trades, c.trades)),
    ("battles_per_turn", "attacks started on a (from, to) pair per own turn",
     lambda c: _ratio(c.battles, c.turns)),
    ("battle_win_rate", "attacks started that ended in a conquest",
     lambda c: _ratio(c.battles_won, c.battles)),
    ("fortifies_per_turn", "fortify moves per own turn",
     lambda c: _ratio(c.fortifies, c.turns)),
    ("eliminated_share", "games in which it was eliminated",
     lambda c: _ratio(c.eliminated, c.games)),
    ("elimination_turn", "own turns played before elimination (mean, eliminated games)",
     lambda c: _ratio(c.elim_turn, c.eliminated)),
    ("win_rate", "games won outright", lambda c: _ratio(c.wins, c.games)),
)


@dataclass
class _Seat:
    counts: Counts = field(default_factory=Counts)
    placed: dict[int, int] = field(default_factory=dict)  # this turn's placements
    held: frozenset[int] = frozenset()  # continents held at the last turn start
    conquered: bool = False  # this turn
    battle: tuple[int, int] | None = None  # (from, to) of the battle under way
    armies: int = 0  # total armies after the last action
    alive: bool = True


class Watcher:
    """A `play_game` observer collecting `Counts` per seat of one game."""

    def __init__(self, m: Map, n_players: int) -> None:
        self.m = m
        self.members = [np.flatnonzero(m.kernel.continent_of == c) for c in range(m.n_continents)]
        self.seats = [_Seat() for _ in range(n_players)]
        self.turns = -1

    def _end_turn(self, seat: int) -> None:
        s = self.seats[seat]
        s.counts.end_turn(s.placed, s.conquered)
        s.placed, s.conquered, s.battle = {}, False, None

    def _start_turn(self, state: State) -> None:
        seat = state.current
        s = self.seats[seat]
        held = continents_held(self.members, state.owner, seat)
        s.counts.start_turn(state.owner, state.armies, seat, int((state.cards == seat).sum()),
                            held, s.held if s.counts.turns else None)
        s.held = held

    def __call__(self, state: State, seat: int, action: Action) -> None:
        """See the state after `seat`'s `action`."""
        s = self.seats[seat]
        owner = state.owner
        if isinstance(action, Place) and state.round > 0:
            s.placed[action.territory] = s.placed.get(action.territory, 0) + action.count
        elif isinstance(action, Trade):
            s.counts.trades += 1
            hand = int((state.cards == seat).sum())
            s.counts.forced_trades += forced_trade(hand + L.SET_SIZE, L.TRADE_COMPULSORY)
        elif isinstance(action, Attack):
            pair = (action.src, action.dst)
            if s.battle != pair:
                s.battle = pair
                s.counts.battles += 1
            if owner[action.dst] == seat:
                s.counts.battles_won += 1
                s.counts.conquests += 1
                s.conquered = True
                s.battle = None
        elif isinstance(action, Fortify):
            s.counts.fortifies += 1
        totals = np.bincount(owner, weights=state.armies, minlength=len(self.seats))
        for q, other in enumerate(self.seats):
            now = int(totals[q])
            if q != seat and other.alive and now < other.armies:
                other.counts.defend_losses += other.armies - now
            other.armies = now
            if other.alive and not state.pl[q, L.P_ALIVE]:
                other.alive = False
                other.counts.eliminated += 1
                other.counts.elim_turn += other.counts.turns
        turns = int(state.sc[L.S_TURNS])  # 0 during the initial placement
        if turns != self.turns:
            if self.turns > 0:
                self._end_turn(seat)
            self.turns = turns
            if turns > 0 and state.phase != L.PH_OVER:
                self._start_turn(state)
        elif state.phase == L.PH_OVER:
            self._end_turn(seat)

    def finish(self, winner_seat: int | None) -> list[Counts]:
        """The counts per seat, the game counted."""
        out = []
        for q, s in enumerate(self.seats):
            s.counts.games += 1
            s.counts.wins += int(winner_seat == q)
            out.append(s.counts)
        return out


class Tally:
    """Counts pooled per player label over many games."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(dict.fromkeys(labels))
        self.counts = {lb: Counts() for lb in self.labels}

    def add(self, label: str, c: Counts) -> None:
        """Pool one player's counts of one game."""
        self.counts[label].add(c)

    def table(self) -> list[tuple[str, str, list[float]]]:
        """(metric, description, value per label) rows."""
        return [(name, doc, [fn(self.counts[lb]) for lb in self.labels])
                for name, doc, fn in METRICS]
