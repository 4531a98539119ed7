"""One run's state and its generation step (ask/tell): vary, league, rate, log, checkpoint."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import trueskill

from evolve import ga, league
from evolve.checkpoint import (
    Checkpoint,
    CheckpointError,
    check_compatible,
    list_checkpoints,
    load_checkpoint,
    restore_rng,
    save_checkpoint,
)
from evolve.config import Config, fingerprint
from evolve.parallel import Runner
from evolve.plugin import Plugin, check_opponents
from evolve.runfolder import RunFolder
from evolve.stats import wilson_interval

EVAL_KEY = 0xE7A1  # first spawn_key entry of eval game seeds (game seeds use 2-tuples)
TIMING_KEYS = ("wall_s", "games_per_s", "time_games_s", "time_rating_s", "time_overhead_s")
Progress = Callable[[int, int], None]


class Evolution:
    """Population, ratings and RNG of a run; `generation` is the last completed one (-1: none)."""

    def __init__(self, cfg: Config, plugin: Plugin, folder: RunFolder, name: str = "") -> None:
        self.cfg = cfg
        self.plugin = plugin
        self.folder = folder
        self.name = name
        r = cfg.rating
        self.env = trueskill.TrueSkill(mu=r.mu, sigma=r.sigma, beta=r.beta, tau=r.tau,
                                       draw_probability=r.draw_probability)
        self.opponents = (check_opponents(cfg.eval.opponents, plugin.bots)
                          if cfg.eval.every else ())
        self.rng = np.random.default_rng(np.random.SeedSequence(cfg.run.seed))
        self.generation = -1
        self.saved_generation = -1  # last generation whose checkpoint is on disk
        self.pop: list[Any] = ga.random_population(plugin, cfg.run.population, self.rng)
        self.log: list[dict[str, Any]] = []  # deterministic part, kept in checkpoints

    # ----- checkpoints -----
    def resume(self) -> bool:
        """Load the newest checkpoint if any (CheckpointError if unusable); True if resumed."""
        found = list_checkpoints(self.folder.checkpoints)
        if not found:
            # A folder with a run's config or log but no checkpoint is somebody's data, not a
            # fresh start: restarting would overwrite it.
            has_log = self.folder.log.exists() and self.folder.log.stat().st_size > 0
            if self.folder.config.exists() or has_log:
                what = "config.toml" if self.folder.config.exists() else "a log.jsonl"
                raise CheckpointError(f"{self.folder.root}: run folder has {what} but no "
                                      "checkpoint to resume from; use a new --name or delete "
                                      "the folder to start over")
            return False
        path = found[-1][1]
        ck = load_checkpoint(path)
        check_compatible(ck, path, fingerprint(self.cfg), self.plugin.names)
        restore_rng(self.rng, ck, path)
        self.pop = ga.from_arrays(ck.genes, ck.mu, ck.sigma, self.env)
        self.generation = ck.generation
        self.log = ck.log
        self.saved_generation = ck.generation
        # The log may run ahead of the checkpoint (killed in between): drop those lines; fill
        # lines lost from the file from the checkpoint's copy (without timings).
        on_file = {r.get("generation"): r for r in self.folder.read_log()}
        keep = [on_file.get(d["generation"], d) for d in self.log]
        self.folder.reset_log(keep)
        return True

    def checkpoint(self) -> Path:
        """Save the current state as checkpoints/ckpt_NNNNN.npz."""
        mu, sigma = self.ratings()
        ck = Checkpoint(generation=self.generation, genes=ga.to_array(self.pop), mu=mu,
                        sigma=sigma, names=self.plugin.names,
                        rng_state=dict(self.rng.bit_generator.state), config=fingerprint(self.cfg),
                        log=self.log)
        return save_checkpoint(self.folder.checkpoints, ck, self.cfg.output.keep_checkpoints)

    def ratings(self) -> tuple[np.ndarray, np.ndarray]:
        """mu, sigma f64[n] of the (rated) population."""
        mu = np.array([ind.rating.mu for ind in self.pop], dtype=np.float64)
        sigma = np.array([ind.rating.sigma for ind in self.pop], dtype=np.float64)
        return mu, sigma

    # ----- one generation -----
    def step(self, runner: Runner, progress: Progress | None = None) -> dict[str, Any]:
        """Run the next generation and return its log record (state is updated, not saved)."""
        t0 = time.perf_counter()
        cfg, plugin = self.cfg, self.plugin
        g = self.generation + 1
        pop = self.pop if g == 0 else ga.next_generation(self.pop, plugin, cfg.run,
                                                          cfg.variation, self.rng)
        ratings = [ind.rating if ind.rating is not None else self.env.create_rating()
                   for ind in pop]
        groups = league.draw_groups(len(pop), cfg.run.games_per_individual, cfg.run.group_size,
                                    self.rng)
        genes = ga.to_array(pop)
        weights = genes[groups]
        n_games = len(groups)
        bounds = league.chunk_bounds(n_games, cfg.parallel.chunk_games, runner.n_workers)
        placements = np.zeros(groups.shape, dtype=np.int32)
        rounds = np.zeros(n_games, dtype=np.int32)
        capped = np.zeros(n_games, dtype=np.bool_)
        t_rating = 0.0
        t1 = time.perf_counter()
        tasks = league.iter_tasks(plugin.play_games, weights, bounds, cfg.run.seed, g,
                                  plugin.rules, plugin.map)
        # Results arrive in chunk order; rating chunk i while workers play later chunks hides
        # most of the (sequential) rating time behind the games.
        for (a, b), (pl, rd, cp) in zip(bounds, runner.run(tasks), strict=True):
            placements[a:b], rounds[a:b], capped[a:b] = pl, rd, cp
            tr = time.perf_counter()
            league.rate_games(self.env, ratings, groups[a:b], placements[a:b])
            t_rating += time.perf_counter() - tr
            if progress is not None:
                progress(b, n_games)
        t_games = time.perf_counter() - t1 - t_rating
        for ind, r in zip(pop, ratings, strict=True):
            ind.rating = r
            ind.fitness.values = (r.mu,)
        self.pop = pop
        self.generation = g
        mu, sigma = self.ratings()
        champ = ga.champion_index(mu, sigma)
        ev = None
        if cfg.eval.every and g % cfg.eval.every == 0:
            ev = self.evaluate(runner, genes[champ], g)
        wall = time.perf_counter() - t0
        rec: dict[str, Any] = {
            "generation": g, "wall_s": wall, "games": n_games, "games_per_s": n_games / wall,
            "capped_fraction": float(capped.mean()), "mean_rounds": float(rounds.mean()),
            "mu_mean": float(mu.mean()), "mu_std": float(mu.std()), "mu_min": float(mu.min()),
            "mu_max": float(mu.max()), "champion_index": champ,
            "champion_mu": float(mu[champ]), "champion_sigma": float(sigma[champ]),
            "gene_mean": dict(zip(plugin.names, genes.mean(axis=0).tolist(), strict=True)),
            "gene_std": dict(zip(plugin.names, genes.std(axis=0).tolist(), strict=True)),
            "eval": ev, "time_games_s": t_games, "time_rating_s": t_rating,
            "time_overhead_s": max(0.0, wall - t_games - t_rating),
        }
        self.log.append({k: v for k, v in rec.items()
                         if k not in TIMING_KEYS and k not in ("gene_mean", "gene_std")})
        return rec

    def evaluate(self, runner: Runner, weights: np.ndarray, g: int) -> dict[str, Any]:
        """The champion's win rate (outright wins; capped games are not wins) against baseline
        bots, with a 95% Wilson interval."""
        m, k = self.cfg.eval.games, self.cfg.run.group_size
        opp = self.opponents
        per_game = [tuple(opp[(i * (k - 1) + j) % len(opp)] for j in range(k - 1))
                    for i in range(m)]
        seeds = [np.random.SeedSequence(self.cfg.run.seed, spawn_key=(EVAL_KEY, g, i))
                 for i in range(m)]
        bounds = league.chunk_bounds(m, self.cfg.parallel.chunk_games, 2 * runner.n_workers)
        tasks = ((self.plugin.play_eval, (weights, per_game[a:b], seeds[a:b], self.plugin.rules,
                                          self.plugin.map)) for a, b in bounds)
        winners = np.concatenate(list(runner.run(tasks)))
        wins = int((winners == 0).sum())
        lo, hi = wilson_interval(wins, m)
        return {"games": m, "wins": wins, "win_rate": wins / m, "lo": lo, "hi": hi,
                "opponents": list(opp), "players": k}

    # ----- run folder -----
    def save(self, rec: dict[str, Any]) -> None:
        """Genes, log line, champion, then the checkpoint (whose write commits the generation)."""
        g = self.generation
        mu, sigma = self.ratings()
        genes = ga.to_array(self.pop)
        # Generations 0..10 always: the plots compare generations 0, 1, 10 and the last.
        last = g == self.cfg.run.generations - 1
        if g <= 10 or last or g % self.cfg.output.genes_every == 0:
            self.folder.write_genes(g, genes, mu, sigma, self.plugin.names)
        self.folder.append_log(rec)
        c = rec["champion_index"]
        self.plugin.save_genome(self.folder.champion, genes[c], {
            "run": self.name, "generation": g, "mu": float(mu[c]), "sigma": float(sigma[c]),
            "seed": self.cfg.run.seed})
        self.checkpoint()
        self.saved_generation = g

