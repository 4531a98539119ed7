"""Timed generations in a scratch run folder: games, rating, overhead and memory each."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from evolve.breeding import ga
from evolve.config import load_config
from evolve.evolution import Evolution
from evolve.parallel import Runner
from evolve.plugin import load_plugin
from evolve.runfolder import RunFolder

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (0 if unknown, e.g. not Linux)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants (the worker pool) in MiB."""
    total = rss_mb(pid)
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        kids = []
    return total + sum(tree_rss_mb(k) for k in kids)


def run_generations(population: int, games: int, n_jobs: int, generations: int,
                    seed: int, overrides: dict[str, Any] | None = None,
                    initial: np.ndarray | None = None) -> list[dict[str, Any]]:
    """Run generations of a fresh population (or of the `initial` genes f64[population, G]);
    one row of timings (the generation, then saving it) and memory per generation."""
    cfg_over: dict[str, Any] = dict(overrides or {})
    cfg_over.update({"run.population": population, "run.games_per_individual": games,
                     "run.generations": generations, "run.seed": seed,
                     "parallel.n_jobs": n_jobs, "eval.every": 0})
    cfg = load_config((), cfg_over)
    plugin = load_plugin(cfg)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Runner(cfg.parallel) as runner:
        folder = RunFolder(Path(tmp) / "bench")
        folder.create()
        evo = Evolution(cfg, plugin, folder, "bench")
        evo.rater.warm_up()
        if initial is not None:
            evo.pop = ga.individuals(initial)
        for _ in range(generations):
            gen = evo.step(runner)
            t0 = time.perf_counter()
            evo.save(gen)
            rec = gen.record
            row = {k: rec[k] for k in ("generation", "wall_s", "games", "games_per_s",
                                       "time_games_s", "time_rating_s", "time_overhead_s",
                                       "mean_rounds", "capped_fraction")}
            row["time_save_s"] = time.perf_counter() - t0
            row["rss_main_mb"] = rss_mb(os.getpid())
            row["rss_total_mb"] = tree_rss_mb(os.getpid())
            rows.append(row)
    return rows
