"""One genome against 3 copies of another in the compiled loop: outright win rate.

usage: versus.py GAMES SEED A.json|RUN:GEN B.json|RUN:GEN ...   (first is the seat, each other
is the 3 copies; RUN:GEN is the playoff candidate of runs/RUN/genes/gen_GEN.npz).
"""
from __future__ import annotations

import sys

import numpy as np

from evolve.champion import candidate_index
from evolve.stats import wilson_interval
from features.compiled import play_linear_games
from features.genome import load_genome


def genome(spec: str) -> np.ndarray:
    if spec.endswith(".json"):
        return load_genome(spec)[0]
    run, gen = spec.split(":")
    d = np.load(f"runs/{run}/genes/gen_{int(gen):05d}.npz")
    return d["genes"][candidate_index(d["mu"], d["sigma"], 1.2)]


def trio(spec: str) -> np.ndarray:
    """'B' -> 3 copies of B; 'B+C+D' -> one of each (rows f64[3, G])."""
    parts = spec.split("+")
    return np.stack([genome(p) for p in (parts * 3 if len(parts) == 1 else parts)])


def versus(a: np.ndarray, b: np.ndarray, games: int, seed: int) -> int:
    """a in seat g % 4 of game g, the trio b (f64[3, G], rotated with the games) elsewhere."""
    w = np.zeros((games, 4, len(a)))
    for g in range(games):
        others = np.roll(b, g // 4, axis=0)
        w[g] = np.insert(others, g % 4, a, axis=0)
    seat = np.arange(games) % 4
    w[np.arange(games), seat] = a
    seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(games)]
    placements, _, capped = play_linear_games(w, seeds)
    # a capped game's territory leader has place 1 but is not a winner: outright wins only
    won = (placements[np.arange(games), seat] == 1) & ~np.asarray(capped, bool)
    return int(won.sum())


if __name__ == "__main__":
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    a = genome(sys.argv[3])
    for spec in sys.argv[4:]:
        w = versus(a, trio(spec), games, seed)
        lo, hi = wilson_interval(w, games)
        print(f"{sys.argv[3]} vs 3x {spec}: {w / games:.3f} [{lo:.3f}, {hi:.3f}]", flush=True)
