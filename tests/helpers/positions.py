"""Shared helpers for the engine tests: hand-built positions and one-call kernel steps."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from game.actions import Attack, Fortify, Place, Trade
from game.map import Map, classic_map
from game.protocol import BasePlayer
from game.rules import kernel
from game.rules.jit import RngBox
from game.rules.layout import (
    A_ATTACK,
    CARD_DECK,
    E_OK,
    EV_BONUS_T,
    EV_DRAWN,
    N_WILDS,
    P_ALIVE,
    P_MISSION,
    P_TARGET,
    PH_ATTACK,
    S_CURRENT,
    S_DST,
    S_ELIMINATED,
    S_PHASE,
    S_POOL,
    S_ROUND,
    S_SRC,
    S_TURNS,
    S_WINNER,
)
from game.state import Rules, State
from game.view import GameView

CLASSIC: Map = classic_map()
T = CLASSIC.n_territories
WILDS = (T, T + 1)  # card ids of the two wild cards


def tid(name: str) -> int:
    """Territory index on the classic map."""
    return CLASSIC.territory(name)


def continent(name: str) -> list[int]:
    """Territories of a classic continent."""
    c = CLASSIC.continents.index(name)
    return [int(t) for t in np.flatnonzero(CLASSIC.continent_of == c)]


def card_of_kind(kind: int, skip: Iterable[int] = ()) -> int:
    """A territory card of the kind (card i has kind i % 3), not in `skip`."""
    return next(c for c in range(kind, T, 3) if c not in set(skip))


def position(n_players: int = 2, *, owner: Mapping[str | int, int] | None = None,
             default_owner: int = 1, armies: Mapping[str | int, int] | None = None,
             phase: int = PH_ATTACK, current: int = 0, pool: int = 0, round_: int = 1,
             hands: Mapping[int, Iterable[int]] | None = None,
             missions: Mapping[int, tuple[int, int]] | None = None) -> State:
    """A hand-built position: every territory is `default_owner`'s with 1 army unless listed.

    Seats owning nothing are marked eliminated; `missions` maps seat -> (mission id, target).
    """
    s = State.empty(CLASSIC, n_players)
    s.owner[:] = default_owner
    s.armies[:] = 1
    for k, q in (owner or {}).items():
        s.owner[tid(k) if isinstance(k, str) else k] = q
    for k, a in (armies or {}).items():
        s.armies[tid(k) if isinstance(k, str) else k] = a
    s.cards[:] = CARD_DECK
    for q, cs in (hands or {}).items():
        for c in cs:
            s.cards[c] = q
    s.pl[:, P_MISSION] = -1
    s.pl[:, P_TARGET] = -1
    for q in range(n_players):
        s.pl[q, P_ALIVE] = int((s.owner == q).any())
    for q, (mid, target) in (missions or {}).items():
        s.pl[q, P_MISSION] = mid
        s.pl[q, P_TARGET] = target
    for f in (S_WINNER, S_ELIMINATED, S_SRC, S_DST):
        s.sc[f] = -1
    s.ev[EV_BONUS_T] = s.ev[EV_DRAWN] = -1
    s.sc[S_PHASE] = phase
    s.sc[S_CURRENT] = current
    s.sc[S_POOL] = pool
    s.sc[S_ROUND] = round_
    s.sc[S_TURNS] = 1
    return s


def kernel_step(m: Map, s: State, rv: np.ndarray, kind: int, a: int, b: int, c: int,
                seed: int = 0) -> int:
    """kernel.step (in place) with a fresh generator of `seed`; the error code.

    The generator goes in a `RngBox`: numba keeps about 3 KB on every call given a new numpy
    Generator, which made the tests that try every answer hold gigabytes.
    """
    box = RngBox(np.random.default_rng(seed))
    return int(kernel.step_boxed(m.kernel, s.kernel, rv, box, kind, a, b, c))


class Verdicts:
    """The kernel's verdict on answers at one position, each tried on one scratch copy of it
    copied in again in place, with one generator box: a new copy and box a try were most of
    the time of the tests that try every answer."""

    def __init__(self, m: Map, s: State, rv: np.ndarray) -> None:
        self.m, self.s, self.rv = m, s, rv
        self.work = s.copy()
        self.box = RngBox(np.random.default_rng(0))

    def accepts(self, kind: int, a: int, b: int, c: int) -> bool:
        """kernel.step on the position as it is now said E_OK."""
        self.work.copy_from(self.s)
        return int(kernel.step_boxed(self.m.kernel, self.work.kernel, self.rv, self.box,
                                     kind, a, b, c)) == E_OK


def step(s: State, kind: int, a: int = 0, b: int = 0, c: int = 0, *,
         rules: Rules | None = None, seed: int = 0) -> int:
    """Apply one action with kernel.step (in place) and return the error code."""
    return kernel_step(CLASSIC, s, (rules or Rules()).vector(), kind, a, b, c, seed)


def hand_size(s: State, seat: int) -> int:
    """Cards a seat holds."""
    return int((s.cards == seat).sum())


N_CARDS = T + N_WILDS

# Cards of territories seat 1 owns in most test positions (card i shows territory i, kind i%3).
INF = (9, 12, 15, 18, 21)
CAV = (10, 13, 16, 19, 22)
ART = (11, 14, 17, 20, 23)


def own(territories: Iterable[int]) -> dict[str | int, int]:
    """An owner mapping for `position` giving every listed territory to seat 0."""
    return dict.fromkeys(territories, 0)


def conquer(s: State, src: str, dst: str, dice: int = 0) -> State:
    """The position after an attack that conquers `dst` on its first roll (a seed that does)."""
    for seed in range(500):
        c = s.copy()
        assert step(c, A_ATTACK, tid(src), tid(dst), dice, seed=seed) == E_OK
        if c.owner[tid(dst)] == s.current:
            return c
    raise AssertionError("no conquering seed")


class Aggressive(BasePlayer):
    """Test bot: everything on its strongest border, attack with most dice, move all in."""

    name = "test-aggressive"

    def _strongest_border(self, view: GameView) -> int:
        mine = [int(t) for t in view.mine() if view.is_border(int(t))]
        return max(mine, key=lambda t: (int(view.armies[t]), -t))

    def place_initial(self, view: GameView) -> int:
        """The strongest own border territory."""
        return self._strongest_border(view)

    def reinforce(self, view: GameView, armies: int) -> Place:
        """All on the strongest border."""
        return Place(self._strongest_border(view), armies)

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """Always the first set."""
        return Trade(view.sets()[0])

    def attack(self, view: GameView) -> Attack | None:
        """From the biggest stack against its weakest neighbour."""
        opts = view.attack_options()
        if not opts:
            return None
        src, dst = max(opts, key=lambda o: (int(view.armies[o[0]]) - int(view.armies[o[1]]),
                                            -o[0], -o[1]))
        return Attack(src, dst, 0)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Everything."""
        return hi

    def fortify(self, view: GameView) -> Fortify | None:
        """Never."""
        return None
