"""The opponents of seeded evaluation games: the named bots rotated over the seats."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rotated_opponents"]


def rotated_opponents(opponents: Sequence[str], games: int,
                      per_game: int) -> list[tuple[str, ...]]:
    """The `per_game` opponents of each of `games` games: game i takes the next `per_game`
    names of `opponents`, cycled, so every bot plays equally often over a multiple of
    len(opponents) games (the in-run evaluation, the playoffs and the experiments' measures
    all seat them so; ValueError when there is no opponent to seat)."""
    if not opponents:
        raise ValueError("opponents: at least one bot name is needed")
    if games < 0 or per_game < 0:
        raise ValueError(f"games and per_game must be >= 0, got {games} and {per_game}")
    n = len(opponents)
    return [tuple(opponents[(i * per_game + j) % n] for j in range(per_game))
            for i in range(games)]
