"""Dice as explicit chance outcomes: one roll, its losses, the exact outcome and conquest tables.

`conquest_table` and `odds_lookup` are the one conquest-odds table and lookup of the project:
the compiled features and the baseline bots both read them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np

from game.rules import layout as L
from game.rules.jit import inline_rule_kernel

# Armies on either side covered exactly by the table; larger battles are scaled down (see
# `odds_lookup`). 128x128 float64 is 128 KiB, small enough to stay in L2 cache.
ODDS_SIZE = 128


@inline_rule_kernel
def battle_losses(att: np.ndarray, n_att: int, dfn: np.ndarray, n_def: int) -> tuple[int, int]:
    """Losses (attacker, defender) of one roll; dice sorted high to low, ties go to the defender."""
    la = 0
    ld = 0
    for i in range(min(n_att, n_def)):
        if att[i] > dfn[i]:
            ld += 1
        else:
            la += 1
    return la, ld


@inline_rule_kernel
def roll_sorted(rng: np.random.Generator, n: int, out: np.ndarray, start: int) -> None:
    """Write n dice into out[start:start+n], sorted high to low."""
    for i in range(n):
        out[start + i] = 1 + int(rng.random() * L.DIE_FACES)
    # Insertion sort: at most three values.
    for i in range(1, n):
        v = out[start + i]
        j = i - 1
        while j >= 0 and out[start + j] < v:
            out[start + j + 1] = out[start + j]
            j -= 1
        out[start + j + 1] = v


def outcome_table(n_att: int, n_def: int) -> dict[tuple[int, int], int]:
    """Count each (attacker loss, defender loss) over all 6**(n_att + n_def) equal rolls."""
    faces = range(1, L.DIE_FACES + 1)
    if not (1 <= n_att <= L.ATTACK_DICE and 1 <= n_def <= L.DEFEND_DICE):
        raise ValueError(f"dice: attacker 1..{L.ATTACK_DICE} and defender 1..{L.DEFEND_DICE}, "
                         f"got {n_att}v{n_def}")
    counts: dict[tuple[int, int], int] = {}
    att = np.zeros(L.ATTACK_DICE, dtype=np.int32)
    dfn = np.zeros(L.DEFEND_DICE, dtype=np.int32)
    for a in product(faces, repeat=n_att):
        att[:n_att] = sorted(a, reverse=True)
        for d in product(faces, repeat=n_def):
            dfn[:n_def] = sorted(d, reverse=True)
            key = battle_losses(att, n_att, dfn, n_def)
            counts[key] = counts.get(key, 0) + 1
    return counts


def conquest_probabilities(max_att: int, max_def: int) -> np.ndarray:
    """P[a, d]: an attacker with a armies in its territory conquers d defenders, rolling max dice.

    Exact Markov chain over single-roll outcomes; the attacker keeps rolling until it wins or is
    down to one army.
    """
    tables = {(na, nd): outcome_table(na, nd)
              for na in range(1, L.ATTACK_DICE + 1) for nd in range(1, L.DEFEND_DICE + 1)}
    p = np.zeros((max_att + 1, max_def + 1))
    p[:, 0] = 1.0
    for a in range(2, max_att + 1):
        for d in range(1, max_def + 1):
            na, nd = min(L.ATTACK_DICE, a - 1), min(L.DEFEND_DICE, d)
            total = L.DIE_FACES ** (na + nd)
            p[a, d] = sum(c / total * p[a - la, d - ld] for (la, ld), c in tables[na, nd].items())
    p[:2, 1:] = 0.0
    return p


@lru_cache(maxsize=1)
def conquest_table() -> np.ndarray:
    """P[a, d] for a, d < ODDS_SIZE (`conquest_probabilities`), read-only float64, built once."""
    p = conquest_probabilities(ODDS_SIZE - 1, ODDS_SIZE - 1)
    p.flags.writeable = False
    return p


@inline_rule_kernel
def odds_lookup(table: np.ndarray, attackers: int, defenders: int) -> float:
    """P(conquest) from `conquest_table`; beyond it both sides are scaled down by one factor.

    Scaling rounds to the nearest army and keeps the ratio; it understates how sure big even
    battles are (P(n, n) grows with n), the safe side for players that only rank options.
    """
    if defenders <= 0:
        return 1.0
    if attackers <= 1:
        return 0.0
    n = table.shape[0] - 1
    big = max(attackers, defenders)
    if big > n:
        attackers = max(1, (attackers * n + big // 2) // big)
        defenders = max(1, (defenders * n + big // 2) // big)
    return table[attackers, defenders]


def conquest_probability(attackers: int, defenders: int) -> float:
    """P(a stack of `attackers` armies, rolling on with max dice, conquers `defenders`)."""
    # `odds_lookup` in Python over the table as lists: bots ask this for every option of every
    # decision, and a numba call per question cost more than the lookup itself.
    if defenders <= 0:
        return 1.0
    if attackers <= 1:
        return 0.0
    rows = conquest_rows()
    n = len(rows) - 1
    big = max(attackers, defenders)
    if big > n:
        attackers = max(1, (attackers * n + big // 2) // big)
        defenders = max(1, (defenders * n + big // 2) // big)
    return rows[attackers][defenders]


@lru_cache(maxsize=1)
def conquest_rows() -> list[list[float]]:
    """`conquest_table()` as nested Python lists (read-only: shared by every caller)."""
    return conquest_table().tolist()
