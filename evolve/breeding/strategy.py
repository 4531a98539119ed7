"""Search strategies in ask/tell form: the GA (DEAP toolbox) and CMA-ES (DEAP's cma.Strategy).

A strategy hands out the population to rate (`initial`, then `ask` each generation) and learns
from it once the league has set every individual's fitness to its TrueSkill mu (`tell`). Its
own state between generations is a dict of plain arrays (`state`/`restore`) for checkpoints.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from deap import base, cma

from evolve.breeding import ga
from evolve.breeding.creator import Individual
from evolve.breeding.islands import next_generation_islands
from evolve.breeding.toolbox import build_toolbox
from evolve.config import Config
from evolve.plugin import Plugin


class GeneticAlgorithm:
    """Elites, selection, crossover and mutation through the DEAP toolbox
    (evolve.breeding.toolbox)."""

    def __init__(self, cfg: Config, plugin: Plugin) -> None:
        self.cfg, self.plugin = cfg, plugin
        self.toolbox: base.Toolbox = build_toolbox(cfg, plugin)

    def initial(self, rng: np.random.Generator) -> list[Any]:
        """Generation 0: genes uniform in their documented ranges, scale genes +-1."""
        return ga.random_population(self.plugin, self.cfg.run.population, rng)

    def ask(self, pop: list[Any], rng: np.random.Generator, g: int = 0) -> list[Any]:
        """Generation g from the rated one (bred within each island: evolve.breeding.islands)."""
        return next_generation_islands(pop, self.toolbox, self.cfg, rng, g)

    def tell(self, pop: list[Any]) -> None:
        """Nothing to learn: selection reads the fitness when asked."""

    def state(self) -> dict[str, np.ndarray]:
        """No state besides the population."""
        return {}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Nothing to restore."""


# cma.Strategy attributes that change as it learns (the rest follows from the config).
CMA_STATE = ("centroid", "sigma", "pc", "ps", "C", "B", "diagD", "BD", "cond", "update_count")


class SeededCmaStrategy(cma.Strategy):  # type: ignore[misc]
    """DEAP's CMA-ES, sampling from the run's Generator instead of numpy's global state."""

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """lambda_ points f64[lambda_, dim], as `generate` draws them."""
        arz = rng.standard_normal((self.lambda_, self.dim))
        return np.asarray(self.centroid + self.sigma * np.dot(arz, self.BD.T))


class CmaEs:
    """CMA-ES over the genes: the population is lambda_ samples, fitness their TrueSkill mu.

    Scale genes are searched as real numbers and play as their sign, so a sign flip is a step
    of the distribution across zero. Each gene's initial spread is `cma.sigma` times half its
    documented range (scale genes: cma.sigma), centred on the middle of the range (scale: 0).
    """

    def __init__(self, cfg: Config, plugin: Plugin) -> None:
        self.cfg, self.plugin = cfg, plugin
        half = np.where(plugin.scale, 1.0, (plugin.high - plugin.low) / 2)
        centre = np.where(plugin.scale, 0.0, (plugin.low + plugin.high) / 2)
        self.strategy = SeededCmaStrategy(centroid=centre, sigma=cfg.cma.sigma,
                                          lambda_=cfg.run.population,
                                          cmatrix=np.diag(half ** 2))
        self.samples: np.ndarray | None = None  # raw points of the population being rated

    def _population(self, rng: np.random.Generator) -> list[Any]:
        self.samples = self.strategy.sample(rng)
        genes = np.where(self.plugin.scale, np.where(self.samples < 0, -1.0, 1.0), self.samples)
        return [Individual(row) for row in genes.tolist()]

    def initial(self, rng: np.random.Generator) -> list[Any]:
        """Generation 0: lambda_ samples of the initial distribution."""
        return self._population(rng)

    def ask(self, pop: list[Any], rng: np.random.Generator, g: int = 0) -> list[Any]:
        """lambda_ new samples (nobody survives: every generation is rated afresh)."""
        return self._population(rng)

    def tell(self, pop: list[Any]) -> None:
        """Update the distribution from the rated samples (`cma.Strategy.update`)."""
        if self.samples is None:
            raise RuntimeError("CmaEs.tell before ask: a resumed population cannot be told")
        points = [Individual(row) for row in self.samples.tolist()]
        for p, ind in zip(points, pop, strict=True):
            p.fitness.values = ind.fitness.values
        self.strategy.update(points)
        self.samples = None

    def state(self) -> dict[str, np.ndarray]:
        """The learnt distribution as plain arrays."""
        return {f"cma.{k}": np.asarray(getattr(self.strategy, k)) for k in CMA_STATE}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Set the learnt distribution from `state()` arrays (ValueError if they do not fit)."""
        dim = self.strategy.dim
        for k in CMA_STATE:
            a = arrays.get(f"cma.{k}")
            if a is None:
                raise ValueError(f"cma.{k} is missing")
            if k in ("sigma", "cond", "update_count"):
                setattr(self.strategy, k, int(a) if k == "update_count" else float(a))
            elif a.shape != getattr(self.strategy, k).shape:
                raise ValueError(f"cma.{k} has shape {a.shape}, this run needs dimension {dim}")
            else:
                setattr(self.strategy, k, np.array(a, dtype=np.float64))


Strategy = GeneticAlgorithm | CmaEs


def make_strategy(cfg: Config, plugin: Plugin) -> Strategy:
    """The `run.strategy` of the config."""
    return CmaEs(cfg, plugin) if cfg.run.strategy == "cma" else GeneticAlgorithm(cfg, plugin)
