"""Exact conquest probabilities by Markov chain over single-roll battle outcomes."""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np

# Armies on either side covered exactly by the table; larger battles are scaled down (see
# `conquest_probability`). 128x128 float64 is 128 KiB, small enough to stay in L2 cache.
ODDS_SIZE = 128


def roll_outcomes(att_dice: int, def_dice: int) -> dict[tuple[int, int], float]:
    """Exact distribution of (attacker losses, defender losses) for one roll; ties to defender."""
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for faces in product(range(1, 7), repeat=att_dice + def_dice):
        att = sorted(faces[:att_dice], reverse=True)
        dfn = sorted(faces[att_dice:], reverse=True)
        la = ld = 0
        for x, y in zip(att, dfn, strict=False):
            if x > y:
                ld += 1
            else:
                la += 1
        counts[(la, ld)] = counts.get((la, ld), 0) + 1
        total += 1
    return {k: v / total for k, v in counts.items()}


@lru_cache(maxsize=4)
def conquest_table(size: int = ODDS_SIZE) -> np.ndarray:
    """P[a, d]: attacker with `a` armies in its territory conquers `d` defenders.

    The attacker rolls min(3, a - 1) dice and the defender min(2, d), repeatedly, until the
    territory falls (d = 0) or the attacker is down to one army. Read-only float64[size, size].
    """
    rolls = {(ad, dd): roll_outcomes(ad, dd) for ad in (1, 2, 3) for dd in (1, 2)}
    p = np.zeros((size, size), dtype=np.float64)
    p[1:, 0] = 1.0
    # Every roll strictly lowers a + d, so filling by increasing a then d sees every successor.
    for a in range(2, size):
        for d in range(1, size):
            ad, dd = min(3, a - 1), min(2, d)
            v = 0.0
            for (la, ld), q in rolls[(ad, dd)].items():
                v += q * p[a - la, d - ld]
            p[a, d] = v
    p.flags.writeable = False
    return p


def conquest_probability(attackers: int, defenders: int, table: np.ndarray | None = None) -> float:
    """Table lookup with the same out-of-range rule as the compiled features (`odds_lookup`)."""
    from features.kernels import odds_lookup

    t = conquest_table() if table is None else table
    return float(odds_lookup(t, attackers, defenders))
