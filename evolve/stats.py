"""Small statistics helpers other packages can import (no heavy dependencies)."""

from __future__ import annotations

import math


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% (by default) Wilson score interval for a binomial proportion wins / games.

    Returns (0.0, 1.0) when no games were played: nothing is known yet.
    """
    if games < 0 or wins < 0 or wins > games:
        raise ValueError(f"wilson_interval needs 0 <= wins <= games, got {wins=}, {games=}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1.0 - p) / games + z2 / (4 * games * games)) / denom
    # At 0 or all wins the exact bound is 0 or 1; computed, it carries rounding noise.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return lo, hi


def base_log_loss(rate: float) -> float:
    """Log-loss of always predicting `rate` for labels whose mean is `rate` (the binary entropy):
    the score a value must beat to know anything about a batch."""
    p = min(max(rate, 1e-12), 1 - 1e-12)
    return -(p * math.log(p) + (1 - p) * math.log(1 - p))
