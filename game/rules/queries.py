"""Read-only rule queries over the state arrays (compiled; shared by every game loop)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from game.rules import layout as L
from game.rules.cards import hand_size
from game.rules.jit import allocating_kernel, inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays, StateArrays


@rule_kernel
def n_owned(owner: np.ndarray, seat: int) -> int:
    """Territories a seat owns."""
    n = 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            n += 1
    return n


@rule_kernel
def owns_continent(m: MapArrays, owner: np.ndarray, seat: int, c: int) -> bool:
    """True when the seat holds every territory of continent c (False for c < 0: no such)."""
    if c < 0:
        return False
    for t in range(owner.shape[0]):
        if m.continent_of[t] == c and owner[t] != seat:
            return False
    return True


@rule_kernel
def reinforcements(m: MapArrays, s: StateArrays, seat: int) -> int:
    """Armies at the start of a turn: max(3, territories // 3) plus whole-continent bonuses."""
    owner = s.owner
    n = 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            n += 1
    r = max(L.MIN_REINFORCEMENTS, n // L.TERRITORIES_PER_ARMY)
    for c in range(m.bonus.shape[0]):
        h = 0
        for t in range(owner.shape[0]):
            if m.continent_of[t] == c and owner[t] == seat:
                h += 1
        if h == m.continent_size[c]:
            r += m.bonus[c]
    return r


class Reinforcement(NamedTuple):
    """`reinforcements` term by term, for a person's prompt (cards come on top, by trades)."""

    territories: int
    base: int  # max(3, territories // 3)
    continents: tuple[tuple[int, int], ...]  # (continent, bonus) of every continent held
    total: int  # base + the bonuses: what `reinforcements` gives


def reinforcement_breakdown(m: MapArrays, s: StateArrays, seat: int) -> Reinforcement:
    """The armies a turn of `seat` starts with, by source (tests hold it to `reinforcements`)."""
    mine = np.asarray(s.owner) == seat
    n = int(mine.sum())
    base = max(L.MIN_REINFORCEMENTS, n // L.TERRITORIES_PER_ARMY)
    held = tuple((c, int(m.bonus[c])) for c in range(len(m.bonus))
                 if int(mine[np.asarray(m.continent_of) == c].sum()) == int(m.continent_size[c]))
    return Reinforcement(n, base, held, base + sum(b for _c, b in held))


@inline_rule_kernel
def can_attack(m: MapArrays, s: StateArrays, seat: int) -> bool:
    """True when some own territory with 2+ armies borders an enemy."""
    owner, armies = s.owner, s.armies
    for t in range(owner.shape[0]):
        if owner[t] == seat and armies[t] >= 2:
            for k in range(m.degree[t]):
                if owner[m.neighbours[t, k]] != seat:
                    return True
    return False


@inline_rule_kernel
def can_fortify(m: MapArrays, s: StateArrays, seat: int) -> bool:
    """True when some own territory with 2+ armies borders another own territory."""
    owner, armies = s.owner, s.armies
    for t in range(owner.shape[0]):
        if owner[t] == seat and armies[t] >= 2:
            for k in range(m.degree[t]):
                if owner[m.neighbours[t, k]] == seat:
                    return True
    return False


@rule_kernel
def connected_own(m: MapArrays, owner: np.ndarray, armies: np.ndarray, seat: int, a: int,
                  b: int) -> bool:
    """True when a chain of the seat's own territories links a to b.

    Allocation-free so that it runs inside kernels compiled without reference counting: visited
    territories are marked by negating their army counts (always >= 1), which are restored
    before returning. Callers holding a read-only view pass a copy of the armies.
    """
    nbr, deg = m.neighbours, m.degree
    n = owner.shape[0]
    armies[a] = -armies[a]
    changed = True
    while changed and armies[b] > 0:
        changed = False
        for u in range(n):
            if armies[u] < 0:
                for k in range(deg[u]):
                    v = nbr[u, k]
                    if armies[v] > 0 and owner[v] == seat:
                        armies[v] = -armies[v]
                        changed = True
    found = armies[b] < 0
    for u in range(n):
        if armies[u] < 0:
            armies[u] = -armies[u]
    return found


@rule_kernel
def edge_pairs(src: np.ndarray, dst: np.ndarray, owner: np.ndarray, armies: np.ndarray,
               seat: int, own_dst: bool, out: np.ndarray) -> int:
    """Borders (src[i], dst[i]) from an own stack of 2+ into an own (own_dst) or enemy
    territory, written flat into out in the edges' order; returns 2 * the number found."""
    k = 0
    for i in range(src.shape[0]):
        a, b = src[i], dst[i]
        if owner[a] == seat and armies[a] >= 2 and (owner[b] == seat) == own_dst:
            out[k] = a
            out[k + 1] = b
            k += 2
    return k


@inline_rule_kernel
def occupy_bounds(s: StateArrays) -> tuple[int, int]:
    """(fewest, most) armies that may move into the territory just conquered."""
    return s.sc[L.S_MIN_MOVE], s.armies[s.sc[L.S_SRC]] - 1


@rule_kernel
def trade_compulsory(s: StateArrays, rules: np.ndarray) -> bool:
    """True while the seat to move must trade: R_TRADE_AT (5) or more cards."""
    return hand_size(s.cards, s.sc[L.S_CURRENT]) >= rules[L.R_TRADE_AT]


@rule_kernel
def bonus_open(s: StateArrays, rules: np.ndarray) -> bool:
    """True when a traded card showing an own territory still earns the +2 bonus."""
    return rules[L.R_BONUS_EVERY_SET] != 0 or s.sc[L.S_BONUS_USED] == 0


@rule_kernel
def mission_done(m: MapArrays, s: StateArrays, seat: int) -> bool:
    """True when the seat's secret mission is complete."""
    owner, armies, pl = s.owner, s.armies, s.pl
    mid = pl[seat, L.P_MISSION]
    if mid < 0:
        return False
    if mid < L.M_18_TWO:
        if not owns_continent(m, owner, seat, m.mission_continents[mid, 0]):
            return False
        if not owns_continent(m, owner, seat, m.mission_continents[mid, 1]):
            return False
        if mid == L.M_EUR_SAM_ANY or mid == L.M_EUR_AUS_ANY:
            whole = 0
            for c in range(m.bonus.shape[0]):
                # int32 as the two checks above pass the continent: one compile
                if owns_continent(m, owner, seat, np.int32(c)):
                    whole += 1
            return whole >= L.MISSION_CONTINENTS_ANY
        return True
    if mid == L.M_18_TWO:
        n = 0
        for t in range(owner.shape[0]):
            if owner[t] == seat and armies[t] >= L.MISSION_ARMIES:
                n += 1
        return n >= L.MISSION_TERRITORIES
    if mid == L.M_24:
        return n_owned(owner, np.int32(seat)) >= L.MISSION_ALL_TERRITORIES  # as a conquest
    # Destroy colour: the target is gone and the mission was not converted, so the holder did it.
    return pl[pl[seat, L.P_TARGET], L.P_ALIVE] == 0


@allocating_kernel
def placements(s: StateArrays) -> np.ndarray:
    """Finishing place of every seat (1 = best; equal keys share the better place).

    Winner first, then survivors by territories then armies, then the eliminated, latest first.
    """
    owner, armies, pl = s.owner, s.armies, s.pl
    n_players = pl.shape[0]
    key = np.zeros((n_players, 3), dtype=np.int64)
    for q in range(n_players):
        if q == s.sc[L.S_WINNER]:
            key[q, 0] = 2
        elif pl[q, L.P_ALIVE] == 1:
            key[q, 0] = 1
            tot = 0
            for t in range(owner.shape[0]):
                if owner[t] == q:
                    key[q, 1] += 1
                    tot += armies[t]
            key[q, 2] = tot
        else:
            key[q, 1] = pl[q, L.P_ELIM_ORDER]
    place = np.ones(n_players, dtype=np.int32)
    for q in range(n_players):
        for r in range(n_players):
            better = key[r, 0] > key[q, 0] or (key[r, 0] == key[q, 0] and (
                key[r, 1] > key[q, 1] or (key[r, 1] == key[q, 1] and key[r, 2] > key[q, 2])))
            if better:
                place[q] += 1
    return place


class Standing(NamedTuple):
    """How a finished game ended, per player (not per seat)."""

    placements: np.ndarray  # int32[k]: place of player i, 1 = best
    rounds: int  # rounds played; a capped game counts the cap
    capped: bool
    winner: int  # player index, -1 when nobody won


def standing(s: StateArrays, seats: Sequence[int] | np.ndarray, cap: int) -> Standing:
    """The result of a finished game; seats[seat] = player index (range(k) for seat order)."""
    by_seat = placements(s)
    by_player = np.empty_like(by_seat)
    by_player[np.asarray(seats)] = by_seat
    w = int(s.sc[L.S_WINNER])
    # A capped game stops as round cap + 1 begins, so the round counter is one past the cap.
    return Standing(by_player, min(int(s.sc[L.S_ROUND]), cap), bool(s.sc[L.S_CAPPED]),
                    int(seats[w]) if w >= 0 else -1)


@inline_rule_kernel
def census_into(m: MapArrays, owner: np.ndarray, seat: int, cnt: np.ndarray,
                holder: np.ndarray, nown: np.ndarray) -> None:
    """Fill seat's territories per continent, each continent's sole holder (-1 none) and the
    territories per seat (the bots' and the linear player's one census)."""
    cnt[:] = 0
    holder[:] = -2  # -2: unseen yet
    nown[:] = 0
    for t in range(owner.shape[0]):
        o = owner[t]
        c = m.continent_of[t]
        nown[o] += 1
        if o == seat:
            cnt[c] += 1
        h = holder[c]
        if h == -2:
            holder[c] = o
        elif h != o:
            holder[c] = -1
