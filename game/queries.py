"""Read-only rule queries over the state arrays (compiled; shared by every game loop)."""

from __future__ import annotations

import numpy as np

from game.cards import hand_size
from game.jit import allocating_kernel, rule_kernel
from game.layout import (
    M_18_TWO,
    M_24,
    M_EUR_AUS_ANY,
    M_EUR_SAM_ANY,
    P_ALIVE,
    P_ELIM_ORDER,
    P_MISSION,
    P_TARGET,
    S_CURRENT,
    S_MIN_MOVE,
    S_SRC,
    S_WINNER,
)


@rule_kernel
def n_owned(owner: np.ndarray, seat: int) -> int:
    """Territories a seat owns."""
    n = 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            n += 1
    return n


@rule_kernel
def owns_continent(m, owner: np.ndarray, seat: int, c: int) -> bool:  # type: ignore[no-untyped-def]
    """True when the seat holds every territory of continent c (False for c < 0: no such)."""
    if c < 0:
        return False
    cont_of = m[0]
    for t in range(owner.shape[0]):
        if cont_of[t] == c and owner[t] != seat:
            return False
    return True


@rule_kernel
def reinforcements(m, s, seat: int) -> int:  # type: ignore[no-untyped-def]
    """Armies at the start of a turn: max(3, territories // 3) plus whole-continent bonuses."""
    cont_of, bonus, continent_size = m[0], m[1], m[5]
    owner = s[0]
    n = 0
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            n += 1
    r = max(3, n // 3)
    for c in range(bonus.shape[0]):
        h = 0
        for t in range(owner.shape[0]):
            if cont_of[t] == c and owner[t] == seat:
                h += 1
        if h == continent_size[c]:
            r += bonus[c]
    return r


@rule_kernel
def can_attack(m, s, seat: int) -> bool:  # type: ignore[no-untyped-def]
    """True when some own territory with 2+ armies borders an enemy."""
    nbr, deg = m[3], m[4]
    owner, armies = s[0], s[1]
    for t in range(owner.shape[0]):
        if owner[t] == seat and armies[t] >= 2:
            for k in range(deg[t]):
                if owner[nbr[t, k]] != seat:
                    return True
    return False


@rule_kernel
def can_fortify(m, s, seat: int) -> bool:  # type: ignore[no-untyped-def]
    """True when some own territory with 2+ armies borders another own territory."""
    nbr, deg = m[3], m[4]
    owner, armies = s[0], s[1]
    for t in range(owner.shape[0]):
        if owner[t] == seat and armies[t] >= 2:
            for k in range(deg[t]):
                if owner[nbr[t, k]] == seat:
                    return True
    return False


@rule_kernel
def connected_own(m, owner: np.ndarray, armies: np.ndarray, seat: int, a: int,  # type: ignore[no-untyped-def]
                  b: int) -> bool:
    """True when a chain of the seat's own territories links a to b.

    Allocation-free so that it runs inside kernels compiled without reference counting: visited
    territories are marked by negating their army counts (always >= 1), which are restored
    before returning. Callers holding a read-only view pass a copy of the armies.
    """
    nbr, deg = m[3], m[4]
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
def occupy_bounds(s) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(fewest, most) armies that may move into the territory just conquered."""
    sc = s[4]
    return sc[S_MIN_MOVE], s[1][sc[S_SRC]] - 1


@rule_kernel
def trade_compulsory(s) -> bool:  # type: ignore[no-untyped-def]
    """True while the seat to move must trade: 5+ cards (at turn start, or after an elimination)."""
    return hand_size(s[2], s[4][S_CURRENT]) >= 5


@rule_kernel
def mission_done(m, s, seat: int) -> bool:  # type: ignore[no-untyped-def]
    """True when the seat's secret mission is complete."""
    owner, armies, pl = s[0], s[1], s[3]
    bonus, mconts = m[1], m[6]
    mid = pl[seat, P_MISSION]
    if mid < 0:
        return False
    if mid < M_18_TWO:
        if not owns_continent(m, owner, seat, mconts[mid, 0]):
            return False
        if not owns_continent(m, owner, seat, mconts[mid, 1]):
            return False
        if mid == M_EUR_SAM_ANY or mid == M_EUR_AUS_ANY:
            whole = 0
            for c in range(bonus.shape[0]):
                if owns_continent(m, owner, seat, c):
                    whole += 1
            return whole >= 3
        return True
    if mid == M_18_TWO:
        n = 0
        for t in range(owner.shape[0]):
            if owner[t] == seat and armies[t] >= 2:
                n += 1
        return n >= 18
    if mid == M_24:
        return n_owned(owner, seat) >= 24
    # Destroy colour: the target is gone and the mission was not converted, so the holder did it.
    return pl[pl[seat, P_TARGET], P_ALIVE] == 0


@allocating_kernel
def placements(s) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Finishing place of every seat (1 = best; equal keys share the better place).

    Winner first, then survivors by territories then armies, then the eliminated, latest first.
    """
    owner, armies, pl, sc = s[0], s[1], s[3], s[4]
    n_players = pl.shape[0]
    key = np.zeros((n_players, 3), dtype=np.int64)
    for q in range(n_players):
        if q == sc[S_WINNER]:
            key[q, 0] = 2
        elif pl[q, P_ALIVE] == 1:
            key[q, 0] = 1
            tot = 0
            for t in range(owner.shape[0]):
                if owner[t] == q:
                    key[q, 1] += 1
                    tot += armies[t]
            key[q, 2] = tot
        else:
            key[q, 1] = pl[q, P_ELIM_ORDER]
    place = np.ones(n_players, dtype=np.int32)
    for q in range(n_players):
        for r in range(n_players):
            better = key[r, 0] > key[q, 0] or (key[r, 0] == key[q, 0] and (
                key[r, 1] > key[q, 1] or (key[r, 1] == key[q, 1] and key[r, 2] > key[q, 2])))
            if better:
                place[q] += 1
    return place
