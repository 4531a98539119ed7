"""Read-only view of a game given to players, with the queries bots commonly need."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations

import numpy as np

from game.map import Map
from game.rules import kernel, queries
from game.rules import layout as L
from game.rules.cards import is_set, set_value
from game.rules.jit import bind
from game.state import Rules, State


@lru_cache(maxsize=16)
def _edges(m: Map) -> tuple[np.ndarray, np.ndarray]:
    """Directed borders (src, dst) by source, then in each source's neighbour order."""
    src = np.repeat(np.arange(m.n_territories), m.degree)
    dst = np.concatenate([m.neighbours[t, : m.degree[t]] for t in range(m.n_territories)])
    return src, dst.astype(np.int64)


@lru_cache(maxsize=16)
def _sorted_edges(m: Map) -> tuple[np.ndarray, np.ndarray]:
    """Directed borders (src, dst) in (src, dst) order."""
    src, dst = _edges(m)
    order = np.lexsort((dst, src))
    return src[order], dst[order]


class HiddenInformationError(PermissionError):
    """A player asked its view for what its seat may not see."""


class GameView:
    """What one seat may see: the board, its own hand and mission, everyone's hand sizes.

    Arrays are read-only views that follow the game as it moves. `state` is a copy of the
    position in the kernel layout with the opponents' cards and missions hidden. The whole
    game (every hand and mission) is behind explicit doors, `full_state()` (the live read-only
    arrays) and `kernel_state()` (a writable copy for compiled players), which a view made with
    `full_access=False` refuses (the arena gives such views to third-party bots named by class
    path). Inside one Python process this hides by interface only: a bot that must not be
    trusted that far plays out of process through `python -m arena serve`.
    """

    def __init__(self, state: State, m: Map, rules: Rules, seat: int,
                 full_access: bool = True) -> None:
        self._state = state.readonly()
        self.map = m
        self.rules = rules
        self.rules_vector = rules.vector()
        self.seat = seat
        self._full_access = full_access
        self._pair_fns: dict[int, tuple[Callable[..., int], np.ndarray]] = {}
        self._copy: State | None = None

    @property
    def full_access(self) -> bool:
        """True when `full_state()` opens (read-only: a player cannot reopen its door)."""
        return self._full_access

    def full_state(self) -> State:
        """The live read-only arrays of the whole game, every hand and mission included
        (HiddenInformationError on a view without full access)."""
        if not self._full_access:
            raise HiddenInformationError(
                f"seat {self.seat}: this view hides the opponents' cards and missions; "
                "use `state` (what the seat may see)")
        return self._state

    def kernel_state(self) -> State:
        """The door for compiled players: a writable copy of the whole game, brought up to
        date at each call and the same arrays every time, so a kernel bound to it once reads
        the position of each decision and what it writes never reaches the game. Writable
        arrays are what the compiled game loop passes too, so each kernel compiles for one
        state type (HiddenInformationError on a view without full access)."""
        mirror = self._copy
        if mirror is None:
            mirror = self._copy = self.full_state().copy()
        else:
            mirror.copy_from(self._state)  # one copy: the engine's state is one buffer
        return mirror

    @property
    def state(self) -> State:
        """A copy of the position as this seat may see it: opponents' cards show as in the deck
        (`hand_sizes` tells how many each holds) and their missions as -1."""
        s = self._state.copy()
        others = (s.cards >= 0) & (s.cards != self.seat)
        s.cards[others] = L.CARD_DECK
        mask = np.arange(s.n_players) != self.seat
        s.pl[mask, L.P_MISSION] = -1
        s.pl[mask, L.P_TARGET] = -1
        return s

    @property
    def owner(self) -> np.ndarray:
        """Seat owning each territory."""
        return self._state.owner

    @property
    def armies(self) -> np.ndarray:
        """Armies on each territory."""
        return self._state.armies

    @property
    def n_players(self) -> int:
        """Seats in the game."""
        return self._state.n_players

    @property
    def round(self) -> int:
        """Current round (1-based)."""
        return self._state.round

    @property
    def phase(self) -> int:
        """Current phase (game.rules.layout.PH_*)."""
        return self._state.phase

    @property
    def alive(self) -> np.ndarray:
        """Bool per seat: still in the game."""
        return self._state.pl[:, L.P_ALIVE].astype(bool)

    @property
    def hand(self) -> tuple[int, ...]:
        """Own card ids, ascending."""
        return self._state.hand(self.seat)

    @property
    def hand_sizes(self) -> np.ndarray:
        """Number of cards each seat holds."""
        c = self._state.cards
        return np.array([(c == q).sum() for q in range(self.n_players)])

    @property
    def mission(self) -> tuple[int, int]:
        """Own (mission id, target seat); (-1, -1) without missions."""
        return self._state.mission(self.seat)

    @property
    def conquered_this_turn(self) -> bool:
        """True once the seat to move has conquered a territory this turn."""
        return bool(self._state.sc[L.S_CONQUERED])

    @property
    def occupy(self) -> tuple[int, int]:
        """(from, to) of the conquest awaiting a move-in."""
        return int(self._state.sc[L.S_SRC]), int(self._state.sc[L.S_DST])

    def card_kind(self, card: int) -> int:
        """Kind of a card (game.rules.layout INFANTRY..WILD), as the board's deck says."""
        return int(self.map.card_kind[card])

    def sets(self) -> list[tuple[int, int, int]]:
        """Every tradable set in the own hand (card ids)."""
        # int32 kinds, as the compiled loop passes them: `is_set` compiles once.
        kinds = {c: self.map.card_kind[c] for c in self.hand}
        return [t for t in combinations(kinds, 3) if is_set(*(kinds[c] for c in t))]

    def set_value(self, cards: tuple[int, int, int]) -> int:
        """Armies the set would give if traded now."""
        k = [self.map.card_kind[c] for c in cards]  # int32 as the compiled loop passes them
        return int(set_value(self.rules_vector, self._state.sc[L.S_TRADES], k[0], k[1], k[2]))

    def mine(self) -> np.ndarray:
        """Own territories (indices)."""
        return np.flatnonzero(self.owner == self.seat)

    def neighbours(self, t: int) -> np.ndarray:
        """Neighbours of a territory."""
        return self.map.neighbours[t, : self.map.degree[t]]

    def enemy_neighbours(self, t: int) -> np.ndarray:
        """Neighbours of t owned by someone else than t's owner."""
        n = self.neighbours(t)
        return n[self.owner[n] != self.owner[t]]

    def is_border(self, t: int) -> bool:
        """True when t borders a territory of another owner."""
        return bool(len(self.enemy_neighbours(t)))

    def reinforcements(self, seat: int | None = None) -> int:
        """Armies a seat would receive at the start of its turn (without cards)."""
        q = self.seat if seat is None else seat
        return int(kernel.reinforcements(self.map.kernel, self._state.kernel, q))

    def _pairs(self, edges: tuple[np.ndarray, np.ndarray], own_dst: bool) -> list[tuple[int, int]]:
        """The edges from an own stack of 2+ into an own (own_dst) or enemy territory."""
        key = int(own_dst)  # one edge list each: attacks (0) and adjacent fortify moves (1)
        fn = self._pair_fns.get(key)
        if fn is None:  # bound once per view and edge list: no per-call typing
            out = np.empty(2 * len(edges[0]), np.int64)
            fn = self._pair_fns[key] = (bind(queries.edge_pairs, *edges, self._state.owner,
                                             self._state.armies, rest=(0, True, out)), out)
        k = fn[0](self.seat, own_dst, fn[1])
        flat = fn[1][:k].tolist()
        return list(zip(flat[0::2], flat[1::2], strict=True))

    def attack_options(self) -> list[tuple[int, int]]:
        """Legal (from, to) attacks for the own seat (by source, then neighbour order)."""
        return self._pairs(_edges(self.map), False)

    def fortify_options(self) -> list[tuple[int, int]]:
        """Legal (from, to) fortify pairs for the own seat (paths too under path_fortify)."""
        if not self.rules.path_fortify:
            return self._pairs(_sorted_edges(self.map), True)
        out: list[tuple[int, int]] = []
        m = self.map.kernel
        mine = self.mine()
        armies = self.armies.copy()  # connected_own marks visits in the army counts
        # Writable owners and an int32 seat, as the compiled loop passes them: one compile.
        owner, seat = self.owner.copy(), np.int32(self.seat)
        for a in mine:
            if self.armies[a] < 2:
                continue
            for b in mine:
                if a == b:
                    continue
                if self.rules.path_fortify:
                    ok = kernel.connected_own(m, owner, armies, seat, int(a), int(b))
                else:
                    ok = bool(self.map.adjacency[a, b])
                if ok:
                    out.append((int(a), int(b)))
        return out
