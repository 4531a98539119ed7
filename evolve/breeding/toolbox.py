"""The DEAP toolbox of a run, built from the config; the only module that touches `random`.

DEAP's operators draw from the global `random` module. `seed_random` seeds it from the run's
numpy Generator right before they run, so every draw is a function of the checkpointed state and
a resumed run is bit-identical. Nothing else in the project imports `random`
(tests/evolve/test_toolbox.py fails if a module does).

Registered (names in the TOML select the DEAP function; see docs/evolution.md, "DEAP pieces"):
- `mate`: `[variation] mate` = cxUniform (indpb = crossover_indpb), cxOnePoint or cxTwoPoint;
- `mutate`: `mutate_genes` (`[variation] mutate` = mutGaussian: per-gene sigma of the genome
  layout times sigma_scale, indpb = mutation_indpb; scale genes get sigma 0) followed by
  `mutate_signs` (`flip_signs`: each scale gene changes sign with probability flip_prob);
- `select`: `[variation] select` = selTournament (tournsize = run.tournament_size), selBest or
  selRandom; the `run.elite` best are kept apart with `tools.selBest`;
- `clone`: a copy of genes, fitness and rating (DEAP's default deepcopy, faster).
Swap any of them after `build_toolbox` with one `toolbox.register(...)` line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from deap import algorithms, base, tools

from evolve.breeding.creator import Individual
from evolve.config import Config
from evolve.plugin import Plugin

# name -> (DEAP function, its keyword arguments from the config and the plug-in)
Operator = tuple[Callable[..., Any], Callable[[Config, Plugin], dict[str, Any]]]

MATE: dict[str, Operator] = {
    "cxUniform": (tools.cxUniform, lambda c, p: {"indpb": c.variation.crossover_indpb}),
    "cxOnePoint": (tools.cxOnePoint, lambda c, p: {}),
    "cxTwoPoint": (tools.cxTwoPoint, lambda c, p: {}),
}


def _gauss_sigmas(cfg: Config, plugin: Plugin) -> list[float]:
    """Per-gene mutation steps (a list: DEAP takes a Sequence, not an array); 0 on scale genes."""
    return np.where(plugin.scale, 0.0, plugin.sigma * cfg.variation.sigma_scale).tolist()


MUTATE: dict[str, Operator] = {
    "mutGaussian": (tools.mutGaussian, lambda c, p: {
        "mu": 0.0, "sigma": _gauss_sigmas(c, p), "indpb": c.variation.mutation_indpb}),
}
SELECT: dict[str, Operator] = {
    "selTournament": (tools.selTournament, lambda c, p: {"tournsize": c.run.tournament_size}),
    "selBest": (tools.selBest, lambda c, p: {}),
    "selRandom": (tools.selRandom, lambda c, p: {}),
}


def seed_random(rng: np.random.Generator) -> None:
    """Seed `random` (which DEAP's operators use) from the run's generator."""
    random.seed(int(rng.integers(0, 2**63)))


def flip_signs(individual: Any, genes: Sequence[int], indpb: float) -> tuple[Any]:
    """Scale-gene mutation: each listed gene changes sign with probability indpb (in place)."""
    for i in genes:
        if random.random() < indpb:
            individual[i] = -individual[i]
    return (individual,)


def mutate(individual: Any, toolbox: base.Toolbox) -> tuple[Any]:
    """The toolbox's `mutate_genes` then `mutate_signs` (in place)."""
    toolbox.mutate_genes(individual)
    toolbox.mutate_signs(individual)
    return (individual,)


def clone(ind: Any) -> Any:
    """A copy with the same genes, fitness and rating (what deepcopy gives, without its cost)."""
    c = Individual(ind)
    if ind.fitness.valid:
        c.fitness.values = ind.fitness.values
    c.rating = ind.rating
    return c


def build_toolbox(cfg: Config, plugin: Plugin) -> base.Toolbox:
    """mate, mutate (mutate_genes + mutate_signs), select and clone as the config names them."""
    tb = base.Toolbox()
    v = cfg.variation
    for alias, table, name in (("mate", MATE, v.mate), ("mutate_genes", MUTATE, v.mutate),
                               ("select", SELECT, v.select)):
        fn, kwargs = table[name]
        tb.register(alias, fn, **kwargs(cfg, plugin))
    tb.register("mutate_signs", flip_signs, genes=np.flatnonzero(plugin.scale).tolist(),
                indpb=v.flip_prob)
    tb.register("mutate", mutate, toolbox=tb)
    tb.register("clone", clone)
    return tb


def next_generation(pop: Sequence[Any], toolbox: base.Toolbox, cfg: Config,
                    rng: np.random.Generator) -> list[Any]:
    """The `run.elite` best (selBest) unchanged, then selected offspring varied by varAnd.

    Offspring that were crossed or mutated lose fitness and rating (they start fresh); clones
    that came through unchanged are their parent and keep its rating.
    """
    seed_random(rng)
    elite = cfg.run.elite
    elites = [toolbox.clone(ind) for ind in tools.selBest(pop, elite)]
    parents = toolbox.select(pop, len(pop) - elite)
    offspring = algorithms.varAnd(parents, toolbox, cfg.variation.crossover_prob,
                                  cfg.variation.mutation_prob)
    for ind in offspring:
        if not ind.fitness.valid:
            ind.rating = None
    return elites + offspring
