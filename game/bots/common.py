"""Shared machinery of the baseline bots: exact conquest odds, board lists, common decisions."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.actions import Fortify, Place, Trade
from game.map import Map
from game.protocol import BasePlayer
from game.rules import kernel
from game.rules.dice import conquest_probability
from game.rules.layout import WILD
from game.view import GameView

FAR = 1 << 20  # distance of a territory that cannot reach a border through own territories


@dataclass(frozen=True)
class Board:
    """A map as plain Python tuples and sets: fast to index from per-decision loops."""

    nbrs: tuple[tuple[int, ...], ...]
    continent_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]  # territories of each continent
    bonus: tuple[int, ...]
    # The same as sets, so that "all mine", "any mine" are set operations run in C.
    nbr_sets: tuple[frozenset[int], ...] = ()
    member_sets: tuple[frozenset[int], ...] = ()
    hoods: tuple[frozenset[int], ...] = ()  # a continent's members and their neighbours

    @property
    def n(self) -> int:
        """Number of territories."""
        return len(self.nbrs)


@lru_cache(maxsize=16)
def board_of(m: Map) -> Board:
    """The Board of a map (cached per map object; maps are frozen)."""
    nbrs = tuple(tuple(int(x) for x in m.neighbours[t, : m.degree[t]])
                 for t in range(m.n_territories))
    cont = tuple(int(c) for c in m.continent_of)
    members = tuple(tuple(t for t in range(len(cont)) if cont[t] == c)
                    for c in range(m.n_continents))
    return Board(nbrs=nbrs, continent_of=cont, members=members,
                 bonus=tuple(int(b) for b in m.bonus),
                 nbr_sets=tuple(frozenset(n) for n in nbrs),
                 member_sets=tuple(frozenset(ts) for ts in members),
                 hoods=tuple(frozenset(ts).union(*(nbrs[t] for t in ts)) for ts in members))


class Snapshot:
    """The board as Python lists for one decision, with the queries every bot uses."""

    __slots__ = ("armies", "board", "me", "mine_set", "own", "owner")

    def __init__(self, view: GameView, board: Board) -> None:
        self.owner: list[int] = view.owner.tolist()
        self.armies: list[int] = view.armies.tolist()
        self.me = me = view.seat
        self.board = board
        self.own: list[int] = (view.owner == me).nonzero()[0].tolist()  # ascending
        self.mine_set = frozenset(self.own)  # own territories as a set

    def mine(self) -> list[int]:
        """Own territories (ascending; a fresh list)."""
        return list(self.own)

    def enemies_of(self, t: int) -> list[int]:
        """Neighbours of t owned by someone else than t's owner."""
        o = self.owner[t]
        return [n for n in self.board.nbrs[t] if self.owner[n] != o]

    def threat(self, t: int) -> int:
        """Enemy armies adjacent to t."""
        o, owner, armies = self.owner[t], self.owner, self.armies
        return sum(armies[n] for n in self.board.nbrs[t] if owner[n] != o)

    def borders(self) -> list[int]:
        """Own territories with an enemy neighbour."""
        mine, nbr_sets = self.mine_set, self.board.nbr_sets
        return [t for t in self.own if not nbr_sets[t] <= mine]

    def attacks(self) -> list[tuple[int, int]]:
        """Legal (from, to) attacks."""
        me, owner, armies, nbrs = self.me, self.owner, self.armies, self.board.nbrs
        return [(s, d) for s in self.own if armies[s] >= 2 for d in nbrs[s] if owner[d] != me]

    def odds(self, src: int, dst: int) -> float:
        """Exact conquest probability of attacking dst from src with everything in src."""
        return conquest_probability(self.armies[src], self.armies[dst])

    def front_distance(self) -> list[int]:
        """Per territory: steps through own territories to the nearest own border (FAR if none)."""
        me, owner, nbrs = self.me, self.owner, self.board.nbrs
        dist = [FAR] * len(owner)
        queue: deque[int] = deque()
        for t in self.borders():
            dist[t] = 0
            queue.append(t)
        while queue:
            u = queue.popleft()
            for v in nbrs[u]:
                if owner[v] == me and dist[v] == FAR:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist


def best_set(view: GameView) -> tuple[int, int, int] | None:
    """The set worth most now; ties prefer a card of an own territory (+2), then fewer wilds."""
    sets = view.sets()
    if not sets:
        return None
    owner, me, n = view.owner, view.seat, view.map.n_territories

    def key(cards: tuple[int, int, int]) -> tuple[int, int, int]:
        bonus = any(c < n and owner[c] == me for c in cards)
        wilds = sum(view.card_kind(c) == WILD for c in cards)
        return view.set_value(cards), int(bonus), -wilds

    return max(sets, key=key)


class BaselineBot(BasePlayer):
    """Common ground of the baseline bots (subclasses override the decisions that define them).

    Trades the best set at once, places initial armies like reinforcements, splits move-ins on
    open fronts and fortifies idle armies toward the front.
    """

    name = "baseline"

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Keep the generator and the board as Python lists."""
        super().start_game(view, rng)
        self.board = board_of(view.map)

    def snap(self, view: GameView) -> Snapshot:
        """The current board as Python lists."""
        return Snapshot(view, self.board)

    def place_initial(self, view: GameView) -> int:
        """Where the reinforcement policy would put one army."""
        return self.reinforce(view, 1).territory

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Everything on the strongest border (subclasses refine)."""
        s = self.snap(view)
        front = s.borders() or s.mine()
        return Place(max(front, key=lambda t: s.armies[t]), armies)

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """Trade the best set as soon as one exists: values escalate for everyone."""
        cards = best_set(view)
        return None if cards is None else Trade(cards)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Everything when the source is safe; half each when the source still faces enemies."""
        src, _ = view.occupy
        s = self.snap(view)
        if not s.enemies_of(src):
            return hi
        return max(lo, min(hi, (hi + 1) - (hi + 1) // 2))

    def fortify(self, view: GameView) -> Fortify | None:
        """Move the biggest idle stack (no enemy neighbour) one step toward the front."""
        return fortify_to_front(view, self.snap(view))


def fortify_to_front(view: GameView, s: Snapshot) -> Fortify | None:
    """Move the biggest interior stack toward the front, or None.

    Adjacent rule: one step closer to the nearest border. Path rule: straight to the most
    threatened border it connects to.
    """
    dist = s.front_distance()
    armies = s.armies
    idle = [t for t in s.mine() if dist[t] > 0 and armies[t] >= 2]
    if not idle:
        return None
    src = max(idle, key=lambda t: (armies[t], -t))
    if view.rules.path_fortify:
        mk, owner, marks = view.map.kernel, view.owner, view.armies.copy()
        fronts = sorted(s.borders(), key=lambda t: armies[t] - s.threat(t))
        for dst in fronts:
            if kernel.connected_own(mk, owner, marks, s.me, src, dst):
                return Fortify(src, dst, armies[src] - 1)
    steps = [n for n in s.board.nbrs[src] if s.owner[n] == s.me and dist[n] < dist[src]]
    if not steps:
        return None
    dst = min(steps, key=lambda t: (dist[t], -s.threat(t), t))
    return Fortify(src, dst, armies[src] - 1)


__all__ = ["FAR", "BaselineBot", "Board", "Snapshot", "best_set", "board_of", "fortify_to_front"]
