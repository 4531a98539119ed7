"""One run's state and its generation step in named stages: ask, league (tell as games arrive),
tell, evaluate, record; then save."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from evolve.breeding import ga, records
from evolve.breeding.islands import island_statistics
from evolve.breeding.strategy import make_strategy
from evolve.checkpoint import (
    Checkpoint,
    CheckpointError,
    check_compatible,
    list_checkpoints,
    load_checkpoint,
    restore_rng,
    save_checkpoint,
)
from evolve.config import BEFORE_ADDED, Config, fingerprint, load_config
from evolve.parallel import Runner
from evolve.plan.valuefit import OnlineValue, record_task, value_games
from evolve.plugin import Plugin, check_league_bots, check_opponents, league_genomes
from evolve.rating import league
from evolve.rating.anchors import Anchors, seat_anchors
from evolve.rating.champion import Proven, candidate_index, playoff_seeds
from evolve.rating.rater import Rater, rated_places
from evolve.rotation import rotated_opponents
from evolve.runfolder import RunFolder
from evolve.sections import ISLAND_KEYS
from evolve.stats import wilson_interval
from evolve.stopwatch import Stopwatch
from features.genome import LAYOUT

EVAL_KEY = 0xE7A1  # first spawn_key entry of eval game seeds (game seeds use 2-tuples)
TIMING_KEYS = ("wall_s", "games_per_s", "time_games_s", "time_rating_s", "time_overhead_s")
UNKEPT_KEYS = (*TIMING_KEYS, "gene_mean", "gene_std", *ISLAND_KEYS)  # log.jsonl, not logbook
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Generation:
    """One rated generation as its stages hand it on: the log record and the arrays saving
    needs (the population's genes and ratings, the league's best), so none is recomputed."""

    record: dict[str, Any]
    genes: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    champion: int


class Evolution:
    """Population, ratings, strategy and RNG of a run; `generation` is the last completed one
    (-1: none). `hall_of_fame` holds the best champions so far (see evolve.breeding.records)."""

    def __init__(self, cfg: Config, plugin: Plugin, folder: RunFolder, name: str = "") -> None:
        self.cfg = cfg
        self.plugin = plugin
        self.folder = folder
        self.name = name
        self.rater = Rater(cfg.rating, cfg.run.population)
        self.strategy = make_strategy(cfg, plugin)
        self.opponents = (check_opponents(cfg.eval.opponents, plugin.bots, plugin.strong)
                          if cfg.eval.every else ())
        self.playoff_opponents = (
            check_opponents(cfg.champion.opponents, plugin.bots, plugin.strong,
                            "champion.opponents") if cfg.champion.every else ())
        self.anchors = Anchors.create(check_league_bots(cfg.league.bots, plugin.compiled_bots),
                                      plugin.compiled_bots, plugin.n_genes, cfg.rating.mu,
                                      cfg.rating.sigma, league_genomes(cfg.league.genomes, plugin))
        self.rng = np.random.default_rng(np.random.SeedSequence(cfg.run.seed))
        self.generation = -1
        self.epoch_start = 0  # first generation of the population's line (run.restart_after)
        self.saved_generation = -1  # last generation whose checkpoint is on disk
        self.pending: Checkpoint | None = None  # a saved generation's checkpoint, not yet written
        self.written_at = time.monotonic()  # when the last checkpoint was written
        self.log_missing = 0  # generations before the resumed checkpoint missing from the log
        self.log_dropped = 0  # generation-0 log lines dropped at resume (no checkpoint)
        self.resumed_version: str | None = None  # the riskevo that saved the resumed checkpoint
        self.pop: list[Any] = self.strategy.initial(self.rng)
        self.statistics = records.statistics()
        self.logbook = records.logbook()  # the log without UNKEPT_KEYS
        self.hall_of_fame = records.hall_of_fame(cfg.run.hall_of_fame)
        self.proven = Proven()  # the champion of champion.json (evolve.rating.champion)
        self.value = OnlineValue.new(cfg.value.l2)  # the run's value (evolve.plan.valuefit)

    # ----- checkpoints -----
    def resume(self) -> bool:
        """Load the newest checkpoint if any (CheckpointError if unusable); True if resumed."""
        found = list_checkpoints(self.folder.checkpoints)
        if not found:
            # Logged generations without a checkpoint are somebody's data, not a fresh start:
            # restarting would overwrite them. A config.toml and an empty log alone (a run
            # killed before generation 0 was saved) hold nothing to lose, nor does generation
            # 0's log line alone: the run was killed (or the disk filled) between that line
            # and its checkpoint, so generation 0 is not done and runs again (the same games).
            logged = self.folder.read_log(warn=None)
            if logged and all(r["generation"] == 0 for r in logged):
                self.folder.reset_log([])  # atomically: a kill now leaves either log
                self.log_dropped = len(logged)
                return False
            if logged:
                raise CheckpointError(f"{self.folder.root}: run folder has generations in "
                                      "log.jsonl but no checkpoint to resume from; use a new "
                                      "--name or delete the folder to start over")
            return False
        path = found[-1][1]
        ck = load_checkpoint(path)
        check_compatible(ck, path, fingerprint(self.cfg), self.plugin.names,
                         defaults={**fingerprint(load_config()),
                                   **{k: v for k, (_, v) in BEFORE_ADDED.items()}})
        restore_rng(self.rng, ck, path)
        self.resumed_version = ck.version
        try:
            self.strategy.restore(ck.arrays)
            records.restore_hall_of_fame(self.hall_of_fame, ck.arrays)
            self.proven = Proven.from_arrays(ck.arrays, self.plugin.n_genes)
            self.anchors.restore(ck.arrays)
            self.value = OnlineValue.from_arrays(ck.arrays, self.cfg.value.l2)
        except ValueError as e:
            raise CheckpointError(f"{path}: corrupt checkpoint ({e})") from None
        self.pop = ga.from_arrays(ck.genes, ck.mu, ck.sigma)
        self.generation = ck.generation
        self.saved_generation = ck.generation
        self.written_at = time.monotonic()
        # The log may run ahead of the checkpoint (killed in between): drop those lines. Lines
        # lost from the file come back from the checkpoint's copy (without UNKEPT_KEYS).
        lines = {r.get("generation"): r for r in ck.log}
        lines.update((r.get("generation"), r) for r in self.folder.read_log())
        keep = [lines[i] for i in range(ck.generation + 1) if i in lines]
        self.log_missing = ck.generation + 1 - len(keep)
        self.folder.reset_log(keep)
        self.logbook = records.logbook([{k: v for k, v in r.items() if k not in UNKEPT_KEYS}
                                        for r in keep])
        self.epoch_start = max((int(r["generation"]) + 1 for r in keep if r.get("restart")),
                               default=0)
        return True

    def snapshot(self, gen: Generation) -> Checkpoint:
        """The state after `gen` (the generation just rated, whose ratings are the
        population's), copied; its log is filled in when it is written (`flush`)."""
        arrays = {**self.strategy.state(),
                  **records.hall_of_fame_arrays(self.hall_of_fame, self.plugin.n_genes),
                  **self.proven.arrays(self.plugin.n_genes), **self.anchors.arrays(),
                  **self.value.arrays()}
        return Checkpoint(generation=self.generation, genes=gen.genes.copy(), mu=gen.mu.copy(),
                          sigma=gen.sigma.copy(), names=self.plugin.names,
                          rng_state=dict(self.rng.bit_generator.state),
                          config=fingerprint(self.cfg),
                          arrays={k: np.array(v, copy=True) for k, v in arrays.items()})

    def flush(self) -> Path | None:
        """Write the pending checkpoint, if any (its path). Its log is the logbook's records up
        to its generation: the logbook only grows, so later records are left out."""
        ck = self.pending
        if ck is None:
            return None
        log = [r for r in records.flat_records(self.logbook) if r["generation"] <= ck.generation]
        path = save_checkpoint(self.folder.checkpoints, replace(ck, log=log),
                               self.cfg.output.keep_checkpoints)
        self.pending = None
        self.saved_generation = ck.generation
        self.written_at = time.monotonic()
        return path

    def ratings(self) -> tuple[np.ndarray, np.ndarray]:
        """mu, sigma f64[n] of the population (unrated individuals: the initial rating)."""
        return ga.ratings(self.pop, self.cfg.rating.mu, self.cfg.rating.sigma)

    # ----- one generation -----
    def step(self, runner: Runner, progress: Progress | None = None) -> Generation:
        """Run the next generation (state is updated, not saved): its record and arrays."""
        sw = Stopwatch()
        g = self.generation + 1
        pop = self.ask(g)
        lc = self.cfg.league
        seats = min(lc.seats, len(self.anchors)) if g >= lc.seats_from else 0
        groups = league.draw_groups(len(pop), self.cfg.run.games_per_individual,
                                    self.cfg.run.group_size - seats, self.rng)
        genes = ga.to_array(pop)
        lg = seat_anchors(groups, genes, self.anchors, seats, self.rng)
        self.rater.set_population(*ga.ratings(pop, self.cfg.rating.mu, self.cfg.rating.sigma))
        self.rater.set_anchors(self.anchors.mu, self.anchors.sigma)
        games = league.Results.empty(lg.slots)
        with sw.lap("league"):
            for a, b in league.play(runner, self.plugin, lg.weights, self.cfg, g, games,
                                    lg.policies):
                with sw.lap("rating"):  # tell: rate each chunk as it arrives
                    self.rater.rate(lg.slots[a:b], rated_places(
                        games.placements[a:b], games.capped[a:b], self.cfg.rating.outcome))
                if progress is not None:
                    progress(b, len(lg.slots))
        self.anchors.mu, self.anchors.sigma = self.rater.anchors
        mu, sigma = self.rater.population  # the rater owns the ratings; the population gets
        self.tell(pop, mu, sigma)  # them as fitness once
        champ = ga.champion_index(mu, sigma)
        playoff = None
        if self.cfg.champion.every and g % self.cfg.champion.every == 0:
            with sw.lap("playoff"):
                playoff = self.crown(runner, genes, mu, sigma, g)
        if lc.hall_every and g > 0 and g % lc.hall_every == 0:
            if self.proven.genes is not None:
                self.anchors.admit(self.proven.genes, g, self.proven.mu, self.proven.sigma,
                                   lc.hall_size)
            else:
                self.anchors.admit(genes[champ], g, mu[champ], sigma[champ], lc.hall_size)
        restart = self.restart_due(g)
        if restart:
            self.epoch_start = g + 1
        ev = None
        if self.cfg.eval.every and g % self.cfg.eval.every == 0:
            best = genes[champ] if self.proven.genes is None else self.proven.genes
            ev = self.evaluate(runner, best, g)
        vc = self.cfg.value
        learned = None
        if (vc.every and g % vc.every == 0 and (not vc.until or g <= vc.until)
                and self.plugin.names == LAYOUT.names):
            with sw.lap("value"):
                best = genes[champ] if self.proven.genes is None else self.proven.genes
                learned = self.learn_value(runner, best, g)
        rec = self.record(g, genes, mu, sigma, games, champ, ev, playoff, sw, restart, learned)
        self.generation = g
        return Generation(rec, genes, mu, sigma, champ)

    def ask(self, g: int) -> list[Any]:
        """The population to rate in generation g (generation 0: the initial one; the first
        generation after a restart: a fresh one, drawn like generation 0)."""
        if g == 0:
            return self.pop
        if g == self.epoch_start:
            return self.strategy.initial(self.rng)
        return self.strategy.ask(self.pop, self.rng, g)

    def restart_due(self, g: int) -> bool:
        """True when generation g ends `run.restart_after` generations without a crowning,
        counted from the later of the last crowning and the last restart. A fresh line, because
        seeds differ more than anything a run does later (docs/experiments/2026-11-26-restarts.md);
        the proven champion stays to be beaten."""
        n = self.cfg.run.restart_after
        return bool(n) and g - max(self.epoch_start - 1, self.proven.born) >= n

    def tell(self, pop: list[Any], mu: np.ndarray, sigma: np.ndarray) -> None:
        """Ratings become fitness; the strategy learns; the population is the new one (the
        generation counter moves when the whole step is done)."""
        ga.rate(pop, mu, sigma)
        self.strategy.tell(pop)
        self.pop = pop

    def crown(self, runner: Runner, genes: np.ndarray, mu: np.ndarray, sigma: np.ndarray,
              g: int) -> dict[str, Any] | None:
        """The playoff of this generation's candidate (None when there is none to play)."""
        c = self.cfg.champion
        i = candidate_index(mu, sigma, c.max_sigma)
        if i < 0 or self.proven.same(genes[i]):
            return None

        def play(weights: np.ndarray, seeds: list[np.random.SeedSequence]) -> np.ndarray:
            return self.versus(runner, weights, self.playoff_opponents, seeds) == 0

        rec = self.proven.playoff(genes[i], float(mu[i]), float(sigma[i]), g, play,
                                  playoff_seeds(self.cfg.run.seed, g, c.games), c.margin)
        return {**rec, "candidate": i}  # its index in genes/ (evolve.plan.lines reads it back)

    def record(self, g: int, genes: np.ndarray, mu: np.ndarray, sigma: np.ndarray,
               games: league.Results, champ: int, ev: dict[str, Any] | None,
               playoff: dict[str, Any] | None, sw: Stopwatch,
               restart: bool = False, value: dict[str, Any] | None = None) -> dict[str, Any]:
        """Generation g's log record; the logbook and hall of fame take their part."""
        records.enter_champion(self.hall_of_fame, self.pop[champ], float(mu[champ]),
                               float(sigma[champ]), g)
        stats = records.flat_statistics(self.statistics, self.pop, self.plugin.names)
        n_games = len(games.rounds)
        wall = sw.elapsed()
        t_games, t_rating = sw["league"] - sw["rating"], sw["rating"]
        rec: dict[str, Any] = {
            "generation": g, "wall_s": wall, "games": n_games, "games_per_s": n_games / wall,
            "capped_fraction": float(games.capped.mean()),
            "mean_rounds": float(games.rounds.mean()),
            **{k: stats[k] for k in ("mu_mean", "mu_std", "mu_min", "mu_max")},
            "champion_index": champ, "champion_mu": float(mu[champ]),
            "champion_sigma": float(sigma[champ]),
            "gene_mean": stats["gene_mean"], "gene_std": stats["gene_std"],
            "proven_generation": self.proven.born if self.proven.genes is not None else None,
            "anchors": [[name, float(m), float(sd)] for name, m, sd in zip(
                self.anchors.labels(), self.anchors.mu, self.anchors.sigma, strict=True)],
            "playoff": playoff, "eval": ev, "restart": restart, "value": value,
            "time_games_s": t_games, "time_rating_s": t_rating,
            "time_overhead_s": max(0.0, wall - t_games - t_rating),
        }
        if self.cfg.run.islands > 1:
            rec.update(island_statistics(genes, mu, self.cfg.run.islands))
        records.log(self.logbook, {k: v for k, v in rec.items() if k not in UNKEPT_KEYS})
        return rec

    def versus(self, runner: Runner, weights: np.ndarray, opponents: tuple[str, ...],
               seeds: list[np.random.SeedSequence]) -> np.ndarray:
        """Winner per game (0 = `weights`, -1 none) of seeded games against the baseline
        `opponents` (rotated over the seats), played on the workers."""
        m, k = len(seeds), self.cfg.run.group_size
        per_game = rotated_opponents(opponents, m, k - 1)
        bounds = league.chunk_bounds(m, self.cfg.parallel.chunk_games, 2 * runner.n_workers)
        tasks = ((self.plugin.play_eval, (weights, per_game[a:b], seeds[a:b], self.plugin.rules,
                                          self.plugin.map)) for a, b in bounds)
        return np.concatenate(list(runner.run(tasks)))

    def evaluate(self, runner: Runner, weights: np.ndarray, g: int) -> dict[str, Any]:
        """The (proven) champion's win rate (outright wins; capped games are not wins) against
        baseline bots, with a 95% Wilson interval; a proven champion's evaluations are also
        pooled since its crowning (`pooled_*`)."""
        m = self.cfg.eval.games
        seeds = [np.random.SeedSequence(self.cfg.run.seed, spawn_key=(EVAL_KEY, g, i))
                 for i in range(m)]
        wins = int((self.versus(runner, weights, self.opponents, seeds) == 0).sum())
        lo, hi = wilson_interval(wins, m)
        rec = {"games": m, "wins": wins, "win_rate": wins / m, "lo": lo, "hi": hi,
               "opponents": list(self.opponents), "players": self.cfg.run.group_size}
        if self.proven.same(weights):
            rec.update(self.proven.pool_eval(wins, m))
        return rec

    def learn_value(self, runner: Runner, weights: np.ndarray, g: int) -> dict[str, Any]:
        """Record `value.games` games of the champion on the workers and learn the run's value
        from its positions (`OnlineValue.learn`: scored first, then learned)."""
        vc, bots = self.cfg.value, self.plugin.compiled_bots
        codes = [bots[n] for n in self.plugin.strong if n in bots] or list(bots.values())
        pol, seeds = value_games(self.cfg.run.seed, g, vc.games, self.cfg.run.group_size,
                                 1.0 if not codes else vc.self_share, codes)
        bounds = league.chunk_bounds(vc.games, self.cfg.parallel.chunk_games,
                                     2 * runner.n_workers)
        tasks = ((record_task, (weights, pol[a:b], seeds[a:b], self.plugin.rules,
                                self.plugin.map)) for a, b in bounds)
        parts = list(runner.run(tasks))
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        return self.value.learn(x, y, vc.decay)

    # ----- run folder -----
    def keep_genes(self, gen: Generation) -> None:
        """`gen`'s genes file when `save` skipped it and `gen` is the last generation saved
        (a stopped run's end, which the plots show as a finished run's)."""
        g = int(gen.record["generation"])
        if g == self.saved_generation and not self.folder.genes_path(g).exists():
            self.folder.write_genes(g, gen.genes, gen.mu, gen.sigma, self.plugin.names)

    def save(self, gen: Generation) -> None:
        """Genes, log line, champion, then the checkpoint (whose write commits the generation,
        and every generation before it)."""
        g, rec, mu, sigma, genes = self.generation, gen.record, gen.mu, gen.sigma, gen.genes
        # Generations 0..10 always: the plots compare generations 0, 1, 10 and the last.
        last = g == self.cfg.run.generations - 1
        if g <= 10 or last or g % self.cfg.output.genes_every == 0:
            self.folder.write_genes(g, genes, mu, sigma, self.plugin.names)
        self.folder.append_log(rec)
        c = gen.champion
        if self.proven.genes is not None:
            self.plugin.save_genome(self.folder.champion, self.proven.genes, {
                "run": self.name, "generation": g, "seed": self.cfg.run.seed,
                **self.proven.meta()})
        else:  # before the first crowning: the league's best, marked unproven
            self.plugin.save_genome(self.folder.champion, genes[c], {
                "run": self.name, "generation": g, "mu": float(mu[c]),
                "sigma": float(sigma[c]), "seed": self.cfg.run.seed, "proven": False})
        # The checkpoint (all the log so far, so its cost grows with the run) is written
        # every output.checkpoint_seconds, at generation 0 and at the last; a kill in between
        # replays the generations after it, the same games (`resume` drops their log lines).
        self.pending = self.snapshot(gen)
        every = self.cfg.output.checkpoint_seconds
        if g == 0 or last or time.monotonic() - self.written_at >= every:
            self.flush()
