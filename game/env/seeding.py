"""Game seeds for the environments' `reset`: the seed given, else the next from a generator
seeded by the last seed given (fresh entropy only when none ever was, as Gymnasium does)."""

from __future__ import annotations

import numpy as np

SEED_BOUND = 2**63


class GameSeeds:
    """Hands out the seed of each game an environment deals."""

    def __init__(self) -> None:
        self._next: np.random.Generator | None = None

    def next(self, seed: int | None) -> int:
        """The game seed for `reset(seed=seed)`."""
        if seed is not None:
            self._next = np.random.Generator(np.random.PCG64(
                np.random.SeedSequence(seed, spawn_key=(1,))))
            return int(seed)
        if self._next is None:
            self._next = np.random.default_rng()
        return int(self._next.integers(SEED_BOUND))


__all__ = ["SEED_BOUND", "GameSeeds"]
