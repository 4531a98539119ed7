"""Exact conquest probabilities by Markov chain over single-roll battle outcomes."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.dice import conquest_probabilities

# Armies on either side covered exactly by the table; larger battles are scaled down (see
# `conquest_probability`). 128x128 float64 is 128 KiB, small enough to stay in L2 cache.
ODDS_SIZE = 128


@lru_cache(maxsize=4)
def conquest_table(size: int = ODDS_SIZE) -> np.ndarray:
    """P[a, d]: attacker with `a` armies in its territory conquers `d` defenders.

    The attacker rolls min(3, a - 1) dice and the defender min(2, d), repeatedly, until the
    territory falls (d = 0) or the attacker is down to one army. Read-only float64[size, size].
    """
    p = conquest_probabilities(size - 1, size - 1)
    p.flags.writeable = False
    return p


def conquest_probability(attackers: int, defenders: int, table: np.ndarray | None = None) -> float:
    """Table lookup with the same out-of-range rule as the compiled features (`odds_lookup`)."""
    from features.kernels import odds_lookup

    t = conquest_table() if table is None else table
    return float(odds_lookup(t, attackers, defenders))
