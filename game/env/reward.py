"""The environments' reward: by final place."""

from __future__ import annotations


def placement_reward(place: int, n_players: int) -> float:
    """+1 for first place, -1 for last, linear in between (ties share the better place)."""
    return 1.0 - 2.0 * (place - 1) / (n_players - 1)


__all__ = ["placement_reward"]
