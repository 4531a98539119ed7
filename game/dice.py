"""Dice as explicit chance outcomes: one roll, its losses, and the exact outcome tables."""

from __future__ import annotations

from itertools import product

import numpy as np

from game.jit import rule_kernel


@rule_kernel
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


@rule_kernel
def roll_sorted(rng: np.random.Generator, n: int, out: np.ndarray, start: int) -> None:
    """Write n dice into out[start:start+n], sorted high to low."""
    for i in range(n):
        out[start + i] = 1 + int(rng.random() * 6.0)
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
    if not (1 <= n_att <= 3 and 1 <= n_def <= 2):
        raise ValueError(f"dice: attacker 1..3 and defender 1..2, got {n_att}v{n_def}")
    counts: dict[tuple[int, int], int] = {}
    att = np.zeros(3, dtype=np.int32)
    dfn = np.zeros(2, dtype=np.int32)
    for a in product(range(1, 7), repeat=n_att):
        att[:n_att] = sorted(a, reverse=True)
        for d in product(range(1, 7), repeat=n_def):
            dfn[:n_def] = sorted(d, reverse=True)
            key = battle_losses(att, n_att, dfn, n_def)
            counts[key] = counts.get(key, 0) + 1
    return counts


def conquest_probabilities(max_att: int, max_def: int) -> np.ndarray:
    """P[a, d]: an attacker with a armies in its territory conquers d defenders, rolling max dice.

    Exact Markov chain over single-roll outcomes; the attacker keeps rolling until it wins or is
    down to one army.
    """
    tables = {(na, nd): outcome_table(na, nd) for na in (1, 2, 3) for nd in (1, 2)}
    p = np.zeros((max_att + 1, max_def + 1))
    p[:, 0] = 1.0
    for a in range(2, max_att + 1):
        for d in range(1, max_def + 1):
            na, nd = min(3, a - 1), min(2, d)
            total = 6 ** (na + nd)
            p[a, d] = sum(c / total * p[a - la, d - ld] for (la, ld), c in tables[na, nd].items())
    p[:2, 1:] = 0.0
    return p
