"""League of one generation: draw groups and seats, play the games in chunks on the workers.

Ratings are not kept here: the generation step rates each chunk (evolve.rating.rater) as it arrives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from evolve.config import Config
    from evolve.parallel import Runner
    from evolve.plugin import Plugin


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
               generation: int, start: int, rules: Any, map: Any,
               policies: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worker task: play games start..start+len(weights)-1 of a generation (with `policies`
    int[g, k], `play_games` is the plug-in's mixed-seat function)."""
    seeds = game_seeds(run_seed, generation, start, start + len(weights))
    if policies is None:
        placements, rounds, capped = play_games(weights, seeds, rules, map)
    else:
        placements, rounds, capped = play_games(weights, policies, seeds, rules, map)
    return (np.asarray(placements, dtype=np.int32), np.asarray(rounds, dtype=np.int32),
            np.asarray(capped, dtype=np.bool_))


MIN_CHUNK = 16  # games: a task's overhead is well under a millisecond, 16 short games ~20 ms


def chunk_bounds(n_games: int, chunk_games: int, n_workers: int) -> list[tuple[int, int]]:
    """Contiguous [start, stop) chunks, shrinking towards the end (guided scheduling).

    Each chunk is a 1/(2 n_workers) share of the games left, at most chunk_games and at least
    MIN_CHUNK (less when there are too few games to give every worker that many): big chunks
    while there is plenty of work, small ones last, so no worker idles long while another
    finishes a big final chunk (with equal chunks of 256 short games that wait was ~0.1-0.2 s
    of a generation).
    """
    workers = max(1, n_workers)
    smallest = min(MIN_CHUNK, -(-n_games // workers))
    out, a = [], 0
    while a < n_games:
        share = -(-(n_games - a) // (2 * workers))
        size = min(chunk_games, max(smallest, share))
        out.append((a, min(a + size, n_games)))
        a += size
    return out


def iter_tasks(play_games: Callable[..., Any], weights: np.ndarray, bounds: list[tuple[int, int]],
               run_seed: int, generation: int, rules: Any, map: Any,
               policies: np.ndarray | None = None
               ) -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
    """(function, args) per chunk, for the parallel runner."""
    for a, b in bounds:
        pol = None if policies is None else policies[a:b]
        yield play_chunk, (play_games, weights[a:b], run_seed, generation, a, rules, map, pol)


@dataclass
class Results:
    """Outcomes of a generation's games: placements i32[g, k] (1 = best), rounds, capped."""

    placements: np.ndarray
    rounds: np.ndarray
    capped: np.ndarray

    @classmethod
    def empty(cls, groups: np.ndarray) -> Results:
        """Zeroed arrays for the games of `groups` int[g, k]."""
        n = len(groups)
        return cls(np.zeros(groups.shape, dtype=np.int32), np.zeros(n, dtype=np.int32),
                   np.zeros(n, dtype=np.bool_))


def play(runner: Runner, plugin: Plugin, weights: np.ndarray, cfg: Config, generation: int,
         out: Results, policies: np.ndarray | None = None) -> Iterator[tuple[int, int]]:
    """Play the games (weights f64[g, k, G]; policies int[g, k] when bots are seated) in
    chunks; fill `out` and yield each chunk's [start, stop) in game order as soon as it is
    there."""
    bounds = chunk_bounds(len(weights), cfg.parallel.chunk_games, runner.n_workers)
    fn = plugin.play_games if policies is None else plugin.play_mixed
    if fn is None:
        raise ValueError("the game plug-in cannot seat bots in league games (no play_mixed)")
    tasks = iter_tasks(fn, weights, bounds, cfg.run.seed, generation, plugin.rules, plugin.map,
                       policies)
    for (a, b), (pl, rd, cp) in zip(bounds, runner.run(tasks), strict=True):
        out.placements[a:b], out.rounds[a:b], out.capped[a:b] = pl, rd, cp
        yield a, b
