"""Which seats of a game the compiled loop can play: compiled bots by policy code, bot files
by their weights and plan settings (at most one planning seat a game); else None, and the
game runs in the Python engine (`arena.measure.tournament`)."""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["compiled_lineup"]


def compiled_lineup(specs: tuple[str, ...]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(weights f64[k, G], policies i32[k], plans f64[k, N_PLAN]) when every seat has a
    compiled implementation (a bot file, or a bot of `features.compiled.COMPILED_BOTS`) and at
    most one seat plans, else None."""
    from arena.bots import is_bot_file
    from features.registry import N_GENES
    from features.search.plan import N_PLAN, PS_ROLLOUTS
    from game.bots import COMPILED_BOTS

    if not all(s in COMPILED_BOTS or is_bot_file(s) for s in specs):
        return None
    weights = np.zeros((len(specs), N_GENES))
    policies = np.zeros(len(specs), dtype=np.int32)
    plans = np.zeros((len(specs), N_PLAN))
    for i, spec in enumerate(specs):
        if spec in COMPILED_BOTS:
            policies[i] = COMPILED_BOTS[spec]
        else:
            weights[i], plans[i] = _bot_file_weights(spec)
    if (plans[:, PS_ROLLOUTS] > 0).sum() > 1:
        # Several planning players: the Python engine plays them, each with its generator.
        return None
    return weights, policies, plans


@functools.lru_cache(maxsize=64)
def _bot_file_weights(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """A bot file's genes and plan vector, read once per worker (the arena's one-line error
    when bad)."""
    from arena.bots import read_bot_file

    bot = read_bot_file(spec)
    return bot.weights, bot.settings.vector()
