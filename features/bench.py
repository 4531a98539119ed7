"""Speed of the compiled all-linear loop: `python -m features.bench [n_games]` (one core)."""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from features.compiled import play_linear_games
from features.genome import LAYOUT, hand_set_genome, random_genomes


def bench(weights: np.ndarray, seed: int = 1) -> dict[str, float]:
    """Play weights f64[n, 4, G] once each; games/s, mean rounds and capped share."""
    n = weights.shape[0]
    seeds = np.random.SeedSequence(seed).spawn(n)
    t0 = time.perf_counter()
    _place, rounds, capped = play_linear_games(weights, seeds)
    dt = time.perf_counter() - t0
    return {"games": n, "games_per_s": n / dt, "mean_rounds": float(rounds.mean()),
            "capped": float(capped.mean())}


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark lines for random genomes and four copies of the hand-set genome."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("games", nargs="?", type=int, default=500)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    warm = random_genomes(LAYOUT, 8, rng).reshape(2, 4, -1)
    bench(warm)  # compile (or load the cache) outside the timing
    runs = {
        "random genomes": random_genomes(LAYOUT, 4 * a.games, rng).reshape(a.games, 4, -1),
        "hand-set x4": np.broadcast_to(hand_set_genome(), (a.games, 4, LAYOUT.size)).copy(),
    }
    for name, w in runs.items():
        r = bench(w)
        print(f"{name:15s} {r['games_per_s']:7.1f} games/s  mean rounds {r['mean_rounds']:5.1f}"
              f"  capped {r['capped']:.2f}  ({a.games} games, 4 players, cap 100)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
