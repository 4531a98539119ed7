"""League of one generation: draw groups and seats, play the games in chunks, rate them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np


def draw_groups(n: int, games_per_individual: int, group_size: int,
                rng: np.random.Generator) -> np.ndarray:
    """Groups int[n_games, group_size] of population indices; the column is the seat.

    Each of `games_per_individual` rounds is a random permutation cut into groups; when n is
    not a multiple of the group size, the last group's empty seats go to random individuals
    not already in it, so everyone plays at least `games_per_individual` games.
    """
    s = group_size
    per_round = -(-n // s)
    pad = per_round * s - n
    perms = rng.permuted(np.tile(np.arange(n), (games_per_individual, 1)), axis=1)
    rounds = []
    for perm in perms:
        if pad:
            last = perm[n - (s - pad):]
            others = np.setdiff1d(np.arange(n), last)
            fill = rng.choice(others, size=pad, replace=False)
            # Shuffle the last group so fillers do not always sit in the last seats.
            tail = rng.permutation(np.concatenate([last, fill]))
            perm = np.concatenate([perm[: n - (s - pad)], tail])
        rounds.append(perm.reshape(per_round, s))
    return np.concatenate(rounds).astype(np.int64)


def game_seeds(run_seed: int, generation: int, start: int, stop: int
               ) -> list[np.random.SeedSequence]:
    """Seeds of games start..stop-1: SeedSequence(run seed, spawn_key=(generation, game))."""
    return [np.random.SeedSequence(run_seed, spawn_key=(generation, i))
            for i in range(start, stop)]


def play_chunk(play_games: Callable[..., Any], weights: np.ndarray, run_seed: int,
               generation: int, start: int, rules: Any, map: Any
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worker task: play games start..start+len(weights)-1 of a generation."""
    seeds = game_seeds(run_seed, generation, start, start + len(weights))
    placements, rounds, capped = play_games(weights, seeds, rules, map)
    return (np.asarray(placements, dtype=np.int32), np.asarray(rounds, dtype=np.int32),
            np.asarray(capped, dtype=np.bool_))


def chunk_bounds(n_games: int, chunk_games: int, n_workers: int) -> list[tuple[int, int]]:
    """Contiguous [start, stop) chunks: at most chunk_games each, at least one per worker."""
    size = max(1, min(chunk_games, -(-n_games // max(1, n_workers))))
    return [(a, min(a + size, n_games)) for a in range(0, n_games, size)]


def rate_games(env: Any, ratings: list[Any], groups: np.ndarray, placements: np.ndarray) -> None:
    """Update `ratings` in place from each game's full finishing order, in the given order."""
    for idx, pl in zip(groups.tolist(), placements.tolist(), strict=True):
        new = env.rate([(ratings[i],) for i in idx], ranks=pl)
        for i, (r,) in zip(idx, new, strict=True):
            ratings[i] = r


def iter_tasks(play_games: Callable[..., Any], weights: np.ndarray, bounds: list[tuple[int, int]],
               run_seed: int, generation: int, rules: Any, map: Any
               ) -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
    """(function, args) per chunk, for the parallel runner."""
    for a, b in bounds:
        yield play_chunk, (play_games, weights[a:b], run_seed, generation, a, rules, map)
