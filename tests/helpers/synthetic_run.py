"""A synthetic run folder (random genes drifting over generations, a log, a champion) for
the plot, report and run-folder tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from features.botfile import save_genome
from features.genome import LAYOUT

NAMES = LAYOUT.names


SOME = (NAMES[0], NAMES[-1])  # per-gene plots for two genes keep the suite fast


def make_synthetic_run(path: Path, generations: int = 12, n: int = 30, seed: int = 0) -> Path:
    """A run folder with random genes drifting over generations, a log and a champion file."""
    rng = np.random.default_rng(seed)
    (path / "genes").mkdir(parents=True)
    g_n = len(NAMES)
    drift = rng.normal(0, 0.15, g_n)
    log = []
    for gen in range(generations):
        genes = rng.normal(drift * gen, 1.0 / (1 + 0.2 * gen), (n, g_n))
        genes = np.where(LAYOUT.scale, np.where(genes < 0, -1.0, 1.0), genes)  # scale genes
        mu = rng.normal(25 + gen, 2.0, n)
        sigma = np.full(n, 8.0 / (1 + gen))
        np.savez(path / "genes" / f"gen_{gen:05d}.npz", genes=genes, mu=mu, sigma=sigma,
                 names=np.array(NAMES))
        best = int(np.argmax(mu))
        ev = None
        if gen % 4 == 3 or gen == generations - 1:
            wins = int(rng.integers(20, 60))
            ev = {"games": 100, "wins": wins, "win_rate": wins / 100, "lo": wins / 100 - 0.09,
                  "hi": wins / 100 + 0.09, "opponents": ["random", "greedy", "greedy"]}
        log.append({
            "generation": gen, "wall_s": 1.5 * (gen + 1), "games": 120, "games_per_s": 80.0,
            "capped_fraction": 0.05, "mean_rounds": 30 - gen * 0.5, "mu_mean": float(mu.mean()),
            "mu_std": float(mu.std()), "mu_min": float(mu.min()), "mu_max": float(mu.max()),
            "champion_index": best, "champion_mu": float(mu[best]),
            "champion_sigma": float(sigma[best]),
            "gene_mean": dict(zip(NAMES, genes.mean(0).tolist(), strict=True)),
            "gene_std": dict(zip(NAMES, genes.std(0).tolist(), strict=True)),
            "eval": ev, "time_games_s": 1.2, "time_rating_s": 0.2, "time_overhead_s": 0.1,
        })
    (path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    (path / "config.toml").write_text('name = "synthetic"\n[evolution]\npopulation = 30\n'
                                      'generations = 12\n')
    last = log[-1]
    save_genome(path / "champion.json", genes[last["champion_index"]],
                {"run": path.name, "generation": generations - 1, "mu": last["champion_mu"],
                 "sigma": last["champion_sigma"], "eval": last["eval"]})
    return path


