"""Genetic operators on DEAP individuals, drawing only from an explicit numpy Generator.

DEAP's own `tools.cxUniform`/`mutGaussian`/`selTournament` draw from the global `random`
module, which would make runs depend on hidden global state and break checkpointed resume; these
are the same operators (same semantics, DEAP's in-place/invalidate conventions) on a Generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evolve.creator import Individual
from evolve.plugin import Plugin


def random_population(plugin: Plugin, n: int, rng: np.random.Generator) -> list[Any]:
    """n individuals: genes uniform in their documented ranges, scale genes +-1; unrated."""
    # Scale genes get a dummy [0, 1) range here: their documented range may be unbounded.
    lo = np.where(plugin.scale, 0.0, plugin.low)
    hi = np.where(plugin.scale, 1.0, plugin.high)
    genes = rng.uniform(lo, hi, size=(n, plugin.n_genes))
    signs = rng.choice(np.array([-1.0, 1.0]), size=(n, plugin.n_genes))
    genes = np.where(plugin.scale, signs, genes)
    return [Individual(row.tolist()) for row in genes]


def to_array(pop: Sequence[Any]) -> np.ndarray:
    """Genes of a population as f64[n, G]."""
    return np.asarray(pop, dtype=np.float64)


def from_arrays(genes: np.ndarray, mu: np.ndarray, sigma: np.ndarray, env: Any) -> list[Any]:
    """Individuals with ratings (as stored in a checkpoint)."""
    pop = []
    for row, m, s in zip(genes, mu, sigma, strict=True):
        ind = Individual(row.tolist())
        ind.rating = env.create_rating(float(m), float(s))
        ind.fitness.values = (float(m),)
        pop.append(ind)
    return pop


def cx_uniform(a: Any, b: Any, indpb: float, rng: np.random.Generator) -> tuple[Any, Any]:
    """Uniform crossover in place: swap each gene with probability indpb (as DEAP)."""
    swap = rng.random(len(a)) < indpb
    for i in np.flatnonzero(swap):
        a[i], b[i] = b[i], a[i]
    return a, b


def mutate(ind: Any, plugin: Plugin, sigma_scale: float, indpb: float, flip_prob: float,
           rng: np.random.Generator) -> tuple[Any]:
    """In place: gaussian step (per-gene sigma) with probability indpb on ordinary genes, sign
    flip with probability flip_prob on scale genes (which stay exactly -1 or +1).

    Ordinary genes are not clipped: the layout's range is only where they start.
    """
    g = len(ind)
    x = np.asarray(ind, dtype=np.float64)
    step = ~plugin.scale & (rng.random(g) < indpb)
    noise = rng.normal(0.0, 1.0, g) * plugin.sigma * sigma_scale
    flip = plugin.scale & (rng.random(g) < flip_prob)
    x = np.where(step, x + noise, x)
    x = np.where(flip, -x, x)
    ind[:] = x.tolist()
    return (ind,)


def select_tournament(pop: Sequence[Any], k: int, size: int,
                      rng: np.random.Generator) -> list[Any]:
    """k tournament winners on mu (contestants drawn with replacement, as DEAP)."""
    mu = np.array([ind.fitness.values[0] for ind in pop])
    contest = rng.integers(0, len(pop), size=(k, size))
    winners = contest[np.arange(k), np.argmax(mu[contest], axis=1)]
    return [pop[i] for i in winners]


def clone(ind: Any) -> Any:
    """A copy keeping genes, fitness and rating (ratings are immutable objects)."""
    c = Individual(ind)
    if ind.fitness.valid:
        c.fitness.values = ind.fitness.values
    c.rating = ind.rating
    return c


def next_generation(pop: Sequence[Any], plugin: Plugin, cfg_run: Any, cfg_var: Any,
                    rng: np.random.Generator) -> list[Any]:
    """Elites unchanged, then tournament-selected offspring varied as DEAP's varAnd.

    Offspring that were crossed or mutated lose fitness and rating (they start fresh); clones
    that came through unchanged are their parent and keep its rating.
    """
    mu = np.array([ind.fitness.values[0] for ind in pop])
    order = np.argsort(-mu, kind="stable")
    elites = [clone(pop[i]) for i in order[: cfg_run.elite]]
    parents = select_tournament(pop, len(pop) - cfg_run.elite, cfg_run.tournament_size, rng)
    off = [clone(p) for p in parents]
    for i in range(1, len(off), 2):
        if rng.random() < cfg_var.crossover_prob:
            cx_uniform(off[i - 1], off[i], cfg_var.crossover_indpb, rng)
            for j in (i - 1, i):
                del off[j].fitness.values
                off[j].rating = None
    for ind in off:
        if rng.random() < cfg_var.mutation_prob:
            mutate(ind, plugin, cfg_var.sigma_scale, cfg_var.mutation_indpb,
                   cfg_var.flip_prob, rng)
            del ind.fitness.values
            ind.rating = None
    return elites + off


def champion_index(mu: np.ndarray, sigma: np.ndarray) -> int:
    """Index of the best conservative rating mu - 3 sigma (first on ties)."""
    return int(np.argmax(mu - 3.0 * sigma))
